/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fault-safe system-register and MMIO accessors (AAPCS64: arguments in x0/x1, hw_status
 * returned in x0; HW_OK is 0, written as xzr).
 *
 * For every register in ARM_SYSREG_ACCESSORS (arch/aarch64/sysreg.h):
 *   hw_status arm_sysreg_rd_<name>(uint64_t *val)   MRS then store, HW_OK
 *   hw_status arm_sysreg_wr_<name>(uint64_t val)    MSR then ISB, HW_OK
 * The MRS/MSR word is built with .inst from the encoding in pmu/arm_sysreg.h (Arm ARM C6.2:
 * MRS = 0xd5200000 | op0..op2 << 5 | Rt), so the generic and read-only encodings assemble
 * the same way as any other and no register number is repeated here.
 *
 * ISB after MSR: a direct write to a System register is only guaranteed visible to the
 * indirect reads of following instructions (e.g. PMCR_EL0.E starting the counters) after a
 * Context synchronization event (Arm ARM D23, "Synchronization requirements for AArch64
 * System registers").
 *
 * Each faulting instruction (label 1) and the instruction to resume at (label 2, the RET)
 * go into arch_fixups[]: an UNDEFINED MRS/MSR (register not implemented, or MSR to a
 * read-only register) or a data abort on an MMIO access is a synchronous exception whose
 * preferred return address (ELR_ELx) is the faulting instruction itself (Arm ARM D1,
 * "Preferred exception return address"). arch_fault_fixup (cpu_ops.c) moves ELR to label 2
 * and puts the hw_status in x0, so the accessor returns it and *val is left untouched.
 *
 * The table lives in a writable data section: its absolute addresses are relocated at load
 * time by gnu-efi's crt0 (R_AARCH64_RELATIVE).
 */
#include "arch/aarch64/sysreg.h"

	.section .data.efiperf_fixups, "aw"
	.balign 8
	.global arch_fixups
arch_fixups:

#define FIXUP_ENTRY \
	.pushsection .data.efiperf_fixups, "aw" ; .balign 8 ; .quad 1b, 2b ; .popsection

#define FUNC(fn) \
	.text ; .balign 4 ; .global fn ; .type fn, %function ; fn:

#define SYSREG_RW(name) \
	FUNC(arm_sysreg_rd_##name) \
	mov x1, x0 ; \
1:	.inst (ARM_MRS_BASE | SYSREG_##name | 0) /* mrs x0, <name> */ ; \
	str x0, [x1] ; \
	mov x0, xzr ; \
2:	ret ; \
	FIXUP_ENTRY ; \
	.size arm_sysreg_rd_##name, . - arm_sysreg_rd_##name ; \
	FUNC(arm_sysreg_wr_##name) \
1:	.inst (ARM_MSR_BASE | SYSREG_##name | 0) /* msr <name>, x0 */ ; \
	isb ; \
	mov x0, xzr ; \
2:	ret ; \
	FIXUP_ENTRY ; \
	.size arm_sysreg_wr_##name, . - arm_sysreg_wr_##name ;

ARM_SYSREG_ACCESSORS(SYSREG_RW)

/*
 * MMIO. Single LDR/STR with a plain base register, no writeback: the only form for which a
 * stage-2 abort reports a valid instruction syndrome (ESR_ELx.ISV, Arm ARM D23 ESR_EL2, ISS
 * encoding for a Data Abort), so a hypervisor can emulate it. Device memory accesses to one
 * peripheral are already observed in program order (Arm ARM B2, "Device memory"); the
 * barriers order them against Normal memory (buffers the device reads or writes):
 *   read:  DMB OSHLD after the load  - later memory accesses wait for the device read;
 *   write: DMB OSHST before the store - earlier Normal-memory stores are observed first.
 * A store to a missing device can also end as an asynchronous SError, which no fixup
 * catches; efiperf only writes MMIO registers it found described by firmware tables.
 */
FUNC(arm_mmio_rd32)
1:	ldr w2, [x0]
	dmb oshld
	str w2, [x1]
	mov x0, xzr
2:	ret
	FIXUP_ENTRY
	.size arm_mmio_rd32, . - arm_mmio_rd32

FUNC(arm_mmio_rd64)
1:	ldr x2, [x0]
	dmb oshld
	str x2, [x1]
	mov x0, xzr
2:	ret
	FIXUP_ENTRY
	.size arm_mmio_rd64, . - arm_mmio_rd64

FUNC(arm_mmio_wr32)
	dmb oshst
1:	str w1, [x0]
	mov x0, xzr
2:	ret
	FIXUP_ENTRY
	.size arm_mmio_wr32, . - arm_mmio_wr32

FUNC(arm_mmio_wr64)
	dmb oshst
1:	str x1, [x0]
	mov x0, xzr
2:	ret
	FIXUP_ENTRY
	.size arm_mmio_wr64, . - arm_mmio_wr64

	.section .data.efiperf_fixups, "aw"
arch_fixups_end:

	.section .rodata
	.balign 4
	.global arch_nfixups
arch_nfixups:
	.word (arch_fixups_end - arch_fixups) / 16   /* sizeof(struct fixup_entry) */
	.size arch_nfixups, 4
