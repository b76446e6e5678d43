/* SPDX-License-Identifier: BSD-2-Clause */
#include <string.h>
#include "efi/measure/numa_run.h"
#include "pmu/metrics.h"

#define LINE_BYTES 64u
#define CHASE_SEED 0xC0FFEEull
#define CHASE_PASSES 2u
#define READ_PASSES 2u

struct numa_work {
	struct window_cpu wc[WINDOW_MAX_CPUS];
	struct kernel_run runs[WINDOW_MAX_CPUS];
};

uint64_t numa_run_kernel(void *arg)
{
	kernel_run(arg);
	return ((struct kernel_run *)arg)->result;
}

/* One cell: chase on the node's first CPU, then the load kernel on all its CPUs. */
static void measure_cell(const struct measure_ctx *ctx, const struct numa_request *req, struct numa_work *w,
			 const struct numa_node *cn, void *buf, struct numa_cell *out)
{
	uint64_t size = req->size;
	kernel_chase_build(buf, size, LINE_BYTES, CHASE_SEED);
	w->runs[0] = (struct kernel_run){ .k = req->chase, .b = buf, .bytes = size, .passes = CHASE_PASSES,
					  .timer = ctx->clock };
	w->wc[0] = (struct window_cpu){ .cpu = req->cpu[cn->first], .arg = &w->runs[0] };
	struct window_spec spec = { .kernel = numa_run_kernel, .cpus = w->wc, .ncpus = 1, .mask_interrupts = 1 };
	out->ran = ctx->win.run(ctx->win.ctx, &spec, &out->wl) == 0 && w->runs[0].status == 0;
	out->ps = kernel_ps_per_load(w->runs[0].ticks_min, ctx->timer_hz, size / LINE_BYTES);
	/* read: the node's CPUs split the buffer in equal whole-block shares */
	int n = 0;
	for (int i = 0; i < req->nsel; i++)
		if (req->cpu_node[i] == (int32_t)cn->domain)
			w->wc[n++] = (struct window_cpu){ .cpu = req->cpu[i] };
	uint64_t share = size / (uint64_t)n / req->load->block_bytes * req->load->block_bytes;
	for (int i = 0; i < n; i++) {
		w->runs[i] = (struct kernel_run){ .k = req->load, .b = (char *)buf + share * (uint64_t)i, .bytes = share,
						  .passes = READ_PASSES, .timer = ctx->clock };
		w->wc[i].arg = &w->runs[i];
	}
	spec.ncpus = n;
	out->ran &= share > 0 && ctx->win.run(ctx->win.ctx, &spec, &out->wb) == 0;
	uint64_t worst = 0;
	for (int i = 0; i < n; i++) {
		out->ran &= w->runs[i].status == 0;
		worst = w->runs[i].ticks_min > worst ? w->runs[i].ticks_min : worst;
	}
	/* all CPUs read at once: the slowest CPU's best pass bounds the total */
	out->gbps_milli = metric_gbps_milli(share * (uint64_t)n, metric_ticks_to_ns(worst, ctx->timer_hz));
}

int numa_measure(const struct measure_ctx *ctx, const struct numa_request *req, struct numa_result *res)
{
	memset(res, 0, sizeof(*res));
	struct numa_work *w = ctx->alloc(sizeof(*w));
	if (!w)
		return -1;
	int rc = 0;
	for (int c = 0; c < req->nn; c++)
		for (int m = 0; m < req->nn; m++) {
			struct numa_cell *x = &res->cell[c][m];
			if (!req->node[c].ncpu || !req->node[m].nr)
				continue;
			void *buf = ctx->alloc_in(req->size, req->node[m].r, req->node[m].nr);
			x->placed = buf != NULL;
			if (buf) {
				measure_cell(ctx, req, w, &req->node[c], buf, x);
				ctx->free_in(buf, req->size);
			}
			rc |= x->ran ? 0 : -1;
		}
	ctx->free(w);
	return rc;
}
