/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aarch64 CPU-register backend (arch_cpu_ops) and the arch side of exception recovery.
 *
 * sysreg_read/sysreg_write look the encoding up in a table built from ARM_SYSREG_ACCESSORS
 * (arch/aarch64/sysreg.h) and call the generated accessor; an encoding without an accessor is
 * HW_BAD_ARG (MRS/MSR need the register as an immediate, so there is no generic path).
 * cpuid/rdmsr/wrmsr/rdpmc are x86 operations: NULL here, so hw_*() returns HW_UNSUPPORTED.
 */
#include "arch/arch.h"
#include "arch/aarch64/sysreg.h"
#include "arch/aarch64/efi_context.h"

struct arm_sysreg_acc {
	uint32_t enc;
	hw_status (*rd)(uint64_t *val);
	hw_status (*wr)(uint64_t val);
};

#define ACC_ENTRY(name) { SYSREG_##name, arm_sysreg_rd_##name, arm_sysreg_wr_##name },
static const struct arm_sysreg_acc sysreg_acc[] = { ARM_SYSREG_ACCESSORS(ACC_ENTRY) };
#undef ACC_ENTRY

static const struct arm_sysreg_acc *acc_find(uint32_t enc)
{
	for (size_t i = 0; i < sizeof(sysreg_acc) / sizeof(sysreg_acc[0]); i++)
		if (sysreg_acc[i].enc == enc)
			return &sysreg_acc[i];
	return NULL;
}

static hw_status op_sysreg_read(void *ctx, uint32_t enc, uint64_t *val)
{
	(void)ctx;
	const struct arm_sysreg_acc *a = acc_find(enc);
	if (!a || !val)
		return HW_BAD_ARG;
	return a->rd(val);
}

static hw_status op_sysreg_write(void *ctx, uint32_t enc, uint64_t val)
{
	(void)ctx;
	const struct arm_sysreg_acc *a = acc_find(enc);
	if (!a)
		return HW_BAD_ARG;
	return a->wr(val);
}

/* MMIO: natural alignment only (an unaligned Device-memory access is an Alignment fault,
 * Arm ARM B2, "Alignment of data accesses"). The barriers are in sysreg_acc.S. */
static hw_status op_mmio_read32(void *ctx, uint64_t addr, uint32_t *val)
{
	(void)ctx;
	return (addr & 3) || !val ? HW_BAD_ARG : arm_mmio_rd32(addr, val);
}

static hw_status op_mmio_read64(void *ctx, uint64_t addr, uint64_t *val)
{
	(void)ctx;
	return (addr & 7) || !val ? HW_BAD_ARG : arm_mmio_rd64(addr, val);
}

static hw_status op_mmio_write32(void *ctx, uint64_t addr, uint32_t val)
{
	(void)ctx;
	return (addr & 3) ? HW_BAD_ARG : arm_mmio_wr32(addr, val);
}

static hw_status op_mmio_write64(void *ctx, uint64_t addr, uint64_t val)
{
	(void)ctx;
	return (addr & 7) ? HW_BAD_ARG : arm_mmio_wr64(addr, val);
}

const struct hw_ops arch_cpu_ops = {
	.name = "aarch64",
	.sysreg_read = op_sysreg_read,
	.sysreg_write = op_sysreg_write,
	.mmio_read32 = op_mmio_read32,
	.mmio_read64 = op_mmio_read64,
	.mmio_write32 = op_mmio_write32,
	.mmio_write64 = op_mmio_write64,
};

/* Every synchronous exception taken at the current EL arrives at one EDK2 vector type;
 * ESR_ELx.EC tells UNDEFINED (0x00), trapped MSR/MRS (0x18) and Data Abort (0x25) apart:
 * the first two map to HW_FAULT_SYNC, a Data Abort at a fixup to HW_FAULT_ABORT. */
const struct arch_fault_vector arch_fault_vectors[] = {
	{ EFI_EXCEPT_AARCH64_SYNCHRONOUS_EXCEPTIONS, HW_FAULT_SYNC, "sync" },
};
const uint32_t arch_nfault_vectors = sizeof(arch_fault_vectors) / sizeof(arch_fault_vectors[0]);

/*
 * system_context is the pointer held in the firmware's EFI_SYSTEM_CONTEXT union, i.e. an
 * EFI_SYSTEM_CONTEXT_AARCH64 frame (efi_context.h). ELR_ELx of a synchronous exception is the
 * faulting instruction, which is what arch_fixups[] lists; on a hit resume at its fixup
 * (the accessor's RET) with x0 = st.
 */
int arch_fault_fixup(void *system_context, hw_status st)
{
	struct efi_system_context_aarch64 *c = system_context;
	if (!c)
		return 0;
	uintptr_t fix = fixup_lookup(arch_fixups, arch_nfixups, (uintptr_t)c->elr);
	if (!fix)
		return 0;
	c->elr = fix;
	/* A Data Abort taken without a change in Exception level (ESR_ELx.EC 0x25, Arm ARM D23
	 * ESR_EL1 "Exception Class") is an MMIO access the translation or the bus refused (the
	 * cause is ESR_ELx.ISS DFSC, kept in arm_last_fault_esr): said apart from an UNDEFINED
	 * system-register access. */
	c->x[0] = (uint64_t)(((c->esr >> ESR_ELx_EC_SHIFT) & ESR_ELx_EC_MASK) == ESR_ELx_EC_DABT_CUR ? HW_FAULT_ABORT : st);
	return 1;
}

/* arch/aarch64/guard.S: resume there with X0 = g. */
void arch_guard_escape(void);

void arch_fault_escape(void *system_context, struct arch_guard *g)
{
	struct efi_system_context_aarch64 *c = system_context;
	c->elr = (uint64_t)(uintptr_t)arch_guard_escape;
	c->x[0] = (uint64_t)(uintptr_t)g;
}

uintptr_t arch_fault_ip(void *system_context)
{
	struct efi_system_context_aarch64 *c = system_context;
	return c ? (uintptr_t)c->elr : 0;
}
