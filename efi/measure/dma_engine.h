/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * DMA engines: devices that copy between host memory and their own memory on command. Each
 * engine is one table entry (efi/dma_engine.c: dma_engines[]) with its PCI IDs and ops over the
 * hardware interface, so a real engine (Intel CBDMA/IOAT) is another entry beside QEMU's edu.
 * measure_dma_engine() does a verified round trip host -> device -> host and times each leg.
 */
#ifndef EFIPERF_DMA_ENGINE_H
#define EFIPERF_DMA_ENGINE_H

#include <stdint.h>
#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"

struct dma_engine {
	const char *name;
	uint16_t vendor, device;
	uint64_t dma_mask;        /* highest host address the engine can reach */
	uint64_t dev_buffer;      /* device-side address of its buffer */
	uint32_t dev_buffer_bytes;
	/* Copy `bytes` between host physical address `host` and the device buffer (to_device = 1:
	 * host -> device). regs = the engine's register BAR. Polls for completion until
	 * `timeout_ticks` of now() have passed: HW_ERROR on timeout. Pure over the hardware
	 * interface (the clock is passed in), so engines are tested on a register model. */
	hw_status (*copy)(const struct hw *hw, uint64_t regs, uint64_t host, uint32_t bytes, int to_device,
			  uint64_t timeout_ticks, uint64_t (*now)(void));
	unsigned regs_bar;
};

/* The engine table entry for a PCI vendor:device, or NULL. */
const struct dma_engine *dma_engine_find(uint16_t vendor, uint16_t device);

/* Round trip through the engine at cfg->dma_engine (nothing when none). Returns 0, or -1 after
 * reporting an error (unknown device, BAR, timeout, data mismatch). */
struct dma_plan;
int measure_dma_engine(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
                       const struct dma_plan *dp);

#endif
