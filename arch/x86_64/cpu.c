/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86_64 CPU primitives behind the hardware interface: CPUID, fault-safe RDMSR/WRMSR/RDPMC
 * (arch/x86_64/safe_access.S), MMIO, the TSC, interrupt masking.
 */
#include "arch/arch.h"
#include "arch/x86_64/cpuid_pure.h"

hw_status x86_rdmsr_safe(uint32_t msr, uint64_t *val);
hw_status x86_wrmsr_safe(uint32_t msr, uint64_t val);
hw_status x86_rdpmc_safe(uint32_t counter, uint64_t *val);
extern const char x86_rdmsr_fault[], x86_rdmsr_fixup[];
extern const char x86_wrmsr_fault[], x86_wrmsr_fixup[];
extern const char x86_rdpmc_fault[], x86_rdpmc_fixup[];
extern const char x86_rdcr4_fault[], x86_rdcr4_fixup[], x86_wrcr4_fault[], x86_wrcr4_fixup[];
extern const char x86_xgetbv_fault[], x86_xgetbv_fixup[], x86_xsetbv_fault[], x86_xsetbv_fixup[];
hw_status x86_mmio_rd32_safe(uint64_t addr, uint32_t *val);
hw_status x86_mmio_rd64_safe(uint64_t addr, uint64_t *val);
hw_status x86_mmio_wr32_safe(uint64_t addr, uint32_t val);
hw_status x86_mmio_wr64_safe(uint64_t addr, uint64_t val);
extern const char x86_mmio_rd32_fault[], x86_mmio_rd32_fixup[], x86_mmio_rd64_fault[], x86_mmio_rd64_fixup[];
extern const char x86_mmio_wr32_fault[], x86_mmio_wr32_fixup[], x86_mmio_wr64_fault[], x86_mmio_wr64_fixup[];

const struct fixup_entry arch_fixups[] = {
	{ (uintptr_t)x86_rdmsr_fault, (uintptr_t)x86_rdmsr_fixup },
	{ (uintptr_t)x86_wrmsr_fault, (uintptr_t)x86_wrmsr_fixup },
	{ (uintptr_t)x86_rdpmc_fault, (uintptr_t)x86_rdpmc_fixup },
	{ (uintptr_t)x86_rdcr4_fault, (uintptr_t)x86_rdcr4_fixup },
	{ (uintptr_t)x86_wrcr4_fault, (uintptr_t)x86_wrcr4_fixup },
	{ (uintptr_t)x86_xgetbv_fault, (uintptr_t)x86_xgetbv_fixup },
	{ (uintptr_t)x86_xsetbv_fault, (uintptr_t)x86_xsetbv_fixup },
	{ (uintptr_t)x86_mmio_rd32_fault, (uintptr_t)x86_mmio_rd32_fixup },
	{ (uintptr_t)x86_mmio_rd64_fault, (uintptr_t)x86_mmio_rd64_fixup },
	{ (uintptr_t)x86_mmio_wr32_fault, (uintptr_t)x86_mmio_wr32_fixup },
	{ (uintptr_t)x86_mmio_wr64_fault, (uintptr_t)x86_mmio_wr64_fixup },
};
const uint32_t arch_nfixups = sizeof(arch_fixups) / sizeof(arch_fixups[0]);

/* Exception vectors (SDM Vol.3A Table 6-1): 6 = #UD invalid opcode, 13 = #GP, 14 = #PF. */
const struct arch_fault_vector arch_fault_vectors[] = {
	{ 6, HW_FAULT_UD, "#UD" },
	{ 13, HW_FAULT_GP, "#GP" },
	{ 14, HW_FAULT_PF, "#PF" },
};
const uint32_t arch_nfault_vectors = sizeof(arch_fault_vectors) / sizeof(arch_fault_vectors[0]);

static hw_status op_cpuid(void *ctx, uint32_t leaf, uint32_t sub, struct hw_cpuid *o)
{
	(void)ctx;
	__asm__ volatile("cpuid"
			 : "=a"(o->eax), "=b"(o->ebx), "=c"(o->ecx), "=d"(o->edx)
			 : "a"(leaf), "c"(sub));
	return HW_OK;
}

static hw_status op_rdmsr(void *ctx, uint32_t msr, uint64_t *v) { (void)ctx; return x86_rdmsr_safe(msr, v); }
static hw_status op_wrmsr(void *ctx, uint32_t msr, uint64_t v) { (void)ctx; return x86_wrmsr_safe(msr, v); }
static hw_status op_rdpmc(void *ctx, uint32_t c, uint64_t *v) { (void)ctx; return x86_rdpmc_safe(c, v); }

/* MMIO: natural alignment, one fault-safe MOV of the exact width (safe_access.S): an address
 * that is not mapped returns #PF, a non-canonical one #GP, instead of ending the run. */
static hw_status op_mmio_read32(void *ctx, uint64_t a, uint32_t *v)
{ (void)ctx; return (a & 3) ? HW_BAD_ARG : x86_mmio_rd32_safe(a, v); }
static hw_status op_mmio_read64(void *ctx, uint64_t a, uint64_t *v)
{ (void)ctx; return (a & 7) ? HW_BAD_ARG : x86_mmio_rd64_safe(a, v); }
static hw_status op_mmio_write32(void *ctx, uint64_t a, uint32_t v)
{ (void)ctx; return (a & 3) ? HW_BAD_ARG : x86_mmio_wr32_safe(a, v); }
static hw_status op_mmio_write64(void *ctx, uint64_t a, uint64_t v)
{ (void)ctx; return (a & 7) ? HW_BAD_ARG : x86_mmio_wr64_safe(a, v); }

static hw_status op_io_read32(void *ctx, uint16_t port, uint32_t *v)
{
	(void)ctx;
	__asm__ volatile("inl %w1, %0" : "=a"(*v) : "Nd"(port));
	return HW_OK;
}

const struct hw_ops arch_cpu_ops = {
	.name = "x86_64",
	.cpuid = op_cpuid,
	.rdmsr = op_rdmsr,
	.wrmsr = op_wrmsr,
	.rdpmc = op_rdpmc,
	.mmio_read32 = op_mmio_read32,
	.mmio_read64 = op_mmio_read64,
	.mmio_write32 = op_mmio_write32,
	.mmio_write64 = op_mmio_write64,
	.io_read32 = op_io_read32,
};

/* MSR_SMI_COUNT [31:0]: SMIs since reset (SDM Vol.4 Table 2-20, Nehalem and later). */
#define MSR_SMI_COUNT 0x00000034u
#define SMI_COUNT_MASK 0xFFFFFFFFull

hw_status arch_smi_count(const struct hw *hw, uint64_t *count)
{
	uint64_t v = 0;
	hw_status st = hw_rdmsr(hw, MSR_SMI_COUNT, &v);
	*count = v & SMI_COUNT_MASK;
	return st;
}

uint64_t arch_timer_read(void)
{
	uint32_t lo, hi;
	/* LFENCE before RDTSC: RDTSC waits for prior instructions (SDM Vol.2B RDTSC). */
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

uint64_t arch_irq_disable(void)
{
	uint64_t flags;
	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) :: "memory");
	return flags;
}

#define RFLAGS_IF (1ull << 9)
void arch_irq_restore(uint64_t saved)
{
	if (saved & RFLAGS_IF)
		__asm__ volatile("sti" ::: "memory");
}

const struct cpu_ident_field arch_ident_fields[] = {
	{ "family", offsetof(struct cpu_info, family), 1 },
	{ "model", offsetof(struct cpu_info, model), 1 },
	{ "stepping", offsetof(struct cpu_info, stepping), 0 },
};
const uint32_t arch_nident_fields = sizeof(arch_ident_fields) / sizeof(arch_ident_fields[0]);
const char arch_timer_name[] = "TSC";

void arch_cpu_info(const struct hw *hw, struct cpu_info *ci)
{
	x86_cpu_info(hw, ci);
}

void arch_env_enter(void) {}
void arch_env_leave(void) {}
