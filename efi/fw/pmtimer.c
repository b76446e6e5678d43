/* SPDX-License-Identifier: BSD-2-Clause */
#include "efi/fw/pmtimer.h"

#define PPM 1000000

#define MS_PER_S 1000u
/* Poll the PM timer every 2^20 ticks of the (unknown-rate) arch timer: 0.1 ms at 10 GHz to
 * 10 ms at 100 MHz, far below the 24-bit PM timer's 4.7 s wrap, and few reads (each one is an
 * access the trace=hw recorder logs). */
#define PMTIMER_POLL_TICKS (1ull << 20)
/* A PM timer that has not moved over this many polls (>= 100 ms) is not running. */
#define PMTIMER_STUCK_READS 1000u

static hw_status pm_read(const struct hw *hw, const struct acpi_fadt *f, uint32_t *v)
{
	if (f->pm_timer.space_id == ACPI_GAS_SPACE_IO)
		return hw_io_read32(hw, (uint16_t)f->pm_timer.address, v);
	return hw_mmio_read32(hw, f->pm_timer.address, v);
}

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

uint64_t pmtimer_calibrate(const struct pmtimer_env *e, const struct acpi_fadt *f, uint32_t ms, const char **why)
{
	if (!f || !f->present || !f->pm_timer_present) {
		*why = "no ACPI PM timer in the FADT";
		return 0;
	}
	if (f->pm_timer.space_id != ACPI_GAS_SPACE_IO && f->pm_timer.space_id != ACPI_GAS_SPACE_MEMORY) {
		*why = "PM timer in an address space other than I/O or memory";
		return 0;
	}
	uint64_t target = (uint64_t)PMTIMER_HZ * ms / MS_PER_S, elapsed = 0;
	uint32_t p0, prev, now;
	/* a memory-space timer is a firmware-given address: the one checker first (efi/fw/fwaddr.h),
	 * then fault-safe reads; a refusal or a fault is a firmware_defect record */
	int mem = f->pm_timer.space_id == ACPI_GAS_SPACE_MEMORY;
	if (mem && e->addr_use("FADT", "X_PM_TMR_BLK", f->pm_timer.address, sizeof(uint32_t))) {
		*why = "PM timer address refused (firmware_defect record)";
		return 0;
	}
	hw_status st = pm_read(e->hw, f, &p0);
	if (st != HW_OK) {
		if (mem)
			e->addr_fault("FADT", "X_PM_TMR_BLK", f->pm_timer.address, st);
		*why = st == HW_FAULT_PF || st == HW_FAULT_GP || st == HW_FAULT_ABORT ? "PM timer read faulted (firmware_defect record)"
										      : "PM timer read failed";
		return 0;
	}
	uint64_t c0 = e->clock(), c1 = c0;
	prev = p0;
	for (uint32_t still = 0; elapsed < target;) {
		for (uint64_t t = e->clock(); e->clock() - t < PMTIMER_POLL_TICKS;)
			;
		if (pm_read(e->hw, f, &now) != HW_OK) {
			*why = "PM timer read failed";
			return 0;
		}
		c1 = e->clock();
		uint32_t d = pmtimer_delta(prev, now, f->tmr_bits);
		/* accumulate step by step: the 24-bit timer wraps every 4.7 s */
		elapsed += d;
		prev = now;
		if (!d && ++still > PMTIMER_STUCK_READS) {
			*why = "PM timer does not advance";
			return 0;
		}
		if (d)
			still = 0;
	}
	return pmtimer_hz(c1 - c0, elapsed);
}
