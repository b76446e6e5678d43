/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The DMA engine round trip's request, run and result (efi/measure/shape.h): two host buffers
 * of the engine's dev_buffer_bytes below its dma_mask (the source filled with a fixed pattern,
 * the destination zeroed each slice), Bus Master and Memory Space Enable set in the Command
 * register for the window (PCI Local Bus 3.0 section 6.2.2) and the register put back after it;
 * each slice of the DMA window (efi/measure/dma_ops.h struct dma_window_ops) copies host ->
 * device -> host through the engine's ops (efi/measure/dma_engine.h) and compares. Pure over
 * ctx->hw, ctx->clock and the request's ops; efi/out/dma_engine_out.c writes the record.
 */
#ifndef EFIPERF_DMA_ENGINE_RUN_H
#define EFIPERF_DMA_ENGINE_RUN_H

#include <stdint.h>
#include "efi/measure/dma_engine.h"
#include "efi/measure/dma_ops.h"
#include "efi/measure/shape.h"

#define DMA_ENGINE_TIMEOUT_S 5u   /* each leg's completion poll */

/* Host memory the engine can reach (identity-mapped: no IOMMU under UEFI). */
struct dma_engine_mem {
	/* bytes of whole pages at or below max_addr: its physical address, 0 when none */
	uint64_t (*alloc_below)(uint64_t bytes, uint64_t max_addr);
	void (*free)(uint64_t addr, uint64_t bytes);
};

struct dma_engine_request {
	struct hw_pci_addr bdf;
	char name[16];                        /* "0000:00:03.0" */
	const struct dma_engine *e;
	uint64_t regs;                        /* its register BAR's base */
	const struct dma_engine_mem *mem;
	struct dma_window_ops dma;
};

struct dma_engine_result {
	int no_memory;                        /* the host buffers could not be had: nothing ran */
	uint64_t src, dst;                    /* host buffers' physical addresses */
	uint32_t bytes;                       /* each leg's bytes */
	uint32_t rounds;                      /* round trips completed */
	hw_status st;                         /* the first failed leg's, HW_OK */
	int verified;                         /* every round trip came back equal, at least one ran */
	uint64_t to_ticks, from_ticks;        /* ctx->clock ticks of the legs, over every round */
	uint64_t timer_hz;
	struct self_check_bytes moved;        /* read: the engine read host memory; write: it wrote it */
	struct dma_window_result win;
};

/* The source's pattern word i (any fixed values the destination cannot hold by chance). */
uint64_t dma_engine_word(uint32_t i);

/* Returns 0 when every round trip completed and compared equal; -1 otherwise (res says why). */
int dma_engine_run(const struct measure_ctx *ctx, const struct dma_engine_request *req, struct dma_engine_result *res);

#endif
