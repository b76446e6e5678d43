/* SPDX-License-Identifier: BSD-2-Clause */
/* Time base: ticks of arch_timer_read() (x86 TSC, aarch64 CNTVCT_EL0) and their frequency. */
#ifndef EFIPERF_TIMER_H
#define EFIPERF_TIMER_H

#include <stdint.h>

/* Ticks per second measured across gBS->Stall(stall_us) (the firmware's calibrated delay,
 * e.g. the ACPI PM timer in OVMF). Best (shortest) of `tries` windows, which filters out
 * firmware timer interrupts. */
uint64_t timer_calibrate_hz(uint32_t stall_us, int tries);

struct acpi_fadt;
struct hw;

/* Ticks per second of arch_timer_read() measured against the ACPI PM timer the FADT describes
 * (I/O port or MMIO, 24 or 32 bits; 3.579545 MHz, ACPI 6.5 4.8.3.3) over at least `ms`
 * milliseconds. Returns 0 with *why set when there is no usable PM timer or it does not
 * advance. */
uint64_t timer_calibrate_pmtimer(const struct hw *hw, const struct acpi_fadt *f, uint32_t ms, const char **why);

#endif
