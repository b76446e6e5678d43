/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The known instruction-count loop (arch/aarch64/known_loop.S) and the count it must give.
 */
#ifndef EFIPERF_AARCH64_KNOWN_LOOP_H
#define EFIPERF_AARCH64_KNOWN_LOOP_H

#include <stdint.h>

/* Per iteration: SUBS + B.NE. Fixed: the ISB and the second MRS (see known_loop.S). */
#define ARM_KNOWN_LOOP_INSNS_PER_ITER 2
#define ARM_KNOWN_LOOP_INSNS_FIXED    2

/* Reads PMEVCNTR0_EL0 before and after `iterations` loop iterations, returns after - before
 * (the counter width is at least 32 bits: keep iterations < 2^31). */
uint64_t arm_known_loop(uint64_t iterations);

static inline uint64_t arm_known_loop_expected(uint64_t iterations)
{
	return iterations ? ARM_KNOWN_LOOP_INSNS_PER_ITER * iterations + ARM_KNOWN_LOOP_INSNS_FIXED
			  : 0;
}

#endif
