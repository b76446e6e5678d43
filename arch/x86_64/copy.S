/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * void arch_copy(void *dst, const void *src, uint64_t bytes): the memory copy kernel.
 * 64-byte blocks (one cache line) moved with eight 64-bit loads then eight 64-bit stores.
 * Plain temporal stores and no prefetch hints: the figure is what an ordinary copy loop gets.
 * (REP MOVSB would be faster on ERMS hardware but QEMU's TCG emulates it a byte at a time,
 * which made one 64 MiB pass take 3 s with interrupts masked.)
 * bytes must be a multiple of 64 and non-zero (config enforces copy_size % 64 == 0).
 */
	.text
	.globl arch_copy
arch_copy:
	shrq	$6, %rdx
1:	movq	0(%rsi), %rax
	movq	8(%rsi), %rcx
	movq	16(%rsi), %r8
	movq	24(%rsi), %r9
	movq	32(%rsi), %r10
	movq	40(%rsi), %r11
	movq	%rax, 0(%rdi)
	movq	%rcx, 8(%rdi)
	movq	%r8, 16(%rdi)
	movq	%r9, 24(%rdi)
	movq	%r10, 32(%rdi)
	movq	%r11, 40(%rdi)
	movq	48(%rsi), %rax
	movq	56(%rsi), %rcx
	movq	%rax, 48(%rdi)
	movq	%rcx, 56(%rdi)
	addq	$64, %rsi
	addq	$64, %rdi
	decq	%rdx
	jnz	1b
	ret

	.section .note.GNU-stack,"",@progbits
