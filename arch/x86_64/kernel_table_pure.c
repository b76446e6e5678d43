/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The x86_64 kernel table: per kind, widest ISA first, so kernel_best() picks AVX-512, then
 * AVX2, then SSE2, among what x86_kernel_isa() says is enabled. Platform differences are rows.
 */
#if defined(__x86_64__)
#include "arch/x86_64/kernel_x86.h"

#define ROW(kind_, KIND, isa_, ISA) \
	{ #kind_ "_" #isa_, KERNEL_##KIND, KERNEL_ISA_##ISA, KERNEL_X86_BLOCK, KERNEL_X86_ALIGN, kernel_##kind_##_##isa_ }
#define KIND_ROWS(kind_, KIND) \
	ROW(kind_, KIND, avx512, AVX512), \
	ROW(kind_, KIND, avx2, AVX2), \
	ROW(kind_, KIND, sse2, SSE2)

const struct kernel_desc arch_kernels[] = {
	KIND_ROWS(load, LOAD),
	KIND_ROWS(store, STORE),
	KIND_ROWS(ntstore, NTSTORE),
	KIND_ROWS(copy, COPY),
	KIND_ROWS(ntcopy, NTCOPY),
	KIND_ROWS(triad, TRIAD),
	/* The chase is portable C: the CPU's own dependent loads are the kernel. */
	{ "chase_c", KERNEL_CHASE, KERNEL_ISA_NONE, 64, 64, kernel_chase_c },
};
const uint32_t arch_nkernels = sizeof(arch_kernels) / sizeof(arch_kernels[0]);
#else
typedef int kernel_table_x86_not_this_arch;
#endif
