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
#include "pmu/core/core_mux.h"
#include "pmu/core/core_counters.h"
#include "pmu/events/arm_common_events.h"
#include "tests/model/pmuv3_model.h"
#include "arch/regs/arm_sysreg.h"

/* MIDR_EL1 values: implementer 0x41 [31:24], variant [23:20], architecture 0xF [19:16], PartNum
 * [15:4] (Neoverse V2 0xd4f, N2 0xd49, V1 0xd40, N1 0xd0c: product_configuration.part_num of
 * the Arm Telemetry Solution's data/pmu/cpu/neoverse/neoverse-*.json), revision [3:0]. */
#define V2_MIDR    0x410fd4f0u
#define V1_MIDR    0x411fd402u   /* r1p2 */
#define N2R0P0_MIDR 0x410fd490u
#define N2R0P3_MIDR 0x410fd493u
#define N1_MIDR    0x414fd0c1u   /* r4p1 */
/* Neoverse N3 0xd8e, V3 0xd84: product_configuration.part_num of neoverse-n3.json and
 * neoverse-v3.json (Arm Telemetry Solution commit 5898629, specification sha1 6687b72). */
#define N3_MIDR    0x410fd8e0u
#define V3_MIDR    0x411fd841u   /* r1p1: every revision has the one formula */

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

/* Every item of in valid and equal to want (1/1000 %). */
static void expect_items(const struct arm_td_in *in, const int64_t want[ATD_NITEM], struct arm_td_out *o)
{
	arm_topdown(in, o);
	for (int k = 0; k < ATD_NITEM; k++)
		if (!o->valid[k] || o->milli_pct[k] != want[k])
			fail_msg("%s: %s %lld, expected %lld", in->f->core, arm_td_item_name[k],
				 o->valid[k] ? (long long)o->milli_pct[k] : -1LL, (long long)want[k]);
}

/* Neoverse N3, neoverse-n3.json "metrics" (typed from it; num_slots 5):
 *   frontend_bound  (STALL_SLOT_FRONTEND / (5 * CPU_CYCLES) - STALL_FRONTEND_FLUSH / CPU_CYCLES) * 100
 *   backend_bound   STALL_SLOT_BACKEND / (5 * CPU_CYCLES) * 100
 *   retiring        (1 - STALL_SLOT / (CPU_CYCLES * 5)) * (OP_RETIRED / OP_SPEC) * 100
 *   bad_speculation (1 - STALL_SLOT / (5 * CPU_CYCLES)) * (1 - OP_RETIRED / OP_SPEC) * 100
 *                   + STALL_FRONTEND_FLUSH / CPU_CYCLES * 100
 * A window: 1,000,000 cycles, STALL_SLOT_FRONTEND 1,500,000, STALL_SLOT_BACKEND 2,000,000,
 * STALL_SLOT 3,500,000, OP_SPEC 2,000,000, OP_RETIRED 1,500,000, STALL_FRONTEND_FLUSH 50,000,
 * BR_MIS_PRED 10,000 (not in N3's formulas). By hand:
 *   frontend = (1.5e6 / 5e6 - 5e4 / 1e6) * 100             = (0.3 - 0.05) * 100        = 25.000 %
 *   backend  = 2e6 / 5e6 * 100                              = 0.4 * 100                 = 40.000 %
 *   retiring = (1 - 3.5e6 / 5e6) * (1.5e6 / 2e6) * 100      = 0.3 * 0.75 * 100          = 22.500 %
 *   bad spec = 0.3 * (1 - 0.75) * 100 + 5e4 / 1e6 * 100     = 7.5 + 5                   = 12.500 %
 * which add up to 100 %. */
static struct arm_td_in n3(void)
{
	return (struct arm_td_in){ .slots = 5, .have = (1u << ATD_NINPUT) - 1, .f = arm_td_formula_for(N3_MIDR),
				   .count = { [ATD_CPU_CYCLES] = 1000000, [ATD_STALL_SLOT_FRONTEND] = 1500000,
					      [ATD_STALL_SLOT_BACKEND] = 2000000, [ATD_STALL_SLOT] = 3500000,
					      [ATD_OP_RETIRED] = 1500000, [ATD_OP_SPEC] = 2000000,
					      [ATD_BR_MIS_PRED] = 10000, [ATD_STALL_FRONTEND_FLUSH] = 50000 } };
}

static void test_neoverse_n3_by_hand(void **state)
{
	(void)state;
	struct arm_td_in in = n3();
	struct arm_td_out o;
	static const int64_t want[ATD_NITEM] = { 25000, 40000, 22500, 12500 };
	expect_items(&in, want, &o);
	/* BR_MIS_PRED is no input of N3's formulas: another count, or none, changes nothing */
	in.count[ATD_BR_MIS_PRED] = 999999;
	expect_items(&in, want, &o);
	in.have &= ~(1u << ATD_BR_MIS_PRED);
	expect_items(&in, want, &o);
	/* PMMIR_EL1.SLOTS 0: N3's num_slots, 5 */
	in.slots = 0;
	arm_topdown(&in, &o);
	assert_int_equal(o.slots, 5);
	assert_int_equal(o.milli_pct[ATD_FRONTEND], 25000);
	/* STALL_FRONTEND_FLUSH not counted: frontend and bad speculation name it, the others stand */
	in = n3();
	in.have &= ~(1u << ATD_STALL_FRONTEND_FLUSH);
	arm_topdown(&in, &o);
	assert_false(o.valid[ATD_FRONTEND] || o.valid[ATD_BAD_SPEC]);
	assert_string_equal(o.why[ATD_FRONTEND], "STALL_FRONTEND_FLUSH absent");
	assert_string_equal(o.why[ATD_BAD_SPEC], "STALL_FRONTEND_FLUSH absent");
	assert_true(o.valid[ATD_BACKEND] && o.valid[ATD_RETIRING]);
	assert_int_equal(o.milli_pct[ATD_BACKEND], 40000);
	assert_int_equal(o.milli_pct[ATD_RETIRING], 22500);
}

/* Neoverse V3, neoverse-v3.json "metrics" (num_slots 10):
 *   frontend_bound  (STALL_SLOT_FRONTEND / (10 * CPU_CYCLES) - STALL_FRONTEND_FLUSH / CPU_CYCLES) * 100
 *   backend_bound   STALL_SLOT_BACKEND / (10 * CPU_CYCLES) * 100
 *   retiring        (1 - STALL_SLOT / (CPU_CYCLES * 10)) * (OP_RETIRED / OP_SPEC) * 100
 *   bad_speculation (1 - STALL_SLOT / (10 * CPU_CYCLES)) * (1 - OP_RETIRED / OP_SPEC) * 100
 *                   + STALL_FRONTEND_FLUSH / CPU_CYCLES * 100
 * (Linux tools/perf/pmu-events/arch/arm64/arm/neoverse-v3/metrics.json has the same
 * frontend_bound and bad_speculation). A window: 2,000,000 cycles, STALL_SLOT_FRONTEND
 * 7,000,000, STALL_SLOT_BACKEND 8,000,000, STALL_SLOT 15,000,000, OP_SPEC 5,000,000,
 * OP_RETIRED 4,000,000, STALL_FRONTEND_FLUSH 100,000. By hand:
 *   frontend = (7e6 / 2e7 - 1e5 / 2e6) * 100               = (0.35 - 0.05) * 100       = 30.000 %
 *   backend  = 8e6 / 2e7 * 100                              = 0.4 * 100                 = 40.000 %
 *   retiring = (1 - 1.5e7 / 2e7) * (4e6 / 5e6) * 100        = 0.25 * 0.8 * 100          = 20.000 %
 *   bad spec = 0.25 * (1 - 0.8) * 100 + 1e5 / 2e6 * 100     = 5 + 5                     = 10.000 %
 * and with STALL_FRONTEND_FLUSH 33,333 (rounding to 1/1000 %):
 *   frontend = (0.35 - 33333 / 2e6) * 100 = 35 - 1.66665    = 33.33335 %  -> 33333 milli-%
 *   bad spec = 5 + 33333 / 2e6 * 100     = 5 + 1.66665     =  6.66665 %  ->  6667 milli-% */
static void test_neoverse_v3_by_hand(void **state)
{
	(void)state;
	struct arm_td_in in = { .slots = 10, .have = (1u << ATD_NINPUT) - 1, .f = arm_td_formula_for(V3_MIDR),
				.count = { [ATD_CPU_CYCLES] = 2000000, [ATD_STALL_SLOT_FRONTEND] = 7000000,
					   [ATD_STALL_SLOT_BACKEND] = 8000000, [ATD_STALL_SLOT] = 15000000,
					   [ATD_OP_RETIRED] = 4000000, [ATD_OP_SPEC] = 5000000, [ATD_BR_MIS_PRED] = 25000,
					   [ATD_STALL_FRONTEND_FLUSH] = 100000 } };
	struct arm_td_out o;
	static const int64_t want[ATD_NITEM] = { 30000, 40000, 20000, 10000 };
	expect_items(&in, want, &o);
	in.count[ATD_STALL_FRONTEND_FLUSH] = 33333;
	static const int64_t want2[ATD_NITEM] = { 33333, 40000, 20000, 6667 };
	expect_items(&in, want2, &o);
	/* PMMIR_EL1.SLOTS 0: V3's num_slots, 10, said so */
	in.slots = 0;
	arm_topdown(&in, &o);
	assert_int_equal(o.slots, 10);
	assert_string_equal(o.slots_source, "Neoverse V3 num_slots (PMMIR_EL1.SLOTS 0)");
	assert_int_equal(o.milli_pct[ATD_FRONTEND], 33333);
}

/* N3 and V3 in the table as their JSONs give them, with the event number of
 * STALL_FRONTEND_FLUSH their "events" list ("code": "0x8162"; Linux's common-and-microarch.json
 * EventCode 0x8162 too), and no "not yet" left. */
static void test_n3_v3_table(void **state)
{
	(void)state;
	static const struct { uint32_t midr; const char *core; uint8_t slots; } want[] = {
		{ N3_MIDR, "Neoverse N3", 5 }, { 0x412fd8e3u, "Neoverse N3", 5 }, { V3_MIDR, "Neoverse V3", 10 },
		{ 0x410fd840u, "Neoverse V3", 10 },
	};
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct arm_td_formula *f = arm_td_formula_for(want[i].midr);
		assert_string_equal(f->core, want[i].core);
		assert_int_equal(f->slots, want[i].slots);
		assert_int_equal(f->k, 0);
		assert_int_equal(f->fe, 1);   /* "- STALL_FRONTEND_FLUSH / CPU_CYCLES" */
		assert_int_equal(f->be, 0);   /* backend_bound has no flush term */
		assert_int_equal(f->bs, 1);   /* "+ STALL_FRONTEND_FLUSH / CPU_CYCLES * 100" */
		assert_int_equal(f->x, ATD_STALL_FRONTEND_FLUSH);
		assert_null(f->no_l1);
		assert_string_equal(arm_td_input_name[f->x], "STALL_FRONTEND_FLUSH");
		const struct arm_common_event *e = arm_common_event_find(arm_td_input_name[f->x], strlen(arm_td_input_name[f->x]));
		assert_non_null(e);
		assert_int_equal(e->code, 0x8162);
		/* what the PMUv3 run programs for it: the six SBSA inputs and STALL_FRONTEND_FLUSH */
		assert_int_equal(arm_td_inputs(f), 0xbfu);
		struct arm_td_in in = n3();
		in.f = f;
		in.have = 1u << ATD_CPU_CYCLES;
		struct arm_td_out o;
		arm_topdown(&in, &o);
		for (int k = 0; k < ATD_NITEM; k++) {
			assert_null(strstr(o.why[k], "not yet"));
			assert_null(strstr(o.why[k], "does not program"));
		}
	}
	/* the cores before keep BR_MIS_PRED */
	assert_int_equal(arm_td_formula_for(V2_MIDR)->x, ATD_BR_MIS_PRED);
	assert_int_equal(arm_td_inputs(arm_td_formula_for(V2_MIDR)), 0x7fu);
	assert_int_equal(arm_td_inputs(NULL), 0x7fu);
	assert_int_equal(arm_td_inputs(arm_td_formula_for(N1_MIDR)), 0x7fu);
}

/* The PMUv3 run on a Neoverse N3 (register model: MIDR_EL1 set to N3's, PMUv3p5, every
 * PMCEID0/1_EL0 bit set) with topdown = on programs STALL_FRONTEND_FLUSH as evtCount 0x8162,
 * names that no PMCEID bit vouches for it, and leaves BR_MIS_PRED to the defaults. */
#define PMCR_N7 0x41013800u   /* PMCR_EL0.N [15:11] = 7 */
#define PMCR_N6 0x41013000u
static struct hw_model m;
static struct hw h;
static struct core_set s;

static void model_n3(uint64_t pmcr, uint64_t ceid1)
{
	const struct pmuv3_model_cfg c = { .pmcr = pmcr, .ceid0 = 0xffffffffull, .ceid1 = ceid1, .evtyper = 0x5,
					   .ccfiltr = 0, .cyc_step = 3, .ctr_start = 10 };
	pmuv3_model(&m, &c);
	hw_model_find(&m, HWM_SYSREG, SYSREG_MIDR_EL1)->value = N3_MIDR;
	h = hw_model_hw(&m);
	memset(&s, 0, sizeof(s));
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	assert_int_equal(s.midr, N3_MIDR);
}

static void test_n3_programs_stall_frontend_flush(void **state)
{
	(void)state;
	model_n3(PMCR_N7, 0xffffffffull);
	armv8_pmuv3_add_topdown(&s);
	static const char *const ev[] = { "INST_RETIRED", "STALL_SLOT_FRONTEND", "STALL_SLOT_BACKEND", "STALL_SLOT",
					  "OP_RETIRED", "OP_SPEC", "STALL_FRONTEND_FLUSH" };
	assert_int_equal(s.n, 8);
	for (int i = 0; i < 7; i++)
		assert_string_equal(s.c[i + 1].event, ev[i]);
	assert_int_equal(s.nleft, 0);
	assert_string_equal(s.c[7].why, "0x8162: no PMCEID0/1_EL0 bit; Neoverse N3 TopDown uses it");
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVTYPER_EL0(6))->value & 0xffff, 0x8162);
	hw_model_tick(&m, 10);
	assert_int_equal(pmu_armv8_pmuv3.stop(&h, &s), HW_OK);
	assert_int_equal(s.c[7].state, CTR_COUNTED);
	assert_int_equal(s.c[7].delta, 70);   /* event counter 6 steps 7 a tick */
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &s), HW_OK);
	assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVTYPER_EL0(6))->value, 0x5);

	/* OP_SPEC (0x3B) lacking per PMCEID1_EL0: not_programmed with why, STALL_FRONTEND_FLUSH moves up */
	model_n3(PMCR_N7, 0xffffffffull & ~(1ull << (0x3b - 32)));
	armv8_pmuv3_add_topdown(&s);
	assert_int_equal(s.nleft, 1);
	assert_string_equal(s.left[0].event, "OP_SPEC");
	assert_string_equal(s.left[0].why, "not implemented (PMCEID0/1_EL0)");
	assert_string_equal(s.c[6].event, "STALL_FRONTEND_FLUSH");

	/* six event counters: INST_RETIRED and five inputs in group 0, STALL_FRONTEND_FLUSH
	 * multiplexed in group 1 on event counter 1 (core_mux_pack keeps that: 6 inputs, 5 counters) */
	model_n3(PMCR_N6, 0xffffffffull);
	armv8_pmuv3_add_topdown(&s);
	core_mux_pack(&s);
	assert_int_equal(s.nleft, 0);
	assert_string_equal(s.c[7].event, "STALL_FRONTEND_FLUSH");
	assert_int_equal(s.ngroups, 2);
	assert_int_equal(s.td_groups, 2);
	assert_int_equal(s.c[7].group, 1);
	assert_int_equal(s.c[7].ctr, 1);
	assert_int_equal(s.c[6].group, 0);
	assert_int_equal(s.c[6].ctr, 5);

	/* PMUv3 before v3p1: evtCount has 10 bits, 0x8162 does not fit */
	model_n3(PMCR_N7, 0xffffffffull);
	s.version = PMUVer_V3;
	armv8_pmuv3_add_topdown(&s);
	assert_int_equal(s.nleft, 1);
	assert_string_equal(s.left[0].why, "wider than evtCount (10 bits before PMUv3p1)");

	/* the defaults never take an event no PMCEID bit reports */
	model_n3(PMCR_N7, 0xffffffffull);
	armv8_pmuv3_add_defaults(&s);
	for (int i = 1; i < s.n; i++)
		assert_int_not_equal(s.c[i].code, 0x8162);
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
		cmocka_unit_test(test_neoverse_n3_by_hand),
		cmocka_unit_test(test_neoverse_v3_by_hand),
		cmocka_unit_test(test_n3_v3_table),
		cmocka_unit_test(test_n3_programs_stall_frontend_flush),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
