/* SPDX-License-Identifier: BSD-2-Clause */
/* The x86_64 known loop (known_loop.S) as arch/arch.h declares it. */
#include "arch/arch.h"

uint64_t x86_known_loop(uint64_t iterations);

/* Instructions retired between the two RDPMCs (known_loop.S): 2 per turn, 2 fixed. */
#define LOOP_INSNS_PER_TURN 2u
#define LOOP_INSNS_FIXED 2u

const char arch_known_loop_event[] = "INST_RETIRED.ANY";
const uint64_t arch_known_loop_max = ~0ull / LOOP_INSNS_PER_TURN - LOOP_INSNS_FIXED;

uint64_t arch_known_loop_run(uint64_t iterations)
{
	return x86_known_loop(iterations);
}

uint64_t arch_known_loop_expected(uint64_t iterations)
{
	return iterations ? LOOP_INSNS_PER_TURN * iterations + LOOP_INSNS_FIXED : 0;
}
