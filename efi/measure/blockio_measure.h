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
#include "efi/config/blockio_target.h"
#include "efi/platform.h"
#include "efi/measure/blockio_run.h"
#include "efi/measure/plan_check.h"
#include "pmu/self_check.h"

/* Returns 0, or -1 after reporting an error. Does nothing when dma_blockio is none. The read is
 * a DMA window (efi/measure/dma_window.h): CHA and core counters around it, and the record
 * carries self_check (expected: the device wrote `bytes` of memory) and link_limit. */
struct dma_plan;
int measure_blockio(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
                    const struct dma_plan *dp);

/* With dma_write_lba set: write its blocks of the disk behind its PCI function with the pattern
 * (1 MiB WriteBlocks calls, timed), FlushBlocks, read them back and verify; one
 * `measurement` record (kernel blockio_write: bytes, ns, GB/s, flush_ns, verified). Refused,
 * with nothing written, for a missing or read-only medium, a range past the last block, or the
 * disk holding the volume efiperf booted from (image: efiperf's EFI_HANDLE). Returns 0, or -1
 * after reporting an error. */
int measure_blockio_write(const struct platform *p, const struct efiperf_config *cfg, void *image);

/* The run plan's Block IO checks, before the first window: dma_blockio names a whole disk with
 * media whose block size divides the 1 MiB transfer; dma_write_lba's disk is there, writable,
 * holds the range and is not the boot disk. Errors are added to out under their key (the caller
 * reports them as config errors). Returns the number added. */
int blockio_plan_check(const struct efiperf_config *cfg, void *image, struct plan_errors *out);

/* The disk behind the PCI function bdf (CFG_BDF() packing) as a blockio_dev over the firmware's
 * Block IO (efi/measure/blockio_run.h). Returns 0, or -1 with why when no whole disk is bound. */
int blockio_dev_find(uint64_t bdf, struct blockio_dev *d, char *why, size_t n);

#define BLOCKIO_MAX_DISKS 16   /* disks of one function looked at (namespaces, SATA ports) */
#define BLOCKIO_DISK_NAME BLOCKIO_DISK_NAME_MAX   /* efi/measure/blockio_run.h */

/* One whole disk behind a PCI function, and which one it is: the NVMe namespace or SATA port
 * its device path names (UEFI 2.10 10.3.4.24, 10.3.4.6), BLOCKIO_UNIT_ANY when it names none. */
struct blockio_disk {
	void *bio;                   /* EFI_BLOCK_IO * */
	void *handle;                /* its EFI_HANDLE */
	enum blockio_unit unit;
	uint32_t unit_no;
};

/* The whole-disk Block IO devices behind the PCI function bdf: up to max into out, in handle
 * order; returns how many there are (may be more than max). */
int blockio_disks(uint64_t bdf, struct blockio_disk *out, int max);
/* "0000:01:00.0/ns2", "0000:00:1f.2/port1", or bdf alone when the disk names no unit: the
 * syntax dma_write_lba accepts (efi/config/blockio_target.h). */
void blockio_disk_name(const struct blockio_disk *d, const char *bdf, char *buf, size_t n);

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
