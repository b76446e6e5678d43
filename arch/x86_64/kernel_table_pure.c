/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The x86_64 kernel table: per kind, widest ISA first and within an ISA every shape of
 * kernel_x86.h (the default shape first; AVX-512 adds the L1 shapes), so kernel_best() picks AVX-512, then AVX2, then
 * SSE2 among what x86_kernel_isa() says is enabled, and the tuner (arch/kernel_tune.h) has
 * every shape to measure. Platform differences are rows.
 */
#if defined(__x86_64__)
#include "arch/x86_64/kernel_x86.h"

#define ROW(tag, P, U, D, kind_, KIND, isa_, ISA)                                                  \
	{ #kind_ "_" #tag "_" #isa_, KERNEL_##KIND, KERNEL_ISA_##ISA, (P) * (U) * 64u, KERNEL_X86_ALIGN, \
	  kernel_##kind_##_##tag##_##isa_, P, U, D },
#define KIND_ROWS(SHAPES, L1_SHAPES, kind_, KIND)        \
	SHAPES(ROW, kind_, KIND, avx512, AVX512)         \
	L1_SHAPES(ROW, kind_, KIND, avx512, AVX512)      \
	SHAPES(ROW, kind_, KIND, avx2, AVX2)             \
	SHAPES(ROW, kind_, KIND, sse2, SSE2)

const struct kernel_desc arch_kernels[] = {
	KIND_ROWS(KX_READ_SHAPES, KX_L1_READ_SHAPES, load, LOAD)
	KIND_ROWS(KX_WRITE_SHAPES, KX_L1_WRITE_SHAPES, store, STORE)
	KIND_ROWS(KX_NTSTORE_SHAPES, KX_L1_WRITE_SHAPES, ntstore, NTSTORE)
	KIND_ROWS(KX_READ_SHAPES, KX_L1_READ_SHAPES, copy, COPY)
	KIND_ROWS(KX_READ_SHAPES, KX_L1_READ_SHAPES, ntcopy, NTCOPY)
	KIND_ROWS(KX_READ_SHAPES, KX_L1_READ_SHAPES, triad, TRIAD)
	/* The chase is portable C: the CPU's own dependent loads are the kernel. */
	{ "chase_c", KERNEL_CHASE, KERNEL_ISA_NONE, 64, 64, kernel_chase_c, 1, 1, 0 },
};
const uint32_t arch_nkernels = sizeof(arch_kernels) / sizeof(arch_kernels[0]);
#else
typedef int kernel_table_x86_not_this_arch;
#endif
