/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dma_cpu_traffic's record writer (efi/measure/dma_cpu_run.h): the `dma_cpu_traffic` JSONL
 * record (window_ns, slices; dma {kernel, bdf, path, interrupts_masked, the read's members};
 * stream {function, kernel, cpus, array_bytes, passes, app_bytes, ns, gbps, interrupts_masked,
 * status, per_cpu [{cpu, passes, app_bytes, ns, gbps, placement}]}; self_check, link_limit)
 * and the `dma+cpu:` console line, or the error that stopped the run.
 */
#ifndef EFIPERF_DMA_CPU_OUT_H
#define EFIPERF_DMA_CPU_OUT_H

#include "efi/measure/dma_cpu_run.h"

/* Returns 0, or -1 after an error record (the run's status, a failed read, a STREAM CPU). */
int dma_cpu_record(const struct dma_cpu_request *req, const struct dma_cpu_result *res);

#endif
