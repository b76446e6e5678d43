/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The aarch64 kernel table (SVE, then NEON, each in every shape of kernel_neon.h, then the
 * portable chase) and the ISA probe. Platform differences are rows; kernel_best() picks from
 * what aarch64_kernel_isa() offers, the tuner measures them all.
 */
#if defined(__aarch64__)
#include "arch/aarch64/kernel_neon.h"

#define ROW(tag, P, kind_, KIND, isa_, ISA) \
	{ #kind_ "_" #tag "_" #isa_, KERNEL_##KIND, KERNEL_ISA_##ISA, (P) * 64u, KERNEL_NEON_ALIGN, \
	  kernel_##kind_##_##tag##_##isa_, P, 1, 0 },
#define KIND_ROWS(kind_, KIND) KA_SHAPES(ROW, kind_, KIND, sve, SVE) KA_SHAPES(ROW, kind_, KIND, neon, NEON)

const struct kernel_desc arch_kernels[] = {
	KIND_ROWS(load, LOAD)
	KIND_ROWS(store, STORE)
	KIND_ROWS(ntstore, NTSTORE)
	KIND_ROWS(copy, COPY)
	KIND_ROWS(ntcopy, NTCOPY)
	KIND_ROWS(triad, TRIAD)
	{ "chase_c", KERNEL_CHASE, KERNEL_ISA_NONE, 64, 64, kernel_chase_c, 1, 1, 0 },
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
	uint32_t isa = aarch64_kernel_isa_decode(v);
	if (isa && aarch64_sve_usable())
		isa |= KERNEL_ISA_SVE;
	return isa;
}

uint32_t arch_kernel_isa(void)
{
	return aarch64_kernel_isa();
}
#else
typedef int kernel_table_aarch64_not_this_arch;
#endif
