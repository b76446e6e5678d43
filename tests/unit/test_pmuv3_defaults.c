/* SPDX-License-Identifier: BSD-2-Clause */
/* Arm PMUv3 default event set (pmu/core/armv8_pmuv3_events.c) on the register model: with
 * PMCR_EL0.N = 6 and N = 2, every event counter programmed from the documented priority list
 * among the events PMCEID0/1_EL0 report, the rest of the list named as left out with why, and
 * with a fault injected at each register access every register either put back or named. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/pmuv3_model.h"
#include "pmu/core/core_counters.h"
#include "arch/regs/arm_sysreg.h"

/* PMCR_EL0 with N in [15:11] (Arm ARM D23 PMCR_EL0): 0x41013000 is QEMU's N = 6; N = 2 is
 * 0x41001000. */
#define PMCR_N6 0x41013000u
#define PMCR_N2 0x41001000u
/* A CPU implementing common events 0x00-0x3F except L2D_CACHE_REFILL (0x17), BUS_CYCLES (0x1D)
 * and LL_CACHE_MISS_RD (0x37): PMCEID0_EL0 bit n = event n, PMCEID1_EL0 bit n = event 0x20 + n. */
#define CEID0_MOST (0xffffffffull & ~((1ull << 0x17) | (1ull << 0x1d)))
#define CEID1_MOST (0xffffffffull & ~(1ull << (0x37 - 0x20)))
/* Only SW_INCR (0x00), INST_RETIRED (0x08), CPU_CYCLES (0x11), CHAIN (0x1E) and, bit 36,
 * CNT_CYCLES (0x4004). */
#define CEID0_FEW ((1ull << 0x00) | (1ull << 0x08) | (1ull << 0x11) | (1ull << 0x1e) | (1ull << 36))
#define EVTYPER_ORIG 0x7u
#define CNTEN_ORIG 0x0u
#define CCFILTR_ORIG 0x08000000u

static struct hw_model m;
static struct hw h;
static struct core_set s;

static void model(uint64_t pmcr, uint64_t ceid0, uint64_t ceid1)
{
	const struct pmuv3_model_cfg c = { .pmcr = pmcr, .ceid0 = ceid0, .ceid1 = ceid1, .evtyper = EVTYPER_ORIG,
					   .ccfiltr = CCFILTR_ORIG, .cyc_step = 7, .ctr_start = 10 };
	pmuv3_model(&m, &c);
	h = hw_model_hw(&m);
	memset(&s, 0, sizeof(s));
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
}

/* The list as the header documents it, typed here. */
static const char *const list[] = {
	"L1D_CACHE_REFILL", "L2D_CACHE_REFILL", "LL_CACHE_MISS_RD", "STALL_FRONTEND", "STALL_BACKEND",
	"BR_MIS_PRED", "MEM_ACCESS", "L1D_CACHE", "L2D_CACHE", "BUS_ACCESS", "L1D_TLB_REFILL", "INST_SPEC",
	"L1I_CACHE_REFILL", "BR_RETIRED", "LL_CACHE_RD", "L3D_CACHE_REFILL",
};

static void expect(const char *const *events, int n, const char *const *left, const char *const *why, int nleft)
{
	assert_int_equal(s.n, n + 1);
	assert_string_equal(s.c[0].event, "CPU_CYCLES");
	for (int i = 0; i < n; i++)
		if (strcmp(s.c[i + 1].event, events[i]) != 0)
			fail_msg("event counter %d: %s, expected %s", i, s.c[i + 1].event, events[i]);
	assert_int_equal(s.nleft, (uint32_t)nleft);
	for (int i = 0; i < nleft; i++)
		if (strcmp(s.left[i].event, left[i]) != 0 || !strstr(s.left[i].why, why[i]))
			fail_msg("left out %d: %s (%s), expected %s (%s)", i, s.left[i].event, s.left[i].why, left[i], why[i]);
}

#define NI "not implemented (PMCEID0/1_EL0)"
#define NC "no event counter left in the last group (PMCR_EL0.N; the default set is not multiplexed)"

static void test_list_is_documented_one(void **state)
{
	(void)state;
	assert_int_equal(armv8_pmuv3_ndefault_events, sizeof(list) / sizeof(list[0]));
	for (unsigned i = 0; i < armv8_pmuv3_ndefault_events; i++)
		assert_string_equal(armv8_pmuv3_default_events[i], list[i]);
}

static void test_n6(void **state)
{
	(void)state;
	model(PMCR_N6, CEID0_MOST, CEID1_MOST);
	armv8_pmuv3_add_defaults(&s);
	static const char *const ev[] = { "INST_RETIRED", "L1D_CACHE_REFILL", "STALL_FRONTEND", "STALL_BACKEND",
					  "BR_MIS_PRED", "MEM_ACCESS" };
	static const char *const left[] = { "L2D_CACHE_REFILL", "LL_CACHE_MISS_RD", "L1D_CACHE", "L2D_CACHE",
					    "BUS_ACCESS", "L1D_TLB_REFILL", "INST_SPEC", "L1I_CACHE_REFILL", "BR_RETIRED",
					    "LL_CACHE_RD", "L3D_CACHE_REFILL" };
	static const char *const why[] = { NI, NI, NC, NC, NC, NC, NC, NC, NC, NC, NC };
	expect(ev, 6, left, why, 11);
	/* programmed and counted: PMEVTYPER<k> = EL1 filter | the event, PMEVCNTR<k> steps k + 1 */
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	static const uint16_t code[] = { 0x08, 0x03, 0x23, 0x24, 0x10, 0x13 };
	for (int k = 0; k < 6; k++)
		assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVTYPER_EL0(k))->value, 0x54000000u | code[k]);
	assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMCNTENSET_EL0)->value, PMCNTEN_C | 0x3f);
	hw_model_tick(&m, 100);
	assert_int_equal(pmu_armv8_pmuv3.stop(&h, &s), HW_OK);
	for (int k = 0; k < 6; k++) {
		assert_int_equal(s.c[k + 1].state, CTR_COUNTED);
		assert_int_equal(s.c[k + 1].delta, 100u * (uint64_t)(k + 1));
	}
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &s), HW_OK);
	for (int k = 0; k < 6; k++)
		assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVTYPER_EL0(k))->value, EVTYPER_ORIG);
}

static void test_n2_and_topdown_first(void **state)
{
	(void)state;
	model(PMCR_N2, CEID0_MOST, CEID1_MOST);
	armv8_pmuv3_add_defaults(&s);
	static const char *const ev[] = { "INST_RETIRED", "L1D_CACHE_REFILL" };
	static const char *const left[] = { "L2D_CACHE_REFILL", "LL_CACHE_MISS_RD", "STALL_FRONTEND", "STALL_BACKEND",
					    "BR_MIS_PRED", "MEM_ACCESS", "L1D_CACHE", "L2D_CACHE", "BUS_ACCESS",
					    "L1D_TLB_REFILL", "INST_SPEC", "L1I_CACHE_REFILL", "BR_RETIRED", "LL_CACHE_RD",
					    "L3D_CACHE_REFILL" };
	static const char *const why[] = { NI, NI, NC, NC, NC, NC, NC, NC, NC, NC, NC, NC, NC, NC, NC };
	expect(ev, 2, left, why, 15);

	/* topdown = on: its inputs come first (main.c), each in a group of its own on the one event
	 * counter left (multiplexed); the defaults open no group, so none of them is programmed */
	model(PMCR_N2, CEID0_MOST, CEID1_MOST);
	armv8_pmuv3_add_topdown(&s);
	armv8_pmuv3_add_defaults(&s);
	static const char *const ev2[] = { "INST_RETIRED", "STALL_SLOT_FRONTEND", "STALL_SLOT_BACKEND", "STALL_SLOT",
					   "OP_RETIRED", "OP_SPEC", "BR_MIS_PRED" };
	assert_int_equal(s.n, 8);
	for (int i = 0; i < 7; i++)
		assert_string_equal(s.c[i + 1].event, ev2[i]);
	assert_int_equal(s.ngroups, 6);
	for (int i = 2; i < 8; i++) {
		assert_int_equal(s.c[i].group, i - 2);
		assert_int_equal(s.c[i].ctr, 1);
		assert_true(s.c[i].topdown);
	}
	assert_string_equal(s.left[0].event, "L1D_CACHE_REFILL");   /* the defaults' */
	assert_string_equal(s.left[0].why, NC);
	assert_int_equal(s.nleft, 15);   /* BR_MIS_PRED, wanted by both, is programmed */
}

/* Counters the list leaves free take the other implemented common events (not SW_INCR, CHAIN). */
static void test_fillers(void **state)
{
	(void)state;
	model(PMCR_N6, CEID0_FEW, 0);
	armv8_pmuv3_add_defaults(&s);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.c[2].event, "CPU_CYCLES");
	assert_string_equal(s.c[3].event, "CNT_CYCLES");
	assert_int_equal(s.nleft, 16);
	for (uint32_t i = 0; i < 16; i++)
		assert_string_equal(s.left[i].why, NI);
}

static uint64_t reg(uint32_t enc)
{
	return hw_model_find(&m, HWM_SYSREG, enc)->value;
}

/* The PMCNTENSET/CLR pair as the hardware would hold it after the whole log. */
static uint64_t enables(void)
{
	uint64_t v = CNTEN_ORIG;
	for (int i = 0; i < m.nlog; i++)
		if (m.log[i].id == SYSREG_PMCNTENSET_EL0)
			v |= m.log[i].value;
		else if (m.log[i].id == SYSREG_PMCNTENCLR_EL0)
			v &= ~m.log[i].value;
	return v;
}

static int named(uint32_t enc)
{
	for (uint32_t i = 0; i < s.restore.nfailed && i < SAVESET_REPORT_FAILED; i++)
		if (s.restore.failed[i].addr == enc)
			return 1;
	return 0;
}

static void run_once(uint64_t pmcr)
{
	model(pmcr, CEID0_MOST, CEID1_MOST);
	armv8_pmuv3_add_defaults(&s);
	pmu_armv8_pmuv3.start(&h, &s);
	hw_model_tick(&m, 5);
	pmu_armv8_pmuv3.stop(&h, &s);
	pmu_armv8_pmuv3.restore(&h, &s);
}

/* A fault at each access in turn (once, and from there on): every register start() wrote is
 * back to its value, or the restore report names it. */
static void test_fault_at_each_step(void **state)
{
	(void)state;
	static const uint64_t pmcrs[] = { PMCR_N6, PMCR_N2 };
	for (unsigned p = 0; p < 2; p++) {
		run_once(pmcrs[p]);
		uint32_t total = m.naccess;
		int nctr = (int)((pmcrs[p] >> 11) & 0x1f);
		assert_true(total > (uint32_t)(3 * nctr));
		for (int sticky = 0; sticky < 2; sticky++)
			for (uint32_t at = 1; at <= total; at++) {
				model(pmcrs[p], CEID0_MOST, CEID1_MOST);
				armv8_pmuv3_add_defaults(&s);
				m.fail_at = at;
				m.fail_sticky = (uint8_t)sticky;
				m.fail_status = HW_FAULT_SYNC;
				pmu_armv8_pmuv3.start(&h, &s);
				hw_model_tick(&m, 5);
				pmu_armv8_pmuv3.stop(&h, &s);
				hw_status rs = pmu_armv8_pmuv3.restore(&h, &s);
				m.fail_at = 0;
				m.fail_sticky = 0;
				if (rs == HW_OK && !s.restore.nfailed) {
					assert_int_equal(reg(SYSREG_PMCR_EL0), pmcrs[p]);
					assert_int_equal(reg(SYSREG_PMCCFILTR_EL0), CCFILTR_ORIG);
					assert_int_equal(enables(), CNTEN_ORIG);
					for (int k = 0; k < nctr; k++)
						assert_int_equal(reg(SYSREG_PMEVTYPER_EL0(k)), EVTYPER_ORIG);
					continue;
				}
				assert_true(s.restore.nfailed > 0 || rs != HW_OK);
				if (s.restore.nfailed > SAVESET_REPORT_FAILED)
					continue;   /* more failed than listed: the count says so */
				if (reg(SYSREG_PMCR_EL0) != pmcrs[p] && !named(SYSREG_PMCR_EL0))
					fail_msg("N=%d fault at %u%s: PMCR_EL0 changed and not named", nctr, at, sticky ? " on" : "");
				for (int k = 0; k < nctr; k++)
					if (reg(SYSREG_PMEVTYPER_EL0(k)) != EVTYPER_ORIG && !named(SYSREG_PMEVTYPER_EL0(k)))
						fail_msg("N=%d fault at %u%s: PMEVTYPER%d_EL0 changed and not named", nctr, at,
							 sticky ? " on" : "", k);
			}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_is_documented_one),
		cmocka_unit_test(test_n6),
		cmocka_unit_test(test_n2_and_topdown_first),
		cmocka_unit_test(test_fillers),
		cmocka_unit_test(test_fault_at_each_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
