/* SPDX-License-Identifier: BSD-2-Clause */
/* Time base: ticks of arch_timer_read() (x86 TSC, aarch64 CNTVCT_EL0) and their frequency. */
#ifndef EFIPERF_TIMER_H
#define EFIPERF_TIMER_H

#include <stdint.h>

/* Ticks per second measured across gBS->Stall(stall_us) (the firmware's calibrated delay,
 * e.g. the ACPI PM timer in OVMF). Best (shortest) of `tries` windows, which filters out
 * firmware timer interrupts. */
uint64_t timer_calibrate_hz(uint32_t stall_us, int tries);

#endif
