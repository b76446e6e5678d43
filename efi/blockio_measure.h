/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Device DMA through the firmware's drivers: read `dma_bytes` from the start of the Block IO
 * device behind the PCI function `dma_blockio` (NVMe, AHCI, USB mass storage controllers...),
 * in 1 MiB transfers (EFI_BLOCK_IO_PROTOCOL.ReadBlocks, UEFI 2.10 section 13.9), and report
 * MB/s. The controller DMAs into our buffer; interrupts stay on (the firmware's drivers poll
 * with timers). Data carrying efiperf's pattern (efi/dma_pattern.h) is verified word by word.
 * Reads only: efiperf never writes to a disk.
 */
#ifndef EFIPERF_BLOCKIO_MEASURE_H
#define EFIPERF_BLOCKIO_MEASURE_H

#include "efi/config.h"
#include "efi/platform.h"

/* Returns 0, or -1 after reporting an error. Does nothing when dma_blockio is none. */
int measure_blockio(const struct platform *p, const struct efiperf_config *cfg);

#endif
