/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/timer.h"
#include "arch/arch.h"
#include "efi/fw/acpi.h"
#include "efi/fw/pmtimer.h"
#include "efi/fw/firmware_tables.h"

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

static uint64_t arch_clock(void)
{
	return arch_timer_read();
}

uint64_t timer_calibrate_pmtimer(const struct hw *hw, const struct acpi_fadt *f, uint32_t ms, const char **why)
{
	const struct pmtimer_env e = { .hw = hw, .clock = arch_clock, .addr_use = fw_addr_use, .addr_fault = fw_addr_fault };
	return pmtimer_calibrate(&e, f, ms, why);
}
