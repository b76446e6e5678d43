/* SPDX-License-Identifier: BSD-2-Clause */
/* Neoverse TopDown level 1 (pmu/core/arm_topdown.c) against a published run and values worked
 * by hand from the published per-core formulas. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/core/arm_topdown.h"

/* MIDR_EL1 values: implementer 0x41 [31:24], variant [23:20], architecture 0xF [19:16], PartNum
 * [15:4] (Neoverse V2 0xd4f, N2 0xd49, V1 0xd40, N1 0xd0c: product_configuration.part_num of
 * the Arm Telemetry Solution's data/pmu/cpu/neoverse/neoverse-*.json), revision [3:0]. */
#define V2_MIDR    0x410fd4f0u
#define V1_MIDR    0x411fd402u   /* r1p2 */
#define N2R0P0_MIDR 0x410fd490u
#define N2R0P3_MIDR 0x410fd493u
#define N1_MIDR    0x414fd0c1u   /* r4p1 */

/* A Neoverse V2-like window: 8 slots (PMMIR_EL1.SLOTS of Neoverse V2, its TRM), 1,000,000
 * cycles, 2,000,000 frontend and 3,000,000 backend stall slots (5,000,000 in all), 3,000,000
 * ops speculated of which 2,400,000 retired, 10,000 mispredicts. By hand:
 *   frontend  = 100 * (2e6 / 8e6 - 1e4 / 1e6)            = 100 * (0.25 - 0.01)        = 24.000 %
 *   backend   = 100 * (3e6 / 8e6 - 3 * 1e4 / 1e6)        = 100 * (0.375 - 0.03)       = 34.500 %
 *   retiring  = 100 * (2.4e6 / 3e6) * (1 - 5e6 / 8e6)    = 100 * 0.8 * 0.375          = 30.000 %
 *   bad spec  = 100 * (0.2 * 0.375 + 4 * 1e4 / 1e6)      = 100 * (0.075 + 0.04)       = 11.500 %
 * which add up to 100 %. */
static struct arm_td_in v2(void)
{
	struct arm_td_in in = { .slots = 8, .have = 0x7f, .f = arm_td_formula_for(V2_MIDR) };
	in.count[ATD_CPU_CYCLES] = 1000000;
	in.count[ATD_STALL_SLOT_FRONTEND] = 2000000;
	in.count[ATD_STALL_SLOT_BACKEND] = 3000000;
	in.count[ATD_STALL_SLOT] = 5000000;
	in.count[ATD_OP_RETIRED] = 2400000;
	in.count[ATD_OP_SPEC] = 3000000;
	in.count[ATD_BR_MIS_PRED] = 10000;
	return in;
}

static void test_by_hand(void **state)
{
	(void)state;
	struct arm_td_in in = v2();
	struct arm_td_out o;
	arm_topdown(&in, &o);
	static const int64_t want[ATD_NITEM] = { 24000, 34500, 30000, 11500 };
	for (int k = 0; k < ATD_NITEM; k++) {
		assert_true(o.valid[k]);
		assert_int_equal(o.milli_pct[k], want[k]);
	}
	assert_string_equal(arm_td_item_name[ATD_FRONTEND], "frontend_bound");
	assert_string_equal(arm_td_input_name[ATD_STALL_SLOT_FRONTEND], "STALL_SLOT_FRONTEND");
}

/* A second hand-worked window with mispredicts dominating: 4 slots, 1000 cycles, SSF 600,
 * SSB 1400, SS 2000, OP_SPEC 1500, OP_RETIRED 1500, BR_MIS_PRED 50:
 *   frontend = 100 * (600/4000 - 50/1000) = 10 %, backend = 100 * (1400/4000 - 150/1000) = 20 %,
 *   retiring = 100 * 1 * (1 - 2000/4000) = 50 %, bad spec = 100 * (0 + 200/1000) = 20 %. */
static void test_by_hand_mispredicts(void **state)
{
	(void)state;
	struct arm_td_in in = { .slots = 4, .have = 0x7f, .f = arm_td_formula_for(V2_MIDR),
				.count = { 1000, 600, 1400, 2000, 1500, 1500, 50 } };
	struct arm_td_out o;
	arm_topdown(&in, &o);
	static const int64_t want[ATD_NITEM] = { 10000, 20000, 50000, 20000 };
	for (int k = 0; k < ATD_NITEM; k++)
		assert_int_equal(o.milli_pct[k], want[k]);
}

/* QEMU -cpu max (not a Neoverse: the generic form, no BR_MIS_PRED terms): no PMMIR_EL1.SLOTS,
 * only CPU_CYCLES: every item absent, naming why. */
static void test_absent_items_named(void **state)
{
	(void)state;
	struct arm_td_in in = { .slots = 0, .slots_why = "PMMIR_EL1.SLOTS 0", .have = 1u << ATD_CPU_CYCLES };
	in.count[ATD_CPU_CYCLES] = 12345;
	struct arm_td_out o;
	arm_topdown(&in, &o);
	for (int k = 0; k < ATD_NITEM; k++) {
		assert_false(o.valid[k]);
		assert_non_null(strstr(o.why[k], "PMMIR_EL1.SLOTS"));
	}
	assert_non_null(strstr(o.why[ATD_FRONTEND], "STALL_SLOT_FRONTEND absent"));
	assert_null(strstr(o.why[ATD_FRONTEND], "BR_MIS_PRED"));
	assert_null(strstr(o.why[ATD_FRONTEND], "OP_SPEC"));
	in.f = arm_td_formula_for(0x41ffd4f0u);   /* a V2 with SLOTS 0 has 8 from its table... */
	in.slots = 0;
	arm_topdown(&in, &o);
	assert_non_null(strstr(o.why[ATD_FRONTEND], "BR_MIS_PRED absent"));   /* ...and needs BR_MIS_PRED */
	assert_null(strstr(o.why[ATD_FRONTEND], "PMMIR_EL1"));
	assert_non_null(strstr(o.why[ATD_RETIRING], "OP_RETIRED absent"));

	/* slots known, one event missing: only the items that need it are absent */
	in = v2();
	in.have &= ~(1u << ATD_OP_SPEC);
	arm_topdown(&in, &o);
	assert_true(o.valid[ATD_FRONTEND] && o.valid[ATD_BACKEND]);
	assert_false(o.valid[ATD_RETIRING] || o.valid[ATD_BAD_SPEC]);
	assert_string_equal(o.why[ATD_RETIRING], "OP_SPEC absent");

	/* zero cycles: no ratio */
	in = v2();
	in.count[ATD_CPU_CYCLES] = 0;
	arm_topdown(&in, &o);
	for (int k = 0; k < ATD_NITEM; k++)
		assert_false(o.valid[k]);
	assert_string_equal(o.why[ATD_FRONTEND], "CPU_CYCLES counted 0");
}


/* Published run: Linux perf on a Neoverse N2, "perf stat -M TopDownL1 false_sharing 2", in the
 * cover letter of "[PATCH v8 0/9] Add metrics for neoverse-n2-v2" (Jing Zhang, linux-perf-users
 * and linux-kernel, 17 Jan 2023; applied by Arnaldo Carvalho de Melo as tools/perf/pmu-events/
 * arch/arm64/arm/neoverse-n2-v2/metrics.json). perf multiplexed three groups, one per item pair;
 * its printed results, 5 slots a cycle (Neoverse N2):
 *   retiring/bad spec group: cpu_cycles 3,408,960,257  stall_slot 19,576,079,610
 *                            op_spec 877,673,452  op_retired 876,324,270   -> 5.1 %, 0.0 %
 *   frontend group:          cpu_cycles 3,406,548,064  stall_slot_frontend 7,961,814,801 -> 26.7 %
 *   backend group:           cpu_cycles 3,415,528,440  stall_slot_backend 11,746,647,747 -> 68.8 %
 * perf's N2 formula then subtracted CPU_CYCLES from STALL_SLOT and STALL_SLOT_FRONTEND (N2
 * errata) and had no BR_MIS_PRED terms; the Telemetry Solution's neoverse-n2.json (r0p0-r0p2)
 * has the same subtraction and adds the mispredict terms, which vanish with BR_MIS_PRED = 0 (the
 * run did not count it). By hand:
 *   frontend = 100 * (7,961,814,801 - 3,406,548,064) / (5 * 3,406,548,064)    = 26.744 %
 *   backend  = 100 * 11,746,647,747 / (5 * 3,415,528,440)                     = 68.784 %
 *   not stalled = 1 - (19,576,079,610 - 3,408,960,257) / (5 * 3,408,960,257)  = 0.0514931
 *   retiring = 100 * (876,324,270 / 877,673,452) * 0.0514931                  =  5.141 %
 *   bad spec = 100 * (1 - 876,324,270 / 877,673,452) * 0.0514931              =  0.008 % */
static void test_published_neoverse_n2(void **state)
{
	(void)state;
	const struct arm_td_formula *f = arm_td_formula_for(N2R0P0_MIDR);
	assert_int_equal(f->k, 1);
	struct arm_td_in rb = { .slots = 5, .have = 0x7f, .f = f,
				.count = { 3408960257ull, 0, 0, 19576079610ull, 876324270ull, 877673452ull, 0 } };
	struct arm_td_in fe = { .slots = 5, .have = 0x7f, .f = f, .count = { 3406548064ull, 7961814801ull, 0, 0, 0, 1, 0 } };
	struct arm_td_in be = { .slots = 5, .have = 0x7f, .f = f, .count = { 3415528440ull, 0, 11746647747ull, 0, 0, 1, 0 } };
	struct arm_td_out o;
	arm_topdown(&rb, &o);
	assert_int_equal(o.milli_pct[ATD_RETIRING], 5141);
	assert_int_equal(o.milli_pct[ATD_BAD_SPEC], 8);
	arm_topdown(&fe, &o);
	assert_int_equal(o.milli_pct[ATD_FRONTEND], 26744);
	arm_topdown(&be, &o);
	assert_int_equal(o.milli_pct[ATD_BACKEND], 68784);
	/* perf's printed one-decimal figures */
	assert_int_equal((o.milli_pct[ATD_BACKEND] + 50) / 100, 688);
	/* without the N2 correction (the generic form) frontend would be 46.7 %, not perf's 26.7 % */
	fe.f = arm_td_formula_for(0x410fd4a0u);   /* not in the table */
	assert_int_equal(fe.f->k, 0);
	arm_topdown(&fe, &o);
	assert_int_equal((o.milli_pct[ATD_FRONTEND] + 50) / 100, 467);
}

/* The per-core data against the Telemetry Solution JSONs (frontend_bound ... bad_speculation
 * formulas, num_slots), typed from them:
 *   V2:        SSF/(C*8) - BMP/C;  SSB/(C*8) - 3*BMP/C;  ... + 4*BMP/C;            8 slots
 *   V1:        SSF/(C*8) - 4*BMP/C; SSB/(8*C);           ... + 4*BMP/C;            8 slots
 *   N2 r0p2:   (SSF - C)/(5*C) - BMP/C; SSB/(C*5) - 3*BMP/C; (SS - C) in both others; 5 slots
 *   N2 r0p3:   SSF/(C*5) - BMP/C; SSB/(C*5) - 3*BMP/C; SS plain;                   5 slots
 *   N1:        no frontend_bound etc. in its JSON.                                 5 slots */
static void test_per_core_table(void **state)
{
	(void)state;
	static const struct { uint32_t midr; uint8_t slots, k, fe, be, bs, l1; } want[] = {
		{ V2_MIDR, 8, 0, 1, 3, 4, 1 }, { V1_MIDR, 8, 0, 4, 0, 4, 1 }, { N2R0P0_MIDR, 5, 1, 1, 3, 4, 1 },
		{ 0x410fd492u, 5, 1, 1, 3, 4, 1 }, { N2R0P3_MIDR, 5, 0, 1, 3, 4, 1 }, { N1_MIDR, 5, 0, 0, 0, 0, 0 },
	};
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct arm_td_formula *f = arm_td_formula_for(want[i].midr);
		if (f->slots != want[i].slots || f->k != want[i].k || f->fe != want[i].fe || f->be != want[i].be ||
		    f->bs != want[i].bs || (f->no_l1 == NULL) != want[i].l1)
			fail_msg("MIDR 0x%x: %s does not match its JSON", want[i].midr, f->core);
	}
	/* another implementer with an Arm part number is not an Arm core */
	assert_string_equal(arm_td_formula_for(0x510fd4f0u)->core, "generic (Arm SBSA)");

	/* V1 by hand (the v2() counts): frontend 100 * (2e6/8e6 - 4 * 1e4/1e6) = 21 %, backend
	 * 100 * 3e6/8e6 = 37.5 %, retiring 30 %, bad spec 100 * (0.2 * 0.375 + 0.04) = 11.5 % */
	struct arm_td_in in = v2();
	in.f = arm_td_formula_for(V1_MIDR);
	struct arm_td_out o;
	arm_topdown(&in, &o);
	static const int64_t v1[ATD_NITEM] = { 21000, 37500, 30000, 11500 };
	for (int k = 0; k < ATD_NITEM; k++)
		assert_int_equal(o.milli_pct[k], v1[k]);

	/* N1: no item, the reason named */
	in.f = arm_td_formula_for(N1_MIDR);
	arm_topdown(&in, &o);
	for (int k = 0; k < ATD_NITEM; k++) {
		assert_false(o.valid[k]);
		assert_non_null(strstr(o.why[k], "Neoverse N1"));
	}
}

/* Slots: PMMIR_EL1.SLOTS first; without it a known core's num_slots, said so; a PMMIR value
 * that disagrees with the table is used and noted. */
static void test_slots_source(void **state)
{
	(void)state;
	struct arm_td_in in = v2();
	struct arm_td_out o;
	in.slots = 0;
	in.slots_why = "PMMIR_EL1: sync-exception";
	arm_topdown(&in, &o);
	assert_int_equal(o.slots, 8);
	assert_true(o.valid[ATD_FRONTEND]);
	assert_int_equal(o.milli_pct[ATD_FRONTEND], 24000);
	assert_string_equal(o.slots_source, "Neoverse V2 num_slots (PMMIR_EL1: sync-exception)");
	in.slots = 4;
	arm_topdown(&in, &o);
	assert_int_equal(o.slots, 4);
	assert_string_equal(o.slots_source, "PMMIR_EL1.SLOTS (Neoverse V2 num_slots says 8)");
	/* generic core, no PMMIR: nothing */
	in.slots = 0;
	in.f = NULL;
	arm_topdown(&in, &o);
	assert_int_equal(o.slots, 0);
	assert_false(o.valid[ATD_BACKEND]);
	assert_non_null(strstr(o.why[ATD_BACKEND], "sync-exception"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_by_hand_mispredicts),
		cmocka_unit_test(test_absent_items_named),
		cmocka_unit_test(test_published_neoverse_n2),
		cmocka_unit_test(test_per_core_table),
		cmocka_unit_test(test_slots_source),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
