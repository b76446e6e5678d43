/* SPDX-License-Identifier: BSD-2-Clause */
/* The aarch64 known loop (known_loop.S, constants in known_loop.h) as arch/arch.h declares it. */
#include "arch/arch.h"
#include "arch/aarch64/known_loop.h"

const char arch_known_loop_event[] = "INST_RETIRED";
/* PMEVCNTR0_EL0 is at least 32 bits wide (Arm ARM D17.5 PMEVCNTR<n>_EL0 without PMUv3p5). */
const uint64_t arch_known_loop_max = (1ull << 31) - 1;

uint64_t arch_known_loop_run(uint64_t iterations)
{
	return arm_known_loop(iterations);
}

uint64_t arch_known_loop_expected(uint64_t iterations)
{
	return arm_known_loop_expected(iterations);
}
