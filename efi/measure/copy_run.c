/* SPDX-License-Identifier: BSD-2-Clause */
/* The copy measurement's run (efi/measure/copy_run.h): pure over the measure_ctx. */
#include <string.h>
#include "efi/measure/copy_run.h"
#include "pmu/metrics.h"

uint64_t copy_kernel(void *p)
{
	const struct copy_arg *a = p;
	const struct copy_request *r = a->req;
	const struct copy_cpu *c = &r->cpu[a->i];
	for (uint64_t off = 0; off < r->bytes; off += COPY_CHUNK_BYTES) {
		uint64_t n = r->bytes - off < COPY_CHUNK_BYTES ? r->bytes - off : COPY_CHUNK_BYTES;
		r->copy((char *)c->dst + off, (const char *)c->src + off, n);
		if (r->tick)
			r->tick(r->tick_ctx, a->i);
	}
	return 0;
}

/* The run's working state: per CPU its window entry, kernel argument, summed ticks and rate. */
struct copy_work {
	struct window_cpu *wc;
	struct copy_arg *arg;
	uint64_t *ticks, *gbps;
};

/* One allocation: the work arrays, then the result's pass and per-CPU arrays. */
static int work_alloc(const struct measure_ctx *ctx, const struct copy_request *req, struct copy_work *wk,
		      struct copy_result *res)
{
	uint64_t n = (uint64_t)req->n, np = req->passes;
	uint64_t bytes = n * (sizeof(struct window_cpu) + sizeof(struct copy_arg) + 2 * sizeof(uint64_t)) +
			 np * sizeof(struct copy_pass) + np * n * sizeof(struct copy_cpu_pass);
	char *m = ctx->alloc(bytes);
	if (!m)
		return -1;
	res->work = m;
	wk->ticks = (uint64_t *)m;
	wk->gbps = wk->ticks + n;
	res->pass = (struct copy_pass *)(wk->gbps + n);
	res->cpu = (struct copy_cpu_pass *)(res->pass + np);
	wk->wc = (struct window_cpu *)(res->cpu + np * n);
	wk->arg = (struct copy_arg *)(wk->wc + n);
	for (int i = 0; i < req->n; i++) {
		wk->arg[i] = (struct copy_arg){ req, i };
		wk->wc[i] = (struct window_cpu){ .cpu = req->cpu[i].cpu, .arg = &wk->arg[i] };
	}
	return 0;
}

static void fill(const struct copy_request *req)
{
	for (int i = 0; i < req->n; i++)
		for (uint64_t k = 0; k < req->bytes / 8; k++) {
			req->cpu[i].src[k] = COPY_FILL_PATTERN * (k + 1 + (uint64_t)i);
			req->cpu[i].dst[k] = 0;
		}
}

/* The pass's numbers from its windows: the mean window, each CPU's mean kernel time, rates and
 * outliers. */
static void pass_figures(const struct measure_ctx *ctx, const struct copy_request *req, struct copy_work *wk,
			 struct copy_pass *ps, struct copy_cpu_pass *cp)
{
	int n = req->n;
	uint64_t moved = 2 * req->bytes;   /* STREAM: Copy reads one array and writes another */
	ps->w.span_ticks /= req->windows;
	ps->ns = metric_ticks_to_ns(ps->w.span_ticks, ctx->timer_hz);
	ps->gbps_milli = metric_gbps_milli(moved * (uint64_t)n, ps->ns);
	for (int i = 0; i < n; i++) {
		cp[i].ns = metric_ticks_to_ns(wk->ticks[i] / req->windows, ctx->timer_hz);
		cp[i].gbps_milli = wk->gbps[i] = metric_gbps_milli(moved, cp[i].ns);
	}
	uint8_t out[WINDOW_MAX_CPUS];
	ps->outliers = metric_outliers(wk->gbps, n, MEASURE_OUTLIER_PCT, out, &ps->median_gbps_milli);
	for (int i = 0; i < n; i++)
		cp[i].outlier = out[i];
}

/* One pass: `windows` windows with the counters riding on each. -1 when one did not run on every
 * CPU (res->failed_ran: how many did). */
static int run_pass(const struct measure_ctx *ctx, const struct copy_request *req, struct copy_work *wk,
		    struct copy_result *res)
{
	struct copy_pass *ps = &res->pass[res->npass];
	*ps = (struct copy_pass){ .w = { .masked = 1, .smi_status = HW_OK } };
	memset(wk->ticks, 0, (uint64_t)req->n * sizeof(uint64_t));
	for (uint32_t k = 0; k < req->windows; k++) {
		struct window_spec spec = { .kernel = copy_kernel, .cpus = wk->wc, .ncpus = req->n, .mask_interrupts = 1,
					    .counters = req->counters ? attach_counters(req->counters) : NULL };
		struct window_result w = { 0 };
		if (ctx->win.run(ctx->win.ctx, &spec, &w) != 0) {
			res->failed_ran = w.ran;
			return -1;
		}
		ps->w.span_ticks += w.span_ticks;
		ps->w.smi_delta += w.smi_delta;
		ps->w.smi_status = w.smi_status;   /* the last window's */
		ps->w.masked &= w.masked != 0;
		for (int i = 0; i < req->n; i++)
			wk->ticks[i] += wk->wc[i].t1 - wk->wc[i].t0;
		if (req->counters)
			attach_read_all(req->counters);
	}
	pass_figures(ctx, req, wk, ps, &res->cpu[(uint64_t)res->npass * (uint64_t)req->n]);
	res->npass++;
	return 0;
}

static void summary(const struct copy_request *req, struct copy_result *res)
{
	uint64_t moved = 2 * req->bytes * (uint64_t)req->n, best = ~0ull, total = 0;
	for (uint32_t p = 0; p < res->npass; p++) {
		best = res->pass[p].ns < best ? res->pass[p].ns : best;
		total += res->pass[p].ns;
	}
	res->verified = 1;
	for (int i = 0; i < req->n; i++)
		res->verified &= memcmp(req->cpu[i].src, req->cpu[i].dst, req->bytes) == 0;
	res->best_ns = best;
	res->best_gbps_milli = metric_gbps_milli(moved, best);
	res->mean_gbps_milli = metric_gbps_milli(moved * res->npass, total);
}

int copy_measure(const struct measure_ctx *ctx, const struct copy_request *req, struct copy_result *res)
{
	struct copy_work wk;
	*res = (struct copy_result){ .n = req->n, .failed_ran = -1 };
	if (work_alloc(ctx, req, &wk, res) != 0) {
		res->no_memory = 1;
		return -1;
	}
	fill(req);
	struct window_spec floor = { .kernel = NULL, .cpus = wk.wc, .ncpus = req->n, .mask_interrupts = 1 };
	ctx->win.run(ctx->win.ctx, &floor, &res->floor);
	if (req->counters)
		attach_prepare_all(req->counters);
	int rc = 0;
	res->health = health_cpu_begin(ctx, req->health, NULL);
	while (res->npass < req->passes && rc == 0)
		rc = run_pass(ctx, req, &wk, res);
	health_end(res->health);
	if (req->counters)
		attach_restore_all(req->counters);
	if (rc)
		return -1;
	summary(req, res);
	return res->verified ? 0 : -1;
}

void copy_result_free(const struct measure_ctx *ctx, struct copy_result *res)
{
	ctx->free(res->work);
	ctx->free(res->health);
	res->health = NULL;
	res->work = NULL;
	res->pass = NULL;
	res->cpu = NULL;
}
