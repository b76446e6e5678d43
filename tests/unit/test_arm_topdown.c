/* SPDX-License-Identifier: BSD-2-Clause */
/* Neoverse TopDown level 1 (pmu/core/arm_topdown.c) against values worked by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/core/arm_topdown.h"

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
	struct arm_td_in in = { .slots = 8, .have = 0x7f };
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
	struct arm_td_in in = { .slots = 4, .have = 0x7f,
				.count = { 1000, 600, 1400, 2000, 1500, 1500, 50 } };
	struct arm_td_out o;
	arm_topdown(&in, &o);
	static const int64_t want[ATD_NITEM] = { 10000, 20000, 50000, 20000 };
	for (int k = 0; k < ATD_NITEM; k++)
		assert_int_equal(o.milli_pct[k], want[k]);
}

/* QEMU -cpu max: no PMMIR_EL1.SLOTS, only CPU_CYCLES: every item absent, naming why. */
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
	assert_non_null(strstr(o.why[ATD_FRONTEND], "BR_MIS_PRED absent"));
	assert_null(strstr(o.why[ATD_FRONTEND], "OP_SPEC"));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_by_hand_mispredicts),
		cmocka_unit_test(test_absent_items_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
