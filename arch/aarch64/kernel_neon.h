/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aarch64 stress kernels (arch/kernel.h signature) and the probe of Advanced SIMD.
 * Every kernel walks KERNEL_NEON_PARTS equal parts of its arrays side by side, one 64-byte line
 * of each per turn, so bytes must be a multiple of KERNEL_NEON_BLOCK = PARTS x 64 = 512;
 * buffers are 64-byte aligned.
 */
#ifndef EFIPERF_KERNEL_NEON_H
#define EFIPERF_KERNEL_NEON_H

#include <stdint.h>
#include "arch/kernel.h"

#define KERNEL_NEON_PARTS 8
#define KERNEL_NEON_BLOCK (KERNEL_NEON_PARTS * 64u)
#define KERNEL_NEON_ALIGN 64u

kernel_fn kernel_load_neon, kernel_store_neon, kernel_ntstore_neon, kernel_copy_neon, kernel_ntcopy_neon,
	kernel_triad_neon;

/* ID_AA64PFR0_EL1 fields (Arm ARM D19.2 ID_AA64PFR0_EL1): FP [19:16] and AdvSIMD [23:20],
 * 0xF = not implemented. */
#define ID_AA64PFR0_FP_SHIFT      16
#define ID_AA64PFR0_ADVSIMD_SHIFT 20

/* KERNEL_ISA_NEON when both FP and AdvSIMD are implemented, else 0 (only the C kernels). */
uint32_t aarch64_kernel_isa_decode(uint64_t id_aa64pfr0);
/* The same from this CPU's ID_AA64PFR0_EL1 (readable at EL1 and above; Linux emulates the
 * read at EL0). UEFI requires FP/SIMD enabled at boot on AArch64 (UEFI 2.10 2.3.6.4). */
uint32_t aarch64_kernel_isa(void);

#endif
