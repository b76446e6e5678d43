/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/cache_bw.h"
#include "efi/measure/measure.h"
#include "efi/out/report.h"
#include "efi/pages.h"
#include "arch/arch.h"
#include "arch/kernel.h"
#include "arch/kernel_tune.h"
#include "efi/measure/tune_run.h"
#include "efi/out/tune_json.h"
#include <string.h>
#include "pmu/metrics.h"

#define MIB (1ull << 20)
#define DRAM_MIN_BYTES (64 * MIB)
#define DRAM_LLC_FACTOR 4u
#define ARRAYS 3
#define ARRAY_ALIGN 4096u   /* page: every kernel's alignment and block rule */
#define TRIAD_SCALAR 3.0
#define MS_PER_S 1000u
#define TUNED_LEVELS 4u                /* the budget is kernel_budget per level over this many ... */

static const enum kernel_kind kinds[] = { KERNEL_LOAD, KERNEL_STORE, KERNEL_COPY, KERNEL_TRIAD };
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

static uint64_t run_kernel(void *arg)
{
	kernel_run(arg);
	return ((struct kernel_run *)arg)->result;
}

/* Bytes per array for one CPU: half the level, shared levels split over the CPUs sharing it, in
 * whole pages (at least one). */
static uint64_t array_bytes(uint64_t level_bytes, uint32_t sharers)
{
	uint64_t b = level_bytes / 2 / ARRAYS / (sharers ? sharers : 1);
	b = b / ARRAY_ALIGN * ARRAY_ALIGN;
	return b ? b : ARRAY_ALIGN;
}

struct bw_point { uint64_t gbps_milli; uint32_t reps; int ok; struct window_result w; };

/* The levels' working state: pool memory for the run of measure_cache_bw (about 55 KiB). */
struct bw_work {
	struct window_cpu sel[WINDOW_MAX_CPUS];
	struct kernel_run runs[WINDOW_MAX_CPUS];
	void *buf[WINDOW_MAX_CPUS][ARRAYS];
	uint64_t cpu_gbps[WINDOW_MAX_CPUS], one_gbps[1];
	struct cpu_place place[WINDOW_MAX_CPUS];
	struct kernel_tune tune;
};

/* One kernel on cpus[0..n-1] over each CPU's arrays of `bytes`: per-CPU GB/s into cpu_gbps, the
 * total (bytes of all CPUs over the slowest CPU's best pass) returned in pt. Each timed pass is
 * KERNEL_PASS_BYTES worth of calls (at least one), as the tuner's: an L1-sized call is a few
 * hundred cycles, and two timer reads per call would be a tenth of it or more. */
static void run_point(const struct hw *hw, const struct platform *p, const struct kernel_desc *k, struct bw_work *wk,
		      int n, uint64_t bytes, uint32_t passes, uint64_t *cpu_gbps, struct bw_point *pt)
{
	struct kernel_run *runs = wk->runs;
	struct window_cpu *cpus = wk->sel;
	void *(*buf)[ARRAYS] = wk->buf;
	pt->reps = kernel_calls_per_pass(kernel_app_bytes(k->kind, bytes), KERNEL_PASS_BYTES);
	for (int i = 0; i < n; i++) {
		runs[i] = (struct kernel_run){ .k = k, .a = buf[i][0], .b = buf[i][1], .c = buf[i][2], .bytes = bytes,
					       .scalar = TRIAD_SCALAR, .passes = passes, .reps = pt->reps,
					       .timer = arch_timer_read };
		cpus[i].arg = &runs[i];
	}
	struct window_spec spec = { .kernel = run_kernel, .cpus = cpus, .ncpus = n, .mask_interrupts = 1 };
	pt->ok = window_run(hw, &spec, &pt->w) == 0;
	uint64_t worst = 0, app = 0;
	for (int i = 0; i < n; i++) {
		pt->ok &= runs[i].status == 0;
		uint64_t per = runs[i].app_bytes / passes;
		cpu_gbps[i] = metric_gbps_milli(per, metric_ticks_to_ns(runs[i].ticks_min, p->timer_hz));
		worst = runs[i].ticks_min > worst ? runs[i].ticks_min : worst;
		app += per;
	}
	pt->gbps_milli = metric_gbps_milli(app, metric_ticks_to_ns(worst, p->timer_hz));
}

static void point_json(struct json *j, const char *key, const struct bw_point *pt)
{
	json_obj(j, key);
	json_bool(j, "ran", pt->ok);
	json_milli(j, "gbps", pt->ok ? pt->gbps_milli : 0);
	json_u64(j, "calls_per_pass", pt->reps);
	measure_quiet_json(j, &pt->w);
	json_close(j);
}

/* The kernel of one kind at one level: `kernel = <variant>` of that kind; else the tuner on the
 * first selected CPU over that CPU's arrays of the level (probe = the working set of all streams,
 * one slice, passes of KERNEL_PASS_BYTES worth of calls, so the calls after the first find the
 * arrays in the level), within kernel_budget / TUNED_LEVELS / kinds; else (budget 0, or the
 * tuner found none) the widest default shape. *t holds the tuner's result (t->ncand 0: not run). */
static const struct kernel_desc *level_kernel(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
					      enum kernel_kind kind, uint32_t cpu, void *const arr[ARRAYS], uint64_t bytes,
					      struct kernel_tune *t)
{
	const uint32_t isa = arch_kernel_isa(), isa_only = kernel_isa_bit(cfg->kernel);
	const struct kernel_desc *pinned = kernel_by_name(arch_kernels, arch_nkernels, cfg->kernel, isa);
	const struct kernel_desc *fallback = kernel_best(arch_kernels, arch_nkernels, kind, isa_only & isa ? isa_only & isa : isa);
	memset(t, 0, sizeof(*t));
	t->choice = -1;
	if (pinned && pinned->kind == kind)
		return pinned;
	if (!cfg->kernel_budget)
		return fallback;
	const uint64_t probe = bytes * kernel_streams(kind);
	*t = (struct kernel_tune){ .table = arch_kernels, .n = arch_nkernels, .kind = kind, .a = arr[0], .b = arr[1],
				   .c = arr[2], .probe_bytes = probe, .slices = 1,
				   .reps = kernel_calls_per_pass(probe, KERNEL_PASS_BYTES),
				   .timer = arch_timer_read, .scalar = TRIAD_SCALAR,
				   .budget_ticks = (uint64_t)cfg->kernel_budget * p->timer_hz / MS_PER_S / TUNED_LEVELS / NKINDS };
	if (tune_run_on(hw, cpu, t, isa_only & isa) != 0) {
		rep_error("cache_bw", "%s: the tuner found no variant on CPU %u (status %d): using %s", kernel_kind_name(kind),
			  cpu, t->status, fallback ? fallback->name : "none");
		return fallback;
	}
	return t->cand[t->choice].k;
}

/* One level: both windows for every kernel, one record. */
static int level_run(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, const char *name,
		     uint64_t level_bytes, uint64_t single, uint64_t each, struct bw_work *wk, int n)
{
	void *(*buf)[ARRAYS] = wk->buf;
	uint64_t *cpu_gbps = wk->cpu_gbps;
	struct cpu_place *place = wk->place;
	const struct window_cpu *sel = wk->sel;
	uint64_t alloc = single > each ? single : each;
	/* the tuner's reference check uses the first 2 x KERNEL_TUNE_VERIFY_BYTES + 64 bytes of each
	 * array: room for it, while every kernel still works over `single` or `each` bytes */
	const uint64_t verify_room = (2 * KERNEL_TUNE_VERIFY_BYTES + 64 + ARRAY_ALIGN - 1) / ARRAY_ALIGN * ARRAY_ALIGN;
	alloc = alloc > verify_room ? alloc : verify_room;
	int rc = 0;
	for (int i = 0; i < n; i++)
		for (int a = 0; a < ARRAYS; a++) {
			buf[i][a] = cpus_alloc(i, alloc, &place[i]);
			if (!buf[i][a])
				rc = -1;
			else
				for (uint64_t w = 0; w < alloc / 8; w++)
					((double *)buf[i][a])[w] = (double)(w & 0xFF);
		}
	if (rc) {
		rep_error("cache_bw", "%s: cannot allocate %d x %llu bytes for each of %d CPUs", name, ARRAYS,
			  (unsigned long long)alloc, n);
		goto out;
	}
	struct json *j = rep_begin("cache_bw");
	json_str(j, "level", name);
	json_u64(j, "level_bytes", level_bytes);
	json_u64(j, "array_bytes_one_cpu", single);
	json_u64(j, "array_bytes_per_cpu_all", each);
	json_u64(j, "cpus", (uint64_t)n);
	json_u64(j, "passes", cfg->cache_bw_passes);
	json_bool(j, "emulated", p->cpu.virtual_machine);
	json_arr(j, "kernels");
	for (unsigned s = 0; s < NKINDS; s++) {
		const struct kernel_desc *k = level_kernel(hw, p, cfg, kinds[s], sel[0].cpu, buf[0], single, &wk->tune);
		if (!k)
			continue;
		for (int i = 0; i < n; i++)   /* the tuner's check wrote its first bytes: finite values again */
			for (int a = 1; a < ARRAYS; a++)
				for (uint64_t w = 0; w < KERNEL_TUNE_VERIFY_BYTES / 8 && w < alloc / 8; w++)
					((double *)buf[i][a])[w] = (double)(w & 0xFF);
		struct bw_point one, all;
		run_point(hw, p, k, wk, 1, single, cfg->cache_bw_passes, wk->one_gbps, &one);
		run_point(hw, p, k, wk, n, each, cfg->cache_bw_passes, cpu_gbps, &all);
		json_obj(j, NULL);
		json_str(j, "function", kernel_kind_name(kinds[s]));
		json_str(j, "kernel", k->name);
		if (wk->tune.ncand)
			tune_json(j, "tuner", &wk->tune, arch_cpu_class(), sel[0].cpu, p->timer_hz);
		else
			json_null(j, "tuner");
		point_json(j, "one_cpu", &one);
		point_json(j, "all_cpus", &all);
		json_arr(j, "per_cpu_gbps");
		for (int i = 0; i < n; i++)
			json_milli(j, NULL, cpu_gbps[i]);
		json_close(j);
		json_close(j);
		char g1[32], ga[32];
		fmt_milli(g1, sizeof(g1), one.gbps_milli);
		fmt_milli(ga, sizeof(ga), all.gbps_milli);
		rep_line("            %-5s %-6s %-14s one CPU %10s GB/s   %d CPUs %10s GB/s", name, kernel_kind_name(kinds[s]), k->name,
			 g1, n, ga);
		if (!one.ok || !all.ok) {
			rc = -1;
			rep_error("cache_bw", "%s %s: a CPU did not run the kernel", name, k->name);
		}
	}
	json_close(j);
	rep_end();
out:
	for (int i = 0; i < n; i++)
		for (int a = 0; a < ARRAYS; a++) {
			pages_free(buf[i][a], alloc);
			buf[i][a] = NULL;
		}
	return rc;
}

int measure_cache_bw(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->cache_bw)
		return 0;
	struct bw_work *wk = measure_work(sizeof(*wk), "cache_bw");
	if (!wk)
		return -1;
	int n = cpus_selected(wk->sel), rc = 0;
	uint64_t llc = 0;
	rep_line("cache_bw:   load (read), store (write), copy, triad inside each cache level (%s) and DRAM; one CPU, then %d",
		 p->cpu.cache_source ? p->cpu.cache_source : "no levels reported", n);
	for (int c = 0; c < p->cpu.ncaches; c++) {
		const struct cache_desc *d = &p->cpu.cache[c];
		if (d->type != CACHE_DATA && d->type != CACHE_UNIFIED)
			continue;
		char name[8];
		fmt_snprintf(name, sizeof(name), "L%u", d->level);
		/* CPUs of the selection sharing it: a level shared beyond one core is split over them */
		uint32_t tpc = p->cpu.threads_per_core ? p->cpu.threads_per_core : 1;
		uint32_t sharers = d->sharing > tpc ? (d->sharing < (uint32_t)n ? d->sharing : (uint32_t)n) : 1;
		rc |= level_run(hw, p, cfg, name, d->bytes, array_bytes(d->bytes, 1), array_bytes(d->bytes, sharers), wk, n);
		llc = d->bytes;
	}
	uint64_t dram = cfg->cache_bw_dram;
	if (!dram) {
		dram = llc * DRAM_LLC_FACTOR;
		dram = dram < DRAM_MIN_BYTES ? DRAM_MIN_BYTES : dram;
	}
	rc |= level_run(hw, p, cfg, "DRAM", 0, dram, dram, wk, n);
	pool_free(wk);
	return rc;
}
