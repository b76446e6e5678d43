/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/x86_64/cpuid_pure.h"
#include "arch/regs/x86_msr.h"
#include "arch/regs/x86_amd_msr.h"
#include "arch/lib/fmt.h"
#include <string.h>

#define FAMILY_EXT_TRIGGER 0xFu
#define FAMILY_P6 0x6u

void x86_decode_signature(uint32_t eax, uint32_t *family, uint32_t *model, uint32_t *stepping)
{
	uint32_t fam = (eax >> 8) & 0xF, mod = (eax >> 4) & 0xF;
	uint32_t ext_fam = (eax >> 20) & 0xFF, ext_mod = (eax >> 16) & 0xF;
	*stepping = eax & 0xF;
	*family = fam == FAMILY_EXT_TRIGGER ? fam + ext_fam : fam;
	*model = (fam == FAMILY_P6 || fam == FAMILY_EXT_TRIGGER) ? (ext_mod << 4) | mod : mod;
}

static void put_reg(char *dst, uint32_t r)
{
	for (int i = 0; i < 4; i++)
		dst[i] = (char)(r >> (8 * i));
}

uint64_t x86_tsc_hz(const struct hw *hw, uint32_t max_leaf, const char **source)
{
	struct hw_cpuid r;
	*source = NULL;
	if (max_leaf >= CPUID_TSC_CRYSTAL && hw_cpuid(hw, CPUID_TSC_CRYSTAL, 0, &r) == HW_OK &&
	    r.eax && r.ebx && r.ecx) {
		*source = "cpuid-0x15";
		return (uint64_t)r.ecx * r.ebx / r.eax;
	}
	/* CPUID 0x16 EAX is the base (nominal) frequency, which the invariant TSC runs at on
	 * Intel parts that do not enumerate the crystal (SDM Vol.3B 18.7.3). */
	if (max_leaf >= CPUID_PROC_FREQ && hw_cpuid(hw, CPUID_PROC_FREQ, 0, &r) == HW_OK &&
	    (r.eax & 0xFFFF)) {
		*source = "cpuid-0x16";
		return (uint64_t)(r.eax & 0xFFFF) * 1000000ull;
	}
	return 0;
}

/* Topology from leaf 0x1F (preferred) or 0xB: logical CPUs at SMT level and per package. */
static void topology(const struct hw *hw, struct cpu_info *ci)
{
	uint32_t leaf = ci->max_leaf >= CPUID_V2_EXT_TOPOLOGY ? CPUID_V2_EXT_TOPOLOGY :
			ci->max_leaf >= CPUID_EXT_TOPOLOGY ? CPUID_EXT_TOPOLOGY : 0;
	if (!leaf)
		return;
	struct hw_cpuid r;
	/* Leaf 0x1F may be all-zero where not implemented although max_leaf covers it. */
	if (leaf == CPUID_V2_EXT_TOPOLOGY && (hw_cpuid(hw, leaf, 0, &r) != HW_OK || !r.ebx))
		leaf = CPUID_EXT_TOPOLOGY;
	for (uint32_t sub = 0; sub < 8; sub++) {
		if (hw_cpuid(hw, leaf, sub, &r) != HW_OK)
			return;
		uint32_t type = (r.ecx >> 8) & 0xFF, count = r.ebx & 0xFFFF;
		if (!type)
			break;
		if (type == CPUID_TOPO_LEVEL_SMT)
			ci->threads_per_core = count;
		ci->logical_per_package = count; /* the last (widest) level is the package */
	}
}

int x86_cache_decode(uint32_t eax, uint32_t ebx, uint32_t ecx, struct cache_desc *c)
{
	uint32_t type = eax & 0x1F;
	if (type == CACHE_NONE || type > CACHE_UNIFIED)   /* 0: no more; 4-31 reserved */
		return -1;
	*c = (struct cache_desc){
		.level = (eax >> 5) & 0x7,
		.type = (enum cache_type)type,
		.sharing = ((eax >> 14) & 0xFFF) + 1,
		.line_bytes = (ebx & 0xFFF) + 1,
		.partitions = ((ebx >> 12) & 0x3FF) + 1,
		.ways = ((ebx >> 22) & 0x3FF) + 1,
		.sets = ecx + 1,
	};
	c->bytes = (uint64_t)c->ways * c->partitions * c->line_bytes * c->sets;
	return 0;
}

void x86_caches(const struct hw *hw, struct cpu_info *ci)
{
	struct hw_cpuid r;
	uint32_t leaf = 0;
	int amd = strcmp(ci->vendor, "AuthenticAMD") == 0 || strcmp(ci->vendor, "HygonGenuine") == 0;
	if (amd && ci->max_ext_leaf >= CPUID_AMD_CACHE_PARAMS &&
	    hw_cpuid(hw, CPUID_AMD_EXT_FEATURES, 0, &r) == HW_OK && (r.ecx & CPUID_81_ECX_TOPOEXT)) {
		leaf = CPUID_AMD_CACHE_PARAMS;
		ci->cache_source = "CPUID.8000001DH";
	} else if (!amd && ci->max_leaf >= CPUID_CACHE_PARAMS) {
		leaf = CPUID_CACHE_PARAMS;
		ci->cache_source = "CPUID.04H";
	}
	ci->ncaches = 0;
	for (uint32_t sub = 0; leaf && sub < CPUID_CACHE_MAX_SUBLEAF && ci->ncaches < CPUINFO_MAX_CACHES; sub++) {
		if (hw_cpuid(hw, leaf, sub, &r) != HW_OK || x86_cache_decode(r.eax, r.ebx, r.ecx, &ci->cache[ci->ncaches]))
			break;
		ci->ncaches++;
	}
	if (!ci->ncaches)
		ci->cache_source = NULL;
}

static void probes(const struct hw *hw, struct cpu_info *ci)
{
	uint64_t v = 0;
	hw_status st;

	/* Microcode: write 0 to IA32_BIOS_SIGN_ID, execute CPUID.1, read [63:32] (SDM Vol.3A
	 * 10.11.7.1). The write is to a register whose previous content is meaningless. */
	struct hw_cpuid r;
	st = hw_wrmsr(hw, IA32_BIOS_SIGN_ID, 0);
	if (st == HW_OK) {
		hw_cpuid(hw, CPUID_SIGNATURE, 0, &r);
		st = hw_rdmsr(hw, IA32_BIOS_SIGN_ID, &v);
	}
	if (st == HW_OK) {
		ci->microcode_valid = 1;
		ci->microcode = v >> 32;
		cpuinfo_probe(ci, "IA32_BIOS_SIGN_ID", "ok: microcode 0x%llx", (unsigned long long)(v >> 32));
	} else {
		cpuinfo_probe(ci, "IA32_BIOS_SIGN_ID", "%s", hw_status_name(st));
	}

	if (ci->max_leaf >= CPUID_ARCH_PERFMON) {
		hw_cpuid(hw, CPUID_ARCH_PERFMON, 0, &r);
		cpuinfo_probe(ci, "CPUID.0AH", "perfmon version %u, %u GP counters, %u fixed counters",
			      r.eax & 0xFF, (r.eax >> 8) & 0xFF, r.edx & 0x1F);
	}

	/* RDPMC of fixed counter 0: #UD where RDPMC is not implemented (QEMU TCG), #GP where the
	 * counter does not exist, a value otherwise. */
	st = hw_rdpmc(hw, RDPMC_FIXED | 0, &v);
	if (st == HW_OK)
		cpuinfo_probe(ci, "rdpmc", "ok: fixed counter 0 = %llu", (unsigned long long)v);
	else
		cpuinfo_probe(ci, "rdpmc", "%s", hw_status_name(st));

	/* APIC mode from IA32_APIC_BASE: EN [11], EXTD [10] (SDM Vol.3A 11.12.1). In xAPIC mode
	 * every x2APIC MSR access raises #GP (SDM Vol.3A 11.12.1.2): the probe checks that the
	 * CPU does so and that efiperf survives it. */
	uint64_t base = 0;
	st = hw_rdmsr(hw, IA32_APIC_BASE, &base);
	if (st != HW_OK) {
		cpuinfo_probe(ci, "IA32_APIC_BASE", "%s", hw_status_name(st));
		return;
	}
	int x2apic = (base & APIC_BASE_EN) && (base & APIC_BASE_EXTD);
	cpuinfo_probe(ci, "IA32_APIC_BASE", "0x%llx: %s mode", (unsigned long long)base,
		      x2apic ? "x2APIC" : (base & APIC_BASE_EN) ? "xAPIC" : "APIC disabled");
	st = hw_rdmsr(hw, IA32_X2APIC_APICID, &v);
	if (x2apic)
		cpuinfo_probe(ci, "IA32_X2APIC_APICID", "%s: APIC ID %llu", hw_status_name(st), (unsigned long long)v);
	else
		cpuinfo_probe(ci, "IA32_X2APIC_APICID", "%s%s", hw_status_name(st),
			      st == HW_FAULT_GP ? " (as the SDM specifies in xAPIC mode)"
						: " (the SDM specifies #GP in xAPIC mode)");
}

void x86_cpu_info(const struct hw *hw, struct cpu_info *ci)
{
	struct hw_cpuid r;
	ci->arch = "x86_64";
	hw_cpuid(hw, CPUID_VENDOR_MAXLEAF, 0, &r);
	ci->max_leaf = r.eax;
	put_reg(ci->vendor, r.ebx);
	put_reg(ci->vendor + 4, r.edx);
	put_reg(ci->vendor + 8, r.ecx);
	ci->vendor[12] = 0;

	hw_cpuid(hw, CPUID_SIGNATURE, 0, &r);
	ci->signature = r.eax;
	x86_decode_signature(r.eax, &ci->family, &ci->model, &ci->stepping);
	int hypervisor = !!(r.ecx & CPUID_1_ECX_HYPERVISOR);

	hw_cpuid(hw, CPUID_EXT_MAXLEAF, 0, &r);
	ci->max_ext_leaf = r.eax;
	if (ci->max_ext_leaf >= CPUID_BRAND_0 + 2) {
		for (uint32_t i = 0; i < 3; i++) {
			hw_cpuid(hw, CPUID_BRAND_0 + i, 0, &r);
			put_reg(ci->brand + 16 * i, r.eax);
			put_reg(ci->brand + 16 * i + 4, r.ebx);
			put_reg(ci->brand + 16 * i + 8, r.ecx);
			put_reg(ci->brand + 16 * i + 12, r.edx);
		}
		ci->brand[48] = 0;
		/* Brand strings are padded with leading spaces on some parts. */
		size_t lead = 0;
		while (ci->brand[lead] == ' ')
			lead++;
		memmove(ci->brand, ci->brand + lead, sizeof(ci->brand) - lead);
	}
	if (ci->max_ext_leaf >= CPUID_APM) {
		hw_cpuid(hw, CPUID_APM, 0, &r);
		ci->tsc_invariant = !!(r.edx & CPUID_APM_EDX_INVARIANT_TSC);
	}
	ci->tsc_hz = x86_tsc_hz(hw, ci->max_leaf, &ci->tsc_source);
	topology(hw, ci);
	x86_caches(hw, ci);
	ci->virtual_machine = hypervisor;
	/* Hypervisor CPUID leaves from 0x40000000: EBX, ECX, EDX the signature (Linux
	 * arch/x86/include/asm/processor.h hypervisor_cpuid_base, Documentation/virt/kvm/x86/cpuid.rst) */
	if (hypervisor && hw_cpuid(hw, CPUID_HYPERVISOR_BASE, 0, &r) == HW_OK) {
		put_reg(ci->hypervisor, r.ebx);
		put_reg(ci->hypervisor + 4, r.ecx);
		put_reg(ci->hypervisor + 8, r.edx);
		ci->hypervisor[12] = 0;
		for (int i = 0; i < 12; i++)
			if (ci->hypervisor[i] && (ci->hypervisor[i] < ' ' || ci->hypervisor[i] > '~'))
				ci->hypervisor[i] = '?';
	}
	cpuinfo_probe(ci, "hypervisor", "%s", hypervisor ? "CPUID.1:ECX[31] set (virtual machine)" : "none");
	probes(hw, ci);
}
