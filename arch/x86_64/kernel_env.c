/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the tuner needs to know about this x86_64 CPU (arch/kernel_tune.h): the last-level
 * cache size (CPUID leaf 04H, else AMD's 8000001DH, subleaves until a null one) and the CPU
 * class (hybrid core type, CPUID leaf 1AH EAX[31:24] where CPUID.(7,0):EDX[15] Hybrid says
 * the leaf is meaningful; SDM Vol. 2A CPUID Table 3-8).
 */
#include "arch/kernel_tune.h"
#include "arch/x86_64/kernel_x86.h"

#define LEAF_CACHE 0x4u
#define LEAF_AMD_CACHE 0x8000001Du
#define LEAF_EXT_MAX 0x80000000u
#define LEAF_HYBRID 0x1Au
#define CPUID7_EDX_HYBRID (1u << 15)
#define MAX_SUBLEAVES 16

static uint64_t llc_of(const struct hw *hw, uint32_t leaf)
{
	uint64_t best = 0;
	uint32_t best_level = 0;
	for (uint32_t sub = 0; sub < MAX_SUBLEAVES; sub++) {
		struct hw_cpuid r = { 0 };
		uint32_t level;
		if (hw_cpuid(hw, leaf, sub, &r) != HW_OK || (r.eax & 0x1F) == 0)
			break;
		uint64_t b = x86_cache_bytes(r.eax, r.ebx, r.ecx, &level);
		if (b && level >= best_level)
			best = b, best_level = level;
	}
	return best;
}

uint64_t arch_llc_bytes(const struct hw *hw)
{
	struct hw_cpuid l0 = { 0 }, e0 = { 0 };
	hw_cpuid(hw, 0, 0, &l0);
	uint64_t b = l0.eax >= LEAF_CACHE ? llc_of(hw, LEAF_CACHE) : 0;
	if (!b && hw_cpuid(hw, LEAF_EXT_MAX, 0, &e0) == HW_OK && e0.eax >= LEAF_AMD_CACHE)
		b = llc_of(hw, LEAF_AMD_CACHE);
	return b;
}

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

uint32_t arch_cpu_class(void)
{
	uint32_t l0[4], l7[4] = { 0 }, lh[4] = { 0 };
	cpuid(0, 0, l0);
	if (l0[0] >= 7)
		cpuid(7, 0, l7);
	if (!(l7[3] & CPUID7_EDX_HYBRID) || l0[0] < LEAF_HYBRID)
		return 0;
	cpuid(LEAF_HYBRID, 0, lh);
	return lh[0] >> 24;
}
