/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/timer.h"
#include "arch/arch.h"

#define US_PER_S 1000000ull

uint64_t timer_calibrate_hz(uint32_t stall_us, int tries)
{
	uint64_t best = ~0ull;
	for (int i = 0; i < tries; i++) {
		uint64_t t0 = arch_timer_read();
		BS->Stall(stall_us);
		uint64_t d = arch_timer_read() - t0;
		if (d < best)
			best = d;
	}
	return (uint64_t)((unsigned __int128)best * US_PER_S / stall_us);
}
