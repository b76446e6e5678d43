/* SPDX-License-Identifier: BSD-2-Clause */
/* A set of physical address ranges (e.g. the UEFI memory map) and whether it covers a window.
 * Pure: host-tested. */
#ifndef EFIPERF_MEMRANGES_H
#define EFIPERF_MEMRANGES_H

#include <stdint.h>

struct memrange { uint64_t start, end; };  /* [start, end) */

/* 1 when every byte of [addr, addr + len) lies in some range of r[0..n-1] (ranges may be
 * unsorted, adjacent or overlapping; a window may span several). 0 otherwise, also for len 0
 * or an overflowing window. */
int memranges_cover(const struct memrange *r, int n, uint64_t addr, uint64_t len);

#endif
