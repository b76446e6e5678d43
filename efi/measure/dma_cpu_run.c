/* SPDX-License-Identifier: BSD-2-Clause */
/* dma_cpu_traffic's run (efi/measure/dma_cpu_run.h): pure over the measure_ctx and request.dma. */
#include <string.h>
#include "efi/measure/dma_cpu_run.h"
#include "efi/measure/stream_run.h"
#include "pmu/metrics.h"

#define DMA_4GIB (1ull << 32)   /* a target above: 4 DW Memory Write headers (PCIe Base 6.0 2.2.4.1) */

/* The run's working state: ctx->alloc memory, not .bss. */
struct dma_cpu_work {
	const struct measure_ctx *ctx;
	struct dma_cpu_result *res;
	struct window_spec spec;
	volatile uint32_t stop;
	uint32_t slice, nslices;
	struct window_result w;              /* the last slice's CPU window */
	struct window_cpu cpus[WINDOW_MAX_CPUS];
	struct cpu_arrays arr[WINDOW_MAX_CPUS];
};

uint64_t dma_cpu_stream_kernel(void *arg)
{
	struct dma_cpu_stream *s = arg;
	do {
		kernel_run(&s->r);
		if (s->r.status) {
			s->status = s->r.status;
			break;
		}
		s->passes++;
		s->app_bytes += s->r.app_bytes;
		s->ticks += s->r.ticks_total;
	} while (!*s->stop);
	return s->r.result;
}

void dma_cpu_sel_without(struct cpu_sel *s, uint32_t cpu)
{
	int m = 0;
	for (int i = 0; i < s->n; i++)
		if (s->cpu[i] != cpu) {   /* m <= i: compacted in place */
			s->cpu[m] = s->cpu[i];
			s->node[m] = s->node[i];
			s->mem[m++] = s->mem[i];
		}
	s->n = m;
}

/* The boot CPU's work in each CPU window: its share of the read, then the CPUs stop. */
static void boot_read(void *arg)
{
	struct dma_cpu_work *wk = arg;
	blockio_read_slice(&wk->res->rd, wk->slice, wk->nslices);
	__atomic_store_n(&wk->stop, 1, __ATOMIC_RELEASE);
}

/* cha_window_fn: slice k of n of the DMA window is one CPU window; returns its ns. */
static uint64_t window_slice(void *arg, uint32_t slice, uint32_t nslices)
{
	struct dma_cpu_work *wk = arg;
	wk->slice = slice;
	wk->nslices = nslices ? nslices : 1;
	__atomic_store_n(&wk->stop, 0, __ATOMIC_RELEASE);
	if (wk->ctx->win.run(wk->ctx->win.ctx, &wk->spec, &wk->w) != 0)
		wk->res->bad = 1;
	wk->res->window_ticks += wk->w.span_ticks;
	wk->res->slices++;
	wk->res->masked = wk->w.masked;
	return metric_ticks_to_ns(wk->w.span_ticks, wk->ctx->timer_hz);
}

/* Each CPU's STREAM over its arrays (STREAM's values in b and c). */
static void streams_set(const struct dma_cpu_request *req, struct dma_cpu_work *wk, uint64_t (*clock)(void))
{
	struct dma_cpu_result *res = wk->res;
	for (int i = 0; i < req->sel.n; i++) {
		struct cpu_arrays *ar = &wk->arr[i];
		stream_arrays_init(ar->a[0], ar->a[1], ar->a[2], req->size);
		res->cpu[i] = (struct dma_cpu_stream){ .stop = &wk->stop };
		res->cpu[i].r = (struct kernel_run){ .k = req->k, .a = ar->a[0], .b = ar->a[1], .c = ar->a[2],
						     .bytes = req->size, .passes = 1, .timer = clock,
						     .scalar = req->k->kind == KERNEL_TRIAD ? STREAM_TRIAD_SCALAR : STREAM_STORE_VALUE };
		res->place[i] = ar->place;
		res->buf[i] = ar->a[0];
		wk->cpus[i] = (struct window_cpu){ .cpu = req->sel.cpu[i], .arg = &res->cpu[i] };
	}
}

/* The DMA window over the CPU windows, and the totals. */
static void window(const struct measure_ctx *ctx, const struct dma_cpu_request *req, struct dma_cpu_work *wk, void *target)
{
	struct dma_cpu_result *res = wk->res;
	wk->spec = (struct window_spec){ .kernel = dma_cpu_stream_kernel, .cpus = wk->cpus, .ncpus = req->sel.n,
					 .mask_interrupts = 1, .boot_work = boot_read, .boot_ctx = wk };
	struct dma_window w = { "dma_cpu_traffic", window_slice, wk, &res->rd.moved, NULL, req->bdf,
				(uintptr_t)target + DMA_CPU_TARGET_BYTES > DMA_4GIB, NULL };
	req->dma.run(req->dma.ctx, &w, &res->win);
	req->dma.rate(&res->win, 0, res->rd.done, metric_ticks_to_ns(res->rd.ticks, ctx->timer_hz));
	for (int i = 0; i < req->sel.n; i++) {
		const struct dma_cpu_stream *s = &res->cpu[i];
		res->app_bytes += s->app_bytes;
		res->passes += s->passes;
		res->ticks_max = s->ticks > res->ticks_max ? s->ticks : res->ticks_max;
		res->bad |= s->status != 0;
	}
}

/* The arrays and the read set up, the window run; res->status says what stopped it. */
static void run_with(const struct measure_ctx *ctx, const struct dma_cpu_request *req, struct dma_cpu_work *wk,
		     void *target)
{
	struct dma_cpu_result *res = wk->res;
	if (cpu_arrays_alloc(ctx, &req->sel, req->sel.n, req->size, DMA_CPU_ARRAYS, wk->arr) != 0) {
		res->status = DMA_CPU_NO_ARRAYS;
		return;
	}
	if (!req->k)
		res->status = DMA_CPU_NO_KERNEL;
	else if (blockio_read_init(&res->rd, &req->disk, req->name, req->dma_bytes, target, DMA_CPU_TARGET_BYTES,
				   ctx->timer_hz, res->why, sizeof(res->why)) != 0)
		res->status = DMA_CPU_NO_READ;
	else {
		streams_set(req, wk, ctx->clock);
		window(ctx, req, wk, target);
	}
	cpu_arrays_free(ctx, req->sel.n, req->size, DMA_CPU_ARRAYS, wk->arr);
}

int dma_cpu_run(const struct measure_ctx *ctx, const struct dma_cpu_request *req, struct dma_cpu_result *res)
{
	memset(res, 0, sizeof(*res));
	res->timer_hz = ctx->timer_hz;
	res->status = DMA_CPU_NO_STATE;
	struct dma_cpu_work *wk = ctx->alloc(sizeof(*wk));
	void *target = ctx->alloc_in(DMA_CPU_TARGET_BYTES, NULL, 0);
	if (wk && target) {
		*wk = (struct dma_cpu_work){ .ctx = ctx, .res = res };
		res->status = DMA_CPU_RAN;
		run_with(ctx, req, wk, target);
	}
	if (target)
		ctx->free_in(target, DMA_CPU_TARGET_BYTES);
	ctx->free(wk);
	return res->status == DMA_CPU_RAN && !res->bad && res->rd.st == 0 && res->rd.pattern != 2 ? 0 : -1;
}
