/* SPDX-License-Identifier: BSD-2-Clause */
/* loaded_latency's run (efi/measure/loaded_latency_run.h): pure over the measure_ctx. */
#include <string.h>
#include "efi/measure/loaded_latency_run.h"
#include "arch/barrier.h"
#include "pmu/metrics.h"

struct ll_work {
	struct window_cpu wc[WINDOW_MAX_CPUS];
	struct ll_arg args[WINDOW_MAX_CPUS];
	struct cpu_arrays buf[WINDOW_MAX_CPUS];
	struct ll_shared sh;
};

/* A reader: lines until the chase is done, counting the first line it read. */
static uint64_t ll_read(struct ll_arg *a)
{
	uint64_t x = 0, lines = 0, words = a->bytes / 8;
	const volatile uint64_t *b = a->buf;
	while (!__atomic_load_n(&a->sh->done, __ATOMIC_ACQUIRE)) {
		for (uint64_t w = 0; w < words && !__atomic_load_n(&a->sh->done, __ATOMIC_RELAXED); w += LL_LINE_BYTES / 8) {
			x ^= b[w];
			if (!lines++)
				__atomic_fetch_add(&a->sh->started, 1, __ATOMIC_RELEASE);
			for (uint32_t d = 0; d < a->delay; d++)
				__asm__ volatile("" ::: "memory");
		}
	}
	a->lines = lines;
	return x;
}

uint64_t ll_kernel(void *p)
{
	struct ll_arg *a = p;
	if (!a->chaser)
		return ll_read(a);
	struct ll_shared *sh = a->sh;
	uint64_t t0 = sh->clock();
	while (__atomic_load_n(&sh->started, __ATOMIC_ACQUIRE) < sh->expected && sh->clock() - t0 < sh->wait_ticks)
		arch_spin_hint();
	kernel_run(a->chase);
	__atomic_store_n(&sh->done, 1, __ATOMIC_RELEASE);
	return a->chase->result;
}

/* One window: point k (k 0: idle; else delay k - 1). */
static void run_point(const struct measure_ctx *ctx, const struct ll_request *req, struct ll_work *wk, int k,
		      struct ll_point *pt)
{
	void *chase_buf = wk->buf[0].a[0];
	struct kernel_run r = { .k = req->chase, .b = chase_buf, .bytes = req->size, .passes = LL_CHASE_PASSES,
				.timer = ctx->clock };
	int ncpu = k ? req->sel.n : 1;
	*pt = (struct ll_point){ .idle = !k, .delay = k ? req->delay[k - 1] : 0 };
	wk->sh = (struct ll_shared){ .expected = (uint32_t)(ncpu - 1), .wait_ticks = ctx->timer_hz * LL_START_WAIT_S,
				     .clock = ctx->clock };
	for (int i = 0; i < ncpu; i++) {
		wk->args[i] = (struct ll_arg){ .sh = &wk->sh, .chaser = i == 0, .chase = &r, .buf = wk->buf[i].a[0],
					       .bytes = req->size, .delay = pt->delay };
		wk->wc[i] = (struct window_cpu){ .cpu = req->sel.cpu[i], .arg = &wk->args[i] };
	}
	struct window_spec spec = { .kernel = ll_kernel, .cpus = wk->wc, .ncpus = ncpu, .mask_interrupts = 1 };
	pt->health = health_cpu_begin(ctx, req->health, &spec);
	pt->ok = ctx->win.run(ctx->win.ctx, &spec, &pt->w) == 0 && r.status == 0 &&
		 r.result == (uint64_t)(uintptr_t)chase_buf;   /* a whole cycle ends where it began */
	health_end(pt->health);
	pt->ps = kernel_ps_per_load(r.ticks_min, ctx->timer_hz, req->size / LL_LINE_BYTES);
	for (int i = 1; i < ncpu; i++)
		pt->read_bytes += wk->args[i].lines * LL_LINE_BYTES;
	pt->window_ns = metric_ticks_to_ns(pt->w.span_ticks, ctx->timer_hz);
	pt->gbps_milli = metric_gbps_milli(pt->read_bytes, pt->window_ns);
}

int ll_measure(const struct measure_ctx *ctx, const struct ll_request *req, struct ll_result *res)
{
	memset(res, 0, sizeof(*res));
	int n = req->sel.n;
	struct ll_work *wk = ctx->alloc(sizeof(*wk));
	if (!wk)
		return -1;
	if (cpu_arrays_alloc(ctx, &req->sel, n, req->size, 1, wk->buf) != 0) {
		ctx->free(wk);
		return -1;
	}
	res->placed = 1;
	for (int i = 0; i < n; i++)
		res->place[i] = wk->buf[i].place;
	kernel_chase_build(wk->buf[0].a[0], req->size, LL_LINE_BYTES, LL_CHASE_SEED);
	for (int i = 1; i < n; i++)
		for (uint64_t w = 0; w < req->size / 8; w++)
			((uint64_t *)wk->buf[i].a[0])[w] = w;
	int rc = 0;
	for (int k = 0; k <= req->ndelays; k++) {
		run_point(ctx, req, wk, k, &res->pt[k]);
		rc |= res->pt[k].ok ? 0 : -1;
	}
	res->npoints = req->ndelays + 1;
	cpu_arrays_free(ctx, n, req->size, 1, wk->buf);
	ctx->free(wk);
	return rc;
}

int ll_idle_claims(const struct ll_request *req, const struct ll_result *res, struct numa_claim *out, int max,
		   const char **why)
{
	const struct acpi_hmat *h = req->hmat;
	const struct cpu_place *pl = &res->place[0];
	int n = 0;
	*why = !h || !h->present ? "no ACPI HMAT"
	       : h->defect[0] ? "the HMAT has a defect (the acpi record's hmat.defect names it)"
	       : !res->npoints || !res->pt[0].ok ? "the idle point did not run"
	       : pl->node < 0 ? "the SRAT gives no node for the chase CPU"
	       : !pl->local ? "the chase buffer is not in the chase CPU's node memory"
			    : NULL;
	if (!*why && !(n = hmat_claims_beside(h, (uint32_t)pl->node, (uint32_t)pl->node, res->pt[0].ps, 0, out, max)))
		*why = "the HMAT claims no access or read latency from the chase CPU's node to its memory";
	return n;
}

void ll_result_free(const struct measure_ctx *ctx, struct ll_result *res)
{
	for (int k = 0; k < LL_MAX_POINTS; k++) {
		ctx->free(res->pt[k].health);
		res->pt[k].health = NULL;
	}
}
