/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blockio_target: the `dma_write_lba` setting, the only way efiperf ever writes to a disk.
 *
 *   none                              (default) no writes
 *   0000:00:07.0 2048-4095            blocks 2048..4095 (inclusive, the disk's own block size)
 *   00:07.0 0x800-0xFFF               of the whole-disk Block IO device behind that PCI function
 *
 * The device and the range are named together in one value, so a write can never follow a
 * changed `dma_blockio` to another disk. Pure: unit-tested and fuzzed on the host.
 */
#ifndef EFIPERF_BLOCKIO_TARGET_H
#define EFIPERF_BLOCKIO_TARGET_H

#include <stddef.h>
#include <stdint.h>

#define BLOCKIO_LBA_MAX ((1ull << 63) - 1)

struct blockio_target {
	int set;                   /* 0: none */
	uint64_t bdf;              /* CFG_BDF() packing (efi/config/bdf.h) */
	uint64_t first, last;      /* inclusive logical block addresses */
};

/* Parse v[0..n). Returns 0, or -1 with msg (msgsz bytes) saying what is wrong. */
int blockio_target_parse(const char *v, size_t n, struct blockio_target *t, char *msg, size_t msgsz);

#endif
