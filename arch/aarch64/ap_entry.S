/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Secondary-CPU entry for PSCI CPU_ON, the AP exception vectors, and the PSCI conduits.
 *
 * arm_ap_entry(struct arch_ap *ap in x0)
 *   PSCI CPU_ON (Arm DEN 0022 PSCI, 5.1.4 CPU_ON and 6.4 "CPU_ON entry point") starts the
 *   core at entry_point_address in the caller's exception level, AArch64, MMU and caches off,
 *   DAIF masked, with context_id in x0. Here, with nothing but x0 and PC-relative addresses:
 *     - SP_ELx = ap->boot[AP_OFF_SP]: the AP's own stack (allocated by the boot CPU);
 *     - at the boot CPU's EL (read from CurrentEL; EL1 or EL2): MAIR, TCR, TTBR0 and
 *       CPACR_EL1/CPTR_EL2 (+ HCR_EL2 at EL2) as the boot CPU has them, VBAR = arm_ap_vectors,
 *       TPIDR_ELx = ap (arm_ap_self), TPIDR_EL0 = efiperf's TLS block;
 *     - TLB invalidated for that EL's regime, then SCTLR_ELx (MMU on) and ISB (Arm ARM D8
 *       "Enabling the MMU" requires the TLB invalidate and a context synchronization);
 *   then arm_ap_main(ap) in C, which never returns (it ends in PSCI CPU_OFF).
 *
 * arm_ap_vectors: a vector table (2 KiB aligned, 16 entries of 0x80 bytes; Arm ARM D1
 *   "Exception vectors") whose every entry saves x0-x30, ELR, SPSR, ESR and FAR in an
 *   EFI_SYSTEM_CONTEXT_AARCH64 frame on the AP's stack and calls arm_ap_exception(frame,
 *   kind). When that returns (a fixup), ELR is taken back from the frame and the registers
 *   restored before ERET, exactly as the firmware's handler does on the boot CPU.
 *
 * int64_t arm_psci_hvc(fid, a1, a2, a3) / arm_psci_smc(...): SMC Calling Convention (Arm DEN
 *   0028, "SMC64/HVC64": function ID in w0, arguments x1-x3, result in x0).
 */
#include "arch/aarch64/ap.h"

	.text
	.balign 64
	.global arm_ap_entry
	.type arm_ap_entry, %function
arm_ap_entry:
	ldr	x1, [x0, #AP_OFF_SP]
	mov	sp, x1
	ldr	x2, [x0, #AP_OFF_TPIDR0]
	msr	tpidr_el0, x2
	adr	x3, arm_ap_vectors
	mrs	x1, CurrentEL
	cmp	x1, #AP_CURRENTEL_EL2
	b.eq	2f
	/* EL1 */
	ldr	x2, [x0, #AP_OFF_MAIR]
	msr	mair_el1, x2
	ldr	x2, [x0, #AP_OFF_TCR]
	msr	tcr_el1, x2
	ldr	x2, [x0, #AP_OFF_TTBR0]
	msr	ttbr0_el1, x2
	ldr	x2, [x0, #AP_OFF_CPTR]
	msr	cpacr_el1, x2
	msr	vbar_el1, x3
	msr	tpidr_el1, x0
	isb
	tlbi	vmalle1
	ic	iallu
	dsb	nsh
	isb
	ldr	x2, [x0, #AP_OFF_SCTLR]
	msr	sctlr_el1, x2
	isb
	b	3f
2:	/* EL2 */
	ldr	x2, [x0, #AP_OFF_HCR]
	msr	hcr_el2, x2
	ldr	x2, [x0, #AP_OFF_MAIR]
	msr	mair_el2, x2
	ldr	x2, [x0, #AP_OFF_TCR]
	msr	tcr_el2, x2
	ldr	x2, [x0, #AP_OFF_TTBR0]
	msr	ttbr0_el2, x2
	ldr	x2, [x0, #AP_OFF_CPTR]
	msr	cptr_el2, x2
	msr	vbar_el2, x3
	msr	tpidr_el2, x0
	isb
	tlbi	alle2
	ic	iallu
	dsb	nsh
	isb
	ldr	x2, [x0, #AP_OFF_SCTLR]
	msr	sctlr_el2, x2
	isb
3:	mov	x29, xzr
	mov	x30, xzr
	bl	arm_ap_main
4:	wfe			/* arm_ap_main does not return; if CPU_OFF ever did, park */
	b	4b
	.size arm_ap_entry, . - arm_ap_entry
	.global arm_ap_entry_end
arm_ap_entry_end:

/* struct arch_ap *arm_ap_self(void): the AP's own block (TPIDR_EL1 or TPIDR_EL2). */
	.global arm_ap_self
	.type arm_ap_self, %function
arm_ap_self:
	mrs	x1, CurrentEL
	cmp	x1, #AP_CURRENTEL_EL2
	b.eq	1f
	mrs	x0, tpidr_el1
	ret
1:	mrs	x0, tpidr_el2
	ret
	.size arm_ap_self, . - arm_ap_self

	.global arm_psci_hvc
	.type arm_psci_hvc, %function
arm_psci_hvc:
	hvc	#0
	ret
	.size arm_psci_hvc, . - arm_psci_hvc

	.global arm_psci_smc
	.type arm_psci_smc, %function
arm_psci_smc:
	smc	#0
	ret
	.size arm_psci_smc, . - arm_psci_smc

/* Clean [x0, x1) to the Point of Coherency, line by line (CTR_EL0.DminLine, Arm ARM D23
 * CTR_EL0: log2 of the smallest data cache line in words), then DSB. */
	.global arm_clean_to_poc
	.type arm_clean_to_poc, %function
arm_clean_to_poc:
	mrs	x3, ctr_el0
	ubfx	x3, x3, #16, #4
	mov	x2, #4
	lsl	x2, x2, x3
	sub	x3, x2, #1
	bic	x0, x0, x3
1:	dc	cvac, x0
	add	x0, x0, x2
	cmp	x0, x1
	b.lo	1b
	dsb	sy
	ret
	.size arm_clean_to_poc, . - arm_clean_to_poc

.macro AP_VECTOR kind
	.balign 0x80
	sub	sp, sp, #AP_FRAME_BYTES
	stp	x0, x1, [sp, #0]
	mov	x1, #\kind
	b	ap_exception_common
.endm

	.balign 2048
	.global arm_ap_vectors
arm_ap_vectors:
	AP_VECTOR 0	/* current EL, SP_EL0: sync, IRQ, FIQ, SError */
	AP_VECTOR 1
	AP_VECTOR 2
	AP_VECTOR 3
	AP_VECTOR 4	/* current EL, SP_ELx: sync (AP_VEC_SYNC_CUR_SPX), IRQ, FIQ, SError */
	AP_VECTOR 5
	AP_VECTOR 6
	AP_VECTOR 7
	AP_VECTOR 8	/* lower EL, AArch64 */
	AP_VECTOR 9
	AP_VECTOR 10
	AP_VECTOR 11
	AP_VECTOR 12	/* lower EL, AArch32 */
	AP_VECTOR 13
	AP_VECTOR 14
	AP_VECTOR 15

ap_exception_common:
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	add	x2, sp, #AP_FRAME_BYTES
	stp	x30, x2, [sp, #240]		/* LR, SP before the exception */
	mrs	x2, CurrentEL
	cmp	x2, #AP_CURRENTEL_EL2
	b.eq	1f
	mrs	x2, elr_el1
	mrs	x3, spsr_el1
	mrs	x4, esr_el1
	mrs	x5, far_el1
	b	2f
1:	mrs	x2, elr_el2
	mrs	x3, spsr_el2
	mrs	x4, esr_el2
	mrs	x5, far_el2
2:	str	x2, [sp, #AP_FRAME_ELR]
	str	x3, [sp, #AP_FRAME_SPSR]
	str	x4, [sp, #AP_FRAME_ESR]
	str	x5, [sp, #AP_FRAME_FAR]
	mov	x0, sp
	bl	arm_ap_exception		/* returns only after a fixup */
	ldr	x2, [sp, #AP_FRAME_ELR]
	ldr	x3, [sp, #AP_FRAME_SPSR]
	mrs	x4, CurrentEL
	cmp	x4, #AP_CURRENTEL_EL2
	b.eq	3f
	msr	elr_el1, x2
	msr	spsr_el1, x3
	b	4f
3:	msr	elr_el2, x2
	msr	spsr_el2, x3
4:	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x19, [sp, #144]
	ldp	x20, x21, [sp, #160]
	ldp	x22, x23, [sp, #176]
	ldp	x24, x25, [sp, #192]
	ldp	x26, x27, [sp, #208]
	ldp	x28, x29, [sp, #224]
	ldr	x30, [sp, #240]
	add	sp, sp, #AP_FRAME_BYTES
	eret
