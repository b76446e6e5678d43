/* SPDX-License-Identifier: BSD-2-Clause */
/* pmu/armv8_pmuv3.c against the register model: probe, start/stop deltas, restore. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/hw_model.h"
#include "pmu/core/core_counters.h"
#include "arch/regs/arm_sysreg.h"

/* QEMU -cpu max: PMCR_EL0 = 0x41013000 (IMP 0x41, IDCODE 0x01, N = 6). D set here so the test
 * sees start() clear it and restore() put it back. */
#define PMCR_ORIG (0x41013000u | 0x8u)  /* | D (bit 3) */
#define CNTEN_ORIG 0x2u                   /* "firmware" left event counter 1 enabled (P1, bit 1) */
#define CCFILTR_ORIG 0x08000000u
#define EVTYPER0_ORIG 0x11u
#define CYC_STEP 3
#define INST_STEP 2
/* The expected values below are typed from the Arm ARM (DDI 0487), not taken from
 * arch/regs/arm_sysreg.h, so a wrong bit there fails here (tests/unit/test_regs_oracle.c checks
 * the header's constants themselves): D23 PMCR_EL0: E [0], P [1], C [2], D [3], LC [6], LP [7],
 * N [15:11]; PMEVTYPER<n>_EL0: P [31], U [30], NSK [29], evtCount [15:0] (PMUv3p1);
 * PMCNTENSET_EL0: C [31], P<n> [n]; common events INST_RETIRED 0x08, CPU_CYCLES 0x11. */
#define LIT_PMCR_E  0x1u
#define LIT_PMCR_P  0x2u
#define LIT_PMCR_C  0x4u
#define LIT_PMCR_D  0x8u
#define LIT_PMCR_LC 0x40u
#define LIT_PMCR_LP 0x80u
#define LIT_EVT_P   0x80000000u
#define LIT_EVT_U   0x40000000u
#define LIT_EVT_NSK 0x20000000u
#define LIT_CNTEN_C 0x80000000u
#define LIT_INST_RETIRED 0x08u
#define LIT_CPU_CYCLES   0x11u
#define PMCEID0_BOTH ((1u << LIT_INST_RETIRED) | (1u << LIT_CPU_CYCLES))

/* CurrentEL values (Arm ARM D23.2 CurrentEL: EL in bits [3:2]). */
#define CURRENTEL_EL1 0x4u
#define CURRENTEL_EL2 0x8u
/* PMEVTYPER<n>_EL0 / PMCCFILTR_EL0 bit 27 NSH (Arm ARM D23 PMEVTYPER<n>_EL0), typed here. */
#define NSH_BIT 0x08000000u
/* MDCR_EL2 as a firmware might leave it: HPMN = 4 (bits [4:0]), HPMD (bit 17) clear, HCCD
 * (bit 23) set (Arm ARM D23.2 MDCR_EL2). */
#define MDCR_HPMN4_HCCD 0x00800004u
#define MDCR_HPMD       0x00020006u

static struct hw_model m;
static struct hw h;
static struct core_set s;

static void arm_model(uint32_t pmuver, uint64_t pmcr, uint64_t pmceid0)
{
	hw_model_init(&m);
	h = hw_model_hw(&m);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_ID_AA64DFR0_EL1, HWM_READONLY,
		     0x10305000ull | ((uint64_t)pmuver << ID_AA64DFR0_EL1_PMUVer_SHIFT) | 0x9);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_PMCR_EL0, HWM_PLAIN, pmcr);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_PMCEID0_EL0, HWM_READONLY, pmceid0);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_PMCNTENSET_EL0, HWM_PLAIN, CNTEN_ORIG);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_PMCNTENCLR_EL0, HWM_PLAIN, CNTEN_ORIG);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_PMCCFILTR_EL0, HWM_PLAIN, CCFILTR_ORIG);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_PMEVTYPER0_EL0, HWM_PLAIN, EVTYPER0_ORIG);
	struct hw_model_reg *r = hw_model_reg(&m, HWM_SYSREG, SYSREG_PMCCNTR_EL0, HWM_COUNTER, 1000);
	r->step = CYC_STEP;
	r->en_id = SYSREG_PMCR_EL0;
	r->en_mask = LIT_PMCR_E;
	r->en2_id = SYSREG_PMCNTENSET_EL0;
	r->en2_mask = LIT_CNTEN_C;
	r = hw_model_reg(&m, HWM_SYSREG, SYSREG_PMEVCNTR0_EL0, HWM_COUNTER, 500);
	r->step = INST_STEP;
	r->width_mask = pmuver >= PMUVer_V3P5 ? 0 : 0xffffffffull;
	r->en_id = SYSREG_PMCR_EL0;
	r->en_mask = LIT_PMCR_E;
	r->en2_id = SYSREG_PMCNTENSET_EL0;
	r->en2_mask = 0x1u;
	memset(&s, 0, sizeof(s));
}

/* The same CPU with CurrentEL (and at EL2 MDCR_EL2) readable. */
static void arm_model_el(uint32_t currentel, uint64_t mdcr)
{
	arm_model(PMUVer_V3P5, PMCR_ORIG, PMCEID0_BOTH);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_CurrentEL, HWM_READONLY, currentel);
	if (currentel == CURRENTEL_EL2)
		hw_model_reg(&m, HWM_SYSREG, SYSREG_MDCR_EL2, HWM_PLAIN, mdcr);
}

static uint64_t reg(uint32_t enc)
{
	return hw_model_find(&m, HWM_SYSREG, enc)->value;
}

/* Last value written to enc since log entry `from`, or `none` when it was not written. */
static uint64_t last_write(uint32_t enc, int from, uint64_t none)
{
	uint64_t v = none;
	for (int i = from; i < m.nlog; i++)
		if (m.log[i].space == HWM_SYSREG && m.log[i].id == enc)
			v = m.log[i].value;
	return v;
}

static int written(uint32_t enc)
{
	return last_write(enc, 0, 0xdead) != 0xdead || last_write(enc, 0, 0xbeef) != 0xbeef;
}

/* The count-enable mask the hardware would hold after log entries [0, upto): PMCNTENSET
 * writes set bits, PMCNTENCLR writes clear them (the model stores both as plain values). */
static uint64_t enable_state(uint64_t orig, int upto)
{
	for (int i = 0; i < upto && i < m.nlog; i++) {
		if (m.log[i].id == SYSREG_PMCNTENSET_EL0)
			orig |= m.log[i].value;
		else if (m.log[i].id == SYSREG_PMCNTENCLR_EL0)
			orig &= ~m.log[i].value;
	}
	return orig;
}

static void test_not_aarch64(void **state)
{
	(void)state;
	hw_model_init(&m);           /* no system registers: ID_AA64DFR0_EL1 faults */
	h = hw_model_hw(&m);
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), -1);
	static const struct hw_ops none = { .name = "no-sysreg" };  /* x86: HW_UNSUPPORTED */
	struct hw x = { .ops = &none };
	assert_int_equal(pmu_armv8_pmuv3.probe(&x, &s), -1);
	assert_non_null(strstr(s.probe, "unsupported"));
}

static void test_pmuver_absent(void **state)
{
	(void)state;
	static const uint32_t vers[] = { PMUVer_NI, PMUVer_IMPDEF };
	for (unsigned k = 0; k < 2; k++) {
		arm_model(vers[k], PMCR_ORIG, PMCEID0_BOTH);
		assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
		assert_int_equal(s.n, 2);
		for (int i = 0; i < s.n; i++) {
			assert_int_equal(s.c[i].state, CTR_ABSENT);
			assert_non_null(strstr(s.c[i].why, "ID_AA64DFR0_EL1.PMUVer"));
		}
		assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
		assert_int_equal(m.nlog, 0);  /* nothing to count: nothing written */
		assert_int_equal(pmu_armv8_pmuv3.restore(&h, &s), HW_OK);
	}
}

static void test_probe_v3p5(void **state)
{
	(void)state;
	arm_model(PMUVer_V3P5, PMCR_ORIG, PMCEID0_BOTH);
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	assert_ptr_equal(s.pmu, &pmu_armv8_pmuv3);
	assert_int_equal(s.version, PMUVer_V3P5);
	assert_int_equal(s.ngp, 6);
	assert_string_equal(s.c[0].event, "CPU_CYCLES");
	assert_string_equal(s.c[1].event, "INST_RETIRED");
	assert_int_equal(s.c[0].state, CTR_COUNTED);   /* 0 = not marked absent */
	assert_int_equal(s.c[1].state, CTR_COUNTED);
	assert_true(s.c[1].width_mask == ~0ull);       /* 64-bit event counters with LP */
	assert_non_null(strstr(s.probe, "PMUv3p5"));
	assert_non_null(strstr(s.probe, "6 counters"));
}

static void test_start_stop_deltas(void **state)
{
	(void)state;
	arm_model(PMUVer_V3P5, PMCR_ORIG, PMCEID0_BOTH);
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	hw_model_tick(&m, 50);        /* not enabled yet: must not count */
	assert_int_equal(reg(SYSREG_PMCCNTR_EL0), 1000);
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	assert_true(s.started);
	uint64_t pmcr = reg(SYSREG_PMCR_EL0);
	assert_true(pmcr & LIT_PMCR_E);
	assert_true(pmcr & LIT_PMCR_LC);
	assert_true(pmcr & LIT_PMCR_LP);
	assert_false(pmcr & (LIT_PMCR_D | LIT_PMCR_P | LIT_PMCR_C));
	assert_int_equal((pmcr >> 11) & 0x1f, 6);
	/* INST_RETIRED, counting EL1 (P = NSK = 0), not EL0 / EL3; no CurrentEL in this model:
	 * EL1 assumed, so EL2 is left alone (NSH = 0) */
	uint64_t ev = reg(SYSREG_PMEVTYPER0_EL0);
	assert_int_equal(ev & 0xffff, LIT_INST_RETIRED);
	assert_false(ev & (LIT_EVT_P | LIT_EVT_NSK));
	assert_false(ev & NSH_BIT);
	assert_non_null(strstr(s.els, "EL1 assumed"));
	assert_true(ev & LIT_EVT_U);
	assert_int_equal(reg(SYSREG_PMCCFILTR_EL0), ev & ~(uint64_t)0xffff);
	assert_int_equal(enable_state(CNTEN_ORIG, m.nlog), CNTEN_ORIG | LIT_CNTEN_C | 0x1u);

	hw_model_tick(&m, 1000);
	assert_int_equal(pmu_armv8_pmuv3.stop(&h, &s), HW_OK);
	assert_int_equal(s.c[0].state, CTR_COUNTED);
	assert_int_equal(s.c[0].delta, 1000 * CYC_STEP);
	assert_int_equal(s.c[1].state, CTR_COUNTED);
	assert_int_equal(s.c[1].delta, 1000 * INST_STEP);
	/* stop disables what start enabled, and only that */
	assert_int_equal(enable_state(CNTEN_ORIG, m.nlog), CNTEN_ORIG);
}

static void test_32bit_event_counter_wraps(void **state)
{
	(void)state;
	arm_model(PMUVer_V3P1, PMCR_ORIG, PMCEID0_BOTH);
	hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVCNTR0_EL0)->value = 0xffffff00u;
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	assert_int_equal(s.c[1].width_mask, 0xffffffffull);
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	assert_false(reg(SYSREG_PMCR_EL0) & LIT_PMCR_LP);  /* LP is RES0 before PMUv3p5 */
	hw_model_tick(&m, 1000);
	assert_int_equal(pmu_armv8_pmuv3.stop(&h, &s), HW_OK);
	assert_true(s.c[1].after < s.c[1].before);         /* it wrapped */
	assert_int_equal(s.c[1].delta, 1000 * INST_STEP);
}

static void test_inst_retired_not_implemented(void **state)
{
	(void)state;
	arm_model(PMUVer_V3P4, PMCR_ORIG, 1u << LIT_CPU_CYCLES);  /* bit 8 clear */
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	assert_int_equal(s.c[1].state, CTR_ABSENT);
	assert_non_null(strstr(s.c[1].why, "PMCEID0_EL0[8]"));
	assert_int_not_equal(s.c[0].state, CTR_ABSENT);
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	hw_model_tick(&m, 10);
	assert_int_equal(pmu_armv8_pmuv3.stop(&h, &s), HW_OK);
	assert_int_equal(s.c[0].delta, 10 * CYC_STEP);
	assert_int_equal(s.c[1].state, CTR_ABSENT);
	assert_false(written(SYSREG_PMEVTYPER0_EL0));      /* absent counter left alone */
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &s), HW_OK);
}

static void test_no_event_counters(void **state)
{
	(void)state;
	arm_model(PMUVer_V3, PMCR_ORIG & ~(uint64_t)(0x1fu << 11),
		  PMCEID0_BOTH);
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	assert_int_equal(s.ngp, 0);
	assert_int_equal(s.c[1].state, CTR_ABSENT);
	assert_non_null(strstr(s.c[1].why, "PMCR_EL0.N=0"));
}

static void test_not_advancing(void **state)
{
	(void)state;
	arm_model(PMUVer_V3P5, PMCR_ORIG, PMCEID0_BOTH);
	hw_model_find(&m, HWM_SYSREG, SYSREG_PMEVCNTR0_EL0)->step = 0;
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	hw_model_tick(&m, 100);
	assert_int_equal(pmu_armv8_pmuv3.stop(&h, &s), HW_OK);
	assert_int_equal(s.c[1].state, CTR_NOT_ADVANCING);
	assert_int_equal(s.c[0].state, CTR_COUNTED);
}

/* Every register start() wrote is back to its original value after restore(), the enable
 * pair folded as the hardware would, and a second restore() writes nothing. */
static void test_restore_puts_everything_back(void **state)
{
	(void)state;
	arm_model(PMUVer_V3P5, PMCR_ORIG, PMCEID0_BOTH);
	struct hw_model before = m;
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	assert_int_equal(m.nlog, 0);                       /* probe only reads */
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	hw_model_tick(&m, 7);
	assert_int_equal(pmu_armv8_pmuv3.stop(&h, &s), HW_OK);
	int mid = m.nlog;
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &s), HW_OK);
	assert_true(m.nlog > mid);
	assert_false(s.started);

	for (int i = 0; i < m.nlog; i++) {
		uint32_t id = m.log[i].id;
		if (id == SYSREG_PMCNTENSET_EL0 || id == SYSREG_PMCNTENCLR_EL0)
			continue;
		const struct hw_model_reg *orig = hw_model_find(&before, HWM_SYSREG, id);
		assert_non_null(orig);
		assert_int_equal(reg(id), orig->value);
	}
	assert_int_equal(enable_state(CNTEN_ORIG, m.nlog), CNTEN_ORIG);
	assert_int_equal(reg(SYSREG_PMCNTENSET_EL0), CNTEN_ORIG);
	assert_int_equal(reg(SYSREG_PMCR_EL0), PMCR_ORIG);
	assert_int_equal(reg(SYSREG_PMEVTYPER0_EL0), EVTYPER0_ORIG);
	assert_int_equal(reg(SYSREG_PMCCFILTR_EL0), CCFILTR_ORIG);
	/* restored in reverse order of first write: PMCR_EL0 last */
	assert_int_equal(m.log[m.nlog - 1].id, SYSREG_PMCR_EL0);

	int n = m.nlog;
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &s), HW_OK);
	assert_int_equal(m.nlog, n);
}

/* An exit path that never reached stop(): restore() alone must disable what start() enabled. */
static void test_restore_without_stop(void **state)
{
	(void)state;
	arm_model(PMUVer_V3P5, PMCR_ORIG, PMCEID0_BOTH);
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	assert_int_equal(enable_state(CNTEN_ORIG, m.nlog), CNTEN_ORIG | LIT_CNTEN_C | 0x1u);
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &s), HW_OK);
	assert_int_equal(enable_state(CNTEN_ORIG, m.nlog), CNTEN_ORIG);
	assert_int_equal(reg(SYSREG_PMCR_EL0), PMCR_ORIG);
}

static void test_start_fault_marks_and_restores(void **state)
{
	(void)state;
	arm_model(PMUVer_V3P5, PMCR_ORIG, PMCEID0_BOTH);
	/* PMCCFILTR_EL0 readable but not writable: the write faults mid-start */
	hw_model_find(&m, HWM_SYSREG, SYSREG_PMCCFILTR_EL0)->kind = HWM_READONLY;
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_FAULT_SYNC);
	assert_int_equal(s.c[0].state, CTR_FAULTED);
	assert_int_equal(s.c[0].fault, HW_FAULT_SYNC);
	assert_non_null(strstr(s.c[0].why, "PMCCFILTR_EL0"));
	assert_true(s.started);
	pmu_armv8_pmuv3.restore(&h, &s);
	assert_int_equal(reg(SYSREG_PMCR_EL0), PMCR_ORIG);
	assert_int_equal(enable_state(CNTEN_ORIG, m.nlog), CNTEN_ORIG);
}

/* At EL1: NSH clear in both filters, MDCR_EL2 never accessed, `els` says EL1. */
static void test_el1_leaves_el2_alone(void **state)
{
	(void)state;
	arm_model_el(CURRENTEL_EL1, 0);
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	assert_int_equal(s.el, 1);
	assert_string_equal(s.els, "EL1");
	assert_false(s.mdcr_read);
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	assert_int_equal(reg(SYSREG_PMEVTYPER0_EL0) & NSH_BIT, 0);
	assert_int_equal(reg(SYSREG_PMCCFILTR_EL0) & NSH_BIT, 0);
	pmu_armv8_pmuv3.stop(&h, &s);
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &s), HW_OK);
	for (int i = 0; i < m.nlog; i++)
		assert_int_not_equal(m.log[i].id, SYSREG_MDCR_EL2);
}

/* At EL2: NSH set in both filters, MDCR_EL2 read (never written) and recorded, HCCD named;
 * with HPMD the record says EL2 event counting is prohibited. Everything restored. */
static void test_el2_sets_nsh_and_reads_mdcr(void **state)
{
	(void)state;
	arm_model_el(CURRENTEL_EL2, MDCR_HPMN4_HCCD);
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	assert_int_equal(s.el, 2);
	assert_true(s.mdcr_read);
	assert_int_equal(s.mdcr_el2, MDCR_HPMN4_HCCD);
	assert_non_null(strstr(s.els, "EL1, EL2"));
	assert_non_null(strstr(s.els, "HCCD"));
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &s), HW_OK);
	assert_int_equal(reg(SYSREG_PMEVTYPER0_EL0) & NSH_BIT, NSH_BIT);
	assert_int_equal(reg(SYSREG_PMCCFILTR_EL0) & NSH_BIT, NSH_BIT);
	hw_model_tick(&m, 10);
	assert_int_equal(pmu_armv8_pmuv3.stop(&h, &s), HW_OK);
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &s), HW_OK);
	assert_int_equal(reg(SYSREG_PMCR_EL0), PMCR_ORIG);
	assert_int_equal(reg(SYSREG_PMEVTYPER0_EL0), EVTYPER0_ORIG);
	assert_int_equal(reg(SYSREG_PMCCFILTR_EL0), CCFILTR_ORIG);
	assert_int_equal(reg(SYSREG_MDCR_EL2), MDCR_HPMN4_HCCD);
	for (int i = 0; i < m.nlog; i++)
		assert_int_not_equal(m.log[i].id, SYSREG_MDCR_EL2);

	arm_model_el(CURRENTEL_EL2, MDCR_HPMD);
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &s), 0);
	assert_non_null(strstr(s.els, "prohibited by MDCR_EL2.HPMD"));
}

/* A fault injected at each access of probe + start + stop + restore, at EL1 and at EL2, once
 * and sticky: never a crash, every register the run wrote is back or named failed, and NSH is
 * never left set at EL1. */
static void test_fault_at_each_step(void **state)
{
	(void)state;
	static const uint32_t els[] = { CURRENTEL_EL1, CURRENTEL_EL2 };
	for (unsigned e = 0; e < 2; e++) {
		arm_model_el(els[e], MDCR_HPMN4_HCCD);
		pmu_armv8_pmuv3.probe(&h, &s);
		pmu_armv8_pmuv3.start(&h, &s);
		pmu_armv8_pmuv3.stop(&h, &s);
		pmu_armv8_pmuv3.restore(&h, &s);
		uint32_t total = m.naccess;
		assert_true(total > 8);
		for (int sticky = 0; sticky < 2; sticky++)
			for (uint32_t at = 1; at <= total; at++) {
				arm_model_el(els[e], MDCR_HPMN4_HCCD);
				m.fail_at = at;
				m.fail_sticky = (uint8_t)sticky;
				m.fail_status = HW_FAULT_SYNC;
				pmu_armv8_pmuv3.probe(&h, &s);
				pmu_armv8_pmuv3.start(&h, &s);
				pmu_armv8_pmuv3.stop(&h, &s);
				hw_status rs = pmu_armv8_pmuv3.restore(&h, &s);
				m.fail_at = 0;
				m.fail_sticky = 0;
				int failed = rs != HW_OK || s.restore.nfailed;
				if (!failed) {
					assert_int_equal(reg(SYSREG_PMCR_EL0), PMCR_ORIG);
					assert_int_equal(reg(SYSREG_PMEVTYPER0_EL0), EVTYPER0_ORIG);
					assert_int_equal(reg(SYSREG_PMCCFILTR_EL0), CCFILTR_ORIG);
					assert_int_equal(enable_state(CNTEN_ORIG, m.nlog), CNTEN_ORIG);
				}
				if (els[e] == CURRENTEL_EL1 && !sticky)
					for (int i = 0; i < m.nlog; i++)
						if (m.log[i].id == SYSREG_PMEVTYPER0_EL0 && m.log[i].value != EVTYPER0_ORIG)
							assert_int_equal(m.log[i].value & NSH_BIT, 0);
				for (int i = 0; i < m.nlog; i++)   /* MDCR_EL2 is only ever read */
					assert_int_not_equal(m.log[i].id, SYSREG_MDCR_EL2);
			}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_aarch64),
		cmocka_unit_test(test_pmuver_absent),
		cmocka_unit_test(test_probe_v3p5),
		cmocka_unit_test(test_start_stop_deltas),
		cmocka_unit_test(test_32bit_event_counter_wraps),
		cmocka_unit_test(test_inst_retired_not_implemented),
		cmocka_unit_test(test_no_event_counters),
		cmocka_unit_test(test_not_advancing),
		cmocka_unit_test(test_restore_puts_everything_back),
		cmocka_unit_test(test_restore_without_stop),
		cmocka_unit_test(test_start_fault_marks_and_restores),
		cmocka_unit_test(test_el1_leaves_el2_alone),
		cmocka_unit_test(test_el2_sets_nsh_and_reads_mdcr),
		cmocka_unit_test(test_fault_at_each_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
