/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Load-source arithmetic (pmu/core/load_source.c) on literal counts: Intel's partition of the
 * retired loads, AMD's fills with L1 as the rest of ls_dispatch.ld_dispatch, Arm's cumulative
 * refills, and what makes a level unknown (absent, faulted, nothing advanced, more refills than
 * accesses). Expected values are worked out by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/core/load_source.h"
#include "pmu/core/ctr_state.h"
#include "efi/out/pmu_json.h"
#include "json_check.h"

#define C(n) { CTR_COUNTED, (n) }
#define Z { CTR_NOT_ADVANCING, 0 }
#define A { CTR_ABSENT, 0 }
#define F { CTR_FAULTED, 0 }

static const struct ls_level_out *lv(const struct ls_result *r, uint8_t level)
{
	for (int i = 0; i < r->nlevels; i++)
		if (r->lv[i].level == level)
			return &r->lv[i];
	fail_msg("level %s not in the result", load_source_level_name(level));
	return NULL;
}

static void expect(const struct ls_result *r, uint8_t level, uint64_t count, uint32_t milli)
{
	const struct ls_level_out *o = lv(r, level);
	assert_true(o->known);
	assert_int_equal(o->count, count);
	assert_true(o->has_milli);
	assert_int_equal(o->milli, milli);
}

static void test_intel_partition(void **state)
{
	(void)state;
	/* L1 900, L2 60, L3 30, L3_MISS 10: the sum 1000 is the denominator */
	struct ls_count c[] = { C(900), C(60), C(30), C(10) };
	struct ls_result r;
	load_source_compute(&ls_intel, c, 5000, &r);
	assert_true(r.valid);
	assert_int_equal(r.denominator, 1000);
	assert_string_equal(r.denominator_from, "sum of the served events");
	assert_int_equal(r.nlevels, 4);
	expect(&r, LS_L1, 900, 900);
	expect(&r, LS_L2, 60, 60);
	expect(&r, LS_L3, 30, 30);
	expect(&r, LS_MEMORY, 10, 10);
	assert_int_equal(r.attributed, 1000);
	/* a level that did not advance while the others did served nothing */
	struct ls_count z[] = { C(999), C(1), Z, Z };
	load_source_compute(&ls_intel, z, 0, &r);
	assert_true(r.valid);
	expect(&r, LS_L3, 0, 0);
	expect(&r, LS_L2, 1, 1);
}

static void test_nothing_advanced_is_not_zero(void **state)
{
	(void)state;
	/* an emulated PMU: every event reads the same before and after */
	struct ls_count c[] = { Z, Z, Z, Z };
	struct ls_result r;
	load_source_compute(&ls_intel, c, 2048, &r);
	assert_false(r.valid);
	assert_false(r.alive);
	assert_non_null(strstr(r.why, "advanced"));
	assert_int_equal(r.denominator, 2048);
	assert_string_equal(r.denominator_from, "the kernel's loads");
	for (int i = 0; i < r.nlevels; i++)
		assert_false(r.lv[i].known);
	struct ls_count a[6] = { Z, Z, Z, Z, Z, Z };
	load_source_compute(&ls_amd_zen3, a, 2048, &r);
	assert_false(r.valid);
	assert_false(lv(&r, LS_L1)->known);
	assert_false(lv(&r, LS_L2)->known);
}

static void test_amd_zen3_l1_is_the_rest(void **state)
{
	(void)state;
	/* ld_dispatch 10000; lcl_l2 1000, int_cache 500, ext_cache_local 0, mem_io_local 250, far 0:
	 * L1 = 10000 - 1750 = 8250 -> 825 per mille */
	struct ls_count c[] = { C(10000), C(1000), C(500), Z, C(250), Z };
	struct ls_result r;
	load_source_compute(&ls_amd_zen3, c, 9000, &r);
	assert_true(r.valid);
	assert_string_equal(r.denominator_from, "ls_dispatch.ld_dispatch");
	assert_int_equal(r.lv[0].level, LS_L1);
	assert_true(r.lv[0].derived);
	expect(&r, LS_L1, 8250, 825);
	expect(&r, LS_L2, 1000, 100);
	expect(&r, LS_L3, 500, 50);
	expect(&r, LS_NEAR_CACHE, 0, 0);
	expect(&r, LS_DRAM_LOCAL, 250, 25);
	expect(&r, LS_FAR, 0, 0);
	assert_int_equal(r.nlevels, 6);
	assert_int_equal(r.attributed, 10000);
	/* rounding: 1/3 of the loads -> 333, 2/3 -> 667 */
	struct ls_count t[] = { C(3), C(2), Z, Z, Z, Z };
	load_source_compute(&ls_amd_zen3, t, 0, &r);
	expect(&r, LS_L1, 1, 333);
	expect(&r, LS_L2, 2, 667);
}

static void test_amd_zen2_levels(void **state)
{
	(void)state;
	/* Zen 2: lcl_cache is L3 or a near CCX, one count */
	struct ls_count c[] = { C(4000), C(1000), C(1000), C(1000), Z, Z };
	struct ls_result r;
	load_source_compute(&ls_amd_zen2, c, 0, &r);
	assert_true(r.valid);
	expect(&r, LS_L1, 1000, 250);
	expect(&r, LS_L3_OR_NEAR, 1000, 250);
	expect(&r, LS_DRAM_LOCAL, 1000, 250);
	expect(&r, LS_FAR_CACHE, 0, 0);
	expect(&r, LS_DRAM_REMOTE, 0, 0);
	assert_string_equal(load_source_level_name(LS_L3_OR_NEAR), "L3_or_near_cache");
}

static void test_amd_absent_and_surplus(void **state)
{
	(void)state;
	/* legacy layout, 4 counters: the last two fill sources absent -> their levels and L1 unknown */
	struct ls_count c[] = { C(10000), C(100), C(100), C(100), A, A };
	struct ls_result r;
	load_source_compute(&ls_amd_zen3, c, 0, &r);
	assert_false(r.valid);
	assert_false(lv(&r, LS_L1)->known);
	assert_non_null(strstr(lv(&r, LS_L1)->why, "fill source"));
	assert_false(lv(&r, LS_DRAM_LOCAL)->known);
	assert_non_null(strstr(lv(&r, LS_DRAM_LOCAL)->why, "absent"));
	expect(&r, LS_L2, 100, 10);
	/* more fills than dispatched loads: L1 cannot be formed */
	struct ls_count s[] = { C(100), C(200), Z, Z, Z, Z };
	load_source_compute(&ls_amd_zen4, s, 0, &r);
	assert_false(r.valid);
	assert_false(lv(&r, LS_L1)->known);
	assert_non_null(strstr(r.why, "more fills"));
	/* a faulted dispatch counter: the kernel's loads stand in, and the result says so */
	struct ls_count f[] = { F, C(10), Z, Z, Z, Z };
	load_source_compute(&ls_amd_zen5, f, 100, &r);
	assert_true(r.valid);
	assert_string_equal(r.denominator_from, "the kernel's loads");
	expect(&r, LS_L1, 90, 900);
	expect(&r, LS_FAR_OR_EXT, 0, 0);
}

static void test_arm_cumulative_refills(void **state)
{
	(void)state;
	/* L1D_CACHE 10000, MEM_ACCESS absent, L1D refill 2000, L2D refill 500, LL miss rd 100:
	 * L1 8000, L2 1500, L3 400, memory 100 */
	struct ls_count c[] = { C(10000), A, C(2000), C(500), C(100) };
	struct ls_result r;
	load_source_compute(&ls_arm, c, 0, &r);
	assert_true(r.valid);
	assert_string_equal(r.denominator_from, "L1D_CACHE");
	expect(&r, LS_L1, 8000, 800);
	expect(&r, LS_L2, 1500, 150);
	expect(&r, LS_L3, 400, 40);
	expect(&r, LS_MEMORY, 100, 10);
	/* L1D_CACHE not implemented: MEM_ACCESS is the denominator */
	struct ls_count m[] = { A, C(4000), C(1000), Z, Z };
	load_source_compute(&ls_arm, m, 0, &r);
	assert_true(r.valid);
	assert_string_equal(r.denominator_from, "MEM_ACCESS");
	expect(&r, LS_L1, 3000, 750);
	expect(&r, LS_L2, 1000, 250);
	expect(&r, LS_MEMORY, 0, 0);
}

static void test_arm_absent_and_impossible(void **state)
{
	(void)state;
	/* QEMU TCG: none of the five implemented; the kernel's loads are the only denominator */
	struct ls_count q[] = { A, A, A, A, A };
	struct ls_result r;
	load_source_compute(&ls_arm, q, 4096, &r);
	assert_false(r.valid);
	assert_int_equal(r.denominator, 4096);
	for (int i = 0; i < r.nlevels; i++)
		assert_false(r.lv[i].known);
	/* L2 refill absent: L2 and L3 unknown, L1 and memory still known */
	struct ls_count g[] = { C(1000), A, C(100), A, C(10) };
	load_source_compute(&ls_arm, g, 0, &r);
	assert_false(r.valid);
	expect(&r, LS_L1, 900, 900);
	assert_false(lv(&r, LS_L2)->known);
	assert_false(lv(&r, LS_L3)->known);
	expect(&r, LS_MEMORY, 10, 10);
	/* more L2 refills than L1 refills (prefetch): that level cannot be formed */
	struct ls_count p[] = { C(1000), A, C(100), C(300), C(10) };
	load_source_compute(&ls_arm, p, 0, &r);
	assert_false(r.valid);
	assert_false(lv(&r, LS_L2)->known);
	assert_non_null(strstr(lv(&r, LS_L2)->why, "more refills"));
	expect(&r, LS_L3, 290, 290);
}

static void test_generations(void **state)
{
	(void)state;
	/* QEMU's EPYC-Rome is 17h/31h, EPYC-Milan 19h/01h; Genoa 19h/11h, Turin 1Ah/02h; Naples 17h/01h */
	assert_ptr_equal(load_source_amd(0x17, 0x31), &ls_amd_zen2);
	assert_ptr_equal(load_source_amd(0x19, 0x01), &ls_amd_zen3);
	assert_ptr_equal(load_source_amd(0x19, 0x21), &ls_amd_zen3);
	assert_ptr_equal(load_source_amd(0x19, 0x11), &ls_amd_zen4);
	assert_ptr_equal(load_source_amd(0x19, 0x61), &ls_amd_zen4);
	assert_ptr_equal(load_source_amd(0x1A, 0x02), &ls_amd_zen5);
	assert_null(load_source_amd(0x17, 0x01));
	assert_null(load_source_amd(0x18, 0x00));
	assert_null(load_source_amd(0x1B, 0x00));
}

/* The record's shape: one writer for every vendor; unknown levels are null with why. */
static void test_json_writer(void **state)
{
	(void)state;
	static char buf[4096];
	struct strbuf sb;
	struct json j;
	struct ls_window w = { .t = &ls_amd_zen3, .c = { C(10000), C(1000), C(500), Z, C(250), A }, .loads = 9000 };
	snprintf(w.why[5], LS_WHY, "no free core counter (4, legacy)");
	load_source_compute(w.t, w.c, w.loads, &w.r);
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	load_source_json(&j, &w);
	json_end(&j);
	assert_true(json_check_object(buf, strlen(buf)));
	const char *want[] = {
		"\"load_source\":{\"table\":\"amd-zen3\",\"valid\":false,",
		"\"loads\":9000,\"denominator\":10000,\"denominator_from\":\"ls_dispatch.ld_dispatch\",\"attributed\":1750,",
		"{\"level\":\"L1\",\"count\":null,\"fraction\":null,\"derived\":true,\"why\":",
		"{\"level\":\"L2\",\"count\":1000,\"fraction\":0.100,\"derived\":false}",
		"{\"level\":\"near_cache\",\"count\":0,\"fraction\":0.000,",
		"{\"event\":\"ls_dispatch.ld_dispatch\",\"level\":null,\"kind\":\"accesses\",\"state\":\"counted\",\"count\":10000}",
		"{\"event\":\"ls_dmnd_fills_from_sys.ext_cache_local\",\"level\":\"near_cache\",\"kind\":\"served\",\"state\":\"not-advancing\"}",
		"\"state\":\"absent\",\"why\":\"no free core counter (4, legacy)\"}",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(buf, want[i]))
			fail_msg("%s\nnot in\n%s", want[i], buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intel_partition),
		cmocka_unit_test(test_nothing_advanced_is_not_zero),
		cmocka_unit_test(test_amd_zen3_l1_is_the_rest),
		cmocka_unit_test(test_amd_zen2_levels),
		cmocka_unit_test(test_amd_absent_and_surplus),
		cmocka_unit_test(test_arm_cumulative_refills),
		cmocka_unit_test(test_arm_absent_and_impossible),
		cmocka_unit_test(test_generations),
		cmocka_unit_test(test_json_writer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
