/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aarch64 stress kernels (arch/kernel.h signature) and the probe of Advanced SIMD and SVE.
 * Every kernel walks P equal parts of its arrays side by side (the shapes below: 1, 2, 4 or 8
 * sequential streams from one core), one 64-byte line of each per turn, so bytes must be a
 * multiple of P x 64 (the row's block_bytes); buffers are 64-byte aligned.
 */
#ifndef EFIPERF_KERNEL_NEON_H
#define EFIPERF_KERNEL_NEON_H

#include <stdint.h>
#include "arch/kernel.h"

#define KERNEL_NEON_ALIGN 64u

/* The shapes of both ISAs: X(tag, P, ...). The first is kernel_best()'s pick without the tuner. */
#define KA_SHAPES(X, ...) X(s8, 8, __VA_ARGS__) X(s4, 4, __VA_ARGS__) X(s2, 2, __VA_ARGS__) X(s1, 1, __VA_ARGS__)

#define KA_DECL(tag, P, isa)                                                                          \
	kernel_fn kernel_load_##tag##_##isa, kernel_store_##tag##_##isa, kernel_ntstore_##tag##_##isa, \
		kernel_copy_##tag##_##isa, kernel_ntcopy_##tag##_##isa, kernel_triad_##tag##_##isa;
KA_SHAPES(KA_DECL, neon)
KA_SHAPES(KA_DECL, sve)

/* ID_AA64PFR0_EL1 fields (Arm ARM D19.2 ID_AA64PFR0_EL1): FP [19:16] and AdvSIMD [23:20],
 * 0xF = not implemented; SVE [35:32], 0 = not implemented. */
#define ID_AA64PFR0_FP_SHIFT      16
#define ID_AA64PFR0_ADVSIMD_SHIFT 20
#define ID_AA64PFR0_SVE_SHIFT     32

/* KERNEL_ISA_NEON when both FP and AdvSIMD are implemented, else 0 (only the C kernels). */
uint32_t aarch64_kernel_isa_decode(uint64_t id_aa64pfr0);
/* The same from this CPU's ID_AA64PFR0_EL1 (readable at EL1 and above; Linux emulates the
 * read at EL0). UEFI requires FP/SIMD enabled at boot on AArch64 (UEFI 2.10 2.3.6.4). Plus
 * KERNEL_ISA_SVE where SVE is implemented and not trapped at this EL (arch/vecstate.h). */
uint32_t aarch64_kernel_isa(void);
/* SVE implemented and not trapped on the calling CPU (arch/aarch64/vecstate.c). */
int aarch64_sve_usable(void);

#endif
