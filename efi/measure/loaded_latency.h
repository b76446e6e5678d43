/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * loaded_latency (config `loaded_latency = on`), after Intel MLC's --loaded_latency: the pointer
 * chase (loaded_size bytes, 64-byte lines) on the first selected CPU while every other selected
 * CPU reads its own loaded_size buffer line by line, waiting loaded_delays spin iterations after
 * each line (the injection delay: 0 is the most traffic). Each delay is one window with interrupts
 * masked on every CPU; the bandwidth CPUs run until the chase ends, so latency and bandwidth are
 * of the same window. First point: no bandwidth CPUs (idle latency). One `loaded_latency` record:
 * per point the delay, ns per load, the bandwidth CPUs' read GB/s (bytes read / window span) and
 * the window's quietness.
 */
#ifndef EFIPERF_LOADED_LATENCY_H
#define EFIPERF_LOADED_LATENCY_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"

/* Before the first window: with loaded_latency = on the selection must hold two CPUs or more.
 * Returns 0, or -1 after a config error record naming the settings and why. */
int loaded_latency_plan(const struct efiperf_config *cfg);

/* Returns 0, or -1 after an error record (allocation, a CPU that did not run). */
int measure_loaded_latency(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg);

#endif
