/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Memory stress kernels (arch/kernel.h, arch/<arch>/kernel_*_pure.c): every kernel the host CPU
 * offers gives exactly what the portable C reference set (arch/kernel_ref.c) gives: the same
 * destination bytes, the same returned XOR for load, the same triad doubles. Sizes are odd
 * multiples of each kernel's block; guard bytes around every destination must stay untouched.
 * Through kernel_apply, every variant (shape x ISA) equals the reference at every 8-byte
 * alignment of its buffers (equal and unequal) and every tail length below its block.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arch/kernel.h"

#define GUARD 256u           /* bytes before and after each destination */
#define GUARD_BYTE 0xA5
static const uint64_t odd_blocks[] = { 1, 3, 5, 17, 61, 255 };

static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Sources: random 64-bit words, or (triad) integer-valued doubles in [-2^20, 2^20], so that
 * b + s*c is exact whether or not a compiler fuses the multiply-add. */
static void fill(void *p, uint64_t bytes, uint64_t seed, int doubles)
{
	uint64_t st = seed, *w = p;
	double *d = p;
	for (uint64_t i = 0; i < bytes / 8; i++) {
		if (doubles)
			d[i] = (double)((int64_t)(mix(&st) % (2u << 20)) - (1 << 20));
		else
			w[i] = mix(&st);
	}
}

struct dst { unsigned char *base; void *p; };

static void dst_alloc(struct dst *d, uint64_t bytes)
{
	d->base = aligned_alloc(64, bytes + 2 * GUARD);
	assert_non_null(d->base);
	memset(d->base, GUARD_BYTE, bytes + 2 * GUARD);
	d->p = d->base + GUARD;
}

static void guards_intact(const struct dst *d, uint64_t bytes)
{
	for (unsigned i = 0; i < GUARD; i++) {
		assert_int_equal(d->base[i], GUARD_BYTE);
		assert_int_equal(d->base[GUARD + bytes + i], GUARD_BYTE);
	}
}

static int check_one(const struct kernel_desc *k, uint64_t bytes)
{
	const struct kernel_desc *ref = &kernel_ref_set[k->kind];
	const int doubles = k->kind == KERNEL_TRIAD;
	void *b = aligned_alloc(64, bytes), *c = aligned_alloc(64, bytes);
	assert_non_null(b);
	assert_non_null(c);
	fill(b, bytes, bytes * 7 + 1, doubles);
	fill(c, bytes, bytes * 13 + 2, doubles);
	struct dst got, want;
	dst_alloc(&got, bytes);
	dst_alloc(&want, bytes);
	const double s = k->kind == KERNEL_TRIAD ? 3.0 : -1234.5;
	assert_int_equal(kernel_check_args(k, got.p, b, c, bytes), 0);
	uint64_t r_got = k->fn(got.p, b, c, bytes, s);
	uint64_t r_want = ref->fn(want.p, b, c, bytes, s);
	assert_int_equal(r_got, r_want);
	if (k->kind != KERNEL_LOAD) {
		if (memcmp(got.p, want.p, bytes) != 0)
			fail_msg("%s: destination differs from %s at %llu bytes", k->name, ref->name,
				 (unsigned long long)bytes);
	} else {
		assert_int_not_equal(r_got, 0);   /* random words: an XOR of 0 means nothing was read */
		for (uint64_t i = 0; i < bytes; i++)   /* load writes nothing */
			assert_int_equal(((unsigned char *)got.p)[i], GUARD_BYTE);
	}
	guards_intact(&got, bytes);
	free(got.base);
	free(want.base);
	free(b);
	free(c);
	return 1;
}

static void test_kernels_match_reference(void **state)
{
	(void)state;
	uint32_t isa = arch_kernel_isa(), tested = 0;
	for (uint32_t i = 0; i < arch_nkernels; i++) {
		const struct kernel_desc *k = &arch_kernels[i];
		if (k->kind == KERNEL_CHASE || !kernel_offered(k, isa))
			continue;
		assert_true(k->block_bytes >= 8 && k->block_bytes % 8 == 0);
		for (size_t j = 0; j < sizeof(odd_blocks) / sizeof(odd_blocks[0]); j++)
			tested += check_one(k, k->block_bytes * odd_blocks[j]);
	}
	/* every arch has SIMD kernels in its baseline (x86_64 SSE2, aarch64 NEON): 6 kinds */
	assert_true(tested >= 6 * sizeof(odd_blocks) / sizeof(odd_blocks[0]));
}

/* One variant at buffer offsets (oa, ob, oc) and `bytes`, against the reference. */
static void one(const struct kernel_desc *k, unsigned char *bufs[5], uint64_t oa, uint64_t ob, uint64_t oc,
		uint64_t bytes)
{
	const struct kernel_desc *ref = &kernel_ref_set[k->kind];
	const double s = k->kind == KERNEL_TRIAD ? 3.0 : -1234.5;
	unsigned char *got = bufs[0] + oa, *want = bufs[1] + oa;
	const unsigned char *b = bufs[2] + ob, *c = bufs[3] + oc;
	memset(bufs[0], 0xA5, 4096 + 64);
	memset(bufs[1], 0xA5, 4096 + 64);
	uint64_t rg = kernel_apply(k, got, b, c, bytes, s);
	uint64_t rw = ref->fn(want, b, c, bytes, s);
	if (rg != rw || memcmp(bufs[0], bufs[1], 4096 + 64) != 0)
		fail_msg("%s differs from %s at offsets a+%llu b+%llu c+%llu, %llu bytes", k->name, ref->name,
			 (unsigned long long)oa, (unsigned long long)ob, (unsigned long long)oc,
			 (unsigned long long)bytes);
}

static void test_every_variant_every_alignment_and_tail(void **state)
{
	(void)state;
	unsigned char *bufs[5];
	for (int i = 0; i < 4; i++) {
		bufs[i] = aligned_alloc(64, 4096 + 64);
		assert_non_null(bufs[i]);
	}
	fill(bufs[2], 4096 + 64, 11, 1);
	fill(bufs[3], 4096 + 64, 12, 1);
	uint32_t isa = arch_kernel_isa(), variants = 0;
	for (uint32_t i = 0; i < arch_nkernels; i++) {
		const struct kernel_desc *k = &arch_kernels[i];
		if (k->kind == KERNEL_CHASE || !kernel_offered(k, isa))
			continue;
		variants++;
		assert_true(k->block_bytes % 64 == 0 && k->block_bytes <= 1024);
		assert_int_equal(k->block_bytes, (uint32_t)(k->parts ? k->parts : 1) * (k->unroll ? k->unroll : 1) * 64u);
		/* every 8-byte alignment, the same for all arrays: head, middle and tail */
		for (uint64_t o = 0; o < 64; o += 8)
			for (uint64_t tail = 0; tail < k->block_bytes; tail += 8)
				one(k, bufs, o, o, o, 2 * k->block_bytes + tail);
		/* unequal alignments: no common aligned middle */
		one(k, bufs, 8, 16, 24, 2 * k->block_bytes + 40);
		one(k, bufs, 0, 8, 0, 3 * k->block_bytes);
		/* shorter than the head */
		one(k, bufs, 56, 56, 56, 8);
	}
#if defined(__x86_64__)
	/* SSE2 is the x86_64 baseline: 6 kinds, 10 read shapes x 4 kinds + 6 write shapes x 2 */
	assert_true(variants >= 52);
#endif
	for (int i = 0; i < 4; i++)
		free(bufs[i]);
}

/* A broken kernel must be caught: the harness fails on a wrong store value. */
static uint64_t broken_store(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	kernel_ref_set[KERNEL_STORE].fn(a, b, c, bytes, s);
	((unsigned char *)a)[bytes - 1] ^= 1;
	return 0;
}

static void test_harness_catches_wrong_kernel(void **state)
{
	(void)state;
	const struct kernel_desc bad = { "store_broken", KERNEL_STORE, KERNEL_ISA_NONE, 8, 8, broken_store, 1, 1, 0 };
	uint64_t bytes = 64;
	struct dst got, want;
	dst_alloc(&got, bytes);
	dst_alloc(&want, bytes);
	bad.fn(got.p, NULL, NULL, bytes, 1.0);
	kernel_ref_set[KERNEL_STORE].fn(want.p, NULL, NULL, bytes, 1.0);
	assert_int_not_equal(memcmp(got.p, want.p, bytes), 0);
	free(got.base);
	free(want.base);
}

static void test_every_kind_has_a_kernel(void **state)
{
	(void)state;
	uint32_t isa = arch_kernel_isa();
	for (int kind = 0; kind < KERNEL_KIND_COUNT; kind++) {
		const struct kernel_desc *k = kernel_best(arch_kernels, arch_nkernels, kind, isa);
		assert_non_null(k);
		assert_int_equal(k->kind, kind);
		assert_true(kernel_offered(k, isa));
		assert_string_equal(kernel_ref_set[kind].name + strlen(kernel_ref_set[kind].name) - 2, "_c");
		assert_int_equal(kernel_ref_set[kind].kind, kind);
	}
	/* names are unique and say kind, then the shape, then ISA */
	for (uint32_t i = 0; i < arch_nkernels; i++) {
		const struct kernel_desc *k = &arch_kernels[i];
		size_t n = strlen(kernel_kind_name(k->kind));
		assert_memory_equal(k->name, kernel_kind_name(k->kind), n);
		const char *isa_at = strrchr(k->name, '_');
		assert_non_null(isa_at);
		assert_true(isa_at >= k->name + n);
		assert_string_equal(isa_at + 1, kernel_isa_name(k->isa));
		for (uint32_t j = i + 1; j < arch_nkernels; j++)
			assert_string_not_equal(k->name, arch_kernels[j].name);
	}
}

/* likwid-bench / STREAM application bytes: load/store 1x, copy 2x, triad 3x the array. */
static void test_app_bytes(void **state)
{
	(void)state;
	static const uint32_t want[KERNEL_KIND_COUNT] = {
		[KERNEL_LOAD] = 1, [KERNEL_STORE] = 1, [KERNEL_NTSTORE] = 1, [KERNEL_COPY] = 2,
		[KERNEL_NTCOPY] = 2, [KERNEL_TRIAD] = 3, [KERNEL_CHASE] = 1,
	};
	for (int kind = 0; kind < KERNEL_KIND_COUNT; kind++)
		assert_int_equal(kernel_app_bytes(kind, 1000000000ull), want[kind] * 1000000000ull);
	assert_int_equal(kernel_app_bytes(KERNEL_KIND_COUNT, 64), 0);
	assert_string_equal(kernel_kind_name(KERNEL_NTCOPY), "ntcopy");
	assert_string_equal(kernel_kind_name(KERNEL_KIND_COUNT), "?");
}

static void test_check_args(void **state)
{
	(void)state;
	const struct kernel_desc *k = kernel_best(arch_kernels, arch_nkernels, KERNEL_TRIAD, arch_kernel_isa());
	assert_non_null(k);
	uint64_t bytes = 4 * k->block_bytes;
	char *buf = aligned_alloc(64, 3 * bytes + 64);
	assert_non_null(buf);
	char *a = buf, *b = buf + bytes, *c = buf + 2 * bytes;
	assert_int_equal(kernel_check_args(k, a, b, c, bytes), 0);
	assert_int_equal(kernel_check_args(k, a, b, c, 0), -1);
	assert_int_equal(kernel_check_args(k, a, b, c, bytes + 8), -1);
	assert_int_equal(kernel_check_args(k, a + 8, b, c, bytes), -1);
	assert_int_equal(kernel_check_args(k, a, b, c + 8, bytes), -1);
	assert_int_equal(kernel_check_args(k, a, b, NULL, bytes), -1);
	assert_int_equal(kernel_check_args(NULL, a, b, c, bytes), -1);
	/* load uses only b: a and c may be NULL */
	const struct kernel_desc *ld = kernel_best(arch_kernels, arch_nkernels, KERNEL_LOAD, arch_kernel_isa());
	assert_int_equal(kernel_check_args(ld, NULL, b, NULL, bytes), 0);
	assert_int_equal(kernel_check_args(ld, NULL, NULL, NULL, bytes), -1);
	free(buf);
}

static uint64_t fake_now;
static uint64_t fake_timer(void)
{
	return fake_now += 10;   /* each read 10 ticks later: every pass measures 10 ticks */
}

static void test_kernel_run(void **state)
{
	(void)state;
	const struct kernel_desc *k = kernel_best(arch_kernels, arch_nkernels, KERNEL_LOAD, arch_kernel_isa());
	uint64_t bytes = 8 * k->block_bytes;
	void *b = aligned_alloc(64, bytes);
	assert_non_null(b);
	fill(b, bytes, 99, 0);
	struct kernel_run r = { .k = k, .b = b, .bytes = bytes, .passes = 3, .timer = fake_timer };
	kernel_run_entry(&r);
	assert_int_equal(r.status, 0);
	assert_int_equal(r.result, kernel_ref_set[KERNEL_LOAD].fn(NULL, b, NULL, bytes, 0));
	assert_int_equal(r.app_bytes, 3 * bytes);
	assert_int_equal(r.ticks_total, 30);
	assert_int_equal(r.ticks_min, 10);
	assert_int_equal(r.ticks_max, 10);
	assert_int_equal(r.loads, 0);
	/* reps = 4: each timed pass is four calls between two timer reads, so the clock is read
	 * 2 x 3 times (not 2 x 12), every pass is still 10 ticks and the bytes count all 12 calls */
	struct kernel_run rr = { .k = k, .b = b, .bytes = bytes, .passes = 3, .reps = 4, .timer = fake_timer };
	uint64_t before = fake_now;
	kernel_run(&rr);
	assert_int_equal(rr.status, 0);
	assert_int_equal(fake_now - before, 60);
	assert_int_equal(rr.ticks_total, 30);
	assert_int_equal(rr.ticks_min, 10);
	assert_int_equal(rr.app_bytes, 12 * bytes);
	assert_int_equal(rr.result, r.result);
	/* calls per pass: 8 MiB / 24 KiB = 341 calls; one call of the pass size or more, or of 0 */
	assert_int_equal(kernel_calls_per_pass(24576, 8u << 20), 341);
	assert_int_equal(kernel_calls_per_pass(8u << 20, 8u << 20), 1);
	assert_int_equal(kernel_calls_per_pass((8u << 20) + 1, 8u << 20), 1);
	assert_int_equal(kernel_calls_per_pass(0, 8u << 20), 1);
	assert_int_equal(KERNEL_PASS_BYTES, 8388608);
	/* bad arguments: nothing runs, status -1 */
	struct kernel_run bad = r;
	bad.bytes = bytes + 8;
	kernel_run(&bad);
	assert_int_equal(bad.status, -1);
	assert_int_equal(bad.app_bytes, 0);
	bad = r;
	bad.passes = 0;
	kernel_run(&bad);
	assert_int_equal(bad.status, -1);
	bad = r;
	bad.timer = NULL;
	kernel_run(&bad);
	assert_int_equal(bad.status, -1);
	/* a kernel whose ISA this CPU does not offer is refused on the CPU that would run it */
	const uint32_t missing = ~arch_kernel_isa() & (KERNEL_ISA_SSE2 | KERNEL_ISA_AVX2 | KERNEL_ISA_AVX512 |
						       KERNEL_ISA_NEON);
	assert_int_not_equal(missing, 0);   /* no CPU has both x86 and Arm SIMD */
	struct kernel_desc foreign = *k;
	foreign.isa = missing & -missing;
	bad = r;
	bad.k = &foreign;
	kernel_run(&bad);
	assert_int_equal(bad.status, -2);
	assert_int_equal(bad.ticks_total, 0);
	free(b);
}

#if defined(__x86_64__)
/* The L1 shapes (eight lines a turn) exist for AVX-512 only, every kind but the chase, and the
 * load kind's fold of two loads per uop gives the reference's XOR for any count of vectors a turn
 * (odd ones too: AVX-512 s1 loads one vector a turn). The variants themselves are checked above
 * when the host offers AVX-512. */
static void test_x86_l1_shapes(void **state)
{
	(void)state;
	static const char *const l1[] = {
		"load_s1u8_avx512", "load_s2u4_avx512", "copy_s1u8_avx512", "copy_s2u4_avx512",
		"ntcopy_s1u8_avx512", "ntcopy_s2u4_avx512", "triad_s1u8_avx512", "triad_s2u4_avx512",
		"store_s1u8_avx512", "ntstore_s1u8_avx512",
	};
	for (size_t i = 0; i < sizeof(l1) / sizeof(l1[0]); i++) {
		const struct kernel_desc *k = kernel_by_name(arch_kernels, arch_nkernels, l1[i], ~0u);
		assert_non_null(k);
		assert_int_equal(k->block_bytes, 512);
		assert_int_equal(k->isa, KERNEL_ISA_AVX512);
		assert_int_equal(k->parts * k->unroll, 8);
	}
	uint32_t eight = 0;
	for (uint32_t i = 0; i < arch_nkernels; i++)
		if (arch_kernels[i].unroll == 8 || (arch_kernels[i].parts == 2 && arch_kernels[i].unroll == 4)) {
			assert_int_equal(arch_kernels[i].isa, KERNEL_ISA_AVX512);
			eight++;
		}
	assert_int_equal(eight, sizeof(l1) / sizeof(l1[0]));
	if (!(arch_kernel_isa() & KERNEL_ISA_AVX512))
		return;
	/* the odd case: one 64-byte vector a turn, the fold's single-load step */
	const struct kernel_desc *s1 = kernel_by_name(arch_kernels, arch_nkernels, "load_s1_avx512", ~0u);
	assert_non_null(s1);
	for (uint64_t lines = 1; lines <= 9; lines++)
		check_one(s1, 64 * lines);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_variant_every_alignment_and_tail),
		cmocka_unit_test(test_kernels_match_reference),
		cmocka_unit_test(test_harness_catches_wrong_kernel),
		cmocka_unit_test(test_every_kind_has_a_kernel),
		cmocka_unit_test(test_app_bytes),
		cmocka_unit_test(test_check_args),
		cmocka_unit_test(test_kernel_run),
#if defined(__x86_64__)
		cmocka_unit_test(test_x86_l1_shapes),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
