/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A CXL memory device's CPMU (pmu/uncore/cxl_cpmu.h, CXL 3.1 8.2.7) as a window attachment
 * (efi/measure/attach.h), kind "cxl_cpmu":
 *
 *   prepare   probe the block at `base` (reads only), program S2M DRS MemData (gid 0x25 bit 0:
 *             data the device returned), M2S RwD MemWr (gid 0x21 bit 1: data written to it),
 *             M2S Req MemRd (gid 0x20 bit 1) and clock ticks (gid 0 bit 0), frozen at 0, each
 *             on the counter that takes it, through the attachment's save-set
 *   start     unfreeze our counters (Freeze register), free-running ones read
 *   stop      freeze them again
 *   read      the counts (one wrap from Overflow Status), and the self-check: DRS MemData x 64
 *             and RwD MemWr x 64 bytes against expected_read / expected_write, the bytes the
 *             window's kernels moved from / to the CXL memory (the caller sets them between
 *             stop and read); `ok` when they follow within SELF_CHECK_TOLERANCE_MILLI, `off`
 *             otherwise (e.g. counted twice)
 *   restore   every register written put back (saveset_restore), a failed one named in the
 *             set's report; also after a prepare that failed half way
 *
 * The save-set is the pmu/saveset.h mechanism over storage inside the state, so restoring
 * this attachment puts back this CPMU's registers and nothing of the other attachments'.
 * Pure, over struct hw: host-tested on tests/model/cxl_cpmu_model.c.
 */
#ifndef EFIPERF_CXL_CPMU_ATTACH_H
#define EFIPERF_CXL_CPMU_ATTACH_H

#include <stdint.h>
#include "efi/measure/attach.h"
#include "pmu/uncore/cxl_cpmu.h"
#include "pmu/self_check.h"

#define CXL_CPMU_ATTACH_SAVES 48   /* Freeze + (Configuration, Filter 0, Counter) of up to 8 counters, with room */
#define CXL_CPMU_ATTACH_EVENTS 4   /* DRS MemData, RwD MemWr, Req MemRd, clock ticks */

struct cxl_cpmu_attach {
	uint64_t base;                              /* in: the CPMU block's MMIO base */
	uint64_t expected_read, expected_write;     /* in, before read: bytes the kernels moved */
	struct cxl_cpmu pmu;
	struct cxl_cpmu_set set;
	struct saveset ss;
	struct saved_reg store[CXL_CPMU_ATTACH_SAVES];
	struct self_check check;                    /* out, after read */
	struct saveset_report restore;              /* out, after restore */
};

/* The ops; the attachment's self points to a struct cxl_cpmu_attach with base set. */
extern const struct attachment_ops cxl_cpmu_attach_ops;

#endif
