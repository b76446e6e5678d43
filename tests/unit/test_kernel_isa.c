/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which kernels a CPU is offered (arch/x86_64/kernel_isa_pure.c, arch/kernel.c): the CPUID +
 * XCR0 decode on synthetic values (a feature the firmware did not enable in XCR0 is not
 * offered), the probe on this host against GCC's __builtin_cpu_supports (libgcc checks CPUID
 * and XGETBV the same way, independently), and that selection never returns a kernel outside
 * the mask.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/kernel.h"
#if defined(__x86_64__)
#include "arch/x86_64/kernel_x86.h"

#define L1_AVX   (CPUID_1_ECX_OSXSAVE | CPUID_1_ECX_AVX)
#define L7_ALL   (CPUID_7_EBX_AVX2 | CPUID_7_EBX_AVX512F)
#define XCR0_YMM (1ull | XCR0_SSE | XCR0_AVX)   /* bit 0: x87, always set */
#define XCR0_ZMM (XCR0_YMM | XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM)

static void test_decode(void **state)
{
	(void)state;
	static const struct { uint32_t max, l1, l7; uint64_t xcr0; uint32_t want; } cases[] = {
		{ 0x1F, L1_AVX, L7_ALL, XCR0_ZMM, KERNEL_ISA_SSE2 | KERNEL_ISA_AVX2 | KERNEL_ISA_AVX512 },
		/* firmware left CR4.OSXSAVE clear (UEFI only requires SSE): SSE2 only */
		{ 0x1F, CPUID_1_ECX_AVX, L7_ALL, XCR0_ZMM, KERNEL_ISA_SSE2 },
		/* XCR0 without AVX state: no AVX2 even though CPUID has it */
		{ 0x1F, L1_AVX, L7_ALL, 1ull | XCR0_SSE, KERNEL_ISA_SSE2 },
		/* XCR0 with YMM but not the ZMM/opmask state: AVX2, no AVX-512 */
		{ 0x1F, L1_AVX, L7_ALL, XCR0_YMM, KERNEL_ISA_SSE2 | KERNEL_ISA_AVX2 },
		{ 0x1F, L1_AVX, L7_ALL, XCR0_YMM | XCR0_OPMASK | XCR0_ZMM_HI256, KERNEL_ISA_SSE2 | KERNEL_ISA_AVX2 },
		/* CPU without AVX-512 (Haswell .. Alder Lake client, Zen 1-3) */
		{ 0x1F, L1_AVX, CPUID_7_EBX_AVX2, XCR0_ZMM, KERNEL_ISA_SSE2 | KERNEL_ISA_AVX2 },
		/* AVX but no AVX2 (Sandy/Ivy Bridge) */
		{ 0x0D, L1_AVX, 0, XCR0_YMM, KERNEL_ISA_SSE2 },
		/* leaf 7 not enumerated: its EBX is not trusted */
		{ 0x06, L1_AVX, L7_ALL, XCR0_ZMM, KERNEL_ISA_SSE2 },
		/* OSXSAVE without the AVX bit */
		{ 0x1F, CPUID_1_ECX_OSXSAVE, L7_ALL, XCR0_ZMM, KERNEL_ISA_SSE2 },
		{ 0, 0, 0, 0, KERNEL_ISA_SSE2 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(x86_kernel_isa_decode(cases[i].max, cases[i].l1, cases[i].l7, cases[i].xcr0),
				 cases[i].want);
}

static void test_probe_matches_libgcc(void **state)
{
	(void)state;
	__builtin_cpu_init();
	uint32_t isa = x86_kernel_isa();
	assert_int_equal(isa, arch_kernel_isa());
	assert_true(isa & KERNEL_ISA_SSE2);
	assert_int_equal(!!(isa & KERNEL_ISA_AVX2), !!__builtin_cpu_supports("avx2"));
	assert_int_equal(!!(isa & KERNEL_ISA_AVX512), !!__builtin_cpu_supports("avx512f"));
	assert_int_equal(isa & KERNEL_ISA_NEON, 0);
}

/* What a firmware without XSAVE enabled is offered: SSE2 kernels and the C chase, nothing else. */
static void test_not_offered(void **state)
{
	(void)state;
	const uint32_t masks[] = {
		x86_kernel_isa_decode(0x1F, CPUID_1_ECX_AVX, L7_ALL, 0),         /* SSE2 */
		x86_kernel_isa_decode(0x1F, L1_AVX, L7_ALL, XCR0_YMM),           /* SSE2 + AVX2 */
	};
	for (size_t m = 0; m < sizeof(masks) / sizeof(masks[0]); m++) {
		for (int kind = 0; kind < KERNEL_KIND_COUNT; kind++) {
			const struct kernel_desc *k = kernel_best(arch_kernels, arch_nkernels, kind, masks[m]);
			assert_non_null(k);
			assert_int_equal(k->isa & ~masks[m], 0);
		}
		for (uint32_t i = 0; i < arch_nkernels; i++) {
			const struct kernel_desc *k = &arch_kernels[i];
			const struct kernel_desc *byname = kernel_by_name(arch_kernels, arch_nkernels, k->name, masks[m]);
			if (k->isa & ~masks[m])
				assert_null(byname);
			else
				assert_ptr_equal(byname, k);
		}
	}
	assert_string_equal(kernel_best(arch_kernels, arch_nkernels, KERNEL_NTCOPY, masks[0])->name, "ntcopy_s8_sse2");
	assert_string_equal(kernel_best(arch_kernels, arch_nkernels, KERNEL_NTCOPY, masks[1])->name, "ntcopy_s8_avx2");
	const uint32_t all = KERNEL_ISA_SSE2 | KERNEL_ISA_AVX2 | KERNEL_ISA_AVX512;
	assert_string_equal(kernel_best(arch_kernels, arch_nkernels, KERNEL_NTCOPY, all)->name, "ntcopy_s8_avx512");
	assert_null(kernel_by_name(arch_kernels, arch_nkernels, "copy_s8_avx512", masks[1]));
	assert_null(kernel_by_name(arch_kernels, arch_nkernels, "no_such_kernel", all));
	assert_null(kernel_by_name(arch_kernels, arch_nkernels, NULL, all));
	/* an empty mask still offers the portable chase, and no SIMD kernel */
	assert_string_equal(kernel_best(arch_kernels, arch_nkernels, KERNEL_CHASE, 0)->name, "chase_c");
	assert_null(kernel_best(arch_kernels, arch_nkernels, KERNEL_COPY, 0));
}
/* CPUID leaf 04H subleaves (SDM Vol. 2A Table 3-8, "Deterministic Cache Parameters Leaf"),
 * literal: a 16-way, 64-byte-line, 16384-set unified L3 is 16 MiB; a 12-way 64-set L1 data
 * cache 48 KiB; an instruction cache and a null subleaf count as none. */
static void test_cache_bytes(void **state)
{
	(void)state;
	uint32_t level = 0;
	assert_int_equal(x86_cache_bytes(0x163, 0x03C0003F, 0x3FFF, &level), 16u << 20);
	assert_int_equal(level, 3);
	assert_int_equal(x86_cache_bytes(0x121, 0x02C0003F, 0x3F, &level), 48u << 10);
	assert_int_equal(level, 1);
	assert_int_equal(x86_cache_bytes(0x122, 0x01C0003F, 0x3F, &level), 0);   /* type 2: instruction */
	assert_int_equal(x86_cache_bytes(0, 0, 0, &level), 0);                   /* type 0: no more caches */
}
#elif defined(__aarch64__)
#include "arch/aarch64/kernel_neon.h"

static void test_decode(void **state)
{
	(void)state;
	assert_int_equal(aarch64_kernel_isa_decode(0), KERNEL_ISA_NEON);
	assert_int_equal(aarch64_kernel_isa_decode(0x110000), KERNEL_ISA_NEON);  /* FP16 variants */
	assert_int_equal(aarch64_kernel_isa_decode(0xF00000), 0);
	assert_int_equal(aarch64_kernel_isa_decode(0x0F0000), 0);
}

static void test_probe_matches_libgcc(void **state)
{
	(void)state;
	assert_int_equal(arch_kernel_isa(), KERNEL_ISA_NEON);
}

static void test_not_offered(void **state)
{
	(void)state;
	assert_null(kernel_best(arch_kernels, arch_nkernels, KERNEL_COPY, 0));
	assert_null(kernel_by_name(arch_kernels, arch_nkernels, "copy_s8_neon", 0));
}
#endif

static void test_isa_names(void **state)
{
	(void)state;
	assert_string_equal(kernel_isa_name(KERNEL_ISA_NONE), "c");
	assert_string_equal(kernel_isa_name(KERNEL_ISA_SSE2), "sse2");
	assert_string_equal(kernel_isa_name(KERNEL_ISA_AVX2), "avx2");
	assert_string_equal(kernel_isa_name(KERNEL_ISA_AVX512), "avx512");
	assert_string_equal(kernel_isa_name(KERNEL_ISA_NEON), "neon");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_probe_matches_libgcc),
		cmocka_unit_test(test_not_offered),
#if defined(__x86_64__)
		cmocka_unit_test(test_cache_bytes),
#endif
		cmocka_unit_test(test_isa_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
