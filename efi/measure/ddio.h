/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The DDIO sweep's pure half (config `ddio_sweep`): the list of DMA target-buffer sizes, and the
 * IO LLC hit ratio of one point from the CHA metrics of its window.
 *
 * Intel Data Direct I/O lets an inbound PCIe write allocate or update lines in the LLC instead
 * of memory (Intel, "Intel Data Direct I/O Technology (Intel DDIO): A Primer", 2012); whether a
 * device's lines stay there depends on how big the buffer it writes is against the LLC share
 * DDIO may use. The CHA counts each IO request it takes into its TOR as an LLC hit or miss
 * (TOR_INSERTS.IO_HIT / IO_MISS, umask 0x04 with umask_ext 0xC001FD / 0xC001FE: perfmon
 * icelakex v1.30 uncore; PCM src/pcm-pcie.cpp prints the same IO hit/miss split with -e), and
 * cha_metrics' io_llc_hit_ratio = hits / (hits + misses) (pmu/uncore/intel_cha.h). A sweep runs
 * the same device read into buffers of each size and records that ratio at each point.
 * Which requests count: with the events TOR_INSERTS.IO_HIT and IO_MISS every IO request (the
 * device's ItoM writes of a Block IO read among them); with the ICX default set, the PCIRdCur
 * hit/miss pair only (the device reading memory).
 * Pure: host-tested.
 */
#ifndef EFIPERF_DDIO_H
#define EFIPERF_DDIO_H

#include <stddef.h>
#include <stdint.h>
#include "pmu/uncore/intel_cha.h"

#define DDIO_MAX_POINTS 8u
#define DDIO_BUF_MIN (4u << 10)      /* bytes: one page */
#define DDIO_BUF_MAX (1u << 30)      /* bytes */

/* `ddio_sweep` in v[0..n): none (or empty: *count = 0) or 1..DDIO_MAX_POINTS sizes in bytes,
 * comma-separated, K/M/G binary suffixes, each a multiple of 4K in 4K..1G, none twice.
 * Returns 0, or -1 with msg naming the value. */
int ddio_parse_sizes(const char *v, size_t n, uint32_t *sizes, int *count, char *msg, size_t msgsz);
/* The same as a config shape check (efi/config/config_value.h cfg_key.check). */
int ddio_sizes_check(const char *v, size_t n, char *msg, size_t msgsz);

enum ddio_state { DDIO_RATIO_OK, DDIO_RATIO_NOT_ADVANCING, DDIO_RATIO_ABSENT };

/* The IO LLC hit ratio of one point. */
struct ddio_ratio {
	uint8_t state;             /* enum ddio_state */
	uint64_t hits, misses;     /* IO TOR inserts that hit / missed the LLC (scaled counts) */
	uint64_t ratio_milli;      /* hits / (hits + misses) x 1000, rounded; only when state ok */
	char why[160];             /* why not ok */
};

/* The ratio of a window from its CHA totals:
 *   m NULL (no CHA counters ran over the window)        absent, why = absent_why
 *   the events count no IO hit and miss pair            absent, why names the events to add
 *   moved_bytes 0 (the device moved nothing)            absent
 *   hits + misses 0 while the device moved bytes        not-advancing (QEMU's TCG reads the
 *                                                       uncore MSRs as 0)
 *   else                                                ok, ratio_milli
 */
void ddio_ratio_of(const struct cha_metric_values *m, uint64_t moved_bytes, const char *absent_why,
		   struct ddio_ratio *r);

/* "ok", "not-advancing", "absent". */
const char *ddio_state_name(uint8_t state);

#endif
