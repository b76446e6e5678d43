/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A resume point for a job on another CPU (arch/arch.h arch_guarded_call / arch_fault_escape),
 * AAPCS64, called from C.
 *
 * arch_guarded_call(g, fn, arg) saves the callee-saved X19-X29, the link register X30, SP and
 * D8-D15 (AAPCS64 6.1.1, 6.1.2) in g, calls fn(arg) and returns 0. arch_fault_escape() points
 * the saved ELR of an exception context at arch_guard_escape with X0 = g: after the handler's
 * ERET that restores what arch_guarded_call saved and returns 1 from it, as if fn had returned.
 */
	.text

/* int arch_guarded_call(struct arch_guard *g, hw_cpu_fn fn, void *arg) */
	.globl arch_guarded_call, arch_guard_escape
arch_guarded_call:
	stp	x19, x20, [x0, #0]
	stp	x21, x22, [x0, #16]
	stp	x23, x24, [x0, #32]
	stp	x25, x26, [x0, #48]
	stp	x27, x28, [x0, #64]
	stp	x29, x30, [x0, #80]
	mov	x9, sp
	str	x9, [x0, #96]
	stp	d8, d9, [x0, #104]
	stp	d10, d11, [x0, #120]
	stp	d12, d13, [x0, #136]
	stp	d14, d15, [x0, #152]
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	mov	x9, x1
	mov	x0, x2
	blr	x9
	ldp	x29, x30, [sp], #16
	mov	w0, #0
	ret

/* Entered with X0 = g, on whatever stack the faulting job had. */
arch_guard_escape:
	ldp	x19, x20, [x0, #0]
	ldp	x21, x22, [x0, #16]
	ldp	x23, x24, [x0, #32]
	ldp	x25, x26, [x0, #48]
	ldp	x27, x28, [x0, #64]
	ldp	x29, x30, [x0, #80]
	ldr	x9, [x0, #96]
	mov	sp, x9
	ldp	d8, d9, [x0, #104]
	ldp	d10, d11, [x0, #120]
	ldp	d12, d13, [x0, #136]
	ldp	d14, d15, [x0, #152]
	mov	w0, #1
	ret

/* void arch_undefined_insn(void *arg): UDF #0, permanently undefined (Arm ARM C6.2 UDF: an
 * Undefined Instruction exception). A test hook's job (config fault_test). */
	.globl arch_undefined_insn
arch_undefined_insn:
	udf	#0
	ret
