/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Self-check of a DMA window: the bytes the counters saw against the bytes the traffic is known
 * to have moved, per direction, seen from memory:
 *   read  = the device read host memory  (a device write of storage, an NVMe submission entry
 *           or PRP list fetched, a DMA engine's host -> device leg). CHA: the platform's PCIe
 *           read formula (PCIRdCur on ICX and later; RdCur + RFO + CRd + DRd on SKX).
 *   write = the device wrote host memory (a read of storage, an NVMe completion entry, a DMA
 *           engine's device -> host leg). CHA: ItoM + ItoMCacheNear (ICX and later), RFO +
 *           ItoM (SKX). Formulas: PCM src/pcm-pcie.h (PurleyPlatform, WhitleyPlatform).
 *
 * States:
 *   ok             every direction with expected bytes is within 1 +- tolerance of them
 *   off            a direction with expected bytes is outside it (why names it and the ratio)
 *   not-advancing  bytes were expected, counters ran, and counted nothing in either direction
 *                  (e.g. QEMU's TCG reads uncore MSRs as 0)
 *   absent         no comparison is possible: nothing was expected (the window moves no DMA
 *                  bytes), or no counter counted the bytes (why says which)
 * Pure arithmetic: unit-tested on the host.
 */
#ifndef EFIPERF_SELF_CHECK_H
#define EFIPERF_SELF_CHECK_H

#include <stddef.h>
#include <stdint.h>

enum self_check_state { SELF_CHECK_OK, SELF_CHECK_OFF, SELF_CHECK_NOT_ADVANCING, SELF_CHECK_ABSENT };

/* Default tolerance, milli (100 = 10 %): what the device moves beyond the known bytes (command
 * fetches, descriptors, PRP lists a firmware driver builds) must stay under it. */
#define SELF_CHECK_TOLERANCE_MILLI 100u

/* Bytes per direction; have_* = 0 when that direction is unknown (not counted). */
struct self_check_bytes {
	uint64_t read, write;
	uint8_t have_read, have_write;
};

struct self_check {
	uint8_t state;                       /* enum self_check_state */
	uint64_t expected_read, expected_write;   /* bytes */
	uint64_t counted_read, counted_write;     /* bytes */
	uint8_t have_counted_read, have_counted_write;
	uint64_t ratio_read_milli, ratio_write_milli;   /* counted / expected x 1000 */
	uint8_t have_ratio_read, have_ratio_write;      /* only where expected > 0 and counted */
	uint32_t tolerance_milli;
	char why[200];
};

/* Compare counted with expected (bytes). counted NULL: no counter ran over the window (state
 * absent; absent_why says why, e.g. "cha = off"). tolerance_milli 0 takes the default. A
 * direction with nothing expected is not judged (ratio null). */
void self_check_compute(const struct self_check_bytes *expected, const struct self_check_bytes *counted,
			uint32_t tolerance_milli, const char *absent_why, struct self_check *out);

/* "ok", "off", "not-advancing", "absent". */
const char *self_check_state_name(uint8_t state);

#endif
