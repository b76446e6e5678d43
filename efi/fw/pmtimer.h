/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ACPI PM timer arithmetic (ACPI 6.5 section 4.8.3.3 "Power Management Timer"): a free-running
 * counter at 3.579545 MHz, 24 bits wide, or 32 when the FADT's TMR_VAL_EXT flag is set. Pure:
 * host-tested. The reads themselves are efi/timer.c's.
 */
#ifndef EFIPERF_PMTIMER_H
#define EFIPERF_PMTIMER_H

#include <stdint.h>
#include "arch/hw.h"
#include "efi/fw/acpi.h"

#define PMTIMER_HZ 3579545u

/* Ticks from `a` to `b` of a `bits`-wide counter that wrapped at most once. */
uint32_t pmtimer_delta(uint32_t a, uint32_t b, int bits);

/* Frequency in Hz of a counter that advanced `cycles` while the PM timer advanced `pm_ticks`
 * (128-bit intermediate, rounded). 0 when pm_ticks is 0. */
uint64_t pmtimer_hz(uint64_t cycles, uint64_t pm_ticks);

/* Deviation of `hz` from `ref` in parts per million (signed). 0 when ref is 0. */
int64_t pmtimer_ppm(uint64_t hz, uint64_t ref);

/* What the calibration reads and who judges a firmware-given address: efi/timer.c gives the
 * firmware's (the TSC or generic timer, the memory-map checker of efi/fw/firmware_tables.h);
 * a host test gives a model. addr_use returns 0 when [addr, addr+len) may be read, else it wrote
 * the defect; addr_fault writes the defect of a read that faulted. */
struct pmtimer_env {
	const struct hw *hw;
	uint64_t (*clock)(void);
	int (*addr_use)(const char *table, const char *field, uint64_t addr, uint64_t len);
	hw_status (*addr_fault)(const char *table, const char *field, uint64_t addr, hw_status st);
};

/* The rate in Hz of e->clock, calibrated against the FADT's PM timer over `ms` milliseconds:
 * the timer is polled every 2^20 clock ticks, its steps summed (each step wraps at most once at
 * tmr_bits), and the clock's ticks divided by the PM ticks at PMTIMER_HZ. The timer is in I/O
 * space (hw_io_read32) or memory space (hw_mmio_read32: a firmware-given address, so
 * addr_use first, and a faulting read goes to addr_fault). 0 with *why set (static text) when
 * the FADT has no timer, the space is neither, the address is refused, a read faults or fails,
 * or the timer does not advance over 1000 polls. */
uint64_t pmtimer_calibrate(const struct pmtimer_env *e, const struct acpi_fadt *f, uint32_t ms, const char **why);

#endif
