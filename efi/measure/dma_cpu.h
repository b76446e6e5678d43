/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Device DMA and CPU memory traffic in one window (config `dma_cpu_traffic`): the selected CPUs
 * other than the boot CPU run a STREAM function (efi/measure/dma_cpu_run.h:
 * passes over their own three stream_size arrays, repeated until the DMA is done) behind the
 * window's barrier with interrupts masked, while the boot CPU reads dma_bytes of the disk behind
 * dma_blockio through the firmware's Block IO (efi/measure/blockio_measure.h; its timer stays
 * on). The window runs under the run plan's CHA counters and the boot CPU's core PMU
 * (efi/measure/dma_window.h). One `dma_cpu_traffic` record carries both rates from that window,
 * the window's span, self_check (what the device wrote) and link_limit.
 */
#ifndef EFIPERF_DMA_CPU_H
#define EFIPERF_DMA_CPU_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"
#include "efi/measure/plan_check.h"

/* Plan check: dma_cpu_traffic needs a selected CPU other than the boot CPU (bsp: its MP
 * services number); adds a config error under dma_cpu_traffic otherwise. Returns the errors
 * added. */
int dma_cpu_plan_check(const struct efiperf_config *cfg, uint32_t bsp, struct plan_errors *out);

/* Nothing when dma_cpu_traffic is none. Returns 0, or -1 after reporting an error. */
struct dma_plan;
int measure_dma_cpu(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
                    const struct dma_plan *dp);

#endif
