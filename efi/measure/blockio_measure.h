/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Device DMA through the firmware's drivers: read `dma_bytes` from the start of the Block IO
 * device behind the PCI function `dma_blockio` (NVMe, AHCI, USB mass storage controllers...),
 * in 1 MiB transfers (EFI_BLOCK_IO_PROTOCOL.ReadBlocks, UEFI 2.10 section 13.9), and report
 * MB/s. The controller DMAs into our buffer; interrupts stay on (the firmware's drivers poll
 * with timers). Data carrying efiperf's pattern (efi/dma_pattern.h) is verified word by word.
 * Reads, unless `dma_write_lba` names a disk and a block range (efi/blockio_target.h): then
 * those blocks, and only those, are written with the pattern, flushed and read back.
 */
#ifndef EFIPERF_BLOCKIO_MEASURE_H
#define EFIPERF_BLOCKIO_MEASURE_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"

/* Returns 0, or -1 after reporting an error. Does nothing when dma_blockio is none. The read is
 * a DMA window (efi/measure/dma_window.h): CHA and core counters around it, and the record
 * carries self_check (expected: the device wrote `bytes` of memory) and link_limit. */
int measure_blockio(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg);

/* With dma_write_lba set: write its blocks of the disk behind its PCI function with the pattern
 * (1 MiB WriteBlocks calls, timed), FlushBlocks, read them back and verify; one
 * `measurement` record (kernel blockio_write: bytes, ns, GB/s, flush_ns, verified). Refused,
 * with nothing written, for a missing or read-only medium, a range past the last block, or the
 * disk holding the volume efiperf booted from (image: efiperf's EFI_HANDLE). Returns 0, or -1
 * after reporting an error. */
int measure_blockio_write(const struct platform *p, const struct efiperf_config *cfg, void *image);

/* The Block IO protocol (EFI_BLOCK_IO *: the whole device, not a partition) of the disk behind
 * the PCI function `bdf` (CFG_BDF() packing), and its EFI_HANDLE in *handle when handle is
 * not NULL; NULL when no such disk is bound. */
void *blockio_find(uint64_t bdf, void **handle);

/* 1 when the handle `h` (a disk, or the PCI controller a disk hangs from) is on the path of the
 * volume efiperf was loaded from (image: efiperf's EFI_HANDLE): its device path without the
 * end node begins the boot volume's (UEFI 2.10 10.3: a child's path is its parent's path plus
 * nodes). efiperf writes its logs to that volume. */
int blockio_holds_boot_volume(void *h, void *image);

#endif
