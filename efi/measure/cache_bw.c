/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include <string.h>
#include "efi/measure/cache_bw.h"
#include "efi/measure/cache_bw_run.h"
#include "efi/measure/health_window.h"
#include "efi/measure/measure.h"
#include "efi/measure/tune_run.h"
#include "efi/out/cache_bw_out.h"
#include "efi/pages.h"
#include "arch/arch.h"
#include "arch/kernel.h"
#include "arch/kernel_tune.h"

#define MIB (1ull << 20)
#define DRAM_MIN_BYTES (64 * MIB)
#define DRAM_LLC_FACTOR 4u
#define MS_PER_S 1000u
#define TUNED_LEVELS 4u                /* the budget is kernel_budget per level over this many ... */

/* What the run's callbacks need of the firmware. */
struct bw_env {
	const struct hw *hw;
	const struct platform *p;
	const struct efiperf_config *cfg;
	uint32_t cpu0;
};

static void *buf_alloc(void *ctx, int i, uint64_t bytes)
{
	(void)ctx;
	struct cpu_place place;
	return cpus_alloc(i, bytes, &place);
}

static void buf_free(void *ctx, void *p, uint64_t bytes)
{
	(void)ctx;
	pages_free(p, bytes);
}

/* The kernel of one kind at one level: `kernel = <variant>` of that kind; else the tuner on the
 * first selected CPU over that CPU's arrays of the level (probe = the working set of all streams,
 * one slice, passes of KERNEL_PASS_BYTES worth of calls, so the calls after the first find the
 * arrays in the level), within kernel_budget / TUNED_LEVELS / kinds; else (budget 0, or the
 * tuner found none) the widest default shape. */
static const struct kernel_desc *choose(void *ctx, enum kernel_kind kind, void *const arr[CACHE_BW_ARRAYS],
					uint64_t bytes, struct kernel_tune *t, int *tune_failed,
					const struct kernel_desc **fallback)
{
	const struct bw_env *e = ctx;
	const uint32_t isa = arch_kernel_isa(), isa_only = kernel_isa_bit(e->cfg->kernel);
	const struct kernel_desc *pinned = kernel_by_name(arch_kernels, arch_nkernels, e->cfg->kernel, isa);
	*fallback = kernel_best(arch_kernels, arch_nkernels, kind, isa_only & isa ? isa_only & isa : isa);
	memset(t, 0, sizeof(*t));
	t->choice = -1;
	if (pinned && pinned->kind == kind)
		return pinned;
	if (!e->cfg->kernel_budget)
		return *fallback;
	const uint64_t probe = bytes * kernel_streams(kind);
	*t = (struct kernel_tune){ .table = arch_kernels, .n = arch_nkernels, .kind = kind, .a = arr[0], .b = arr[1],
				   .c = arr[2], .probe_bytes = probe, .slices = 1,
				   .reps = kernel_calls_per_pass(probe, KERNEL_PASS_BYTES),
				   .timer = arch_timer_read, .scalar = CACHE_BW_TRIAD_SCALAR,
				   .budget_ticks = (uint64_t)e->cfg->kernel_budget * e->p->timer_hz / MS_PER_S / TUNED_LEVELS /
						   CACHE_BW_NKINDS };
	if (tune_run_on(e->hw, e->cpu0, t, isa_only & isa) != 0) {
		*tune_failed = 1;
		return *fallback;
	}
	return t->cand[t->choice].k;
}

/* The levels: each data or unified cache level the CPU reports (a level shared beyond one core
 * split over the selected CPUs sharing it), then DRAM (cache_bw_dram, else 4 x the last level,
 * at least 64 MiB). */
static void levels(const struct platform *p, const struct efiperf_config *cfg, struct cache_bw_request *req)
{
	uint64_t llc = 0;
	uint32_t tpc = p->cpu.threads_per_core ? p->cpu.threads_per_core : 1;
	for (int c = 0; c < p->cpu.ncaches && req->nlevels < CACHE_BW_MAX_LEVELS - 1; c++) {
		const struct cache_desc *d = &p->cpu.cache[c];
		if (d->type != CACHE_DATA && d->type != CACHE_UNIFIED)
			continue;
		struct cache_bw_level *lv = &req->level[req->nlevels++];
		uint32_t sharers = d->sharing > tpc ? (d->sharing < (uint32_t)req->n ? d->sharing : (uint32_t)req->n) : 1;
		fmt_snprintf(lv->name, sizeof(lv->name), "L%u", d->level);
		lv->level_bytes = d->bytes;
		lv->single = cache_bw_array_bytes(d->bytes, 1);
		lv->each = cache_bw_array_bytes(d->bytes, sharers);
		llc = d->bytes;
	}
	uint64_t dram = cfg->cache_bw_dram;
	if (!dram) {
		dram = llc * DRAM_LLC_FACTOR;
		dram = dram < DRAM_MIN_BYTES ? DRAM_MIN_BYTES : dram;
	}
	req->level[req->nlevels++] = (struct cache_bw_level){ "DRAM", 0, dram, dram };
}

static void request_build(const struct platform *p, const struct efiperf_config *cfg, struct window_cpu *sel,
			  struct bw_env *env, struct cache_bw_request *req)
{
	int n = cpus_selected(sel);
	req->n = n;
	for (int i = 0; i < n; i++)
		req->cpu[i] = sel[i].cpu;
	env->cpu0 = req->cpu[0];
	levels(p, cfg, req);
	req->passes = cfg->cache_bw_passes;
	req->buf_alloc = buf_alloc;
	req->buf_free = buf_free;
	req->choose = choose;
	req->choose_ctx = env;
	req->cache_source = p->cpu.cache_source;
	req->emulated = p->cpu.virtual_machine;
	req->timer_hz = p->timer_hz;
	req->cpu_class = arch_cpu_class();
}

int measure_cache_bw(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->cache_bw)
		return 0;
	struct bw_work { struct window_cpu sel[WINDOW_MAX_CPUS]; struct cache_bw_request req; struct health_opts health; } *wk =
		measure_work(sizeof(*wk), "cache_bw");
	if (!wk)
		return -1;
	struct bw_env env = { hw, p, cfg, 0 };
	request_build(p, cfg, wk->sel, &env, &wk->req);
	health_window_opts(hw, p, NULL, cfg->aer_clear, NULL, 0, &wk->health);
	wk->req.health = &wk->health;
	struct measure_ctx ctx;
	struct cache_bw_result res;
	measure_ctx_efi(&ctx, hw, p->timer_hz);
	int rc = cache_bw_measure(&ctx, &wk->req, &res);
	cache_bw_record(&wk->req, &res);
	cache_bw_result_free(&ctx, &res);
	pool_free(wk);
	return rc;
}
