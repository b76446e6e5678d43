/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The known instruction-count loop around the core counters: the arch loop (arch/arch.h) run on
 * the counter the core PMU driver named arch_known_loop_event, compared with the count derived
 * from the loop's own instructions.
 */
#ifndef EFIPERF_MEASURE_KNOWN_LOOP_H
#define EFIPERF_MEASURE_KNOWN_LOOP_H

#include <stdint.h>
#include "pmu/core/core_counters.h"

struct known_loop_result {
	uint64_t iterations, expected, counted;
	int valid;         /* 0: not run, why says which counter or limit stopped it */
	char why[128];
};

/* Run `iterations` turns on the started core counters s (masked = 1: interrupts masked for the
 * loop). counted is masked to the counter's width. */
void known_loop_run(const struct core_set *s, uint64_t iterations, int masked, struct known_loop_result *r);

#endif
