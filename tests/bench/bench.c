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
 * Then, per cache level Linux reports for CPU 0 (/sys/devices/system/cpu/cpu0/cache: what the
 * kernel read from CPUID leaf 4 / 0x8000001D or the Arm cache ID registers), the same kernels at
 * a working set of half the level, next to likwid-bench -w S0:<size>:1 (one thread on socket 0's
 * first hwthread), with the ratio per kernel and level; the host-built pointer chase (the
 * efiperf chase kernel, 64-byte lines) per level; and the host core-to-core matrix (efiperf's
 * CAS ping-pong, arch/c2c.c, one thread pinned per CPU, up to 8 CPUs). Debian ships neither Intel
 * MLC nor lmbench: the chase and c2c figures stand alone, without a reference column.
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

/* One likwid-bench run with workgroup `wg` (-W N:<size>:1 or -w S0:<size>:1); its "MByte/s:"
 * line, or -1 when it did not run. */
static double likwid_wg(const char *test, const char *wg)
{
	char cmd[512], line[512];
	snprintf(cmd, sizeof(cmd), "%s -t %s %s -s %g 2>&1", opt.likwid, test, wg, opt.min_time);
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

static void level_bandwidth(const struct level *lv, int nl, uint32_t isa)
{
	static const struct pair lp[] = {
		{ KERNEL_LOAD, "load_avx" }, { KERNEL_STORE, "store_avx" }, { KERNEL_COPY, "copy_avx" }, { KERNEL_TRIAD, "stream_avx" },
	};
	printf("per level: working set = half the level (all streams), likwid-bench -w S0:<size>:1, median of %d\n", opt.reps);
	printf("%-6s %-8s %-14s %10s %12s %12s %7s\n", "level", "kernel", "ours", "bytes", "our MB/s", "likwid MB/s", "ratio");
	for (int l = 0; l < nl; l++)
		for (size_t i = 0; i < sizeof(lp) / sizeof(lp[0]); i++) {
			const struct kernel_desc *k = pick(lp[i].kind, isa);
			if (!k)
				continue;
			uint64_t ws = lv[l].bytes / 2;
			uint64_t bytes = ws / kernel_streams(k->kind) / k->block_bytes * k->block_bytes;
			char wg[64];
			snprintf(wg, sizeof(wg), "-w S0:%lluB:1", (unsigned long long)ws);
			double ours[99], theirs[99];
			for (int r = 0; r < opt.reps; r++) {
				theirs[r] = likwid_wg(lp[i].likwid, wg);
				ours[r] = our_run(k, bytes);
			}
			double o = median(ours, opt.reps), t = median(theirs, opt.reps);
			char lname[8];
			snprintf(lname, sizeof(lname), "L%d", lv[l].level);
			if (t > 0)
				printf("%-6s %-8s %-14s %10llu %12.0f %12.0f %7.3f\n", lname, kernel_kind_name(k->kind), k->name,
				       (unsigned long long)ws, o, t, o / t);
			else
				printf("%-6s %-8s %-14s %10llu %12.0f %12s %7s\n", lname, kernel_kind_name(k->kind), k->name,
				       (unsigned long long)ws, o, "-", "-");
			fflush(stdout);
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
	if (opt.only)
		return 0;
	struct level lv[MAX_LEVELS];
	int nl = host_levels(lv);
	if (!nl) {
		printf("per level: Linux reports no caches for CPU 0 (/sys/devices/system/cpu/cpu0/cache)\n");
	} else {
		level_bandwidth(lv, nl, isa);
		printf("host chase: efiperf's pointer chase, 64-byte lines, half of each level, median of %d (no reference tool)\n",
		       opt.reps);
		for (int l = 0; l < nl; l++)
			printf("chase  L%d %10llu bytes %8.2f ns/load\n", lv[l].level, (unsigned long long)(lv[l].bytes / 2),
			       chase_ns(lv[l].bytes / 2 / 64 * 64));
	}
	printf("chase  DRAM %8llu bytes %8.2f ns/load\n", (unsigned long long)opt.size, chase_ns(opt.size / 64 * 64));
	host_c2c();
	return 0;
}
