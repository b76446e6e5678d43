/* SPDX-License-Identifier: BSD-2-Clause */
/* The latency curve's run (efi/measure/latency_run.h): pure over the measure_ctx. */
#include <string.h>
#include "efi/measure/latency_run.h"
#include "pmu/metrics.h"

uint64_t latency_kernel(void *arg)
{
	struct kernel_run *r = arg;
	kernel_run(r);
	return r->result;
}

/* Point i's window over buffer b. */
static void run_point(const struct measure_ctx *ctx, const struct latency_request *req, void *b, uint32_t i,
		      struct latency_point *pt)
{
	uint64_t bytes = req->size[i], lines = bytes / LAT_LINE_BYTES;
	kernel_chase_build(b, bytes, LAT_LINE_BYTES, LAT_CHASE_SEED + i);
	struct kernel_run r = { .k = req->chase, .b = b, .bytes = bytes, .passes = LAT_PASSES, .timer = ctx->clock };
	struct window_cpu cpu = { .cpu = req->cpu, .arg = &r };
	struct window_spec spec = { .kernel = latency_kernel, .cpus = &cpu, .ncpus = 1, .mask_interrupts = 1,
				    .counters = req->evidence ? attach_counters(req->evidence) : NULL };
	*pt = (struct latency_point){ .bytes = bytes, .loads = lines * LAT_PASSES };
	pt->health = health_cpu_begin(ctx, req->health, &spec);
	int ran = ctx->win.run(ctx->win.ctx, &spec, &pt->w) == 0;
	health_end(pt->health);
	if (req->evidence)
		attach_read_all(req->evidence);
	pt->ps = kernel_ps_per_load(r.ticks_min, ctx->timer_hz, lines);
	pt->ticks_milli = kernel_ticks_per_load_milli(r.ticks_min, lines);
	pt->complete = ran && r.status == 0 && r.result == (uint64_t)(uintptr_t)b;   /* a whole cycle ends where it began */
}

static void knees(const struct latency_request *req, struct latency_result *res)
{
	uint64_t sizes[LAT_MAX_SIZES], ps[LAT_MAX_SIZES];
	int n = (int)res->npoints;
	for (int i = 0; i < n; i++) {
		sizes[i] = res->pt[i].bytes;
		ps[i] = res->pt[i].ps;
	}
	res->nk = knees_find(sizes, ps, n, res->k, KNEES_MAX, &res->memory_ps);
	res->nl = knees_match(req->ci, res->k, res->nk, n ? sizes[n - 1] : 0, res->lv, res->taken, &res->disagreements);
}

int latency_measure(const struct measure_ctx *ctx, const struct latency_request *req, struct latency_result *res)
{
	memset(res, 0, sizeof(*res));
	void *b = req->nsizes ? ctx->alloc_in(req->max_bytes, NULL, 0) : NULL;
	if (!b)
		return -1;
	res->placed = 1;
	res->buf = b;
	struct window_cpu fcpu = { .cpu = req->cpu };
	struct window_spec fspec = { .kernel = NULL, .cpus = &fcpu, .ncpus = 1, .mask_interrupts = 1 };
	ctx->win.run(ctx->win.ctx, &fspec, &res->floor);
	res->floor_ns = metric_ticks_to_ns(res->floor.span_ticks, ctx->timer_hz);
	if (req->evidence)
		attach_prepare_all(req->evidence);
	int rc = 0;
	for (uint32_t i = 0; i < req->nsizes && i < LAT_MAX_SIZES; i++) {
		run_point(ctx, req, b, i, &res->pt[i]);
		res->npoints++;
		rc |= res->pt[i].complete ? 0 : -1;
	}
	if (req->evidence)
		attach_restore_all(req->evidence);
	knees(req, res);
	ctx->free_in(b, req->max_bytes);
	return rc;
}
