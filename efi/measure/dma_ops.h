/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How a measurement's run drives a DMA window (efi/measure/dma_window.h) without the firmware:
 * struct dma_window_ops in its request. The firmware's (efi/measure/dma_ops.c): dma_window_run
 * and dma_window_rate on this hw and platform.
 * Usage: struct dma_ops_efi e; req.dma = dma_ops_efi(&e, hw, p);  (e outlives the run)
 */
#ifndef EFIPERF_DMA_OPS_H
#define EFIPERF_DMA_OPS_H

#include "arch/hw.h"
#include "efi/platform.h"
#include "efi/measure/dma_window.h"

/* The DMA window with its counters: the firmware's dma_window_run and dma_window_rate
 * (efi/measure/dma_window.h) or a test's. run calls w->fn(w->arg, k, n) for each slice. */
struct dma_window_ops {
	int (*run)(void *ctx, const struct dma_window *w, struct dma_window_result *r);
	void (*rate)(struct dma_window_result *r, uint64_t read_bytes, uint64_t write_bytes, uint64_t ns);
	void *ctx;
};

struct dma_ops_efi {
	const struct hw *hw;
	const struct platform *p;
	const struct dma_plan *dp;
};

struct dma_window_ops dma_ops_efi(struct dma_ops_efi *e, const struct hw *hw, const struct platform *p,
				  const struct dma_plan *dp);

#endif
