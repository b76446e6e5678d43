/* SPDX-License-Identifier: BSD-2-Clause */
/* Arm PMUv3 core_events: the common-event table against the Arm ARM's numbers, the
 * armv8_pmuv3 grammar, PMCEID0/1_EL0 deciding what the CPU implements, and the extra event
 * counters programmed, counted and restored on the register model. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/pmuv3_model.h"
#include "pmu/core/core_counters.h"
#include "pmu/events/arm_common_events.h"
#include "arch/regs/arm_sysreg.h"

/* Oracle: event numbers typed from the Arm ARM (DDI 0487K.a) "Common event numbers" list. */
static const struct { const char *name; uint16_t code; } arm_arm[] = {
	{ "SW_INCR", 0x0000 }, { "L1D_CACHE_REFILL", 0x0003 }, { "L1D_CACHE", 0x0004 },
	{ "INST_RETIRED", 0x0008 }, { "BR_MIS_PRED", 0x0010 }, { "CPU_CYCLES", 0x0011 },
	{ "MEM_ACCESS", 0x0013 }, { "L2D_CACHE_REFILL", 0x0017 }, { "BUS_ACCESS", 0x0019 },
	{ "INST_SPEC", 0x001B }, { "BR_RETIRED", 0x0021 }, { "STALL_FRONTEND", 0x0023 },
	{ "STALL_BACKEND", 0x0024 }, { "LL_CACHE_MISS_RD", 0x0037 }, { "OP_RETIRED", 0x003A },
	{ "OP_SPEC", 0x003B }, { "STALL", 0x003C }, { "STALL_SLOT_BACKEND", 0x003D },
	{ "STALL_SLOT_FRONTEND", 0x003E }, { "STALL_SLOT", 0x003F }, { "CNT_CYCLES", 0x4004 },
	{ "STALL_BACKEND_MEM", 0x4005 },
};

/* QEMU -cpu max style CPU: PMUv3p5, N = 6 (PMCR_EL0 [15:11] = 6 -> 0x3000), PMCEID0 with
 * events 0x00-0x1F except 0x1D (BUS_CYCLES) and bit 36 = event 0x4004 (CNT_CYCLES);
 * PMCEID1 with 0x20-0x3F except 0x3A/0x3B (OP_RETIRED/OP_SPEC). */
#define PMCR_N6 0x41013000u
#define CEID0 (0x00000000ffffffffull & ~(1ull << 0x1d)) | (1ull << 36)
#define CEID1 (0x00000000ffffffffull & ~((1ull << (0x3a - 32)) | (1ull << (0x3b - 32))))
#define EVTYPER_ORIG 0x5u

static struct hw_model m;
static struct hw h;
static struct core_set s;

static void model(void)
{
	const struct pmuv3_model_cfg c = { .pmcr = PMCR_N6, .ceid0 = CEID0, .ceid1 = CEID1, .evtyper = EVTYPER_ORIG,
					   .cyc_step = 4, .ctr_start = 100 };
	pmuv3_model(&m, &c);
	h = hw_model_hw(&m);
	memset(&s, 0, sizeof(s));
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
}

static void test_table_matches_arm_arm(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sizeof(arm_arm) / sizeof(arm_arm[0]); i++) {
		const struct arm_common_event *e = arm_common_event_find(arm_arm[i].name, strlen(arm_arm[i].name));
		assert_non_null(e);
		assert_int_equal(e->code, arm_arm[i].code);
		assert_ptr_equal(arm_common_event_by_code(arm_arm[i].code), e);
	}
	/* names unique, numbers unique */
	for (unsigned i = 0; i < arm_ncommon_events; i++)
		for (unsigned j = i + 1; j < arm_ncommon_events; j++) {
			assert_int_not_equal(arm_common_events[i].code, arm_common_events[j].code);
			assert_true(strcmp(arm_common_events[i].name, arm_common_events[j].name) != 0);
		}
	assert_null(arm_common_event_find("CPU_CYCLE", 9));
	assert_null(arm_common_event_find("cpu_cycles", 10));
}

static void test_configure_counts_and_restores(void **state)
{
	(void)state;
	model();
	char err[160] = "";
	assert_int_equal(armv8_pmuv3_configure(&s, "armv8_pmuv3/event=0x11/, STALL_BACKEND,armv8_pmuv3_0/event=0x3f/,CNT_CYCLES",
					       err, sizeof(err)), 0);
	assert_int_equal(s.n, 6);
	assert_string_equal(s.c[2].event, "CPU_CYCLES");
	assert_int_equal(s.c[2].code, 0x11);
	assert_string_equal(s.c[3].event, "STALL_BACKEND");
	assert_int_equal(s.c[3].code, 0x24);
	assert_string_equal(s.c[4].event, "STALL_SLOT");
	assert_int_equal(s.c[5].code, 0x4004);
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	/* event counter k = c[k + 1]: evtCount in [15:0], EL1 filter (U, NSU, M = bits 30, 28, 26) */
	assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVTYPER_EL0(1))->value, 0x54000000u | 0x11);
	assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVTYPER_EL0(2))->value, 0x54000000u | 0x24);
	assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVTYPER_EL0(4))->value, 0x54000000u | 0x4004);
	hw_model_tick(&m, 10);
	assert_int_equal(pmu_armv8_pmuv3.stop(&h, &s), HW_OK);
	for (int i = 2; i < 6; i++) {
		assert_int_equal(s.c[i].state, CTR_COUNTED);
		assert_int_equal(s.c[i].delta, 10 * (uint64_t)i);   /* PMEVCNTR<i-1> steps i a tick */
	}
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &s), HW_OK);
	for (int k = 0; k < 6; k++)
		assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVTYPER_EL0(k))->value, EVTYPER_ORIG);
	assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMCNTENSET_EL0)->value, 0);
}

static void test_configure_errors_name_the_event(void **state)
{
	(void)state;
	static const struct { const char *in, *says; } bad[] = {
		{ "OP_RETIRED", "OP_RETIRED (0x3a) is not implemented by this CPU (PMCEID1_EL0)" },
		{ "armv8_pmuv3/event=0x1d/", "BUS_CYCLES (0x1d) is not implemented by this CPU (PMCEID0_EL0)" },
		{ "STALL_BACKNED", "STALL_BACKNED" },
		/* a misspelt name: the closest common events by edit distance */
		{ "STALL_BACKNED", "(closest: STALL_BACKEND" },
		{ "armv8_pmuv3/umask=1/", "umask" },
		{ "armv8_pmuv3/event=0x10000/", "event" },
		/* 31 events: more than the 30 efiperf multiplexes (6 would fit now, in 2 groups) */
		{ "CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,"
		  "CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,"
		  "CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,"
		  "CPU_CYCLES,CPU_CYCLES,CPU_CYCLES,INST_SPEC", "'INST_SPEC': more than 30 events" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		model();
		char err[160] = "";
		assert_int_equal(armv8_pmuv3_configure(&s, bad[i].in, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].says))
			fail_msg("'%s': error '%s' does not say '%s'", bad[i].in, err, bad[i].says);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_matches_arm_arm),
		cmocka_unit_test(test_configure_counts_and_restores),
		cmocka_unit_test(test_configure_errors_name_the_event),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
