/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * void arch_copy(void *dst, const void *src, uint64_t bytes)
 *
 * Memory copy kernel for bandwidth measurements: 64-byte blocks, each moved with four LDP and
 * four STP of two 64-bit registers (Arm ARM C6.2 LDP, STP). General-purpose registers only, so
 * the kernel does not depend on the FP/SIMD state. bytes is rounded down to a multiple of 64
 * (the contract in arch/arch.h says callers pass a multiple of 64).
 */
	.text
	.balign 64
	.global arch_copy
	.type arch_copy, %function
arch_copy:
	bic	x2, x2, #63
	cbz	x2, 2f
1:	ldp	x3, x4, [x1]
	ldp	x5, x6, [x1, #16]
	ldp	x7, x8, [x1, #32]
	ldp	x9, x10, [x1, #48]
	add	x1, x1, #64
	stp	x3, x4, [x0]
	stp	x5, x6, [x0, #16]
	stp	x7, x8, [x0, #32]
	stp	x9, x10, [x0, #48]
	add	x0, x0, #64
	subs	x2, x2, #64
	b.ne	1b
2:	ret
	.size arch_copy, . - arch_copy
