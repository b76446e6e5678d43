/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blockio_target: the `dma_write_lba` setting, the only way efiperf ever writes to a disk.
 *
 *   none                              (default) no writes
 *   0000:00:07.0 2048-4095            blocks 2048..4095 (inclusive, the disk's own block size)
 *   00:07.0 0x800-0xFFF               of the whole-disk Block IO device behind that PCI function
 *   0000:01:00.0/ns2 2048-4095        ... of NVMe namespace 2 of that function (NSID, NVMe 2.0
 *                                     3.2.1: 1..FFFFFFFEh), as its device path names it
 *   0000:00:1f.2/port1 0-2047         ... of the disk on SATA port 1 of that AHCI function
 *                                     (HBA port number of the SATA device path node)
 * A function with several disks needs the /nsN or /portN (efi/measure/blockio_measure.c says so
 * as a config error); with one disk it may be left out.
 *
 * The device and the range are named together in one value, so a write can never follow a
 * changed `dma_blockio` to another disk. Pure: unit-tested and fuzzed on the host.
 */
#ifndef EFIPERF_BLOCKIO_TARGET_H
#define EFIPERF_BLOCKIO_TARGET_H

#include <stddef.h>
#include <stdint.h>

#define BLOCKIO_LBA_MAX ((1ull << 63) - 1)

enum blockio_unit { BLOCKIO_UNIT_ANY, BLOCKIO_UNIT_NS, BLOCKIO_UNIT_PORT };

#define BLOCKIO_NSID_MAX 0xFFFFFFFEu   /* NVMe 2.0 3.2.1: FFFFFFFFh is the broadcast value */
#define BLOCKIO_PORT_MAX 0xFFFFu       /* UEFI 2.10 10.3.4.6: HBA Port Number is a UINT16 */

struct blockio_target {
	int set;                   /* 0: none */
	uint64_t bdf;              /* CFG_BDF() packing (efi/config/bdf.h) */
	enum blockio_unit unit;    /* which disk of the function: any (the only one), a namespace, a port */
	uint32_t unit_no;          /* the NSID or the HBA port number */
	uint64_t first, last;      /* inclusive logical block addresses */
};

/* Parse v[0..n). Returns 0, or -1 with msg (msgsz bytes) saying what is wrong. */
int blockio_target_parse(const char *v, size_t n, struct blockio_target *t, char *msg, size_t msgsz);

#endif
