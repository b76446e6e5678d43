/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The aarch64 kernel table (NEON, then the portable chase) and the Advanced SIMD probe.
 * Platform differences are rows; kernel_best() picks from what aarch64_kernel_isa() offers.
 */
#if defined(__aarch64__)
#include "arch/aarch64/kernel_neon.h"

#define ROW(kind_, KIND) \
	{ #kind_ "_neon", KERNEL_##KIND, KERNEL_ISA_NEON, KERNEL_NEON_BLOCK, KERNEL_NEON_ALIGN, kernel_##kind_##_neon }

const struct kernel_desc arch_kernels[] = {
	ROW(load, LOAD),
	ROW(store, STORE),
	ROW(ntstore, NTSTORE),
	ROW(copy, COPY),
	ROW(ntcopy, NTCOPY),
	ROW(triad, TRIAD),
	{ "chase_c", KERNEL_CHASE, KERNEL_ISA_NONE, 64, 64, kernel_chase_c },
};
const uint32_t arch_nkernels = sizeof(arch_kernels) / sizeof(arch_kernels[0]);

uint32_t aarch64_kernel_isa_decode(uint64_t pfr0)
{
	uint32_t fp = (pfr0 >> ID_AA64PFR0_FP_SHIFT) & 0xF, simd = (pfr0 >> ID_AA64PFR0_ADVSIMD_SHIFT) & 0xF;
	return (fp != 0xF && simd != 0xF) ? KERNEL_ISA_NEON : 0;
}

uint32_t aarch64_kernel_isa(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, ID_AA64PFR0_EL1" : "=r"(v));
	return aarch64_kernel_isa_decode(v);
}

uint32_t arch_kernel_isa(void)
{
	return aarch64_kernel_isa();
}
#else
typedef int kernel_table_aarch64_not_this_arch;
#endif
