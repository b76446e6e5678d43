/* SPDX-License-Identifier: BSD-2-Clause */
/* Which x86_64 kernel ISAs this CPU offers and its firmware/OS enabled (kernel_x86.h). */
#if defined(__x86_64__)
#include "arch/x86_64/kernel_x86.h"

uint32_t x86_kernel_isa_decode(uint32_t max_leaf, uint32_t leaf1_ecx, uint32_t leaf7_ebx, uint64_t xcr0)
{
	uint32_t isa = KERNEL_ISA_SSE2;
	if (max_leaf < 1 || !(leaf1_ecx & CPUID_1_ECX_OSXSAVE) || !(leaf1_ecx & CPUID_1_ECX_AVX))
		return isa;
	const uint64_t avx_state = XCR0_SSE | XCR0_AVX;
	const uint64_t zmm_state = avx_state | XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM;
	if (max_leaf < 7 || (xcr0 & avx_state) != avx_state)
		return isa;
	if (leaf7_ebx & CPUID_7_EBX_AVX2)
		isa |= KERNEL_ISA_AVX2;
	/* The AVX-512 kernels are compiled with target("avx512f"), which implies AVX2. */
	if ((isa & KERNEL_ISA_AVX2) && (leaf7_ebx & CPUID_7_EBX_AVX512F) && (xcr0 & zmm_state) == zmm_state)
		isa |= KERNEL_ISA_AVX512;
	return isa;
}

#define CACHE_TYPE_NULL 0u
#define CACHE_TYPE_INSTRUCTION 2u

uint64_t x86_cache_bytes(uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t *level)
{
	uint32_t type = eax & 0x1F;
	*level = (eax >> 5) & 0x7;
	if (type == CACHE_TYPE_NULL || type == CACHE_TYPE_INSTRUCTION)
		return 0;
	return (uint64_t)((ebx >> 22) + 1) * (((ebx >> 12) & 0x3FF) + 1) * ((ebx & 0xFFF) + 1) * ((uint64_t)ecx + 1);
}

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

uint32_t x86_kernel_isa(void)
{
	uint32_t l0[4], l1[4] = { 0 }, l7[4] = { 0 };
	uint64_t xcr0 = 0;
	cpuid(0, 0, l0);
	if (l0[0] >= 1)
		cpuid(1, 0, l1);
	if (l0[0] >= 7)
		cpuid(7, 0, l7);
	if (l1[2] & CPUID_1_ECX_OSXSAVE) {
		uint32_t lo, hi;
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		xcr0 = ((uint64_t)hi << 32) | lo;
	}
	return x86_kernel_isa_decode(l0[0], l1[2], l7[1], xcr0);
}

uint32_t arch_kernel_isa(void)
{
	return x86_kernel_isa();
}
#else
typedef int kernel_isa_x86_not_this_arch;
#endif
