/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * make bench: efiperf's memory kernels (the same sources as the UEFI app, built for Linux user
 * space) next to likwid-bench, in pairs of alternating runs, one table per working set, and a
 * verdict per row. A benchmark, not a test: it exits 0 whatever the ratios are.
 *
 * A row's verdict (tests/bench/verdict.h) comes from the ratios of its pairs, ours / likwid's,
 * each pair's two runs seconds apart: the distribution-free 95% interval of their median from
 * order statistics; "ahead" when the interval is above 1.00, "behind" when it is below, "within
 * noise" when it holds 1.00. A row adds pairs (at least --reps, default 6: the fewest that give a
 * 95% interval) until the interval is narrower than --width of the median (default 0.02) or
 * --budget seconds (default 60) have passed or --max-reps (30) pairs are made. --levels L1,L2,
 * L3,mem (default all; mem, also spelt 1GB, is the --size table) picks the tables to run.
 *
 * Both sides are accounted the same way (arch/kernel.h): likwid-bench's MByte/s is
 * iterations x (bytes of all streams) / time / 10^6, which is ours: app_bytes / time. The
 * working set is likwid's `-W N:<size>:1`: <size> bytes (10^9 for 1GB) split over the kernel's
 * streams, one thread on hwthread 0 (where likwid-bench puts it), 4 KiB pages on both sides
 * (likwid-bench does not madvise huge pages; this program does not either), fresh buffers for
 * every run on both sides. Each run repeats its kernel until at least --min-time seconds have
 * passed, as likwid-bench does (-s 1); a timed pass of ours is at least KERNEL_PASS_BYTES of calls.
 *
 * likwid's kernel is picked as ours is, once per row before the runs: each of its candidates
 * for the kind (its AVX kernel, load_avx, ...; on a CPU with AVX-512 its AVX-512 kernel; for the
 * triad its FMA kernels too) runs once, and the fastest serves all the runs: likwid at its best,
 * as our tuner is, and one sample a run on each side (the faster of two likwid kernels in every
 * run would be a best-of-two sample against our one, a bias of its own). The runs alternate and
 * so does which side goes first. Each row gives both medians, their ratio, the
 * median of the pairs' own ratios ("paired": the two sides of a pair are seconds apart, so a
 * slow spell of a shared machine falls on both), its 95% interval, the pairs made, likwid's
 * spread over the runs (its fastest over its slowest, minus one: how steady the machine was)
 * and the verdict; a `goal:` line after the last table counts the verdicts of all rows.
 *
 * Then, per cache level Linux reports for CPU 0 (/sys/devices/system/cpu/cpu0/cache: what the
 * kernel read from CPUID leaf 4 / 0x8000001D or the Arm cache ID registers), the same kernels at
 * a working set of half the level, next to likwid-bench -w S0:<size>:1 (one thread on socket 0's
 * first hwthread), with the ratio per kernel and level; the host-built pointer chase (the
 * efiperf chase kernel, 64-byte lines) per level; and the host core-to-core matrix (efiperf's
 * CAS ping-pong, arch/c2c.c, one thread pinned per CPU, up to 8 CPUs). Debian ships neither Intel
 * MLC nor lmbench: the chase and c2c figures stand alone, without a reference column.
 *
 * Which of our variants runs is the tuner's choice (arch/kernel_tune.h), the same tuner the UEFI
 * app runs: every variant over a probe footprint of twice the last-level cache in 8 slices taken
 * in turn, --tune-budget seconds of this thread's CPU time for all kinds together (default 1),
 * printed before the table with every candidate's rate; --variant NAME pins one variant of its
 * kind, --isa restricts the candidates to one ISA.
 *
 * The write limit: what the machine's best write-only kernel sustains, as the table's rows are
 * measured. Every store and ntstore variant of ours and likwid-bench's store_mem_avx,
 * store_mem_avx512, store_avx512 and store_mem_sse run once; the three fastest then run --reps
 * fresh times each, in turn, and the limit is the highest of their medians (write_limit() says
 * why not the highest single run). It is printed after the table. A non-temporal kernel whose
 * ratio to likwid is below 1 but whose own median is within 2% of that limit says so.
 *
 * Our triad is STREAM's a = b + s*c (3 streams); likwid calls that kernel "stream"
 * (stream_avx: "A(i) = B(i)*c + C(i)"). likwid's "triad" (triad_avx) is A = B*C + D over 4
 * streams, another kernel: it is shown for reference only, without a ratio.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>
#include "arch/kernel.h"
#include "arch/c2c.h"
#include "arch/kernel_tune.h"
#include "tests/bench/verdict.h"

/* Our kind and likwid-bench's candidate kernels for it (likwid-bench -a): the AVX ones, and the
 * AVX-512 ones (a name with "avx512"), which run only when the CPU offers AVX-512. */
#define LIKWID_CANDS 4
struct pair { enum kernel_kind kind; const char *likwid[LIKWID_CANDS]; };
static const struct pair pairs[] = {
	{ KERNEL_LOAD, { "load_avx", "load_avx512" } },
	{ KERNEL_STORE, { "store_avx", "store_avx512" } },
	{ KERNEL_NTSTORE, { "store_mem_avx", "store_mem_avx512" } },
	{ KERNEL_COPY, { "copy_avx", "copy_avx512" } },
	{ KERNEL_NTCOPY, { "copy_mem_avx", "copy_mem_avx512" } },
	{ KERNEL_TRIAD, { "stream_avx", "stream_avx_fma", "stream_avx512", "stream_avx512_fma" } },
};

/* --levels bits: bit 0 the --size table ("mem", also spelt "1GB"), bit n cache level n. */
#define LEVEL_MEM 1u
#define LEVELS_ALL 0xFFu

static struct {
	int reps, max_reps;
	double min_time;
	uint64_t size;
	const char *isa, *likwid, *only, *variant;
	int triad4, write_limit;
	double tune_budget, budget, width;
	uint32_t levels;
} opt = { 6, 30, 1.0, 1000000000ull, NULL, "likwid-bench", NULL, NULL, 1, 1, 1.0, 60.0, 0.02, LEVELS_ALL };

/* A timed pass of ours is at least KERNEL_PASS_BYTES of kernel calls (struct kernel_run's
 * reps): a working set inside L1 is a ~100 ns call, and a clock read per call would be a fifth
 * of it. likwid-bench times its whole iteration loop once. The runs' clock (CLOCK_MONOTONIC_RAW,
 * vDSO) read 32 ns a call on the Emerald Rapids KVM guest, 0.13% of an 8 MiB pass at L1's
 * ~350 GB/s; the tuner's (CLOCK_THREAD_CPUTIME_ID, a system call) 271 ns, 1.1% of it: the
 * per-level tuner's passes are four times longer, 0.3%. */
#define TUNE_SLICES 8
#define TUNE_LEVEL_PASS_BYTES (4 * KERNEL_PASS_BYTES)

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Wall time, as likwid-bench times its runs. */
static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC_RAW);
}

/* The tuner's clock: this thread's CPU time (POSIX clock_gettime CLOCK_THREAD_CPUTIME_ID), so a
 * pass during which Linux ran another task on CPU 0 is not charged for that task's time (the
 * UEFI app tunes with interrupts masked, where nothing else runs). */
static uint64_t tune_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The working set as likwid-bench spells it: 1GB is 10^9 bytes (its "Size (Byte)" line). */
static const char *size_arg(void)
{
	static char buf[40];
	static const struct { uint64_t unit; const char *name; } units[] = {
		{ 1000000000ull, "GB" }, { 1000000ull, "MB" }, { 1000ull, "kB" }, { 1, "B" },
	};
	for (int i = 0; i < 4; i++)
		if (opt.size % units[i].unit == 0) {
			snprintf(buf, sizeof(buf), "%llu%s", (unsigned long long)(opt.size / units[i].unit), units[i].name);
			break;
		}
	return buf;
}

/* One likwid-bench run with workgroup `wg` (-W N:<size>:1 or -w S0:<size>:1); its "MByte/s:"
 * line, or -1 when it did not run or its timed loop (its "Time:" line) lasted less than half of
 * --min-time. likwid-bench sizes its iterations from a calibration; on a busy host that can end
 * with a loop of microseconds (at -s 0.1 on the Emerald Rapids guest, load average 18: 10
 * iterations of 24 KiB, 1.5 us, 160 GB/s, while its 1 s runs gave 12-14 GB/s), a sample no
 * preemption could touch, set against our run of the whole --min-time: not a comparable pair. */
static double likwid_wg(const char *test, const char *wg)
{
	char cmd[512], line[512];
	snprintf(cmd, sizeof(cmd), "%s -t %s %s -s %g 2>&1", opt.likwid, test, wg, opt.min_time);
	FILE *f = popen(cmd, "r");
	if (!f)
		return -1;
	double mbs = -1, secs = -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "MByte/s:", 8) == 0)
			mbs = strtod(line + 8, NULL);
		else if (strncmp(line, "Time:", 5) == 0)
			secs = strtod(line + 5, NULL);
	}
	if (pclose(f) != 0)
		mbs = -1;
	if (mbs > 0 && secs >= 0 && secs < opt.min_time / 2) {
		fprintf(stderr, "  likwid %s: its timed loop lasted %.3g s, under half of --min-time %g s: not a sample\n",
			test, secs, opt.min_time);
		mbs = -1;
	}
	return mbs;
}

static double likwid_run(const char *test)
{
	char wg[64];
	snprintf(wg, sizeof(wg), "-W N:%s:1", size_arg());
	return likwid_wg(test, wg);
}

static void *alloc_touch(uint64_t bytes, unsigned char fill)
{
	void *p = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
	if (p)
		memset(p, fill, bytes);
	return p;
}

/* One run of ours, on buffers of its own as each likwid-bench run has (first touched here, by
 * the pinned thread): a pass to size the run, then enough passes for min_time; each pass is
 * KERNEL_PASS_BYTES / (bytes of one call) calls (one for the DRAM working set). */
static double our_run(const struct kernel_desc *k, uint64_t bytes)
{
	void *a = k->kind != KERNEL_LOAD ? alloc_touch(bytes, 0) : NULL;
	void *b = k->kind != KERNEL_STORE && k->kind != KERNEL_NTSTORE ? alloc_touch(bytes, 0x3f) : NULL;
	void *c = k->kind == KERNEL_TRIAD ? alloc_touch(bytes, 0x3f) : NULL;   /* 0x3f3f..: ~0.49 */
	struct kernel_run r = { .k = k, .a = a, .b = b, .c = c, .bytes = bytes, .scalar = 3.0, .passes = 1,
				.reps = kernel_calls_per_pass(kernel_app_bytes(k->kind, bytes), KERNEL_PASS_BYTES),
				.timer = now_ns };
	double mbs = -1;
	kernel_run(&r);
	if (r.status == 0) {
		uint64_t want = (uint64_t)(opt.min_time * 1e9);
		r.passes = (uint32_t)(want / (r.ticks_total ? r.ticks_total : 1) + 1);
		if (r.passes < 2)
			r.passes = 2;
		kernel_run(&r);
		if (r.status == 0 && r.ticks_total)
			mbs = (double)r.app_bytes / (double)r.ticks_total * 1e3;   /* bytes/ns x 1e3 = MB/s */
	}
	free(a);
	free(b);
	free(c);
	return mbs;
}

/* likwid's kernel for one row: each candidate of `pr` (the AVX-512 ones only when `wide`) runs
 * once with workgroup `wg`; the fastest, or NULL when none ran. Out: its rate in that run. */
static const char *likwid_pick(const struct pair *pr, const char *wg, int wide)
{
	const char *best = NULL;
	double best_mbs = 0;
	for (int i = 0; i < LIKWID_CANDS && pr->likwid[i]; i++) {
		if (!wide && strstr(pr->likwid[i], "avx512"))
			continue;
		double mbs = likwid_wg(pr->likwid[i], wg);
		fprintf(stderr, "  likwid pick: %s %.0f MB/s\n", pr->likwid[i], mbs);
		if (mbs > best_mbs)
			best_mbs = mbs, best = pr->likwid[i];
	}
	return best;
}

/* One comparison: likwid's kernel picked (likwid_pick), then pairs of one run of ours and one
 * of that kernel with workgroup `wg` (tests/bench/verdict.h: bench_row_run), likwid first in
 * pairs 1, 3, 5 ..., ours first in 2, 4, ... (an order effect, the run after the other side's
 * exit, falls on both sides equally), until the paired ratios' 95% interval is narrower than
 * --width or the row's --budget is spent. Out: both medians, the ratio of the medians, the
 * row (paired ratios, their interval and the verdict), likwid's spread (its fastest run over
 * its slowest, minus one: the machine's own noise) and likwid's kernel. */
struct cmp_ctx { const struct kernel_desc *k; uint64_t bytes; const char *lk, *wg; };
static double cmp_ours(void *p)
{
	const struct cmp_ctx *x = p;
	double mbs = our_run(x->k, x->bytes);
	fprintf(stderr, "  %s: ours %.0f MB/s\n", x->k->name, mbs);
	return mbs;
}
static double cmp_theirs(void *p)
{
	const struct cmp_ctx *x = p;
	double mbs = x->lk ? likwid_wg(x->lk, x->wg) : -1;
	fprintf(stderr, "  %s: likwid %s %.0f MB/s\n", x->k->name, x->lk ? x->lk : "-", mbs);
	return mbs;
}
static double cmp_clock(void *p)
{
	(void)p;
	return (double)now_ns() / 1e9;
}

struct cmp { double ours, theirs, ratio, spread; const char *likwid; struct bench_row row; };
static void compare(struct cmp *c, const struct kernel_desc *k, uint64_t bytes, const struct pair *pr, const char *wg,
		    int have_likwid, int wide)
{
	const char *lk = have_likwid ? likwid_pick(pr, wg, wide) : NULL;
	struct cmp_ctx x = { k, bytes, lk, wg };
	memset(c, 0, sizeof(*c));
	c->ratio = c->spread = -1;
	c->likwid = lk ? lk : pr->likwid[0];
	if (!lk) {   /* ours alone: min_pairs runs, no ratio */
		double v[BENCH_MAX_PAIRS];
		int n = 0;
		for (int r = 0; r < opt.reps; r++)
			if ((v[n] = cmp_ours(&x)) > 0)
				n++;
		c->ours = n ? median(v, n) : -1;
		return;
	}
	c->row = (struct bench_row){ .ours = cmp_ours, .theirs = cmp_theirs, .clock_s = cmp_clock, .ctx = &x,
				     .min_pairs = opt.reps, .max_pairs = opt.max_reps, .width = opt.width,
				     .budget_s = opt.budget };
	bench_row_run(&c->row);
	const int n = c->row.n;
	if (!n)
		return;
	double o[BENCH_MAX_PAIRS], t[BENCH_MAX_PAIRS], lo = c->row.their_mbs[0], hi = lo;
	memcpy(o, c->row.our_mbs, sizeof(o[0]) * (size_t)n);
	memcpy(t, c->row.their_mbs, sizeof(t[0]) * (size_t)n);
	for (int i = 0; i < n; i++) {
		lo = t[i] < lo ? t[i] : lo;
		hi = t[i] > hi ? t[i] : hi;
	}
	c->ours = median(o, n);
	c->theirs = median(t, n);
	c->ratio = c->ours / c->theirs;
	c->spread = hi / lo - 1;
}

/* The columns of one comparison (NULL: their heads): our and likwid's medians, the ratio of
 * the medians, the median of the pairs' own ratios, its 95% interval, the pairs, likwid's
 * spread and the verdict. */
static void print_cmp(const struct cmp *c)
{
	if (!c)
		printf(" %12s %12s %7s %7s %15s %3s %7s  %s\n", "our MB/s", "likwid MB/s", "ratio", "paired", "95% interval",
		       "n", "spread", "verdict");
	else if (c->ratio < 0)
		printf(" %12.0f %12s %7s %7s %15s %3s %7s  %s\n", c->ours, "-", "-", "-", "-", "-", "-", "-");
	else if (!c->row.ci.k)
		printf(" %12.0f %12.0f %7.3f %7.3f %15s %3d %6.1f%%  %s\n", c->ours, c->theirs, c->ratio, c->row.ci.median,
		       "-", c->row.n, 100 * c->spread, bench_verdict_name(c->row.verdict));
	else
		printf(" %12.0f %12.0f %7.3f %7.3f   [%5.3f,%5.3f] %3d %6.1f%%  %s\n", c->ours, c->theirs, c->ratio,
		       c->row.ci.median, c->row.ci.lo, c->row.ci.hi, c->row.n, 100 * c->spread,
		       bench_verdict_name(c->row.verdict));
	fflush(stdout);
}

/* Every row's verdict, for the goal line: "L1 load", "mem copy", ... */
#define MAX_ROWS 64
static struct { char name[24]; enum bench_verdict v; double paired, lo, hi; } rows_seen[MAX_ROWS];
static int nrows_seen;
static void note_row(const char *level, enum kernel_kind kind, const struct cmp *c)
{
	if (nrows_seen >= MAX_ROWS)
		return;
	snprintf(rows_seen[nrows_seen].name, sizeof(rows_seen[0].name), "%s %s", level, kernel_kind_name(kind));
	rows_seen[nrows_seen].v = c->ratio < 0 ? BENCH_TOO_FEW : c->row.verdict;   /* no likwid sample: no pair */
	rows_seen[nrows_seen].paired = c->row.ci.median;
	rows_seen[nrows_seen].lo = c->row.ci.lo;
	rows_seen[nrows_seen].hi = c->row.ci.hi;
	nrows_seen++;
}

static void usage(void)
{
	fprintf(stderr, "usage: bench [--reps MIN_PAIRS] [--max-reps N] [--budget S] [--width W] [--levels L1,L2,L3,mem]\n"
			"             [--size BYTES] [--min-time S] [--isa sse2|avx2|avx512|neon|sve]\n"
			"             [--kernel KIND] [--variant NAME] [--tune-budget S] [--likwid PATH] [--no-triad4]\n"
			"             [--no-write-limit]\n");
	exit(2);
}

/* "L1,L2,mem": the bits of --levels; 0 (a usage error) for an unknown name. */
static uint32_t parse_levels(const char *v)
{
	uint32_t bits = 0;
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", v);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "mem") || !strcmp(t, "1GB"))
			bits |= LEVEL_MEM;
		else if ((t[0] == 'L' || t[0] == 'l') && t[1] >= '1' && t[1] <= '7' && !t[2])
			bits |= 1u << (t[1] - '0');
		else
			return 0;
	}
	return bits;
}

static int parse(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(argv[i], "--no-triad4")) {
			opt.triad4 = 0;
			continue;
		}
		if (!strcmp(argv[i], "--no-write-limit")) {
			opt.write_limit = 0;
			continue;
		}
		if (!v)
			usage();
		if (!strcmp(argv[i], "--reps"))
			opt.reps = atoi(v);
		else if (!strcmp(argv[i], "--size"))
			opt.size = strtoull(v, NULL, 0);
		else if (!strcmp(argv[i], "--min-time"))
			opt.min_time = strtod(v, NULL);
		else if (!strcmp(argv[i], "--isa"))
			opt.isa = v;
		else if (!strcmp(argv[i], "--kernel"))
			opt.only = v;
		else if (!strcmp(argv[i], "--likwid"))
			opt.likwid = v;
		else if (!strcmp(argv[i], "--variant"))
			opt.variant = v;
		else if (!strcmp(argv[i], "--tune-budget"))
			opt.tune_budget = strtod(v, NULL);
		else if (!strcmp(argv[i], "--max-reps"))
			opt.max_reps = atoi(v);
		else if (!strcmp(argv[i], "--budget"))
			opt.budget = strtod(v, NULL);
		else if (!strcmp(argv[i], "--width"))
			opt.width = strtod(v, NULL);
		else if (!strcmp(argv[i], "--levels"))
			opt.levels = parse_levels(v);
		else
			usage();
		i++;
	}
	if (opt.max_reps < opt.reps)
		opt.max_reps = opt.reps;
	return opt.reps >= 1 && opt.reps <= BENCH_MAX_PAIRS && opt.max_reps <= BENCH_MAX_PAIRS && opt.size >= 65536 &&
			       opt.tune_budget >= 0 && opt.budget >= 0 && opt.width >= 0 && opt.levels
		       ? 0
		       : (usage(), -1);
}

/* The ISA mask the candidates come from: what the CPU offers, or only --isa's bit. */
static uint32_t candidate_isa(uint32_t isa)
{
	static const struct { const char *name; uint32_t bit; } names[] = {
		{ "sse2", KERNEL_ISA_SSE2 }, { "avx2", KERNEL_ISA_AVX2 }, { "avx512", KERNEL_ISA_AVX512 },
		{ "neon", KERNEL_ISA_NEON }, { "sve", KERNEL_ISA_SVE },
	};
	if (!opt.isa)
		return isa;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(opt.isa, names[i].name))
			return isa & names[i].bit;
	return 0;
}

/* Last-level cache bytes of cpu 0: the larger of the highest-level cache in sysfs (Linux
 * Documentation/ABI/testing/sysfs-devices-system-cpu, cache/index<N>/level and size "<n>K")
 * and sysconf's (glibc decodes CPUID leaf 4 / 8000001DH), else 32 MiB. The larger: under a
 * hypervisor the two can differ, and a probe that fits the real cache measures the cache. */
static uint64_t llc_bytes(void)
{
	uint64_t best = 0;
	int best_level = 0;
	for (int i = 0; i < 8; i++) {
		char path[96], buf[32];
		int level = 0;
		unsigned long long kib = 0;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f))
			level = atoi(buf);
		fclose(f);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (!(f = fopen(path, "r")))
			continue;
		if (fgets(buf, sizeof(buf), f))
			kib = strtoull(buf, NULL, 10);
		fclose(f);
		if (level > best_level && kib)
			best_level = level, best = kib * 1024;
	}
	long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (l3 > 0 && (uint64_t)l3 > best)
		best = (uint64_t)l3;
	return best ? best : 32ull << 20;
}

/* The tuner's pick per kind, over one set of probe arrays; prints every candidate's rate. */
static const struct kernel_desc *tuned[KERNEL_KIND_COUNT];
static void tune_all(uint32_t isa)
{
	const uint64_t probe = 2 * llc_bytes();
	void *a = alloc_touch(probe, 0), *b = alloc_touch(probe, 0x3f), *c = alloc_touch(probe, 0x3f);
	struct kernel_tune *t = calloc(1, sizeof(*t));
	if (!a || !b || !c || !t) {
		fprintf(stderr, "bench: cannot allocate the tuner's probe arrays (3 x %llu bytes)\n", (unsigned long long)probe);
		exit(1);
	}
	uint64_t budget = (uint64_t)(opt.tune_budget * 1e9), t0 = tune_ns();
	int left = (int)(sizeof(pairs) / sizeof(pairs[0]));
	printf("tuner: probe %llu bytes (2 x LLC %llu) in %u slices, budget %.3f s for %d kinds\n",
	       (unsigned long long)probe, (unsigned long long)llc_bytes(), TUNE_SLICES, opt.tune_budget, left);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++, left--) {
		enum kernel_kind kind = pairs[i].kind;
		if (opt.only && strcmp(opt.only, kernel_kind_name(kind)))
			continue;
		const struct kernel_desc *pinned = opt.variant ? kernel_by_name(arch_kernels, arch_nkernels, opt.variant, isa)
							       : NULL;
		if (pinned && pinned->kind == kind) {
			tuned[kind] = pinned;
			printf("tuner: %-8s pinned %s (--variant)\n", kernel_kind_name(kind), pinned->name);
			continue;
		}
		uint64_t spent = tune_ns() - t0;
		*t = (struct kernel_tune){ .table = arch_kernels, .n = arch_nkernels, .kind = kind, .isa = candidate_isa(isa),
					   .a = a, .b = b, .c = c, .probe_bytes = probe, .slices = TUNE_SLICES,
					   .timer = tune_ns, .scalar = 3.0,
					   .budget_ticks = spent < budget ? (budget - spent) / (uint64_t)left : 0 };
		kernel_tune(t);
		if (t->status) {
			printf("tuner: %-8s no variant (status %d)\n", kernel_kind_name(kind), t->status);
			continue;
		}
		tuned[kind] = t->cand[t->choice].k;
		uint32_t ran = 0;
		for (uint32_t j = 0; j < t->ncand; j++)
			ran += t->cand[j].passes > 0;
		printf("tuner: %-8s pick %-22s %6llu MB/s; %u of %u run in %.3f s:", kernel_kind_name(kind), tuned[kind]->name,
		       (unsigned long long)kernel_tune_mbps(&t->cand[t->choice], 1000000000ull),
		       ran, t->ncand, (double)t->spent_ticks / 1e9);
		for (uint32_t j = 0; j < t->ncand; j++)
			if (t->cand[j].passes)
				printf(" %s %llu", t->cand[j].k->name,
				       (unsigned long long)kernel_tune_mbps(&t->cand[j], 1000000000ull));
		printf("\n");
	}
	printf("tuner: %.3f s (CPU time of this thread) in all\n", (double)(tune_ns() - t0) / 1e9);
	free(a), free(b), free(c), free(t);
}

/* The machine's write limit (see the top of this file). A maximum over some 40 single runs would
 * sit about two standard deviations of the run-to-run noise above any kernel's median, so a
 * kernel would be held, median against best sample, below its own rate. Two steps instead: every
 * write-only candidate (ours: each store and ntstore variant; likwid's store kernels) runs once;
 * the WRITE_LIMIT_FINALISTS fastest then run opt.reps fresh times each, in turn (the screening
 * run is not reused: it was picked for being high), and the limit is the highest of their
 * medians, the same statistic as the table's. Out: `who`, the finalist whose median it is. */
#define WRITE_LIMIT_FINALISTS 3
struct writer { const struct kernel_desc *k; const char *likwid; double screen; };

static double writer_run(const struct writer *w)
{
	return w->k ? our_run(w->k, opt.size / w->k->block_bytes * w->k->block_bytes) : likwid_run(w->likwid);
}

static double write_limit(uint32_t isa, int have_likwid, const char **who)
{
	static const char *const theirs[] = { "store_mem_avx", "store_mem_avx512", "store_avx512", "store_mem_sse" };
	static char name[64];
	struct writer top[WRITE_LIMIT_FINALISTS] = { { 0 } }, w;
	uint32_t nours = 0;
	for (uint32_t i = 0; i < arch_nkernels + (have_likwid ? sizeof(theirs) / sizeof(theirs[0]) : 0); i++) {
		if (i < arch_nkernels) {
			const struct kernel_desc *k = &arch_kernels[i];
			if ((k->kind != KERNEL_STORE && k->kind != KERNEL_NTSTORE) || !kernel_offered(k, isa))
				continue;
			w = (struct writer){ k, NULL, 0 };
			nours++;
		} else {
			w = (struct writer){ NULL, theirs[i - arch_nkernels], 0 };
		}
		w.screen = writer_run(&w);
		for (int j = 0; j < WRITE_LIMIT_FINALISTS; j++)   /* insert, fastest first */
			if (w.screen > top[j].screen) {
				struct writer t = top[j];
				top[j] = w;
				w = t;
			}
	}
	printf("write limit: %u of our write-only variants%s ran once; the %d fastest, %d run%s each in turn:\n", nours,
	       have_likwid ? " and likwid's store kernels" : "", WRITE_LIMIT_FINALISTS, opt.reps, opt.reps == 1 ? "" : "s");
	double v[WRITE_LIMIT_FINALISTS][99], best = 0;
	for (int r = 0; r < opt.reps; r++)
		for (int j = 0; j < WRITE_LIMIT_FINALISTS; j++)
			if (top[j].screen > 0)
				v[j][r] = writer_run(&top[j]);
	for (int j = 0; j < WRITE_LIMIT_FINALISTS; j++) {
		if (top[j].screen <= 0)
			continue;
		double m = median(v[j], opt.reps);
		char n[64];
		snprintf(n, sizeof(n), "%s%s", top[j].k ? "" : "likwid ", top[j].k ? top[j].k->name : top[j].likwid);
		printf("  %-29s once %6.0f MB/s, median %6.0f MB/s\n", n, top[j].screen, m);
		if (m > best)
			best = m, snprintf(name, sizeof(name), "%s", n), *who = name;
	}
	return best;
}

/* ---- per cache level ------------------------------------------------------------------------ */
#define MAX_LEVELS 8
struct level { int level; uint64_t bytes; };

/* Data and unified caches of CPU 0 as Linux reports them, smallest level first. */
static int host_levels(struct level *out)
{
	int n = 0;
	for (int i = 0; i < 16 && n < MAX_LEVELS; i++) {
		char path[128], type[32] = "", size[32] = "";
		int lv = 0;
		FILE *f;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (!(f = fopen(path, "r")))
			break;
		if (!fgets(type, sizeof(type), f))
			type[0] = 0;
		fclose(f);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if ((f = fopen(path, "r"))) {
			if (fscanf(f, "%d", &lv) != 1)
				lv = 0;
			fclose(f);
		}
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if ((f = fopen(path, "r"))) {
			if (!fgets(size, sizeof(size), f))
				size[0] = 0;
			fclose(f);
		}
		if (!strncmp(type, "Instruction", 11) || !lv)
			continue;
		char *end;
		uint64_t b = strtoull(size, &end, 10);
		b *= *end == 'K' ? 1024ull : *end == 'M' ? 1048576ull : 1;
		out[n++] = (struct level){ lv, b };
	}
	return n;
}

/* The tuner's pick for one kind at one cache level: the probe is the level's working set (all
 * streams, one slice, so every pass finds the arrays in that level after the first), each pass
 * TUNE_LEVEL_PASS_BYTES / working set calls long so it is long against the clock. */
static const struct kernel_desc *tune_level(enum kernel_kind kind, uint64_t ws, uint32_t isa, double budget_s,
					    uint64_t *mbps)
{
	const uint64_t arr = ws > 2 * KERNEL_TUNE_VERIFY_BYTES + 64 ? ws : 2 * KERNEL_TUNE_VERIFY_BYTES + 64;
	void *a = alloc_touch(arr, 0), *b = alloc_touch(arr, 0x3f), *c = alloc_touch(arr, 0x3f);
	struct kernel_tune *t = calloc(1, sizeof(*t));
	const struct kernel_desc *pick = NULL;
	*mbps = 0;
	if (a && b && c && t) {
		*t = (struct kernel_tune){ .table = arch_kernels, .n = arch_nkernels, .kind = kind, .isa = candidate_isa(isa),
					   .a = a, .b = b, .c = c, .probe_bytes = ws, .slices = 1,
					   .reps = kernel_calls_per_pass(ws, TUNE_LEVEL_PASS_BYTES),
					   .timer = tune_ns, .scalar = 3.0, .budget_ticks = (uint64_t)(budget_s * 1e9) };
		kernel_tune(t);
		if (t->status == 0) {
			pick = t->cand[t->choice].k;
			*mbps = kernel_tune_mbps(&t->cand[t->choice], 1000000000ull);
		}
	}
	free(a), free(b), free(c), free(t);
	return pick;
}

static void level_bandwidth(const struct level *lv, int nl, uint32_t isa, int have_likwid)
{
	static const enum kernel_kind kinds[] = { KERNEL_LOAD, KERNEL_STORE, KERNEL_COPY, KERNEL_TRIAD };
	const size_t nlp = sizeof(kinds) / sizeof(kinds[0]);
	const struct pair *lp[sizeof(kinds) / sizeof(kinds[0])];
	for (size_t i = 0; i < nlp; i++)
		for (size_t j = 0; j < sizeof(pairs) / sizeof(pairs[0]); j++)
			if (pairs[j].kind == kinds[i])
				lp[i] = &pairs[j];
	printf("per level: working set = half the level (all streams), likwid-bench -w S0:<size>:1, %d-%d pairs per row; ours\n"
	       "per level: is the tuner's pick at that working set (--tune-budget %.3f s per level, passes of %llu bytes)\n",
	       opt.reps, opt.max_reps, opt.tune_budget, (unsigned long long)TUNE_LEVEL_PASS_BYTES);
	printf("%-6s %-8s %-20s %-16s %10s", "level", "kernel", "ours (level's pick)", "likwid", "bytes");
	print_cmp(NULL);
	for (int l = 0; l < nl; l++)
		for (size_t i = 0; i < nlp; i++) {
			if (!(opt.levels >> lv[l].level & 1) || (opt.only && strcmp(opt.only, kernel_kind_name(kinds[i]))))
				continue;
			uint64_t ws = lv[l].bytes / 2, tuned_mbps = 0;
			const struct kernel_desc *k = opt.variant ? kernel_by_name(arch_kernels, arch_nkernels, opt.variant, isa) : NULL;
			if (!k || k->kind != lp[i]->kind)
				k = opt.tune_budget > 0 ? tune_level(lp[i]->kind, ws, isa, opt.tune_budget / (double)nlp, &tuned_mbps)
							: NULL;
			if (!k)
				k = tuned[lp[i]->kind] ? tuned[lp[i]->kind] : kernel_best(arch_kernels, arch_nkernels, lp[i]->kind, isa);
			if (!k)
				continue;
			uint64_t bytes = ws / kernel_streams(k->kind) / k->block_bytes * k->block_bytes;
			char wg[64], lname[8];
			snprintf(wg, sizeof(wg), "-w S0:%lluB:1", (unsigned long long)ws);
			snprintf(lname, sizeof(lname), "L%d", lv[l].level);
			static struct cmp c;
			compare(&c, k, bytes, lp[i], wg, have_likwid, (isa & KERNEL_ISA_AVX512) != 0);
			printf("%-6s %-8s %-20s %-16s %10llu", lname, kernel_kind_name(k->kind), k->name, c.likwid,
			       (unsigned long long)ws);
			print_cmp(&c);
			note_row(lname, k->kind, &c);
		}
}

/* Host pointer chase: ns per dependent load over `bytes` of 64-byte lines, median of reps. */
static double chase_ns(uint64_t bytes)
{
	void *buf = aligned_alloc(4096, bytes);
	if (!buf || !kernel_chase_build(buf, bytes, 64, 0x5EED)) {
		free(buf);
		return -1;
	}
	uint64_t loads = bytes / 64 * 4 > 4000000 ? bytes / 64 * 4 : 4000000;
	double v[99];
	for (int r = 0; r < opt.reps; r++) {
		uint64_t t0 = now_ns();
		volatile uint64_t end = kernel_chase(buf, loads);
		(void)end;
		v[r] = (double)(now_ns() - t0) / (double)loads;
	}
	free(buf);
	return median(v, opt.reps);
}

struct c2c_thread { int cpu; struct c2c_run run; int initiator; };

static void *c2c_thread_fn(void *p)
{
	struct c2c_thread *t = p;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (t->initiator)
		c2c_initiator(&t->run);
	else
		c2c_responder(&t->run);
	return NULL;
}

#define C2C_HOST_CPUS 8
#define C2C_HOST_ROUNDS 21
#define C2C_HOST_TRIPS 1000

/* Median one-way ns between CPUs a and b (initiator a), -1 when a wait timed out. */
static double c2c_pair(int a, int b)
{
	static uint64_t line[C2C_LINE_BYTES / 8] __attribute__((aligned(C2C_LINE_BYTES)));
	uint64_t ticks[C2C_HOST_ROUNDS];
	line[0] = 0;
	struct c2c_thread ti = { a, { .line = line, .rounds = C2C_HOST_ROUNDS, .trips = C2C_HOST_TRIPS, .timer = now_ns,
				      .timeout_ticks = 2000000000ull, .round_ticks = ticks }, 1 };
	struct c2c_thread tr = ti;
	tr.cpu = b;
	tr.initiator = 0;
	tr.run.round_ticks = NULL;
	pthread_t pa, pb;
	pthread_create(&pb, NULL, c2c_thread_fn, &tr);
	pthread_create(&pa, NULL, c2c_thread_fn, &ti);
	pthread_join(pa, NULL);
	pthread_join(pb, NULL);
	if (ti.run.status || tr.run.status)
		return -1;
	double v[C2C_HOST_ROUNDS];
	for (int r = 0; r < C2C_HOST_ROUNDS; r++)
		v[r] = (double)ticks[r] / (2.0 * C2C_HOST_TRIPS);
	return median(v, C2C_HOST_ROUNDS);
}

static void host_c2c(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	n = n > C2C_HOST_CPUS ? C2C_HOST_CPUS : n;
	printf("host c2c: CAS ping-pong (arch/c2c.c), round trip / 2, median of %d rounds x %d trips, ns (no reference tool)\n",
	       C2C_HOST_ROUNDS, C2C_HOST_TRIPS);
	printf("  cpu");
	for (long b = 0; b < n; b++)
		printf("%8ld", b);
	printf("\n");
	for (long a = 0; a < n; a++) {
		printf("  %3ld", a);
		for (long b = 0; b < n; b++) {
			if (a == b) {
				printf("%8s", "-");
				continue;
			}
			double ns = c2c_pair((int)a, (int)b);
			if (ns < 0)
				printf("%8s", "timeout");
			else
				printf("%8.1f", ns);
		}
		printf("\n");
		fflush(stdout);
	}
}

/* The goal's verdict over every row of the invocation (tests/bench/verdict.h): how many are
 * ahead, within noise and behind likwid-bench, and each one behind or without a verdict. */
static void goal_line(int have_likwid)
{
	char behind[512] = "", few[256] = "";
	size_t kb = 0, kf = 0;
	int n[4] = { 0 };
	if (!have_likwid || !nrows_seen) {
		printf("goal: no verdict (likwid-bench did not run)\n");
		return;
	}
	for (int i = 0; i < nrows_seen; i++) {
		n[rows_seen[i].v]++;
		if (rows_seen[i].v == BENCH_BEHIND && kb < sizeof(behind))
			kb += (size_t)snprintf(behind + kb, sizeof(behind) - kb, "%s%s %.3f [%.3f,%.3f]", kb ? ", " : "",
					       rows_seen[i].name, rows_seen[i].paired, rows_seen[i].lo, rows_seen[i].hi);
		if (rows_seen[i].v == BENCH_TOO_FEW && kf < sizeof(few))
			kf += (size_t)snprintf(few + kf, sizeof(few) - kf, "%s%s", kf ? ", " : "", rows_seen[i].name);
	}
	printf("goal: %d of %d rows ahead of or within noise of likwid-bench (%d ahead, %d within noise, %d behind, "
	       "%d too few runs)%s%s%s%s\n",
	       n[BENCH_AHEAD] + n[BENCH_WITHIN_NOISE], nrows_seen, n[BENCH_AHEAD], n[BENCH_WITHIN_NOISE], n[BENCH_BEHIND],
	       n[BENCH_TOO_FEW], kb ? "; behind: " : "", behind, kf ? "; too few runs: " : "", few);
}

int main(int argc, char **argv)
{
	parse(argc, argv);
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		perror("bench: sched_setaffinity(cpu 0)");
	uint32_t isa = arch_kernel_isa();
	int have_likwid = likwid_run("load_avx") > 0;
	if (!have_likwid)
		fprintf(stderr, "bench: '%s -t load_avx' did not run: likwid columns are empty\n", opt.likwid);
	printf("efiperf kernels vs likwid-bench: one thread on hwthread 0, pairs of alternating runs (min %.1f s each), "
	       "%d-%d pairs per row until the paired ratios' 95%% interval is within %.1f%% of their median or %.0f s; "
	       "CPU offers %s%s%s%s\n",
	       opt.min_time, opt.reps, opt.max_reps, 100 * opt.width, opt.budget, isa & KERNEL_ISA_SSE2 ? "sse2 " : "",
	       isa & KERNEL_ISA_AVX2 ? "avx2 " : "", isa & KERNEL_ISA_AVX512 ? "avx512 " : "",
	       isa & KERNEL_ISA_NEON ? "neon " : "");
	static double ours_median[KERNEL_KIND_COUNT];
	if (opt.levels & LEVEL_MEM) {
		tune_all(isa);
		printf("%s table: -W N:%s:1\n", size_arg(), size_arg());
		printf("%-8s %-22s %-16s", "kernel", "ours (tuner's pick)", "likwid");
		print_cmp(NULL);
		for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
			const struct pair *pr = &pairs[i];
			if (opt.only && strcmp(opt.only, kernel_kind_name(pr->kind)))
				continue;
			const struct kernel_desc *k = tuned[pr->kind];
			if (!k) {
				printf("%-8s %-22s not offered by this CPU\n", kernel_kind_name(pr->kind), opt.isa ? opt.isa : "-");
				continue;
			}
			uint32_t streams = kernel_streams(k->kind);
			uint64_t bytes = opt.size / streams / k->block_bytes * k->block_bytes;
			char wg[64];
			static struct cmp c;
			snprintf(wg, sizeof(wg), "-W N:%s:1", size_arg());
			compare(&c, k, bytes, pr, wg, have_likwid, (isa & KERNEL_ISA_AVX512) != 0);
			ours_median[k->kind] = c.ours;
			printf("%-8s %-22s %-16s", kernel_kind_name(k->kind), k->name, c.likwid);
			print_cmp(&c);
			note_row(size_arg(), k->kind, &c);
		}
		if (have_likwid && opt.triad4 && (!opt.only || !strcmp(opt.only, "triad"))) {
			double v[BENCH_MAX_PAIRS];
			for (int r = 0; r < opt.reps; r++)
				v[r] = likwid_run("triad_avx");
			printf("%-8s %-22s %-14s %12s %12.0f %7s  (A = B*C + D, 4 streams: not our kernel)\n", "(ref)", "-",
			       "triad_avx", "-", median(v, opt.reps), "-");
		}
		if (opt.write_limit) {
			const char *who = "-";
			double lim = write_limit(isa, have_likwid, &who);
			printf("write limit: %.0f MB/s (%s: the highest median of the finalists)\n", lim, who);
			if (lim > 0 && ours_median[KERNEL_NTSTORE] > 0)
				printf("write limit: %-8s %.0f MB/s is %.3f of it\n", kernel_kind_name(KERNEL_NTSTORE),
				       ours_median[KERNEL_NTSTORE], ours_median[KERNEL_NTSTORE] / lim);
		}
	}
	struct level lv[MAX_LEVELS];
	int nl = host_levels(lv), any_level = 0;
	for (int l = 0; l < nl; l++)
		any_level |= (opt.levels >> lv[l].level & 1);
	if (!nl) {
		printf("per level: Linux reports no caches for CPU 0 (/sys/devices/system/cpu/cpu0/cache)\n");
	} else if (any_level) {
		level_bandwidth(lv, nl, isa, have_likwid);
	}
	goal_line(have_likwid);
	if (opt.only)
		return 0;
	if (any_level) {
		printf("host chase: efiperf's pointer chase, 64-byte lines, half of each level, median of %d (no reference tool)\n",
		       opt.reps);
		for (int l = 0; l < nl; l++)
			if (opt.levels >> lv[l].level & 1)
				printf("chase  L%d %10llu bytes %8.2f ns/load\n", lv[l].level,
				       (unsigned long long)(lv[l].bytes / 2), chase_ns(lv[l].bytes / 2 / 64 * 64));
	}
	if (opt.levels & LEVEL_MEM) {
		printf("chase  DRAM %8llu bytes %8.2f ns/load\n", (unsigned long long)opt.size, chase_ns(opt.size / 64 * 64));
		host_c2c();
	}
	return 0;
}
