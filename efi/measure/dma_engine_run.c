/* SPDX-License-Identifier: BSD-2-Clause */
/* The DMA engine round trip (efi/measure/dma_engine_run.h): pure over ctx and the request. */
#include <string.h>
#include "efi/measure/dma_engine_run.h"
#include "pmu/metrics.h"

#define PCI_COMMAND_REG 0x04u         /* PCI Local Bus 3.0 6.2.2 Command register */
#define PCI_COMMAND_MEMORY 0x0002u    /* Memory Space Enable */
#define PCI_COMMAND_MASTER 0x0004u    /* Bus Master Enable */
#define PATTERN 0xA5C3E1F00F1E3C5Aull
#define PATTERN_STEP 0x9E3779B97F4A7C15ull   /* 2^64 / golden ratio: consecutive words differ */
#define DMA_4GIB (1ull << 32)         /* buffers above: 4 DW Memory Write headers */

struct trip {
	const struct measure_ctx *ctx;
	const struct dma_engine_request *req;
	struct dma_engine_result *res;
};

uint64_t dma_engine_word(uint32_t i)
{
	return PATTERN ^ (i * PATTERN_STEP);
}

/* One round trip host -> device -> host per slice of the window: with CHA multiplexing every
 * group sees its own; the data is checked each time. */
static uint64_t trip_slice(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)slice;
	(void)nslices;
	struct trip *t = arg;
	const struct dma_engine *e = t->req->e;
	struct dma_engine_result *res = t->res;
	const struct hw *hw = t->ctx->hw;
	uint64_t timeout = t->ctx->timer_hz * DMA_ENGINE_TIMEOUT_S;
	if (res->st != HW_OK)
		return 0;
	memset((void *)(uintptr_t)res->dst, 0, res->bytes);
	uint64_t t0 = t->ctx->clock();
	res->st = e->copy(hw, t->req->regs, res->src, res->bytes, 1, timeout, t->ctx->clock);
	uint64_t t1 = t->ctx->clock();
	if (res->st == HW_OK)
		res->st = e->copy(hw, t->req->regs, res->dst, res->bytes, 0, timeout, t->ctx->clock);
	uint64_t t2 = t->ctx->clock();
	res->to_ticks += t1 - t0;
	res->from_ticks += t2 - t1;
	if (res->st != HW_OK)
		return 0;
	res->rounds++;
	res->moved.read += res->bytes;
	res->moved.write += res->bytes;
	res->verified &= memcmp((void *)(uintptr_t)res->src, (void *)(uintptr_t)res->dst, res->bytes) == 0;
	return metric_ticks_to_ns(t2 - t0, t->ctx->timer_hz);
}

/* The window with bus mastering on; the Command register put back after it. */
static void window(const struct measure_ctx *ctx, const struct dma_engine_request *req, struct dma_engine_result *res)
{
	uint32_t cmd = 0;
	struct trip t = { ctx, req, res };
	hw_pci_read32(ctx->hw, req->bdf, PCI_COMMAND_REG, &cmd);
	hw_pci_write32(ctx->hw, req->bdf, PCI_COMMAND_REG, cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	struct dma_window w = { "dma_engine_roundtrip", trip_slice, &t, &res->moved, NULL, req->bdf,
				res->dst + res->bytes > DMA_4GIB, NULL };
	req->dma.run(req->dma.ctx, &w, &res->win);
	hw_pci_write32(ctx->hw, req->bdf, PCI_COMMAND_REG, cmd);
	uint64_t to_ns = metric_ticks_to_ns(res->to_ticks, ctx->timer_hz);
	uint64_t from_ns = metric_ticks_to_ns(res->from_ticks, ctx->timer_hz);
	/* the two legs run one after the other; the link limit takes the slower direction's least
	 * time (link_limit_rate), so the fraction is a lower bound here (the sum would be exact) */
	req->dma.rate(&res->win, res->moved.read, res->moved.write, to_ns + from_ns);
}

int dma_engine_run(const struct measure_ctx *ctx, const struct dma_engine_request *req, struct dma_engine_result *res)
{
	const struct dma_engine *e = req->e;
	memset(res, 0, sizeof(*res));
	*res = (struct dma_engine_result){ .bytes = e->dev_buffer_bytes, .st = HW_OK, .verified = 1, .timer_hz = ctx->timer_hz };
	res->src = req->mem->alloc_below(res->bytes, e->dma_mask);
	res->dst = res->src ? req->mem->alloc_below(res->bytes, e->dma_mask) : 0;
	if (!res->src || !res->dst) {
		if (res->src)
			req->mem->free(res->src, res->bytes);
		res->no_memory = 1;
		res->verified = 0;
		return -1;
	}
	uint64_t *s = (uint64_t *)(uintptr_t)res->src;
	for (uint32_t i = 0; i < res->bytes / 8; i++)
		s[i] = dma_engine_word(i);
	memset((void *)(uintptr_t)res->dst, 0, res->bytes);
	window(ctx, req, res);
	req->mem->free(res->src, res->bytes);
	req->mem->free(res->dst, res->bytes);
	res->verified = res->verified && res->st == HW_OK && res->rounds;
	return res->verified ? 0 : -1;
}
