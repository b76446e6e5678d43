/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uint64_t arm_known_loop(uint64_t iterations)
 *
 * A loop whose instruction count is known, measured with event counter 0, which
 * pmu_armv8_pmuv3 programs to INST_RETIRED (0x08, "instruction architecturally executed").
 * Caller: counters started, iterations >= 1 (0 returns 0 without reading the counter).
 *
 * Between the two counter reads (the window) execute, in order:
 *     iterations x { SUBS, B.NE }    2 * iterations   (the last B.NE falls through)
 *     ISB                            1                (so every loop instruction has
 *                                                     completed before the second read;
 *                                                     Arm ARM D23 PMEVCNTR<n>_EL0 reads are
 *                                                     not ordered with earlier instructions
 *                                                     without a context synchronization)
 *     MRS PMEVCNTR0_EL0              1                (the second read itself)
 * The first MRS is not in the window (its own retirement is counted before it samples);
 * the second is (measured under QEMU 7.2 TCG with -icount shift=0, N = 1e3 .. 1e7: the count
 * it returns includes itself). So
 *     expected = 2 * iterations + 2     (ARM_KNOWN_LOOP_* in known_loop.h)
 * This is the QEMU TCG -icount convention; on silicon the count is exact to within the
 * one or two instructions around the reads.
 */
	.text
	.balign 64
	.global arm_known_loop
	.type arm_known_loop, %function
arm_known_loop:
	cbz	x0, 2f
	mov	x2, x0
	isb
	mrs	x1, pmevcntr0_el0        /* before */
1:	subs	x2, x2, #1               /* window: 2 instructions per iteration */
	b.ne	1b
	isb
	mrs	x3, pmevcntr0_el0        /* after (counted) */
	sub	x0, x3, x1
	ret
2:	mov	x0, xzr
	ret
	.size arm_known_loop, . - arm_known_loop
