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

/* Returns 0, or -1 after reporting an error. Does nothing when mmio_bdf is none. */
int measure_mmio(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg);

#endif
