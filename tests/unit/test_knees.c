/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Knee detection (efi/measure/knees.c) on synthetic latency curves: clean steps, gradual rises
 * between plateaus, noise (single spikes, a few percent of jitter), a level CPUID does not
 * report (an L4 the curve shows), a level the curve cannot show (latency_max too small), and the
 * matching against the CPU's reported sizes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/knees.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)
#define NPTS 15   /* 4K .. 64M */

static uint64_t sizes[NPTS];

static int setup(void **state)
{
	(void)state;
	for (int i = 0; i < NPTS; i++)
		sizes[i] = 4 * KIB << i;
	return 0;
}

/* ps per load: L1 (<= 32K) 1 ns, L2 (<= 1M) 4 ns, L3 (<= 8M) 15 ns, memory 90 ns, with the
 * steps as stated in `ps`. */
static void find(const uint64_t *ps, struct knee *k, int *nk, uint64_t *mem)
{
	*nk = knees_find(sizes, ps, NPTS, k, KNEES_MAX, mem);
}

static void test_clean_steps(void **state)
{
	(void)state;
	/*                     4K    8K    16K   32K   64K   128K  256K  512K  1M    2M     4M     8M     16M    32M    64M */
	const uint64_t ps[] = { 1000, 1000, 1000, 1000, 4000, 4000, 4000, 4000, 4000, 15000, 15000, 15000, 90000, 90000, 90000 };
	struct knee k[KNEES_MAX];
	int nk;
	uint64_t mem;
	find(ps, k, &nk, &mem);
	assert_int_equal(nk, 3);
	assert_int_equal(k[0].bytes, 32 * KIB);
	assert_int_equal(k[0].ps, 1000);
	assert_int_equal(k[1].bytes, 1 * MIB);
	assert_int_equal(k[1].ps, 4000);
	assert_int_equal(k[2].bytes, 8 * MIB);
	assert_int_equal(k[2].ps, 15000);
	assert_int_equal(mem, 90000);
}

static void test_gradual_rise_and_noise(void **state)
{
	(void)state;
	/* jitter of a few percent on every plateau, a spike at 256K (one point 60% high whose
	 * successor is level again), and two-point rises between plateaus */
	const uint64_t ps[] = { 1020, 980, 1010, 1000, 2500, 4100, 6400, 3950, 4050, 9000, 14800, 15200, 40000, 88000, 91000 };
	struct knee k[KNEES_MAX];
	int nk;
	uint64_t mem;
	find(ps, k, &nk, &mem);
	assert_int_equal(nk, 3);
	assert_int_equal(k[0].bytes, 32 * KIB);
	assert_int_equal(k[1].bytes, 1 * MIB);    /* the 256K spike did not end the L2 plateau */
	assert_int_equal(k[1].ps, 4050);          /* median of 4100, 6400, 3950, 4050 */
	assert_int_equal(k[2].bytes, 8 * MIB);
	assert_int_equal(mem, 89500);
}

static void test_curve_ending_in_a_rise(void **state)
{
	(void)state;
	const uint64_t ps[] = { 1000, 1000, 1000, 1000, 4000, 4000, 4000, 4000, 4000, 15000, 15000, 15000, 30000, 60000, 120000 };
	struct knee k[KNEES_MAX];
	int nk;
	uint64_t mem;
	find(ps, k, &nk, &mem);
	assert_int_equal(nk, 3);
	assert_int_equal(k[2].bytes, 8 * MIB);
	assert_int_equal(mem, 0);   /* never levelled off: no memory plateau */
}

static struct cpu_info cpu(uint64_t l1, uint64_t l2, uint64_t l3)
{
	struct cpu_info ci;
	memset(&ci, 0, sizeof(ci));
	ci.cache[ci.ncaches++] = (struct cache_desc){ .level = 1, .type = CACHE_DATA, .bytes = l1 };
	ci.cache[ci.ncaches++] = (struct cache_desc){ .level = 1, .type = CACHE_INST, .bytes = l1 };
	ci.cache[ci.ncaches++] = (struct cache_desc){ .level = 2, .type = CACHE_UNIFIED, .bytes = l2 };
	if (l3)
		ci.cache[ci.ncaches++] = (struct cache_desc){ .level = 3, .type = CACHE_UNIFIED, .bytes = l3 };
	return ci;
}

static void test_match_agrees(void **state)
{
	(void)state;
	const uint64_t ps[] = { 1000, 1000, 1000, 1000, 4000, 4000, 4000, 4000, 4000, 15000, 15000, 15000, 90000, 90000, 90000 };
	struct knee k[KNEES_MAX];
	struct knee_level l[CPUINFO_MAX_CACHES];
	uint8_t taken[KNEES_MAX];
	int nk, dis;
	uint64_t mem;
	find(ps, k, &nk, &mem);
	/* L2 of 1.25 MiB (Ice Lake server) and an L3 slice share of 12 MiB: within a factor of two */
	struct cpu_info ci = cpu(48 * KIB, 1280 * KIB, 12 * MIB);
	int nl = knees_match(&ci, k, nk, 64 * MIB, l, taken, &dis);
	assert_int_equal(nl, 3);            /* the instruction cache is not set beside the curve */
	assert_int_equal(dis, 0);
	assert_int_equal(l[0].knee, 0);
	assert_int_equal(l[1].knee, 1);
	assert_int_equal(l[2].knee, 2);
	assert_true(l[2].agrees);
	assert_null(l[2].why);
}

static void test_level_cpuid_does_not_report(void **state)
{
	(void)state;
	/* the curve shows three caches, the CPU reports two (e.g. a memory-side cache or a
	 * hypervisor hiding the L3): the third knee is a disagreement, no level takes it */
	const uint64_t ps[] = { 1000, 1000, 1000, 1000, 4000, 4000, 4000, 4000, 4000, 15000, 15000, 15000, 90000, 90000, 90000 };
	struct knee k[KNEES_MAX];
	struct knee_level l[CPUINFO_MAX_CACHES];
	uint8_t taken[KNEES_MAX];
	int nk, dis;
	uint64_t mem;
	find(ps, k, &nk, &mem);
	struct cpu_info ci = cpu(32 * KIB, 1 * MIB, 0);
	int nl = knees_match(&ci, k, nk, 64 * MIB, l, taken, &dis);
	assert_int_equal(nl, 2);
	assert_int_equal(dis, 1);
	assert_int_equal(taken[2], 0);
	assert_int_equal(taken[0] + taken[1], 2);
}

static void test_reported_level_without_knee(void **state)
{
	(void)state;
	/* a flat curve (as under emulation): every reported level disagrees, with why; a curve that
	 * stops at 4M cannot show a 32M L3 */
	uint64_t flat[NPTS];
	for (int i = 0; i < NPTS; i++)
		flat[i] = 5000;
	struct knee k[KNEES_MAX];
	struct knee_level l[CPUINFO_MAX_CACHES];
	uint8_t taken[KNEES_MAX];
	int nk, dis;
	uint64_t mem;
	find(flat, k, &nk, &mem);
	assert_int_equal(nk, 0);
	assert_int_equal(mem, 5000);
	struct cpu_info ci = cpu(32 * KIB, 1 * MIB, 32 * MIB);
	int nl = knees_match(&ci, k, nk, 4 * MIB, l, taken, &dis);
	assert_int_equal(nl, 3);
	assert_int_equal(dis, 3);
	assert_false(l[0].agrees);
	assert_string_equal(l[0].why, "no knee in the curve within a factor of two of this size");
	assert_string_equal(l[2].why, "the curve ends before twice this size (latency_max)");
}

static void test_knee_too_far_from_reported_size(void **state)
{
	(void)state;
	/* knee at 32K, CPU says 128K: more than a factor of two apart */
	const uint64_t ps[] = { 1000, 1000, 1000, 1000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000 };
	struct knee k[KNEES_MAX];
	struct knee_level l[CPUINFO_MAX_CACHES];
	uint8_t taken[KNEES_MAX];
	int nk, dis;
	uint64_t mem;
	find(ps, k, &nk, &mem);
	assert_int_equal(nk, 1);
	struct cpu_info ci;
	memset(&ci, 0, sizeof(ci));
	ci.cache[ci.ncaches++] = (struct cache_desc){ .level = 1, .type = CACHE_DATA, .bytes = 128 * KIB };
	knees_match(&ci, k, nk, 64 * MIB, l, taken, &dis);
	assert_int_equal(l[0].knee, -1);
	assert_int_equal(dis, 2);   /* the level without a knee and the knee without a level */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_steps),
		cmocka_unit_test(test_gradual_rise_and_noise),
		cmocka_unit_test(test_curve_ending_in_a_rise),
		cmocka_unit_test(test_match_agrees),
		cmocka_unit_test(test_level_cpuid_does_not_report),
		cmocka_unit_test(test_reported_level_without_knee),
		cmocka_unit_test(test_knee_too_far_from_reported_size),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
