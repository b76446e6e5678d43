/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ACPI PM timer arithmetic (ACPI 6.5 section 4.8.3.3 "Power Management Timer"): a free-running
 * counter at 3.579545 MHz, 24 bits wide, or 32 when the FADT's TMR_VAL_EXT flag is set. Pure:
 * host-tested. The reads themselves are efi/timer.c's.
 */
#ifndef EFIPERF_PMTIMER_H
#define EFIPERF_PMTIMER_H

#include <stdint.h>

#define PMTIMER_HZ 3579545u

/* Ticks from `a` to `b` of a `bits`-wide counter that wrapped at most once. */
uint32_t pmtimer_delta(uint32_t a, uint32_t b, int bits);

/* Frequency in Hz of a counter that advanced `cycles` while the PM timer advanced `pm_ticks`
 * (128-bit intermediate, rounded). 0 when pm_ticks is 0. */
uint64_t pmtimer_hz(uint64_t cycles, uint64_t pm_ticks);

/* Deviation of `hz` from `ref` in parts per million (signed). 0 when ref is 0. */
int64_t pmtimer_ppm(uint64_t hz, uint64_t ref);

#endif
