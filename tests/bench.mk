# SPDX-License-Identifier: BSD-2-Clause
# make bench: efiperf's memory kernels next to likwid-bench on this machine (Linux user space).
# Run from the repository root as `make bench`, or directly:
#
#   make -C tests -f bench.mk run [BENCH_ARGS="--levels L1,L2 --budget 60 --width 0.02"]
#
# Builds the kernel sources the UEFI app links (arch/kernel*.c, arch/<arch>/kernel_*_pure.c)
# with the app's optimisation flags, installs Debian's likwid when likwid-bench is missing,
# and prints one table: kernel, our MB/s, likwid MB/s, ratio, the paired ratios' median, its 95%
# interval and the row's verdict (ahead, behind, within noise: bench/verdict.h); then the same per
# cache level (likwid-bench -w S0:<size>:1), the host pointer chase per level and the host c2c
# matrix. --levels picks the tables (L1, L2, L3, mem = the --size table, also spelt 1GB). A
# benchmark, not a test: the run target never fails on a ratio (only when the bench cannot be built).

B          := ../build/host/bench
HOST_CC    := gcc
BENCH_ARGS ?=
KERNEL_SRC := bench/verdict.c ../arch/kernel.c ../arch/kernel_ref.c ../arch/kernel_chase.c ../arch/c2c.c ../arch/kernel_tune.c \
              $(wildcard ../arch/x86_64/kernel_*_pure.c ../arch/aarch64/kernel_*_pure.c)
# The app's code-generation flags (Makefile COMMON_CFLAGS) minus the firmware-only ones.
CFLAGS     := -std=gnu11 -O2 -g -Wall -Wextra -Werror -fno-strict-aliasing -I..

.PHONY: all run likwid clean
all: $(B)/bench

$(B)/bench: bench/bench.c bench/verdict.h $(KERNEL_SRC) $(wildcard ../arch/*.h ../arch/*/kernel_*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(CFLAGS) bench/bench.c $(KERNEL_SRC) -lpthread -o $@

likwid:
	@command -v likwid-bench >/dev/null || { \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq likwid || \
		{ $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq likwid; } || \
		echo "bench: could not install likwid: the likwid column stays empty"; }

run: $(B)/bench likwid
	@$(B)/bench $(BENCH_ARGS) || true

clean:
	rm -rf $(B)
