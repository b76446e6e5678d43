/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The DMA engine round trip's record writer (efi/measure/dma_engine_run.h): one `measurement`
 * record (kernel dma_engine_roundtrip, engine, bdf, bytes, rounds, host_src, host_dst,
 * to_device_ns, from_device_ns, status, verified, self_check, link_limit) and the `dma:`
 * console line, or the error that stopped it.
 */
#ifndef EFIPERF_DMA_ENGINE_OUT_H
#define EFIPERF_DMA_ENGINE_OUT_H

#include "efi/measure/dma_engine_run.h"

/* Returns 0, or -1 after an error record. */
int dma_engine_record(const struct dma_engine_request *req, const struct dma_engine_result *res);

#endif
