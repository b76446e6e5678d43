/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uint64_t x86_known_loop(uint64_t iterations): IA32_FIXED_CTR0 (INST_RETIRED.ANY, read with
 * RDPMC ECX = 1<<30 | 0, SDM Vol.2B RDPMC) before and after a loop of exactly two instructions
 * per turn. Instructions that retire between the two RDPMCs:
 *     movl  %eax, %r9d        1
 *     movl  %edx, %r10d       1
 *  1: decq  %r8               N
 *     jnz   1b                N
 * => expected = 2N + 2 (x86_known_loop_expected). Whether the second RDPMC itself is counted
 * is not architecturally specified; efiperf reports the difference, it does not hide it.
 * Requires iterations >= 1.
 */
	.text
	.globl x86_known_loop
x86_known_loop:
	movq	%rdi, %r8
	movl	$0x40000000, %ecx	/* RDPMC_FIXED | 0 */
	rdpmc
	movl	%eax, %r9d
	movl	%edx, %r10d
1:	decq	%r8
	jnz	1b
	rdpmc
	shlq	$32, %rdx
	orq	%rdx, %rax
	shlq	$32, %r10
	orq	%r10, %r9
	subq	%r9, %rax
	ret

	.section .note.GNU-stack,"",@progbits
