#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-all.sh: every efiperf test, one total. Run from anywhere (`make test` runs it).
#
#   1. build: make, make image; make ARCH=aarch64, make image ARCH=aarch64   one test per arch
#             (both must succeed, the image must hold what the README lists)
#   2. unit:  make unit    ("unit: N passed, N failed", N = cmocka cases)
#   3. fuzz:  make fuzz FUZZ_SECONDS=10   one test per "fuzz TARGET: ... N crashes"
#             line, or one test "fuzz-smoke" (its exit status) when it prints none
#   4. tools: the README's other commands, one test each: `make deps` (installs what is missing,
#             nothing when all is there), `make events` (must list events of
#             every platform), `make layering` (the include-direction check must pass), the README's
#             table of contents against its headings (tests/tools/readme_toc.py --check), `make stack`
#             (the static stack budget of both arches, tests/tools/stack_budget.py), and a
#             smoke run of `make bench` (one pair per row over 8 MB: must print its ratio table), a smoke run
#             of `make bench-collector` (8 machines: 0 records lost or duplicated on both databases), and the
#             oracle extractors the README names (tests/tools/*_extract.py): they read an upstream
#             checkout make test does not have, so each is started without one and must exit
#             non-zero with its usage line and no Python traceback (it imports and parses)
#   5. pytest: pytest from tests/ (tests/pytest.ini: testpaths, today the QEMU suite tests/qemu/),
#             -n auto (pytest-xdist: one worker per core), JUnit XML in build/test-results/
#             pytest.xml; its test cases are counted ("pytest: N passed, N failed"): a case that
#             failed, errored or was skipped counts as failed. No test collected (pytest exit
#             status 5) fails the stage.
#
# A stage that fails, or does not report its count, counts as failed and the next stage still
# runs. The last line is exactly "N passed, N failed"; the exit status is 1 when N failed > 0.
# Environment: RUN_ALL_STAGES="build unit fuzz tools pytest" selects stages; PYTEST_ARGS are passed
# to pytest (e.g. "-m x86_64", "-k cpu_model" or "-m 'not slow'"), PYTEST_JOBS replaces -n auto.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
stages=${RUN_ALL_STAGES:-build unit fuzz tools pytest}
JUNIT=build/test-results/pytest.xml
JOBS=$(nproc 2>/dev/null || echo 2)   # host builds of the unit and fuzz stages
passed=0 failed=0 notes=()
out=$(mktemp)
trap 'rm -f "$out"' EXIT
t_all=$(date +%s)

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); notes+=("$1"); echo "run-all: FAIL $1"; }
want() { case " $stages " in *" $1 "*) return 0 ;; esac; return 1; }

# run NAME CMD...: run a stage with its output shown and kept in $out; sets rc.
run() {
	local name=$1; shift
	echo "==== $name: $*"
	local t0; t0=$(date +%s)
	"$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	echo "==== $name: exit $rc, $(( $(date +%s) - t0 )) s"
}

# count LABEL RC: add the last "LABEL: N passed, N failed" line of $out to the totals.
count() {
	local label=$1 rc=$2 line p f
	line=$(grep -E "^$label: [0-9]+ passed, [0-9]+ failed$" "$out" | tail -n 1)
	if [ -z "$line" ]; then
		fail "$label: no '$label: N passed, N failed' line (exit status $rc)"
		return
	fi
	p=$(echo "$line" | sed -E 's/^[^:]*: ([0-9]+) passed, ([0-9]+) failed$/\1/')
	f=$(echo "$line" | sed -E 's/^[^:]*: ([0-9]+) passed, ([0-9]+) failed$/\2/')
	passed=$((passed + p)) failed=$((failed + f))
	[ "$f" = 0 ] || notes+=("$label: $f failed")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then fail "$label: exit status $rc although it reported 0 failed"; fi
}

# image_ok ARCH BOOTNAME: what the README says `make` and `make image` give: efiperf.efi a PE
# image ("MZ"), efiperf.img a FAT volume holding the loader, the config, the logs folder and
# startup.nsh (mdir -b -/ lists every path).
image_ok() {
	local b=build/$1 paths
	[ "$(head -c 2 "$b/efiperf.efi" 2>/dev/null)" = MZ ] || { echo "run-all: $b/efiperf.efi is not a PE image"; return 1; }
	paths=$(mdir -b -/ -i "$b/efiperf.img" ::/ 2>&1) || { echo "run-all: mdir $b/efiperf.img: $paths"; return 1; }
	for p in "::/EFI/BOOT/$2" ::/efiperf/efiperf.cfg ::/efiperf/logs/ ::/startup.nsh; do
		grep -qxF "$p" <<< "$paths" || { echo "run-all: $b/efiperf.img lacks $p"; return 1; }
	done
}

if want build; then
	for arch in x86_64 aarch64; do
		# the README's commands as written: `make` / `make ARCH=aarch64`, then `make image [ARCH=...]`
		args=(); boot=BOOTX64.EFI
		[ $arch = x86_64 ] || { args=(ARCH=$arch); boot=BOOTAA64.EFI; }
		run "build $arch" make --no-print-directory "${args[@]}"
		made=$rc
		run "image $arch" make --no-print-directory image ARCH=$arch
		if [ "$made" = 0 ] && [ "$rc" = 0 ] && image_ok $arch $boot; then pass
		else fail "build $arch: make ${args[*]} (exit $made), make image ARCH=$arch (exit $rc) or its image's layout"; fi
	done
fi

if want unit; then
	if [ -f tests/unit.mk ]; then
		run unit make -j"$JOBS" --no-print-directory unit
		count unit "$rc"
	else
		fail "unit: tests/unit.mk does not exist (host unit tests not written yet)"
	fi
fi

if want fuzz; then
	if [ -f tests/unit.mk ]; then
		run fuzz-smoke make -j"$JOBS" --no-print-directory fuzz FUZZ_SECONDS=10
		lines=$(grep -E '^fuzz [^ ]+: .*[0-9]+ crashes' "$out" || true)
		if [ -n "$lines" ]; then
			bad=0
			while IFS= read -r l; do
				t=$(echo "$l" | sed -E 's/^fuzz ([^:]+):.*/\1/')
				n=$(echo "$l" | sed -E 's/.* ([0-9]+) crashes.*/\1/')
				if [ "$n" = 0 ]; then pass; else fail "fuzz $t: $n crashes"; bad=1; fi
			done <<< "$lines"
			if [ "$rc" != 0 ] && [ $bad = 0 ]; then fail "fuzz-smoke: exit status $rc although no target crashed"; fi
		elif [ "$rc" = 0 ]; then pass
		else fail "fuzz-smoke: exit status $rc"
		fi
	else
		fail "fuzz-smoke: tests/unit.mk does not exist"
	fi
fi

if want tools; then
	run deps make --no-print-directory deps
	if [ "$rc" = 0 ]; then pass; else fail "make deps: exit status $rc"; fi
	run events make --no-print-directory events
	if [ "$rc" = 0 ] && grep -qE '^events: [1-9][0-9]* events of [1-9][0-9]* CHA platforms, [1-9][0-9]* AMD uncore events of [0-9]+ families, [1-9][0-9]* Intel IMC/IIO events of [1-9][0-9]* platforms, [1-9][0-9]* NVIDIA PMU events, [1-9][0-9]* Intel catalogue events' "$out"; then pass
	else fail "make events: exit status $rc or no 'events: N events of M CHA platforms, K AMD uncore events of F families, I Intel IMC/IIO events of P platforms, V NVIDIA PMU events, G Intel catalogue events' line"; fi
	run layering make --no-print-directory layering
	if [ "$rc" = 0 ] && grep -qE '^layering: 0 violation' "$out"; then pass
	else fail "make layering: exit status $rc (a violation, or the checker failed)"; fi
	run readme-toc "$PY" tests/tools/readme_toc.py --check README.md
	if [ "$rc" = 0 ]; then pass; else fail "README.md's table of contents is stale (tests/tools/readme_toc.py rewrites it)"; fi
	run stack make -j"$JOBS" --no-print-directory stack
	if [ "$rc" = 0 ] && [ "$(grep -cE '^stack (x86_64|aarch64): boot [0-9]+ bytes of [0-9]+, ap [0-9]+ bytes of [0-9]+ .*, 0 failures$' "$out")" = 2 ]; then pass
	else fail "make stack: exit status $rc, or no 'stack ARCH: boot N bytes of B, ap N bytes of B (...), E entries, 0 failures' line for both arches"; fi
	run bench-smoke make --no-print-directory bench BENCH_ARGS="--reps 1 --budget 0 --size 8000000 --min-time 0.1"
	if [ "$rc" = 0 ] && grep -qE '^triad +[a-z0-9_]+ ' "$out" && grep -qE '^kernel .* ratio +paired +95% interval +n +spread +verdict$' "$out" &&
		grep -qE '^goal: ([0-9]+ of [0-9]+ rows ahead of or within noise of likwid-bench|no verdict \(likwid-bench did not run\))' "$out"; then pass
	else fail "make bench (smoke): exit status $rc, or no triad row, no ratio/paired/interval/verdict head or no 'goal:' line"; fi
	run bench-collector-smoke make --no-print-directory bench-collector BENCH_COLLECTOR_ARGS="--machines 8 --concurrency 4"
	if [ "$rc" = 0 ] && [ "$(grep -cE '^(sqlite|postgresql) +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +0 +0$' "$out")" = 2 ]; then pass
	else fail "make bench-collector (smoke): exit status $rc, or no sqlite and postgresql rows with 0 lost and 0 duplicated"; fi
	run extractors bash -c 'for t in tests/tools/*_extract.py; do echo "== $t"; "$0" "$t"; echo "exit $?"; done' "$PY"
	bad=$(awk '/^== /{t=$2; u=0; tb=0; next} /[Uu]sage/{u=1} /^Traceback/{tb=1} /^exit /{if ($2 == 0 || !u || tb) print t}' "$out")
	if [ "$rc" = 0 ] && grep -q '^== ' "$out" && [ -z "$bad" ]; then pass
	else fail "oracle extractors (usage smoke): $(echo $bad) exit 0, printed no usage or a traceback"; fi
fi

# pytest from tests/, where pytest.ini names what to collect.
pytest_stage() {
	mkdir -p "$(dirname "$JUNIT")"
	rm -f "$JUNIT"
	(cd tests && eval "set -- ${PYTEST_ARGS:-}" && exec "$PY" -m pytest -n "${PYTEST_JOBS:-auto}" --junitxml="../$JUNIT" "$@")
}

# junit_count XML: "pytest: N passed, N failed" from the test cases of a JUnit XML file.
junit_count() {
	"$PY" - "$1" <<-'EOF'
	import sys
	import xml.etree.ElementTree as ET
	try:
	    root = ET.parse(sys.argv[1]).getroot()
	except (OSError, ET.ParseError) as e:
	    sys.exit("pytest: no JUnit XML: %s" % e)
	passed = failed = skipped = 0
	for case in root.iter("testcase"):
	    bad = [k.tag for k in case if k.tag in ("failure", "error", "skipped")]
	    if bad:
	        failed += 1
	        skipped += bad == ["skipped"]
	    else:
	        passed += 1
	if skipped:
	    print("pytest: %d skipped test(s) counted as failed" % skipped)
	print("pytest: %d passed, %d failed" % (passed, failed))
	EOF
}

if want pytest; then
	run pytest pytest_stage
	if [ "$rc" = 5 ]; then
		fail "pytest: no tests collected (exit status 5)"
	else
		junit_count "$JUNIT" 2>&1 | tee -a "$out"
		count pytest "$rc"
	fi
fi

echo "==== run-all: $(( $(date +%s) - t_all )) s"
for n in "${notes[@]}"; do echo "run-all: failed: $n"; done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
