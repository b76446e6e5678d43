/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outside oracle of the PERF_METRICS TopDown tables, in literal values typed from Linux:
 *   - the byte of IA32_PERF_METRICS each category is read from: arch/x86/include/asm/perf_event.h
 *     INTEL_TD_METRIC_* (pseudo umask 0x80 + k) and arch/x86/events/intel/core.c
 *     METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_*, k) (intel_spr_event_constraints), all eight;
 *   - which family-6 models get which level: core.c intel_pmu_init gives the Ice Lake family
 *     (Ice Lake, Ice Lake-SP/-D, Tiger Lake, Rocket Lake) num_topdown_events 4 and the Golden
 *     Cove generation (intel_pmu_init_glc: Sapphire/Emerald/Granite Rapids, the P-cores of
 *     Alder/Raptor Lake and Meteor Lake) 8. Every model 00h-FFh is probed on the register model
 *     (tests/unit/test_intel_model.h) with IA32_PERF_CAPABILITIES[15] set: efiperf's level may be
 *     below Linux's (printed), never above, and level 2 only on Linux's level-2 models.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/test_intel_model.h"
#include "pmu/core/x86_corepmu.h"
#include "pmu/core/intel_topdown_math.h"

static struct corepmu cp;

static void test_metric_bytes_equal_linux(void **state)
{
	(void)state;
	static const struct { const char *linux_name; unsigned umask; unsigned cat; const char *ours; } m[] = {
		{ "INTEL_TD_METRIC_RETIRING", 0x8000, TD_RETIRING, "retiring" },
		{ "INTEL_TD_METRIC_BAD_SPEC", 0x8100, TD_BAD_SPEC, "bad_speculation" },
		{ "INTEL_TD_METRIC_FE_BOUND", 0x8200, TD_FE_BOUND, "frontend_bound" },
		{ "INTEL_TD_METRIC_BE_BOUND", 0x8300, TD_BE_BOUND, "backend_bound" },
		{ "INTEL_TD_METRIC_HEAVY_OPS", 0x8400, TD_HEAVY_OPS, "heavy_operations" },
		{ "INTEL_TD_METRIC_BR_MISPREDICT", 0x8500, TD_BR_MISPREDICT, "branch_mispredicts" },
		{ "INTEL_TD_METRIC_FETCH_LAT", 0x8600, TD_FETCH_LAT, "fetch_latency" },
		{ "INTEL_TD_METRIC_MEM_BOUND", 0x8700, TD_MEM_BOUND, "memory_bound" },
	};
	assert_int_equal(TD_NCAT, sizeof(m) / sizeof(m[0]));
	for (unsigned i = 0; i < TD_NCAT; i++) {
		unsigned byte = (m[i].umask >> 8) - 0x80;
		uint64_t v = 0xA5ull << (8 * byte);
		for (unsigned k = 0; k < TD_NCAT; k++)
			if (td_metric_byte(v, k) != (k == m[i].cat ? 0xA5u : 0u))
				fail_msg("%s is byte %u of IA32_PERF_METRICS; efiperf's category %u (%s) reads byte 0x%x there",
					 m[i].linux_name, byte, k, td_cat_name[k], td_metric_byte(v, k));
		assert_string_equal(td_cat_name[m[i].cat], m[i].ours);
		assert_int_equal(m[i].cat < TD_L1, byte < 4);   /* level 1: bytes 0-3 */
	}
}

/* Linux's level per model (1: num_topdown_events 4, 2: 8); hybrid: the P-core of a hybrid part. */
static const struct { uint8_t model, level, hybrid; } linux_td[] = {
	{ 0x7D, 1, 0 }, { 0x7E, 1, 0 }, { 0x6A, 1, 0 }, { 0x6C, 1, 0 }, { 0x8C, 1, 0 }, { 0x8D, 1, 0 }, { 0xA7, 1, 0 },
	{ 0x8F, 2, 0 }, { 0xCF, 2, 0 }, { 0xAD, 2, 0 }, { 0xAE, 2, 0 },
	{ 0x97, 2, 1 }, { 0x9A, 2, 1 }, { 0xB7, 2, 1 }, { 0xBA, 2, 1 }, { 0xBF, 2, 1 }, { 0xAA, 2, 1 }, { 0xAC, 2, 1 },
};

static void test_level_per_model_within_linux(void **state)
{
	(void)state;
	int bad = 0, level2 = 0, below = 0;
	for (unsigned model = 0; model < 256; model++) {
		unsigned want = 0, hybrid = 0;
		for (size_t i = 0; i < sizeof(linux_td) / sizeof(linux_td[0]); i++)
			if (linux_td[i].model == model) {
				want = linux_td[i].level;
				hybrid = linux_td[i].hybrid;
			}
		struct tm_cpu c = { .model = model, .version = 5, .ngp = 8, .nfixed = 4, .pdcm = 1, .metrics_bit = 1,
				    .fw_write = 1, .hybrid = (int)hybrid, .pcore = 1 };
		tm_init(&c, (const uint64_t[4]){ 0 }, NULL);
		assert_int_equal(corepmu_probe(&tmh, &cp), 0);
		unsigned got = cp.td_kind == TD_METRICS ? 1u + cp.td_level2 : 0;
		level2 += got == 2;
		if (want && got < want) {
			printf("family 6 model 0x%02X: efiperf TopDown level %u, Linux %u (%s)\n", model, got, want, cp.td_rule);
			below++;
		}
		if ((want && got > want) || (!want && got == 2) || (want && !got)) {
			printf("family 6 model 0x%02X: efiperf TopDown level %u, Linux %u\n", model, got, want);
			bad++;
		}
	}
	printf("Linux intel_pmu_init: %d models at level 2 in efiperf, %d below Linux's level\n", level2, below);
	assert_int_equal(bad, 0);
	assert_int_equal(level2, 9);   /* SPR, EMR, GNR x2, the five Alder/Raptor Lake models */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_bytes_equal_linux),
		cmocka_unit_test(test_level_per_model_within_linux),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
