/* SPDX-License-Identifier: BSD-2-Clause */
/* The MMIO measurement's run (efi/measure/mmio_run.h): pure over the measure_ctx. */
#include <string.h>
#include "efi/measure/mmio_run.h"
#include "pmu/metrics.h"

/* Read kernels: every access is a volatile load of exactly that width; the sum keeps the loads
 * from being dropped. */
static uint64_t read64_kernel(void *p)
{
	const struct mmio_arg *a = p;
	volatile const uint64_t *w = (volatile const uint64_t *)a->base;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < a->bytes / sizeof(uint64_t); i++)
		sum += w[i];
	return sum;
}

static uint64_t read32_kernel(void *p)
{
	const struct mmio_arg *a = p;
	volatile const uint32_t *w = (volatile const uint32_t *)a->base;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < a->bytes / sizeof(uint32_t); i++)
		sum += w[i];
	return sum;
}

static uint64_t write64_kernel(void *p)
{
	const struct mmio_arg *a = p;
	volatile uint64_t *w = (volatile uint64_t *)a->base;
	for (uint64_t i = 0; i < a->bytes / sizeof(uint64_t); i++)
		w[i] = MMIO_WRITE_PATTERN * (i + 1);
	return 0;
}

const struct mmio_kernel mmio_kernels[MMIO_NKERNELS] = {
	{ "mmio_read64", read64_kernel, 8, 0 },
	{ "mmio_read32", read32_kernel, 4, 0 },
	{ "mmio_write64", write64_kernel, 8, 1 },
};

/* One kernel as the DMA window's slices: each slice runs the whole kernel once in its own
 * interrupt-masked window (with CHA multiplexing every group sees a run). */
struct mmio_slices {
	const struct measure_ctx *ctx;
	const struct window_spec *spec;
	uint64_t ticks;
	uint32_t rounds;
	struct window_result w;      /* the last slice's window */
};

static uint64_t mmio_slice(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)slice;
	(void)nslices;
	struct mmio_slices *c = arg;
	c->ctx->win.run(c->ctx->win.ctx, c->spec, &c->w);
	c->ticks += c->w.span_ticks;
	c->rounds++;
	return metric_ticks_to_ns(c->w.span_ticks, c->ctx->timer_hz);
}

static int read_back(const struct mmio_request *req)
{
	volatile const uint64_t *rb = (volatile const uint64_t *)req->base;
	int ok = 1;
	for (uint64_t i = 0; i < req->bytes / sizeof(uint64_t); i++)
		ok &= rb[i] == MMIO_WRITE_PATTERN * (i + 1);
	return ok;
}

static void mmio_kernel_run(const struct measure_ctx *ctx, const struct mmio_request *req, const struct mmio_kernel *mk,
		       struct mmio_kernel_result *kr)
{
	struct mmio_arg arg = { req->base, req->bytes };
	struct window_cpu cpu = { .cpu = req->cpu, .arg = &arg };
	struct window_spec spec = { .kernel = mk->fn, .cpus = &cpu, .ncpus = 1, .mask_interrupts = 1 };
	struct window_spec empty = { .kernel = NULL, .cpus = &cpu, .ncpus = 1, .mask_interrupts = 1 };
	memset(kr, 0, sizeof(*kr));
	kr->k = mk;
	ctx->win.run(ctx->win.ctx, &empty, &kr->floor);
	struct mmio_slices c = { ctx, &spec, 0, 0, { 0 } };
	struct dma_window dw = { mk->name, mmio_slice, &c, NULL, MMIO_NO_DMA, req->dev, req->addr64, NULL };
	req->dma_run(req->dma_ctx, &dw, &kr->dma);
	kr->w = c.w;
	kr->rounds = c.rounds;
	kr->moved = req->bytes * c.rounds;
	kr->accesses = kr->moved / mk->width;
	kr->ns = metric_ticks_to_ns(c.ticks, ctx->timer_hz);
	/* the data of a read flows device -> host, of a write host -> device */
	link_limit_rate(&kr->dma.ll, mk->writes ? kr->moved : 0, mk->writes ? 0 : kr->moved, kr->ns);
	kr->verified = mk->writes ? read_back(req) : -1;
	kr->checksum = cpu.ret;
}

int mmio_measure(const struct measure_ctx *ctx, const struct mmio_request *req, struct mmio_result *res)
{
	int rc = 0;
	res->nk = 0;
	for (unsigned k = 0; k < MMIO_NKERNELS; k++) {
		if (mmio_kernels[k].writes && !req->writes)
			continue;
		struct mmio_kernel_result *kr = &res->k[res->nk++];
		mmio_kernel_run(ctx, req, &mmio_kernels[k], kr);
		if (kr->verified == 0)
			rc = -1;
	}
	return rc;
}
