/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aarch64 CPU primitives for arch/arch.h: time base, interrupt masking, the C environment
 * (picolibc's thread pointer) and the cpu_info wrapper.
 */
#include <errno.h>
#include "arch/arch.h"
#include "arch/aarch64/cpuinfo_pure.h"
#include "arch/aarch64/tls.h"

/*
 * CNTVCT_EL0 may be read speculatively, out of order with respect to the instructions before
 * it; an ISB first makes the read happen after them (Arm ARM D23 CNTVCT_EL0, and chapter
 * "The Generic Timer in AArch64 state": reads of the counter "can occur speculatively and
 * out of order relative to other instructions executed on the same PE").
 */
uint64_t arch_timer_read(void)
{
	uint64_t v;
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

/* DAIF (Arm ARM C5.2 DAIF): bit 7 = I masks IRQs. DAIFSet #2 sets only I (the immediate's
 * bits are D, A, I, F = 8, 4, 2, 1; C6.2 MSR (immediate)). Restoring writes the saved DAIF. */
uint64_t arch_irq_disable(void)
{
	uint64_t daif;
	__asm__ volatile("mrs %0, daif\n\tmsr daifset, #2" : "=r"(daif) : : "memory");
	return daif;
}

void arch_irq_restore(uint64_t saved)
{
	__asm__ volatile("msr daif, %0" : : "r"(saved) : "memory");
}

/* No SMM on Arm: there is no SMI count to read. */
hw_status arch_smi_count(const struct hw *hw, uint64_t *count)
{
	(void)hw;
	*count = 0;
	return HW_UNSUPPORTED;
}

/* MIDR_EL1 fields (Arm ARM D23.2 MIDR_EL1) and CurrentEL. */
const struct cpu_ident_field arch_ident_fields[] = {
	{ "implementer", offsetof(struct cpu_info, implementer), 1 },
	{ "variant", offsetof(struct cpu_info, variant), 0 },
	{ "architecture", offsetof(struct cpu_info, architecture), 1 },
	{ "partnum", offsetof(struct cpu_info, partnum), 1 },
	{ "revision", offsetof(struct cpu_info, revision), 0 },
	{ "current_el", offsetof(struct cpu_info, current_el), 0 },
};
const uint32_t arch_nident_fields = sizeof(arch_ident_fields) / sizeof(arch_ident_fields[0]);
const char arch_timer_name[] = "CNTVCT_EL0";

void arch_cpu_info(const struct hw *hw, struct cpu_info *ci)
{
	arm_cpu_info(hw, ci);
}

/*
 * picolibc's errno (and its few other thread-locals) are TLS: the specs file compiles with
 * -ftls-model=local-exec, so an access is TPIDR_EL0 + an offset the linker fixed. AArch64 uses
 * TLS variant 1 (ELF for the Arm 64-bit Architecture, "Thread Local Storage"): TP points to a
 * 16-byte TCB and the TLS segment (.tdata then .tbss) starts at TP + 16, rounded up to the
 * segment's alignment. gnu-efi's linker script provides no symbols for the segment's size, so
 * the block is sized generously and arm_tls_check() verifies errno lands inside it.
 * The block is zeroed, which is the right initial image for .tbss. Initialised TLS (.tdata)
 * exists in picolibc only for rand48()/random() state, which efiperf does not use, and
 * objcopy does not keep a .tdata section in the PE anyway.
 *
 * Caller contract: call arch_env_enter/leave from a function that does not itself use errno
 * (or any thread-local). The compiler treats TPIDR_EL0 as constant for the thread and may read
 * it once at function entry, before arch_env_enter changed it (seen with gcc 12 -O2: efi_main
 * hoisted `mrs tpidr_el0` above the call and wrote errno into firmware memory).
 */
static uint8_t tls_block[ARM_TLS_BLOCK_BYTES] __attribute__((aligned(ARM_TLS_BLOCK_ALIGN)));
static uint64_t fw_tpidr;
static int env_entered;

void arch_env_enter(void)
{
	if (env_entered)
		return;
	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(fw_tpidr));
	for (size_t i = 0; i < sizeof(tls_block); i++)
		((volatile uint8_t *)tls_block)[i] = 0;
	__asm__ volatile("msr tpidr_el0, %0" : : "r"(tls_block) : "memory");
	env_entered = 1;
}

void arch_env_leave(void)
{
	if (!env_entered)
		return;
	__asm__ volatile("msr tpidr_el0, %0" : : "r"(fw_tpidr) : "memory");
	env_entered = 0;
}

int arm_tls_check(void)
{
	uint64_t tp;
	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp));
	uintptr_t e = (uintptr_t)&errno;
	return tp == (uintptr_t)tls_block && e >= tp + ARM_TLS_TCB_BYTES &&
	       e + sizeof(errno) <= tp + sizeof(tls_block);
}
