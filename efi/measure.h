/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The first measurement: a memory copy kernel (arch_copy) over copy_size bytes on the boot CPU,
 * copy_passes times, each pass in a quiesced window (interrupts masked) bracketed by the time
 * base and the core counters. Writes one `measurement` record.
 * Then the known instruction-count loop (arch_known_loop) with interrupts masked and unmasked:
 * one `loop` record.
 */
#ifndef EFIPERF_MEASURE_H
#define EFIPERF_MEASURE_H

#include "arch/hw.h"
#include "efi/config.h"
#include "efi/platform.h"

struct window_cpu;
/* The CPUs a measurement runs on (config `cpus`): the boot CPU, or every enabled CPU. Fills
 * cpus (WINDOW_MAX_CPUS entries) and returns how many. */
int measure_select_cpus(const struct platform *p, const struct efiperf_config *cfg, struct window_cpu *cpus);

/* Returns 0, or -1 after reporting an error (allocation, wrong copy result). */
int measure_copy(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg);
int measure_loop(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg);

#endif
