/* SPDX-License-Identifier: BSD-2-Clause */
#include "pmu/metrics.h"

#define NS_PER_S 1000000000ull
#define MILLI 1000u

uint64_t metric_ticks_to_ns(uint64_t ticks, uint64_t hz)
{
	if (!hz)
		return 0;
	return (uint64_t)((unsigned __int128)ticks * NS_PER_S / hz);
}

uint64_t metric_ratio_milli(uint64_t a, uint64_t b)
{
	if (!b)
		return 0;
	return (uint64_t)(((unsigned __int128)a * MILLI + b / 2) / b);
}

uint64_t metric_gbps_milli(uint64_t bytes, uint64_t ns)
{
	return metric_ratio_milli(bytes, ns);
}
