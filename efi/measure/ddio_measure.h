/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The DDIO sweep (config `ddio_sweep`, efi/measure/ddio.h): for each target-buffer size, the
 * disk behind `dma_blockio` is read (dma_bytes, through the firmware's Block IO, 1 MiB or
 * buffer-sized transfers) into a buffer of that size, as a DMA window under the run plan's CHA
 * counters and the boot CPU's core PMU (efi/measure/dma_window.h). One `ddio` record per point:
 * the read's rate, the CHA IO LLC hit ratio of that window, self_check and link_limit; each
 * window's `cha` record has kernel "ddio_sweep:<buffer bytes>".
 */
#ifndef EFIPERF_DDIO_MEASURE_H
#define EFIPERF_DDIO_MEASURE_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"

/* Nothing when ddio_sweep is none. Returns 0, or -1 after reporting an error. */
struct dma_plan;
int measure_ddio(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
                 const struct dma_plan *dp);

#endif
