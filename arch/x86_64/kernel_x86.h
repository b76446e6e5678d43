/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86_64 stress kernels (arch/kernel.h signature) per ISA, and the probe of which ISAs the CPU
 * and the firmware/OS have enabled. Pure: no EFI headers; built on the host too.
 *
 * Every kernel cuts its arrays into KERNEL_X86_PARTS equal parts walked side by side, one
 * 64-byte line of each per turn (kernel_x86_body.h says why), so bytes must be a multiple of
 * KERNEL_X86_BLOCK = PARTS x 64 = 512 for every ISA; buffers are 64-byte aligned.
 */
#ifndef EFIPERF_KERNEL_X86_H
#define EFIPERF_KERNEL_X86_H

#include <stdint.h>
#include "arch/kernel.h"

#define KERNEL_X86_PARTS 8
#define KERNEL_X86_NTSTORE_PARTS 2   /* divides KERNEL_X86_PARTS: the block stays valid */
#define KERNEL_X86_BLOCK (KERNEL_X86_PARTS * 64u)
#define KERNEL_X86_ALIGN 64u

kernel_fn kernel_load_sse2, kernel_store_sse2, kernel_ntstore_sse2, kernel_copy_sse2, kernel_ntcopy_sse2,
	kernel_triad_sse2;
kernel_fn kernel_load_avx2, kernel_store_avx2, kernel_ntstore_avx2, kernel_copy_avx2, kernel_ntcopy_avx2,
	kernel_triad_avx2;
kernel_fn kernel_load_avx512, kernel_store_avx512, kernel_ntstore_avx512, kernel_copy_avx512,
	kernel_ntcopy_avx512, kernel_triad_avx512;

/* CPUID/XCR0 bits the probe reads (SDM Vol. 2A CPUID Table 3-10 "Feature Information Returned
 * in the ECX Register", Table 3-8 leaf 07H EBX; Vol. 1 13.3 "Enabling the XSAVE Feature Set"
 * and Figure 13-1 XCR0). */
#define CPUID_1_ECX_OSXSAVE   (1u << 27)  /* CR4.OSXSAVE set: XGETBV is usable */
#define CPUID_1_ECX_AVX       (1u << 28)
#define CPUID_7_EBX_AVX2      (1u << 5)
#define CPUID_7_EBX_AVX512F   (1u << 16)
#define XCR0_SSE              (1ull << 1)  /* XMM state */
#define XCR0_AVX              (1ull << 2)  /* YMM upper halves */
#define XCR0_OPMASK           (1ull << 5)  /* k0-k7 */
#define XCR0_ZMM_HI256        (1ull << 6)  /* ZMM0-15 upper halves */
#define XCR0_HI16_ZMM         (1ull << 7)  /* ZMM16-31 */

/* The ISA mask from raw CPUID values: max_leaf = CPUID.0:EAX, leaf1_ecx = CPUID.1:ECX,
 * leaf7_ebx = CPUID.(7,0):EBX (ignored when max_leaf < 7), xcr0 = XGETBV(0) (ignored unless
 * OSXSAVE). SSE2 always (x86_64 baseline). AVX2 needs AVX, AVX2, OSXSAVE and XCR0 SSE+AVX;
 * AVX-512 needs those plus AVX512F and XCR0 opmask, ZMM_Hi256 and Hi16_ZMM. A firmware that
 * left CR4.OSXSAVE clear (UEFI only requires SSE) therefore gets SSE2 kernels only. */
uint32_t x86_kernel_isa_decode(uint32_t max_leaf, uint32_t leaf1_ecx, uint32_t leaf7_ebx, uint64_t xcr0);
/* The same from this CPU: CPUID, and XGETBV only when CPUID says OSXSAVE (else it is #UD). */
uint32_t x86_kernel_isa(void);

#endif
