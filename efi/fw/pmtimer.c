/* SPDX-License-Identifier: BSD-2-Clause */
#include "efi/fw/pmtimer.h"

#define PPM 1000000

uint32_t pmtimer_delta(uint32_t a, uint32_t b, int bits)
{
	uint32_t mask = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
	return (b - a) & mask;
}

uint64_t pmtimer_hz(uint64_t cycles, uint64_t pm_ticks)
{
	if (!pm_ticks)
		return 0;
	return (uint64_t)(((unsigned __int128)cycles * PMTIMER_HZ + pm_ticks / 2) / pm_ticks);
}

int64_t pmtimer_ppm(uint64_t hz, uint64_t ref)
{
	if (!ref)
		return 0;
	return (int64_t)(((__int128)hz - (__int128)ref) * PPM / (__int128)ref);
}
