# SPDX-License-Identifier: BSD-2-Clause
# Host tests of efiperf's pure code. Run from the repository root as `make unit` / `make fuzz`,
# or directly:
#
#   make -C tests -f unit.mk run          every tests/unit/test_*.c as its own cmocka binary,
#                                         ends with "unit: N passed, N failed" (N = test cases)
#   make -C tests -f unit.mk fuzz [FUZZ_SECONDS=60]   each libFuzzer target for N seconds
#   make -C tests -f unit.mk fuzz-smoke   each libFuzzer target for 10 seconds
#   make -C tests -f unit.mk fuzz-long [FUZZ_RUNS=10000000] [FUZZ_LONG_SECONDS=3600] [FUZZ_ONLY="fuzz_x ..."]
#                                         each target (under nice -n 15, one at a time) until
#                                         FUZZ_RUNS executions or FUZZ_LONG_SECONDS; adds its count
#                                         to fuzz/executions.txt and minimizes fuzz/corpus/<t>
#                                         with -set_cover_merge=1, -merge=1 with a greedy set cover (both committed)
#
# Every test binary links ALL pure sources (PURE_SRC), so a new pure file or test needs no
# change here: pure files are pmu/*.c, arch/*.c, tests/model/*.c, the pure efi/ files and
# arch/<arch>/*_pure.c. EXTRA_SRC adds sources from outside the repository for local runs
# (e.g. stubs of a PMU another engineer has not committed yet); never commit such stubs.

B        := ../build/host
HOST_CC  := gcc
FUZZ_CC  := clang
EXTRA_SRC ?=

# Pure efi/ files are the ones that include neither <efi.h> nor arch/arch.h (the firmware glue
# and the code around the CPU primitives do).
EFI_PURE  := $(shell grep -L -e '^\#include <efi' -e '^\#include "arch/arch.h"' ../efi/*.c ../efi/*/*.c)
PURE_SRC  := $(wildcard ../pmu/*.c ../pmu/*/*.c) $(wildcard ../arch/*.c ../arch/lib/*.c) $(wildcard ../tests/model/*.c) \
             $(EFI_PURE) $(wildcard ../arch/x86_64/*_pure.c ../arch/aarch64/*_pure.c)
PURE_OBJ  := $(patsubst ../%.c,$(B)/obj/%.o,$(PURE_SRC))
TESTS     := $(patsubst unit/%.c,$(B)/%,$(wildcard unit/test_*.c))

SAN       := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CFLAGS    := -std=gnu11 -Wall -Wextra -Werror -g -O1 $(SAN) -I..
# Sanitizer findings fail the binary; cmocka writes its report to stdout.
RUN_ENV   := ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
             CMOCKA_MESSAGE_OUTPUT=STDOUT

.PHONY: all run fuzz fuzz-smoke fuzz-long fuzz-build clean
.SECONDARY:          # objects are shared by every test binary: never delete them as intermediates
.DELETE_ON_ERROR:
all: $(TESTS)

$(B)/obj/%.o: ../%.c
	@mkdir -p $(dir $@)
	$(HOST_CC) $(CFLAGS) -MMD -MP -c $< -o $@

# Extra libraries of one test: LIBS_test_<name> (e.g. an outside oracle library).
LIBS_test_cha_pfm := -lpfm
LIBS_test_core_pfm := -lpfm

# Test helpers some tests share (tests/unit/*.c that are not tests: they call cmocka, so they are
# not pure sources): HELPERS_test_<name> lists the objects one test links.
PERFMON_ORACLE := $(B)/obj/tests/unit/perfmon_oracle.o
HELPERS_test_cha_perfmon := $(PERFMON_ORACLE)
HELPERS_test_intel_uncore_oracle := $(PERFMON_ORACLE)
HELPERS_test_core_perfmon := $(PERFMON_ORACLE)
$(B)/test_cha_perfmon $(B)/test_intel_uncore_oracle $(B)/test_core_perfmon: $(PERFMON_ORACLE)
-include $(PERFMON_ORACLE:.o=.d)
LINUX_MAPFILE := $(B)/obj/tests/unit/linux_mapfile.o
HELPERS_test_load_source_oracle := $(LINUX_MAPFILE)
HELPERS_test_amd_uncore_oracle := $(LINUX_MAPFILE)
HELPERS_test_core_pfm := $(LINUX_MAPFILE)
HELPERS_test_core_linux_zen5 := $(LINUX_MAPFILE)
HELPERS_test_amd_pipeline := $(LINUX_MAPFILE)
$(B)/test_load_source_oracle $(B)/test_amd_uncore_oracle $(B)/test_core_pfm $(B)/test_core_linux_zen5 $(B)/test_amd_pipeline: $(LINUX_MAPFILE)
-include $(LINUX_MAPFILE:.o=.d)
# make bench's verdict rule (tests/bench/verdict.c): host-only, so not among the pure sources.
BENCH_VERDICT := $(B)/obj/tests/bench/verdict.o
HELPERS_test_bench_verdict := $(BENCH_VERDICT)
$(B)/test_bench_verdict: $(BENCH_VERDICT)
-include $(BENCH_VERDICT:.o=.d)

$(B)/test_%: unit/test_%.c $(PURE_OBJ) $(EXTRA_SRC)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(CFLAGS) -MMD -MP $< $(PURE_OBJ) $(HELPERS_test_$*) $(EXTRA_SRC) -lcmocka $(LIBS_test_$*) -o $@

-include $(PURE_OBJ:.o=.d) $(TESTS:=.d)

# AML the tests read, compiled from tests/aml/*.asl by iasl (Debian acpica-tools, `make deps`).
$(B)/aml/%.aml: aml/%.asl
	@mkdir -p $(dir $@)
	iasl -p $(basename $@) $< >$@.log 2>&1 || { cat $@.log; exit 1; }
$(B)/test_aml: $(B)/aml/nv_pmu_ssdt.aml

# The AML reader over whole tables, under the sanitizers (tests/tools/test_aml_real.py runs it on
# the real machines' tables of tests/aml/real/ and compares it with iasl -d).
$(B)/aml_dump: tools/aml_dump.c $(PURE_OBJ)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(CFLAGS) -MMD -MP $< $(PURE_OBJ) -o $@
-include $(B)/aml_dump.d
$(B)/test_apmt_companion: $(B)/aml/cspmu_companion_ssdt.aml

# Builds and runs each test binary on its own, so one that fails to build or crashes does not
# hide the others. Counting reads stdout alone: cmocka's progress lines are there, its failure
# details and sanitizer reports go to stderr, kept in a file of their own so that no progress
# line is ever split by them. A binary announces "Running N test(s)"; each passing case prints
# "[       OK ]" and each skipped one "[  SKIPPED ]"; every other announced case (a failure, or a
# crash before the case finished) is failed. A binary that does not build counts as one failed
# case, as does one that exits non-zero after all its cases passed (e.g. a leak at exit).
run:
	@mkdir -p $(B)
	@passed=0; failed=0; \
	for t in $(TESTS); do \
		name=$$(basename $$t); \
		if ! $(MAKE) --no-print-directory -f unit.mk $$t >$$t.build.log 2>&1; then \
			cat $$t.build.log; echo "FAILED: $$name did not build"; failed=$$((failed + 1)); continue; \
		fi; \
		$(RUN_ENV) $$t >$$t.log 2>$$t.err; rc=$$?; cat $$t.log $$t.err; \
		total=$$(sed -n 's/^\[==========\] Running \([0-9][0-9]*\) test(s)\./\1/p' $$t.log | awk '{s += $$1} END {print s + 0}'); \
		ok=$$(grep -c '^\[       OK \]' $$t.log); \
		skip=$$(grep -c '^\[  SKIPPED \]' $$t.log); \
		bad=$$((total - ok - skip)); \
		if [ $$rc -ne 0 ] && [ $$bad -eq 0 ]; then \
			echo "FAILED: $$name exited with status $$rc after its cases passed"; bad=1; \
		fi; \
		passed=$$((passed + ok)); failed=$$((failed + bad)); \
	done; \
	echo "unit: $$passed passed, $$failed failed"; \
	[ $$failed -eq 0 ]

# ---- libFuzzer ------------------------------------------------------------------------------
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := $(patsubst fuzz/%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BINS    := $(addprefix $(B)/fuzz/,$(FUZZ_TARGETS))
FUZZ_CFLAGS  := -std=gnu11 -Wall -Wextra -Werror -g -O1 -I.. \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined

fuzz-build: $(FUZZ_BINS)

# Every pure source is compiled once with the fuzzer's flags into one archive; each target links
# it, so the linker takes only the members the target reaches (a new pure file needs no change).
comma := ,
FUZZ_OBJ := $(patsubst ../%.c,$(B)/fuzz/obj/%.o,$(PURE_SRC))
FUZZ_OBJ_CFLAGS := $(subst fuzzer$(comma),fuzzer-no-link$(comma),$(FUZZ_CFLAGS))
# The vector memory kernels are linked (the config's `kernel` key names them) but never fuzzed;
# under the sanitizers clang takes minutes per file on their unrolled intrinsics, so they are
# built plain.
FUZZ_PLAIN := $(patsubst ../%.c,$(B)/fuzz/obj/%.o,$(wildcard ../arch/x86_64/kernel_*_pure.c ../arch/aarch64/kernel_*_pure.c))
$(FUZZ_PLAIN): FUZZ_OBJ_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -g -O1 -I..
$(B)/fuzz/obj/%.o: ../%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_OBJ_CFLAGS) -MMD -MP -c $< -o $@
$(B)/fuzz/libpure.a: $(FUZZ_OBJ)
	@rm -f $@
	ar rcs $@ $^
-include $(FUZZ_OBJ:.o=.d)

$(B)/fuzz/fuzz_%: fuzz/fuzz_%.c $(B)/fuzz/libpure.a
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $< $(B)/fuzz/libpure.a -o $@

# Cumulative executions per target, committed: `target count` lines, written by fuzz-long.
FUZZ_COUNTS := fuzz/executions.txt
# The last "Done N runs" of a libFuzzer log, else the last "#N ... exec/s" status line.
FUZZ_RUNS_OF = runs=$$(sed -n 's/^Done \([0-9][0-9]*\) runs.*/\1/p' $(1) | tail -n 1); \
	[ -n "$$runs" ] || runs=$$(sed -n 's/.*\#\([0-9][0-9]*\).*exec\/s.*/\1/p' $(1) | tail -n 1); \
	runs=$${runs:-0}; cum=$$(awk -v t=$$t '$$1 == t { print $$2 }' $(FUZZ_COUNTS) 2>/dev/null); cum=$${cum:-0}

# Each target runs FUZZ_SECONDS on a working corpus under build/ seeded from fuzz/corpus/<t>/
# (the seeds in the repository are never written). Crashes = artifacts libFuzzer wrote. Each line
# also gives the cumulative executions fuzz/executions.txt records for the target (fuzz-long runs).
# fuzz_aml first replays every real machine's table of aml/real/ (kept there xz-compressed),
# whole, behind a 0x01 flags byte: one run each, under the fuzzer's sanitizers; a crash there
# fails the target. The tables then join the working corpus, which libFuzzer reads cut to
# FUZZ_AML_MAX_LEN bytes (the flags byte makes each cut a table of that length): real AML to
# mutate, at the speed of small inputs.
FUZZ_AML_MAX_LEN := 65536
FUZZ_SEED_AML = replay=$(B)/fuzz/replay/$$t; mkdir -p $$replay; \
	for f in aml/real/*.dat.xz; do { printf '\001'; xz -dc $$f; } >$$replay/$$(basename $$f .dat.xz) || exit 1; done; \
	if ! $(B)/fuzz/$$t $$replay/* >$(B)/fuzz/$$t.replay.log 2>&1; then \
		echo "fuzz $$t: replay of aml/real/, 1 crashes (log $(B)/fuzz/$$t.replay.log)"; tail -n 40 $(B)/fuzz/$$t.replay.log; crashed=1; \
	else echo "fuzz $$t: replayed $$(ls $$replay | wc -l) real tables of aml/real/, 0 crashes"; fi; \
	cp $$replay/* $$work/; extra=-max_len=$(FUZZ_AML_MAX_LEN)

fuzz: $(FUZZ_BINS)
	@crashed=0; \
	for t in $(FUZZ_TARGETS); do \
		work=$(B)/fuzz/corpus/$$t; art=$(B)/fuzz/artifacts/$$t; \
		mkdir -p $$work $$art; rm -f $$art/*; \
		extra=; case $$t in fuzz_aml) $(FUZZ_SEED_AML) ;; esac; \
		$(B)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$$art/ $$extra \
			$$work fuzz/corpus/$$t >$(B)/fuzz/$$t.log 2>&1; rc=$$?; \
		$(call FUZZ_RUNS_OF,$(B)/fuzz/$$t.log); \
		crashes=$$(ls $$art | wc -l); \
		if [ $$rc -ne 0 ] && [ $$crashes -eq 0 ]; then crashes=1; fi; \
		echo "fuzz $$t: $$runs executions, $$crashes crashes ($(FUZZ_SECONDS) s, log $(B)/fuzz/$$t.log); cumulative $$cum recorded"; \
		if [ $$crashes -ne 0 ]; then tail -n 40 $(B)/fuzz/$$t.log; ls $$art; crashed=1; fi; \
	done; \
	[ $$crashed -eq 0 ]

# Long runs, one target at a time at low priority (the machine is shared). A target whose run
# crashed is not counted; its artifact is left under $(B)/fuzz/artifacts/<t> and make fails.
FUZZ_RUNS ?= 10000000
FUZZ_LONG_SECONDS ?= 3600
FUZZ_ONLY ?= $(FUZZ_TARGETS)
# The committed corpus of a target keeps the set cover's smallest inputs up to this many bytes.
FUZZ_CORPUS_BYTES ?= 1048576
fuzz-long: $(FUZZ_BINS)
	@crashed=0; touch $(FUZZ_COUNTS); \
	for t in $(FUZZ_ONLY); do \
		work=$(B)/fuzz/corpus/$$t; art=$(B)/fuzz/artifacts/$$t; min=$(B)/fuzz/min/$$t; \
		mkdir -p $$work $$art; rm -f $$art/*; rm -rf $$min; mkdir -p $$min; \
		nice -n 15 $(B)/fuzz/$$t -runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_LONG_SECONDS) \
			-artifact_prefix=$$art/ $$work fuzz/corpus/$$t >$(B)/fuzz/$$t.long.log 2>&1; rc=$$?; \
		$(call FUZZ_RUNS_OF,$(B)/fuzz/$$t.long.log); \
		crashes=$$(ls $$art | wc -l); \
		if [ $$rc -ne 0 ] && [ $$crashes -eq 0 ]; then crashes=1; fi; \
		if [ $$crashes -ne 0 ]; then \
			echo "fuzz-long $$t: $$crashes crashes after $$runs executions (log $(B)/fuzz/$$t.long.log)"; \
			tail -n 40 $(B)/fuzz/$$t.long.log; ls $$art; crashed=1; continue; \
		fi; \
		cum=$$((cum + runs)); \
		awk -v t=$$t -v n=$$cum 'BEGIN { done = 0 } $$1 == t { print t, n; done = 1; next } { print } \
			END { if (!done) print t, n }' $(FUZZ_COUNTS) | sort >$(FUZZ_COUNTS).new && \
			mv $(FUZZ_COUNTS).new $(FUZZ_COUNTS); \
		nice -n 15 $(B)/fuzz/$$t -set_cover_merge=1 $$min fuzz/corpus/$$t $$work >$(B)/fuzz/$$t.merge.log 2>&1 && \
			rm -f fuzz/corpus/$$t/* && total=0 && for f in $$(ls -Sr $$min); do \
				sz=$$(stat -c %s $$min/$$f); \
				if [ $$total -gt 0 ] && [ $$((total + sz)) -gt $(FUZZ_CORPUS_BYTES) ]; then break; fi; \
				cp $$min/$$f fuzz/corpus/$$t/; total=$$((total + sz)); \
			done; \
		echo "fuzz-long $$t: $$runs executions, 0 crashes; cumulative $$cum; corpus $$(ls fuzz/corpus/$$t | wc -l) files"; \
	done; \
	[ $$crashed -eq 0 ]

fuzz-smoke:
	@$(MAKE) --no-print-directory -f unit.mk fuzz FUZZ_SECONDS=10

clean:
	rm -rf $(B)
