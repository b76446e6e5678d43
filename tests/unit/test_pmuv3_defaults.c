/* SPDX-License-Identifier: BSD-2-Clause */
/* Arm PMUv3 default event set (pmu/core/armv8_pmuv3_events.c) on the register model: with
 * PMCR_EL0.N = 6 and N = 2, every event of the documented priority list that PMCEID0/1_EL0
 * report programmed, in groups of N - 1 when they need more event counters (multiplexed: the
 * counts are in test_pmuv3_mux.c), the rest of the list named as left out with why; a set that
 * fits stays one group; and with a fault injected at each register access every register either
 * put back or named. */
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
#define PMCR_N1 0x41000800u
/* A CPU implementing common events 0x00-0x3F except L2D_CACHE_REFILL (0x17), BUS_CYCLES (0x1D)
 * and LL_CACHE_MISS_RD (0x37): PMCEID0_EL0 bit n = event n, PMCEID1_EL0 bit n = event 0x20 + n. */
#define CEID0_MOST (0xffffffffull & ~((1ull << 0x17) | (1ull << 0x1d)))
#define CEID1_MOST (0xffffffffull & ~(1ull << (0x37 - 0x20)))
/* Only SW_INCR (0x00), INST_RETIRED (0x08), CPU_CYCLES (0x11), CHAIN (0x1E) and, bit 36,
 * CNT_CYCLES (0x4004). */
#define CEID0_FEW ((1ull << 0x00) | (1ull << 0x08) | (1ull << 0x11) | (1ull << 0x1e) | (1ull << 36))
/* What QEMU 7.2 -cpu max -icount reports: SW_INCR (0x00), INST_RETIRED (0x08), CPU_CYCLES (0x11);
 * in PMCEID1_EL0 STALL_FRONTEND (0x23), STALL_BACKEND (0x24) and STALL (0x3C). */
#define CEID0_QEMU ((1ull << 0x00) | (1ull << 0x08) | (1ull << 0x11))
#define CEID1_QEMU ((1ull << (0x23 - 0x20)) | (1ull << (0x24 - 0x20)) | (1ull << (0x3c - 0x20)))
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
#define NC "no event counter left (PMCR_EL0.N < 2, or more events than efiperf multiplexes)"

/* c[2 + i] is in group group[i] on event counter ctr[i], for i < n; s has ngroups groups. */
static void expect_groups(const uint8_t *group, const uint8_t *ctr, int n, uint32_t ngroups)
{
	assert_int_equal(s.ngroups, ngroups);
	for (int i = 0; i < n; i++)
		if (s.c[2 + i].group != group[i] || s.c[2 + i].ctr != ctr[i])
			fail_msg("%s: group %u counter %u, expected group %u counter %u", s.c[2 + i].event, s.c[2 + i].group,
				 s.c[2 + i].ctr, group[i], ctr[i]);
}

static void test_list_is_documented_one(void **state)
{
	(void)state;
	assert_int_equal(armv8_pmuv3_ndefault_events, sizeof(list) / sizeof(list[0]));
	for (unsigned i = 0; i < armv8_pmuv3_ndefault_events; i++)
		assert_string_equal(armv8_pmuv3_default_events[i], list[i]);
}

/* N = 6: five event counters besides INST_RETIRED's. The 14 events of the list the CPU has (not
 * L2D_CACHE_REFILL, LL_CACHE_MISS_RD) in three groups of five, five and four in list order; the
 * last group's free counter takes the first other implemented common event, L1I_TLB_REFILL (0x02;
 * 0x00 is SW_INCR, 0x01 L1I_CACHE_REFILL is in the list). Starting group 0 programs its five. */
static void test_n6(void **state)
{
	(void)state;
	model(PMCR_N6, CEID0_MOST, CEID1_MOST);
	armv8_pmuv3_add_defaults(&s);
	static const char *const ev[] = { "INST_RETIRED", "L1D_CACHE_REFILL", "STALL_FRONTEND", "STALL_BACKEND",
					  "BR_MIS_PRED", "MEM_ACCESS", "L1D_CACHE", "L2D_CACHE", "BUS_ACCESS",
					  "L1D_TLB_REFILL", "INST_SPEC", "L1I_CACHE_REFILL", "BR_RETIRED", "LL_CACHE_RD",
					  "L3D_CACHE_REFILL", "L1I_TLB_REFILL" };
	static const char *const left[] = { "L2D_CACHE_REFILL", "LL_CACHE_MISS_RD" };
	static const char *const why[] = { NI, NI };
	expect(ev, 16, left, why, 2);
	static const uint8_t group[] = { 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2 };
	static const uint8_t ctr[] = { 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5 };
	expect_groups(group, ctr, 15, 3);
	/* group 0 programmed and counted: PMEVTYPER<k> = EL1 filter | the event, PMEVCNTR<k> steps k + 1 */
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	static const uint16_t code[] = { 0x08, 0x03, 0x23, 0x24, 0x10, 0x13 };
	for (int k = 0; k < 6; k++)
		assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVTYPER_EL0(k))->value, 0x54000000u | code[k]);
	assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMCNTENSET_EL0)->value, 0x80000000u | 0x3f);   /* C (bit 31) | P0..P5 */
	hw_model_tick(&m, 100);
	assert_int_equal(pmu_armv8_pmuv3.stop(&h, &s), HW_OK);
	for (int k = 0; k < 6; k++) {
		assert_int_equal(s.c[k + 1].state, CTR_COUNTED);
		assert_int_equal(s.c[k + 1].delta, 100u * (uint64_t)(k + 1));
	}
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &s), HW_OK);
	for (int k = 0; k < 6; k++)
		assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVTYPER_EL0(k))->value, EVTYPER_ORIG);
	/* group 2: L1I_CACHE_REFILL 0x01, BR_RETIRED 0x21, LL_CACHE_RD 0x36, L3D_CACHE_REFILL 0x2A,
	 * L1I_TLB_REFILL 0x02 on counters 1-5 */
	s.group = 2;
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	static const uint16_t code2[] = { 0x08, 0x01, 0x21, 0x36, 0x2a, 0x02 };
	for (int k = 0; k < 6; k++)
		assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVTYPER_EL0(k))->value, 0x54000000u | code2[k]);
	pmu_armv8_pmuv3.stop(&h, &s);
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &s), HW_OK);
}

/* N = 6 and every common event 0x00-0x3F implemented: the 16 of the list in groups of 5, 5, 5 and
 * 1, the last group's four free counters taking L1I_TLB_REFILL (0x02), LD_RETIRED (0x06),
 * ST_RETIRED (0x07) and EXC_TAKEN (0x09): four groups (README: 8 copy windows a pass). */
static void test_whole_list_n6(void **state)
{
	(void)state;
	model(PMCR_N6, 0xffffffffull, 0xffffffffull);
	armv8_pmuv3_add_defaults(&s);
	assert_int_equal(s.n, 22);
	assert_int_equal(s.nleft, 0);
	for (int i = 0; i < 16; i++)
		assert_string_equal(s.c[2 + i].event, list[i]);
	static const char *const fill[] = { "L1I_TLB_REFILL", "LD_RETIRED", "ST_RETIRED", "EXC_TAKEN" };
	for (int i = 0; i < 4; i++)
		assert_string_equal(s.c[18 + i].event, fill[i]);
	static const uint8_t group[] = { 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3 };
	static const uint8_t ctr[] = { 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5 };
	expect_groups(group, ctr, 20, 4);
}

/* What QEMU 7.2 -cpu max reports fits N = 6 as before: INST_RETIRED, the two defaults it has,
 * then fillers CPU_CYCLES (0x11) and STALL (0x3C) in event-number order; one group, nothing
 * multiplexed, the other 14 defaults named as not implemented. */
static void test_fits_one_group(void **state)
{
	(void)state;
	model(PMCR_N6, CEID0_QEMU, CEID1_QEMU);
	armv8_pmuv3_add_defaults(&s);
	static const char *const ev[] = { "INST_RETIRED", "STALL_FRONTEND", "STALL_BACKEND", "CPU_CYCLES", "STALL" };
	static const char *const left[] = { "L1D_CACHE_REFILL", "L2D_CACHE_REFILL", "LL_CACHE_MISS_RD", "BR_MIS_PRED",
					    "MEM_ACCESS", "L1D_CACHE", "L2D_CACHE", "BUS_ACCESS", "L1D_TLB_REFILL",
					    "INST_SPEC", "L1I_CACHE_REFILL", "BR_RETIRED", "LL_CACHE_RD", "L3D_CACHE_REFILL" };
	static const char *const why[] = { NI, NI, NI, NI, NI, NI, NI, NI, NI, NI, NI, NI, NI, NI };
	expect(ev, 5, left, why, 14);
	static const uint8_t group[] = { 0, 0, 0, 0 }, ctr[] = { 1, 2, 3, 4 };
	expect_groups(group, ctr, 4, 1);
}

/* N = 2: one event counter besides INST_RETIRED's, so each of the 14 defaults the CPU has is a
 * group of its own on counter 1 (no filler: the last group is full). With topdown = on the six
 * Neoverse V2 inputs come first (main.c), groups 0-5, then the 13 defaults not already there
 * (BR_MIS_PRED is an input) groups 6-18. N = 1: no event counter for any default. */
static void test_n2_and_topdown_first(void **state)
{
	(void)state;
	model(PMCR_N2, CEID0_MOST, CEID1_MOST);
	armv8_pmuv3_add_defaults(&s);
	static const char *const ev[] = { "INST_RETIRED", "L1D_CACHE_REFILL", "STALL_FRONTEND", "STALL_BACKEND",
					  "BR_MIS_PRED", "MEM_ACCESS", "L1D_CACHE", "L2D_CACHE", "BUS_ACCESS",
					  "L1D_TLB_REFILL", "INST_SPEC", "L1I_CACHE_REFILL", "BR_RETIRED", "LL_CACHE_RD",
					  "L3D_CACHE_REFILL" };
	static const char *const left[] = { "L2D_CACHE_REFILL", "LL_CACHE_MISS_RD" };
	static const char *const why[] = { NI, NI };
	expect(ev, 15, left, why, 2);
	static const uint8_t group[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 };
	static const uint8_t one[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	expect_groups(group, one, 14, 14);

	model(PMCR_N2, CEID0_MOST, CEID1_MOST);
	armv8_pmuv3_add_topdown(&s);
	armv8_pmuv3_add_defaults(&s);
	static const char *const ev2[] = { "INST_RETIRED", "STALL_SLOT_FRONTEND", "STALL_SLOT_BACKEND", "STALL_SLOT",
					   "OP_RETIRED", "OP_SPEC", "BR_MIS_PRED", "L1D_CACHE_REFILL", "STALL_FRONTEND",
					   "STALL_BACKEND", "MEM_ACCESS", "L1D_CACHE", "L2D_CACHE", "BUS_ACCESS",
					   "L1D_TLB_REFILL", "INST_SPEC", "L1I_CACHE_REFILL", "BR_RETIRED", "LL_CACHE_RD",
					   "L3D_CACHE_REFILL" };
	expect(ev2, 20, left, why, 2);   /* BR_MIS_PRED, wanted by both, is programmed once */
	static const uint8_t group2[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18 };
	static const uint8_t one2[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	expect_groups(group2, one2, 19, 19);
	for (int i = 2; i < 21; i++)
		assert_int_equal(s.c[i].topdown, i < 8);

	model(PMCR_N1, CEID0_MOST, CEID1_MOST);
	armv8_pmuv3_add_defaults(&s);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.nleft, 16);
	for (int i = 0; i < 16; i++)
		assert_string_equal(s.left[i].why, i == 1 || i == 2 ? NI : NC);
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
		cmocka_unit_test(test_fits_one_group),
		cmocka_unit_test(test_whole_list_n6),
		cmocka_unit_test(test_n2_and_topdown_first),
		cmocka_unit_test(test_fillers),
		cmocka_unit_test(test_fault_at_each_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
