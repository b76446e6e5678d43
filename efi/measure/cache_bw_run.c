/* SPDX-License-Identifier: BSD-2-Clause */
/* cache_bw's run (efi/measure/cache_bw_run.h): pure over the measure_ctx. */
#include <string.h>
#include "efi/measure/cache_bw_run.h"
#include "pmu/metrics.h"

const enum kernel_kind cache_bw_kinds[CACHE_BW_NKINDS] = { KERNEL_LOAD, KERNEL_STORE, KERNEL_COPY, KERNEL_TRIAD };

uint64_t cache_bw_array_bytes(uint64_t level_bytes, uint32_t sharers)
{
	uint64_t b = level_bytes / 2 / CACHE_BW_ARRAYS / (sharers ? sharers : 1);
	b = b / CACHE_BW_ALIGN * CACHE_BW_ALIGN;
	return b ? b : CACHE_BW_ALIGN;
}

struct bw_work {
	struct window_cpu *wc;
	struct kernel_run *runs;
	void *(*buf)[CACHE_BW_ARRAYS];
};

static uint64_t cache_bw_window_kernel(void *arg)
{
	kernel_run(arg);
	return ((struct kernel_run *)arg)->result;
}

/* One kernel on the first n CPUs over `bytes` per array: per-CPU GB/s into cpu_gbps, the total
 * (bytes of all CPUs over the slowest CPU's best pass) into pt. Each timed pass is
 * KERNEL_PASS_BYTES worth of calls (at least one): an L1-sized call is a few hundred cycles, and
 * two timer reads per call would be a tenth of it or more. */
static void run_point(const struct measure_ctx *ctx, const struct cache_bw_request *req, struct bw_work *wk,
		      const struct kernel_desc *k, int n, uint64_t bytes, uint64_t *cpu_gbps, struct cache_bw_point *pt)
{
	uint32_t passes = req->passes;
	pt->reps = kernel_calls_per_pass(kernel_app_bytes(k->kind, bytes), KERNEL_PASS_BYTES);
	for (int i = 0; i < n; i++) {
		wk->runs[i] = (struct kernel_run){ .k = k, .a = wk->buf[i][0], .b = wk->buf[i][1], .c = wk->buf[i][2],
						   .bytes = bytes, .scalar = CACHE_BW_TRIAD_SCALAR, .passes = passes,
						   .reps = pt->reps, .timer = ctx->clock };
		wk->wc[i] = (struct window_cpu){ .cpu = req->cpu[i], .arg = &wk->runs[i] };
	}
	struct window_spec spec = { .kernel = cache_bw_window_kernel, .cpus = wk->wc, .ncpus = n, .mask_interrupts = 1 };
	pt->health = health_cpu_begin(ctx, req->health, &spec);
	pt->ok = ctx->win.run(ctx->win.ctx, &spec, &pt->w) == 0;
	health_end(pt->health);
	uint64_t worst = 0, app = 0;
	for (int i = 0; i < n; i++) {
		pt->ok &= wk->runs[i].status == 0;
		uint64_t per = wk->runs[i].app_bytes / passes;
		cpu_gbps[i] = metric_gbps_milli(per, metric_ticks_to_ns(wk->runs[i].ticks_min, ctx->timer_hz));
		worst = wk->runs[i].ticks_min > worst ? wk->runs[i].ticks_min : worst;
		app += per;
	}
	pt->gbps_milli = metric_gbps_milli(app, metric_ticks_to_ns(worst, ctx->timer_hz));
}

/* Finite doubles in the first `words` words of every array from `from` on. */
static void fill(const struct cache_bw_request *req, struct bw_work *wk, int from, uint64_t words)
{
	for (int i = 0; i < req->n; i++)
		for (int a = from; a < CACHE_BW_ARRAYS; a++)
			for (uint64_t w = 0; w < words; w++)
				((double *)wk->buf[i][a])[w] = (double)(w & 0xFF);
}

static int take_arrays(const struct cache_bw_request *req, struct bw_work *wk, uint64_t alloc)
{
	int rc = 0;
	for (int i = 0; i < req->n; i++)
		for (int a = 0; a < CACHE_BW_ARRAYS; a++)
			if (!(wk->buf[i][a] = req->buf_alloc(req->mem_ctx, i, alloc)))
				rc = -1;
	return rc;
}

/* One level: the kernel of each kind on one CPU, then on all. */
static int level_run(const struct measure_ctx *ctx, const struct cache_bw_request *req, struct bw_work *wk, int l,
		     struct cache_bw_result *res)
{
	const struct cache_bw_level *lv = &req->level[l];
	struct cache_bw_level_result *lr = &res->lv[l];
	uint64_t alloc = lv->single > lv->each ? lv->single : lv->each, one_gbps[1];
	lr->alloc = alloc = alloc > CACHE_BW_VERIFY_ROOM ? alloc : CACHE_BW_VERIFY_ROOM;
	lr->alloc_failed = take_arrays(req, wk, alloc) != 0;
	int rc = lr->alloc_failed ? -1 : 0;
	if (!rc)
		fill(req, wk, 0, alloc / 8);
	for (int s = 0; !rc && s < CACHE_BW_NKINDS; s++) {
		struct cache_bw_kernel *bk = &lr->k[lr->nk];
		*bk = (struct cache_bw_kernel){ .kind = cache_bw_kinds[s] };
		bk->k = req->choose(req->choose_ctx, bk->kind, wk->buf[0], lv->single, &bk->tune, &bk->tune_failed,
				    &bk->fallback);
		if (!bk->k)
			continue;
		/* the tuner's check wrote its first bytes: finite values again */
		uint64_t words = KERNEL_TUNE_VERIFY_BYTES / 8 < alloc / 8 ? KERNEL_TUNE_VERIFY_BYTES / 8 : alloc / 8;
		fill(req, wk, 1, words);
		uint64_t *cpu_gbps = &res->cpu_gbps[((uint64_t)l * CACHE_BW_NKINDS + (uint64_t)lr->nk) * (uint64_t)req->n];
		run_point(ctx, req, wk, bk->k, 1, lv->single, one_gbps, &bk->one);
		run_point(ctx, req, wk, bk->k, req->n, lv->each, cpu_gbps, &bk->all);
		lr->nk++;
	}
	for (int s = 0; !rc && s < lr->nk; s++)
		rc = lr->k[s].one.ok && lr->k[s].all.ok ? 0 : -1;
	for (int i = 0; i < req->n; i++)
		for (int a = 0; a < CACHE_BW_ARRAYS; a++) {
			req->buf_free(req->mem_ctx, wk->buf[i][a], alloc);
			wk->buf[i][a] = NULL;
		}
	return rc;
}

int cache_bw_measure(const struct measure_ctx *ctx, const struct cache_bw_request *req, struct cache_bw_result *res)
{
	uint64_t n = (uint64_t)req->n, nl = (uint64_t)req->nlevels;
	uint64_t bytes = nl * CACHE_BW_NKINDS * n * sizeof(uint64_t) + nl * sizeof(struct cache_bw_level_result) +
			 n * (sizeof(struct kernel_run) + sizeof(struct window_cpu) + CACHE_BW_ARRAYS * sizeof(void *));
	*res = (struct cache_bw_result){ .nlevels = req->nlevels };
	char *m = ctx->alloc(bytes);
	if (!m) {
		res->no_memory = 1;
		return -1;
	}
	res->work = m;
	res->cpu_gbps = (uint64_t *)m;
	res->lv = (struct cache_bw_level_result *)(res->cpu_gbps + nl * CACHE_BW_NKINDS * n);
	struct bw_work wk = { .runs = (struct kernel_run *)(res->lv + nl) };
	wk.wc = (struct window_cpu *)(wk.runs + n);
	wk.buf = (void *(*)[CACHE_BW_ARRAYS])(wk.wc + n);
	int rc = 0;
	for (int l = 0; l < req->nlevels; l++)
		rc |= level_run(ctx, req, &wk, l, res);
	return rc;
}

void cache_bw_result_free(const struct measure_ctx *ctx, struct cache_bw_result *res)
{
	for (int l = 0; res->lv && l < res->nlevels; l++)
		for (int s = 0; s < res->lv[l].nk; s++) {
			ctx->free(res->lv[l].k[s].one.health);
			ctx->free(res->lv[l].k[s].all.health);
		}
	ctx->free(res->work);
	*res = (struct cache_bw_result){ 0 };
}
