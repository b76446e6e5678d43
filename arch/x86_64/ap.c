/* SPDX-License-Identifier: BSD-2-Clause */
/* x86_64 has no firmware-independent way for efiperf to start APs (INIT-SIPI would need a
 * real-mode trampoline below 1 MiB): the MP services protocol is the only path (arch/arch.h). */
#include "arch/arch.h"

hw_status arch_ap_start(struct arch_ap *ap, int conduit)
{
	(void)ap;
	(void)conduit;
	return HW_UNSUPPORTED;
}

int arch_ap_is_off(uint64_t hwid, int conduit)
{
	(void)hwid;
	(void)conduit;
	return -1;
}

int32_t arch_psci_version(int conduit)
{
	(void)conduit;
	return -1;
}

/* CPUID leaves (SDM Vol.2A CPUID): 00H EAX the largest basic leaf, 01H EBX[31:24] the initial
 * APIC ID, 0BH EDX the x2APIC ID of this logical processor (EBX 0 where leaf 0BH is not valid). */
#define CPUID_LEAF_MAX      0x00
#define CPUID_LEAF_FEATURES 0x01
#define CPUID_LEAF_TOPOLOGY 0x0b
#define CPUID_INITIAL_APIC_ID_SHIFT 24

static void cpuid(uint32_t leaf, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(0));
}

uint64_t arch_cpu_hwid(void)
{
	uint32_t r[4];
	cpuid(CPUID_LEAF_MAX, r);
	if (r[0] >= CPUID_LEAF_TOPOLOGY) {
		cpuid(CPUID_LEAF_TOPOLOGY, r);
		if (r[1])
			return r[3];
	}
	cpuid(CPUID_LEAF_FEATURES, r);
	return r[1] >> CPUID_INITIAL_APIC_ID_SHIFT;
}

void arch_cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}
