/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * make bench: efiperf's memory kernels (the same sources as the UEFI app, built for Linux user
 * space) next to likwid-bench, alternating runs, median of N, one table. A benchmark, not a
 * test: it exits 0 whatever the ratios are.
 *
 * Both sides are accounted the same way (arch/kernel.h): likwid-bench's MByte/s is
 * iterations x (bytes of all streams) / time / 10^6, which is ours: app_bytes / time. The
 * working set is likwid's `-W N:<size>:1`: <size> bytes (10^9 for 1GB) split over the kernel's
 * streams, one thread on hwthread 0 (where likwid-bench puts it), 4 KiB pages on both sides
 * (likwid-bench does not madvise huge pages; this program does not either), fresh buffers for
 * every run on both sides. Each run repeats its kernel until at least --min-time seconds have
 * passed, as likwid-bench does (-s 1).
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
#include "arch/kernel.h"

struct pair { enum kernel_kind kind; const char *likwid; };
static const struct pair pairs[] = {
	{ KERNEL_LOAD, "load_avx" },       { KERNEL_STORE, "store_avx" },
	{ KERNEL_NTSTORE, "store_mem_avx" }, { KERNEL_COPY, "copy_avx" },
	{ KERNEL_NTCOPY, "copy_mem_avx" },  { KERNEL_TRIAD, "stream_avx" },
};

static struct {
	int reps;
	double min_time;
	uint64_t size;
	const char *isa, *likwid, *only;
	int triad4;
} opt = { 5, 1.0, 1000000000ull, NULL, "likwid-bench", NULL, 1 };

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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

/* One likwid-bench run; its "MByte/s:" line, or -1 when it did not run. */
static double likwid_run(const char *test)
{
	char cmd[512], line[512];
	snprintf(cmd, sizeof(cmd), "%s -t %s -W N:%s:1 -s %g 2>&1", opt.likwid, test, size_arg(), opt.min_time);
	FILE *f = popen(cmd, "r");
	if (!f)
		return -1;
	double mbs = -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "MByte/s:", 8) == 0)
			mbs = strtod(line + 8, NULL);
	if (pclose(f) != 0)
		mbs = -1;
	return mbs;
}

static void *alloc_touch(uint64_t bytes, unsigned char fill)
{
	void *p = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
	if (p)
		memset(p, fill, bytes);
	return p;
}

/* One run of ours, on buffers of its own as each likwid-bench run has (first touched here, by
 * the pinned thread): a pass to size the run, then enough passes for min_time. */
static double our_run(const struct kernel_desc *k, uint64_t bytes)
{
	void *a = k->kind != KERNEL_LOAD ? alloc_touch(bytes, 0) : NULL;
	void *b = k->kind != KERNEL_STORE && k->kind != KERNEL_NTSTORE ? alloc_touch(bytes, 0x3f) : NULL;
	void *c = k->kind == KERNEL_TRIAD ? alloc_touch(bytes, 0x3f) : NULL;   /* 0x3f3f..: ~0.49 */
	struct kernel_run r = { .k = k, .a = a, .b = b, .c = c, .bytes = bytes, .scalar = 3.0, .passes = 1,
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

static void usage(void)
{
	fprintf(stderr, "usage: bench [--reps N] [--size BYTES] [--min-time S] [--isa sse2|avx2|avx512|neon]\n"
			"             [--kernel KIND] [--likwid PATH] [--no-triad4]\n");
	exit(2);
}

static int parse(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(argv[i], "--no-triad4")) {
			opt.triad4 = 0;
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
		else
			usage();
		i++;
	}
	return opt.reps >= 1 && opt.reps <= 99 && opt.size >= 65536 ? 0 : (usage(), -1);
}

/* The kernel the app would pick (widest offered), or the one of --isa. */
static const struct kernel_desc *pick(enum kernel_kind kind, uint32_t isa)
{
	if (!opt.isa)
		return kernel_best(arch_kernels, arch_nkernels, kind, isa);
	char name[64];
	snprintf(name, sizeof(name), "%s_%s", kernel_kind_name(kind), opt.isa);
	return kernel_by_name(arch_kernels, arch_nkernels, name, isa);
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
	printf("efiperf kernels vs likwid-bench: -W N:%s:1 (one thread, hwthread 0), median of %d alternating runs, "
	       "min %.1f s each; CPU offers %s%s%s%s\n",
	       size_arg(), opt.reps, opt.min_time, isa & KERNEL_ISA_SSE2 ? "sse2 " : "",
	       isa & KERNEL_ISA_AVX2 ? "avx2 " : "", isa & KERNEL_ISA_AVX512 ? "avx512 " : "",
	       isa & KERNEL_ISA_NEON ? "neon " : "");
	printf("%-8s %-14s %-14s %12s %12s %7s\n", "kernel", "ours", "likwid", "our MB/s", "likwid MB/s", "ratio");
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const struct pair *pr = &pairs[i];
		if (opt.only && strcmp(opt.only, kernel_kind_name(pr->kind)))
			continue;
		const struct kernel_desc *k = pick(pr->kind, isa);
		if (!k) {
			printf("%-8s %-14s not offered by this CPU\n", kernel_kind_name(pr->kind), opt.isa);
			continue;
		}
		uint32_t streams = kernel_streams(k->kind);
		uint64_t bytes = opt.size / streams / k->block_bytes * k->block_bytes;
		double ours[99], theirs[99];
		for (int r = 0; r < opt.reps; r++) {
			theirs[r] = have_likwid ? likwid_run(pr->likwid) : -1;
			ours[r] = our_run(k, bytes);
			fprintf(stderr, "  %s run %d: ours %.0f MB/s, likwid %s %.0f MB/s\n", k->name, r + 1, ours[r],
				pr->likwid, theirs[r]);
		}
		double o = median(ours, opt.reps), t = median(theirs, opt.reps);
		if (t > 0)
			printf("%-8s %-14s %-14s %12.0f %12.0f %7.3f\n", kernel_kind_name(k->kind), k->name, pr->likwid, o, t,
			       o / t);
		else
			printf("%-8s %-14s %-14s %12.0f %12s %7s\n", kernel_kind_name(k->kind), k->name, pr->likwid, o, "-",
			       "-");
		fflush(stdout);
	}
	if (have_likwid && opt.triad4 && (!opt.only || !strcmp(opt.only, "triad"))) {
		double v[99];
		for (int r = 0; r < opt.reps; r++)
			v[r] = likwid_run("triad_avx");
		printf("%-8s %-14s %-14s %12s %12.0f %7s  (A = B*C + D, 4 streams: not our kernel)\n", "(ref)", "-",
		       "triad_avx", "-", median(v, opt.reps), "-");
	}
	return 0;
}
