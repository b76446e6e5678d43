/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The PERF_CTL field bits of an AMD core event as an oracle gives it (EventCode, UMask), laid
 * out by the manual, not by efiperf's code: AMD64 APM Vol.2 section 13.2.1 "PerfEvtSeln":
 * EventSelect[7:0] at [7:0], UnitMask at [15:8], EventSelect[11:8] at [35:32]. Header-only,
 * host only (the oracle tests of the AMD named events).
 */
#ifndef EFIPERF_TESTS_AMD_PERFCTL_H
#define EFIPERF_TESTS_AMD_PERFCTL_H

#include <stdint.h>

static inline uint64_t amd_perfctl_fields(uint64_t event_code, uint64_t umask)
{
	return (event_code & 0xFF) | (umask << 8) | (((event_code >> 8) & 0xF) << 32);
}

#endif
