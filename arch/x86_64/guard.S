/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A resume point for a job on another CPU (arch/arch.h arch_guarded_call / arch_fault_escape),
 * System V ABI, called from C.
 *
 * arch_guarded_call(g, fn, arg) saves the System V callee-saved registers (RBX, RBP, R12-R15),
 * RSP and RFLAGS in g, calls fn(arg) and returns 0. arch_fault_escape() points the saved RIP of
 * an exception context at arch_guard_escape with RDI = g: after the handler returns, that
 * restores what arch_guarded_call saved and returns 1 from it, as if fn had returned. RFLAGS is
 * restored whole (IF as the caller had it, DF clear as the ABI wants it: SDM Vol.1 3.4.3).
 */
	.text

/* int arch_guarded_call(struct arch_guard *g, hw_cpu_fn fn, void *arg) */
	.globl arch_guarded_call, arch_guard_escape
arch_guarded_call:
	movq	%rbx, 0(%rdi)
	movq	%rbp, 8(%rdi)
	movq	%r12, 16(%rdi)
	movq	%r13, 24(%rdi)
	movq	%r14, 32(%rdi)
	movq	%r15, 40(%rdi)
	movq	%rsp, 48(%rdi)          /* points at the return address */
	pushfq
	popq	56(%rdi)
	subq	$8, %rsp                /* 16-byte alignment at the call */
	movq	%rsi, %rax
	movq	%rdx, %rdi
	call	*%rax
	addq	$8, %rsp
	xorl	%eax, %eax
	ret

/* Entered with RDI = g, on whatever stack the faulting job had. */
arch_guard_escape:
	movq	0(%rdi), %rbx
	movq	8(%rdi), %rbp
	movq	16(%rdi), %r12
	movq	24(%rdi), %r13
	movq	32(%rdi), %r14
	movq	40(%rdi), %r15
	movq	48(%rdi), %rsp
	pushq	56(%rdi)
	popfq
	movl	$1, %eax
	ret

/* void arch_undefined_insn(void *arg): UD2, the architecturally undefined instruction
 * (SDM Vol.2B UD: always raises #UD). A test hook's job (config fault_test). */
	.globl arch_undefined_insn
arch_undefined_insn:
	ud2
	ret

	.section .note.GNU-stack,"",@progbits
