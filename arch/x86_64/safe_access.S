/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fault-safe RDMSR / WRMSR / RDPMC, and CR4 / XGETBV / XSETBV (System V ABI, called from C).
 *
 * RDMSR/WRMSR raise #GP for an MSR that does not exist or a reserved bit; RDPMC raises #GP for
 * an invalid counter and #UD where it is not implemented (SDM Vol.2B, RDMSR/WRMSR/RDPMC
 * "Protected Mode Exceptions"). Each faulting instruction has a *_fault label and the
 * instruction after it a *_fixup label: arch/x86_64/cpu.c lists the pairs in arch_fixups[],
 * and the exception handler (efi/exceptions.c -> arch_fault_fixup) moves the saved RIP to the
 * fixup label with RAX = the hw_status of the fault. On success RAX = 0 (HW_OK).
 */
	.text

/* hw_status x86_rdmsr_safe(uint32_t msr, uint64_t *val) */
	.globl x86_rdmsr_safe, x86_rdmsr_fault, x86_rdmsr_fixup
x86_rdmsr_safe:
	movl	%edi, %ecx
x86_rdmsr_fault:
	rdmsr
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, (%rsi)
	xorl	%eax, %eax
x86_rdmsr_fixup:
	ret

/* hw_status x86_wrmsr_safe(uint32_t msr, uint64_t val) */
	.globl x86_wrmsr_safe, x86_wrmsr_fault, x86_wrmsr_fixup
x86_wrmsr_safe:
	movl	%edi, %ecx
	movl	%esi, %eax
	movq	%rsi, %rdx
	shrq	$32, %rdx
x86_wrmsr_fault:
	wrmsr
	xorl	%eax, %eax
x86_wrmsr_fixup:
	ret

/* hw_status x86_rdpmc_safe(uint32_t counter, uint64_t *val) */
	.globl x86_rdpmc_safe, x86_rdpmc_fault, x86_rdpmc_fixup
x86_rdpmc_safe:
	movl	%edi, %ecx
x86_rdpmc_fault:
	rdpmc
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, (%rsi)
	xorl	%eax, %eax
x86_rdpmc_fixup:
	ret

/* MMIO of exactly the access's width (volatile in C could be split or merged; one MOV is one
 * access). A load or store to an address the page tables do not map raises #PF (SDM Vol.3A 4.7,
 * "Page-Fault Exceptions"), to a non-canonical address #GP (SDM Vol.3A 6.15, interrupt 13):
 * firmware-given addresses that are wrong arrive here and return the fault as a status. UC
 * mappings from the firmware keep loads and stores in program order (SDM Vol.3A 11.3). */

/* One accessor: the instruction at <name>_fault, the RET at <name>_fixup (RAX = 0 on success). */
.macro MMIO_SAFE name, insn, store
	.globl \name\()_safe, \name\()_fault, \name\()_fixup
\name\()_safe:
\name\()_fault:
	\insn
	\store
	xorl	%eax, %eax
\name\()_fixup:
	ret
.endm

/* hw_status x86_mmio_rd32_safe(uint64_t addr, uint32_t *val) */
	MMIO_SAFE x86_mmio_rd32, "movl (%rdi), %eax", "movl %eax, (%rsi)"
/* hw_status x86_mmio_rd64_safe(uint64_t addr, uint64_t *val) */
	MMIO_SAFE x86_mmio_rd64, "movq (%rdi), %rax", "movq %rax, (%rsi)"
/* hw_status x86_mmio_wr32_safe(uint64_t addr, uint32_t val) */
	MMIO_SAFE x86_mmio_wr32, "movl %esi, (%rdi)", ""
/* hw_status x86_mmio_wr64_safe(uint64_t addr, uint64_t val) */
	MMIO_SAFE x86_mmio_wr64, "movq %rsi, (%rdi)", ""

/* Control registers of the vector state (arch/vecstate.h). MOV to CR4 raises #GP for a
 * reserved bit or an unsupported feature; XGETBV raises #UD when CR4.OSXSAVE is clear and #GP
 * for an unsupported XCR; XSETBV raises #GP for an invalid XCR0 value (SDM Vol. 2A "MOV--Move
 * to/from Control Registers", Vol. 2C XGETBV, XSETBV "Protected Mode Exceptions"). */

/* hw_status x86_rdcr4_safe(uint64_t *val) */
	.globl x86_rdcr4_safe, x86_rdcr4_fault, x86_rdcr4_fixup
x86_rdcr4_safe:
x86_rdcr4_fault:
	movq	%cr4, %rax
	movq	%rax, (%rdi)
	xorl	%eax, %eax
x86_rdcr4_fixup:
	ret

/* hw_status x86_wrcr4_safe(uint64_t val) */
	.globl x86_wrcr4_safe, x86_wrcr4_fault, x86_wrcr4_fixup
x86_wrcr4_safe:
x86_wrcr4_fault:
	movq	%rdi, %cr4
	xorl	%eax, %eax
x86_wrcr4_fixup:
	ret

/* hw_status x86_xgetbv_safe(uint32_t xcr, uint64_t *val) */
	.globl x86_xgetbv_safe, x86_xgetbv_fault, x86_xgetbv_fixup
x86_xgetbv_safe:
	movl	%edi, %ecx
x86_xgetbv_fault:
	xgetbv
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, (%rsi)
	xorl	%eax, %eax
x86_xgetbv_fixup:
	ret

/* hw_status x86_xsetbv_safe(uint32_t xcr, uint64_t val) */
	.globl x86_xsetbv_safe, x86_xsetbv_fault, x86_xsetbv_fixup
x86_xsetbv_safe:
	movl	%edi, %ecx
	movl	%esi, %eax
	movq	%rsi, %rdx
	shrq	$32, %rdx
x86_xsetbv_fault:
	xsetbv
	xorl	%eax, %eax
x86_xsetbv_fixup:
	ret

	.section .note.GNU-stack,"",@progbits
