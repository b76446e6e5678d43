/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * MMIO kernel: 64- and 32-bit read loops (and, only with mmio_write = on, a write loop checked by
 * reading back) over a memory BAR of the PCI function mmio_bdf, each in an interrupt-masked
 * window on the boot CPU. Reports MB/s, ns per access, and a checksum of everything read (the sum
 * of the words, mod 2^64) that a test can recompute from what backs the BAR. I/O BARs, absent
 * and unassigned BARs are refused with an error naming the BAR.
 */
#ifndef EFIPERF_MMIO_MEASURE_H
#define EFIPERF_MMIO_MEASURE_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"

/* The request (the function answers, the BAR is an assigned memory BAR; else an error record
 * naming mmio_bdf and the BAR), mmio_measure (efi/measure/mmio_run.h) on the firmware's windows
 * with dma_window_run, then mmio_record (efi/out/mmio_out.h). Returns 0, or -1 after reporting
 * an error. Does nothing when mmio_bdf is none. */
struct dma_plan;
int measure_mmio(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
                 const struct dma_plan *dp);

#endif
