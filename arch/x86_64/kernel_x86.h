/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86_64 stress kernels (arch/kernel.h signature) per ISA, and the probe of which ISAs the CPU
 * and the firmware/OS have enabled. Pure: no EFI headers; built on the host too.
 *
 * Every kernel cuts its arrays into P equal parts walked side by side, U 64-byte lines of each per
 * turn, with an optional software prefetch D lines ahead (kernel_x86_body.h says why), so bytes
 * must be a multiple of P x U x 64 (the row's block_bytes); buffers are 64-byte aligned.
 */
#ifndef EFIPERF_KERNEL_X86_H
#define EFIPERF_KERNEL_X86_H

#include <stdint.h>
#include "arch/kernel.h"

#define KERNEL_X86_ALIGN 64u
#define KERNEL_X86_PF_LINES 8   /* the prefetch distance of the _pf8 shapes: 512 bytes ahead */

/* What a core can move per cycle inside L1, the ceiling of the L1 rows:
 *   Intel Golden Cove / Raptor Cove / Emerald Rapids' Raptor Cove: three 256-bit loads or two
 *     512-bit loads, and two 256-bit stores or one 512-bit store per cycle (Intel 64 and IA-32
 *     Architectures Optimization Reference Manual, the Golden Cove chapter's L1 data cache
 *     table): 128 B/cycle of loads, 64 B/cycle of stores. With 512-bit uops in flight only
 *     ports 0 and 5 execute vector ALU uops, so a load kernel that spends one XOR per 512-bit
 *     load needs both of them every cycle; the load kind folds two loads per uop (I_XOR3).
 *   AMD Zen 4: two 256-bit loads and one 256-bit store per cycle, a 512-bit access taking two
 *     (Software Optimization Guide for the AMD Zen4 Microarchitecture, pub. 57647, Load-Store
 *     Unit): 64 B/cycle of loads, 32 B/cycle of stores. Zen 5: two 512-bit loads and one 512-bit
 *     store per cycle (Software Optimization Guide for the AMD Zen5 Microarchitecture, pub.
 *     58455, Load-Store Unit).
 *   Arm Neoverse V2: three 128-bit loads and two 128-bit stores per cycle (Arm Neoverse V2
 *     Software Optimization Guide, load/store throughput): 48 B and 32 B per cycle; the NEON and
 *     SVE kernels are arch/aarch64's.
 * Measured on an Emerald Rapids KVM guest (about 3.0 GHz while running AVX-512): store and copy
 * at 64 B/cycle of stores, the load kind within 4% of a loop of bare 512-bit loads. The L1
 * shapes (s1u8, s2u4) unroll eight lines a turn, so the loop's own add/compare/branch is one
 * uop in eight loads, and each accumulator is a chain of one uop per turn (KX_L1_READ_SHAPES).
 *
 * The shapes every ISA is built in: X(tag, P, U, D, ...) once per shape, the rest of the
 * arguments passed through. Read shapes serve the kinds that read (load, copy, ntcopy, triad),
 * write shapes the store kinds (store, ntstore: no prefetch, D = 0). The first shape is the one
 * kernel_best() picks without the tuner (eight parts; two for ntstore, KX_NTSTORE_FIRST). */
#define KX_READ_SHAPES(X, ...) \
	X(s8, 8, 1, 0, __VA_ARGS__) X(s4, 4, 1, 0, __VA_ARGS__) X(s2, 2, 1, 0, __VA_ARGS__) \
	X(s2u2, 2, 2, 0, __VA_ARGS__) X(s1, 1, 1, 0, __VA_ARGS__) X(s1u4, 1, 4, 0, __VA_ARGS__) \
	X(s8_pf8, 8, 1, 8, __VA_ARGS__) X(s4_pf8, 4, 1, 8, __VA_ARGS__) X(s2_pf8, 2, 1, 8, __VA_ARGS__) \
	X(s1_pf8, 1, 1, 8, __VA_ARGS__)
#define KX_WRITE_SHAPES(X, ...) \
	X(s8, 8, 1, 0, __VA_ARGS__) X(s4, 4, 1, 0, __VA_ARGS__) X(s2, 2, 1, 0, __VA_ARGS__) \
	X(s2u2, 2, 2, 0, __VA_ARGS__) X(s1, 1, 1, 0, __VA_ARGS__) X(s1u4, 1, 4, 0, __VA_ARGS__)
/* A store-only stream without reads is bound by the write path, not by prefetch depth: two
 * parts first for the non-temporal store. */
#define KX_NTSTORE_SHAPES(X, ...) \
	X(s2, 2, 1, 0, __VA_ARGS__) X(s8, 8, 1, 0, __VA_ARGS__) X(s4, 4, 1, 0, __VA_ARGS__) \
	X(s2u2, 2, 2, 0, __VA_ARGS__) X(s1, 1, 1, 0, __VA_ARGS__) X(s1u4, 1, 4, 0, __VA_ARGS__)
/* Eight lines a turn, for working sets inside L1: AVX-512 only. With 64-byte vectors the shapes
 * above make one to eight loads a turn, and s1u4 four; AVX2's s1u4 and s2u2 already make eight
 * (and SSE2's sixteen), so the narrower ISAs keep their list, and with it the tuner's time per
 * candidate under QEMU's TCG, which has no AVX-512. */
#define KX_L1_READ_SHAPES(X, ...) X(s1u8, 1, 8, 0, __VA_ARGS__) X(s2u4, 2, 4, 0, __VA_ARGS__)
#define KX_L1_WRITE_SHAPES(X, ...) X(s1u8, 1, 8, 0, __VA_ARGS__)

#define KX_DECL_READ(tag, P, U, D, isa) \
	kernel_fn kernel_load_##tag##_##isa, kernel_copy_##tag##_##isa, kernel_ntcopy_##tag##_##isa, \
		kernel_triad_##tag##_##isa;
#define KX_DECL_WRITE(tag, P, U, D, isa) kernel_fn kernel_store_##tag##_##isa, kernel_ntstore_##tag##_##isa;
KX_READ_SHAPES(KX_DECL_READ, sse2)
KX_READ_SHAPES(KX_DECL_READ, avx2)
KX_READ_SHAPES(KX_DECL_READ, avx512)
KX_WRITE_SHAPES(KX_DECL_WRITE, sse2)
KX_WRITE_SHAPES(KX_DECL_WRITE, avx2)
KX_WRITE_SHAPES(KX_DECL_WRITE, avx512)
KX_L1_READ_SHAPES(KX_DECL_READ, avx512)
KX_L1_WRITE_SHAPES(KX_DECL_WRITE, avx512)

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
/* One deterministic cache parameters subleaf (CPUID leaf 04H, and AMD's 8000001DH in the same
 * layout; SDM Vol. 2A CPUID Table 3-8 "Deterministic Cache Parameters Leaf", AMD APM Vol. 3
 * E.4.15): its level (EAX[7:5]) and bytes = (EBX[31:22]+1) x (EBX[21:12]+1) x (EBX[11:0]+1) x
 * (ECX+1); 0 bytes for a null subleaf (EAX[4:0] = 0) or an instruction-only cache (type 2). */
uint64_t x86_cache_bytes(uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t *level);
/* The same from this CPU: CPUID, and XGETBV only when CPUID says OSXSAVE (else it is #UD). */
uint32_t x86_kernel_isa(void);

#endif
