/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The latency kernel (arch/kernel_chase.c): the chain is exactly one cycle through every line
 * (walked and marked independently of the chase kernel), Sattolo's permutations are uniform
 * over the cyclic ones, the same seed rebuilds the same chain, and the per-load arithmetic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arch/kernel.h"

/* Walk from line 0: every step must land on a line start inside buf not seen before, and the
 * n-th step must come back to line 0. */
static void assert_one_cycle(const unsigned char *buf, uint64_t n, uint32_t line)
{
	unsigned char *seen = calloc(n, 1);
	assert_non_null(seen);
	uint64_t at = 0;
	for (uint64_t step = 0; step < n; step++) {
		assert_int_equal(seen[at], 0);
		seen[at] = 1;
		uint64_t next;
		memcpy(&next, buf + at * line, sizeof(next));
		assert_true(next >= (uintptr_t)buf && next < (uintptr_t)buf + n * line);
		assert_int_equal((next - (uintptr_t)buf) % line, 0);
		at = (next - (uintptr_t)buf) / line;
		if (step + 1 < n)
			assert_int_not_equal(at, 0);   /* back at the start early: more than one cycle */
	}
	assert_int_equal(at, 0);
	free(seen);
}

static void test_one_cycle(void **state)
{
	(void)state;
	static const struct { uint64_t lines; uint32_t line; } cases[] = {
		{ 2, 64 }, { 3, 64 }, { 64, 64 }, { 4096, 64 }, { 65536 + 7, 64 }, { 1000, 128 }, { 333, 8 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t bytes = cases[i].lines * cases[i].line;
		unsigned char *buf = aligned_alloc(64, (bytes + 63) / 64 * 64);
		assert_non_null(buf);
		assert_int_equal(kernel_chase_build(buf, bytes, cases[i].line, 42 + i), cases[i].lines);
		assert_one_cycle(buf, cases[i].lines, cases[i].line);
		/* the kernel: n loads come back to the start, fewer do not */
		if (cases[i].line == 64) {
			assert_int_equal(kernel_chase_c(NULL, buf, NULL, bytes, 0), (uintptr_t)buf);
			assert_int_not_equal(kernel_chase(buf, cases[i].lines - 1), (uintptr_t)buf);
		}
		assert_int_equal(kernel_chase(buf, 2 * cases[i].lines), (uintptr_t)buf);
		free(buf);
	}
}

static uint64_t offsets_differ(const unsigned char *x, const unsigned char *y, uint64_t n)
{
	uint64_t differ = 0;
	for (uint64_t k = 0; k < n; k++) {
		uint64_t px, py;
		memcpy(&px, x + k * 64, 8);
		memcpy(&py, y + k * 64, 8);
		differ += px - (uintptr_t)x != py - (uintptr_t)y;
	}
	return differ;
}

static void test_seeded(void **state)
{
	(void)state;
	const uint64_t bytes = 4096 * 64;
	unsigned char *x = aligned_alloc(64, bytes), *y = aligned_alloc(64, bytes);
	assert_non_null(x);
	assert_non_null(y);
	/* same seed: the same chain (as line offsets; the buffers differ); another seed: another */
	kernel_chase_build(x, bytes, 64, 7);
	kernel_chase_build(y, bytes, 64, 7);
	assert_int_equal(offsets_differ(x, y, 4096), 0);
	kernel_chase_build(y, bytes, 64, 8);
	assert_true(offsets_differ(x, y, 4096) > 4000);
	/* random, not sequential: few lines point at their neighbour (expected about 1) */
	unsigned adjacent = 0;
	for (uint64_t k = 0; k < 4096; k++) {
		uint64_t next;
		memcpy(&next, x + k * 64, 8);
		adjacent += next == (uintptr_t)x + ((k + 1) % 4096) * 64;
	}
	assert_true(adjacent < 20);
	free(x);
	free(y);
}

/* n = 4 lines has (4-1)! = 6 cyclic permutations; 6000 seeds must hit each about 1000 times
 * (a binomial with sd ~29: 800..1200 is ~7 sd) and never a non-cyclic one. */
static void test_uniform_over_cycles(void **state)
{
	(void)state;
	uint64_t buf[4 * 8] __attribute__((aligned(64)));
	unsigned count[256] = { 0 };
	for (uint64_t seed = 0; seed < 6000; seed++) {
		assert_int_equal(kernel_chase_build(buf, sizeof(buf), 64, seed), 4);
		unsigned code = 0;
		for (int k = 0; k < 4; k++)
			code = code * 4 + (unsigned)((buf[k * 8] - (uintptr_t)buf) / 64);
		count[code]++;
	}
	unsigned distinct = 0;
	for (unsigned code = 0; code < 256; code++) {
		if (!count[code])
			continue;
		distinct++;
		assert_in_range(count[code], 800, 1200);
	}
	assert_int_equal(distinct, 6);
}

static void test_build_rejects(void **state)
{
	(void)state;
	uint64_t buf[64] __attribute__((aligned(64)));
	assert_int_equal(kernel_chase_build(NULL, 512, 64, 1), 0);
	assert_int_equal(kernel_chase_build(buf, 64, 64, 1), 0);    /* one line: no cycle to make */
	assert_int_equal(kernel_chase_build(buf, 500, 64, 1), 0);   /* not whole lines */
	assert_int_equal(kernel_chase_build(buf, 512, 4, 1), 0);    /* line holds no pointer */
	assert_int_equal(kernel_chase_build(buf, 480, 12, 1), 0);   /* pointer would be misaligned */
	assert_int_equal(kernel_chase_build(buf, 512, 64, 1), 8);
}

static void test_per_load_arithmetic(void **state)
{
	(void)state;
	assert_int_equal(kernel_ticks_per_load_milli(1000, 10), 100000);
	assert_int_equal(kernel_ticks_per_load_milli(1, 3), 333);
	assert_int_equal(kernel_ticks_per_load_milli(5, 0), 0);
	/* 2 GHz timer, 1e6 loads in 2e8 ticks = 100 ms: 100 ns = 100000 ps per load */
	assert_int_equal(kernel_ps_per_load(200000000, 2000000000, 1000000), 100000);
	/* no 64-bit overflow: 2^60 ticks of a 1 GHz timer over 2^40 loads = 2^20 ns */
	assert_int_equal(kernel_ps_per_load(1ull << 60, 1000000000, 1ull << 40), 1048576000ull);
	assert_int_equal(kernel_ps_per_load(5, 0, 1), 0);
	uint64_t sizes[32];
	uint32_t n = kernel_chase_sizes(1ull << 40, sizes, 32);
	assert_int_equal(n, 19);   /* 4 KiB .. 1 GiB */
	assert_int_equal(sizes[0], 4096);
	assert_int_equal(sizes[18], 1ull << 30);
	assert_int_equal(kernel_chase_sizes(100000, sizes, 32), 5);   /* 4K 8K 16K 32K 64K */
	assert_int_equal(kernel_chase_sizes(1ull << 30, sizes, 3), 3);
}

static uint64_t now;
static uint64_t timer(void)
{
	return now += 5;
}

static void test_run_chase(void **state)
{
	(void)state;
	uint64_t bytes = 1024 * 64;
	void *buf = aligned_alloc(64, bytes);
	assert_non_null(buf);
	kernel_chase_build(buf, bytes, 64, 3);
	const struct kernel_desc *k = kernel_best(arch_kernels, arch_nkernels, KERNEL_CHASE, arch_kernel_isa());
	assert_non_null(k);
	struct kernel_run r = { .k = k, .b = buf, .bytes = bytes, .passes = 4, .timer = timer };
	kernel_run(&r);
	assert_int_equal(r.status, 0);
	assert_int_equal(r.result, (uintptr_t)buf);
	assert_int_equal(r.loads, 4096);
	assert_int_equal(r.app_bytes, 4 * bytes);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_cycle),
		cmocka_unit_test(test_seeded),
		cmocka_unit_test(test_uniform_over_cycles),
		cmocka_unit_test(test_build_rejects),
		cmocka_unit_test(test_per_load_arithmetic),
		cmocka_unit_test(test_run_chase),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
