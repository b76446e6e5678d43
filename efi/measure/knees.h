/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * knees: the cache levels a latency curve shows, found from the curve alone, and set beside the
 * levels the CPU reports (CPUID leaf 4 / 0x8000001D, CLIDR_EL1/CCSIDR_EL1: arch/cpuinfo.h).
 *
 * A curve is n points (working-set bytes ascending, latency per load in ps). It is cut into
 * plateaus: runs of points each within KNEE_TOLERANCE_PCT of the median of the run so far. A
 * single point above the run whose successor is back inside is noise and stays in the run; the
 * points of a rise between two plateaus (each more than the tolerance above the one before) belong
 * to none. A knee is the last working set of a plateau that a higher plateau or rise follows: the
 * largest working set still served at that plateau's latency. The last plateau (memory) has none.
 *
 * Matching: each data or unified cache the CPU reports, smallest first, takes the nearest knee
 * not yet taken within a factor of two of its size ("agrees"); a reported level without such a
 * knee and a knee no reported level took are both disagreements, reported with why.
 * Pure arithmetic: no EFI calls, host-tested on synthetic curves.
 */
#ifndef EFIPERF_KNEES_H
#define EFIPERF_KNEES_H

#include <stdint.h>
#include "arch/cpuinfo.h"

#define KNEE_TOLERANCE_PCT 25u
#define KNEES_MAX 8

struct knee {
	uint64_t bytes;         /* last working set of the plateau, bytes */
	uint64_t ps;            /* the plateau's median latency, ps per load */
	uint32_t first, last;   /* the plateau's points (indices into the curve) */
};

/* The knees of the curve (bytes[], ps[] of n points, bytes ascending) into out[0..max-1].
 * Returns how many; *memory_ps gets the last plateau's median latency (0 when the curve ends
 * in a rise that never levels off). */
int knees_find(const uint64_t *bytes, const uint64_t *ps, int n, struct knee *out, int max, uint64_t *memory_ps);

/* One reported cache level set beside the curve. */
struct knee_level {
	uint32_t level;               /* the CPU's level number */
	uint64_t reported_bytes;      /* its size as the CPU reports it */
	int knee;                     /* index into the knees, -1 when none agrees */
	int agrees;                   /* 1: a knee within a factor of two of reported_bytes */
	const char *why;              /* NULL when agrees; else why not */
};

/* Match the data/unified caches of ci (ci->cache) against knees[0..nk-1] of a curve whose
 * largest working set is max_bytes. levels gets one entry per reported level (at most
 * CPUINFO_MAX_CACHES); taken[k] = 1 for each knee a level took. Returns the number of levels;
 * *disagreements counts the levels that do not agree plus the knees no level took. */
int knees_match(const struct cpu_info *ci, const struct knee *knees, int nk, uint64_t max_bytes,
		struct knee_level *levels, uint8_t *taken, int *disagreements);

#endif
