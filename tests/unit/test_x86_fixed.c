/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pmu/x86_fixed.c against the register model: probe from CPUID.0AH, the start/stop sequence,
 * deltas modulo the counter width, faults, and that restore() leaves every MSR as found.
 * The model's counters advance only while IA32_PERF_GLOBAL_CTRL[32+i] and the counter's
 * IA32_FIXED_CTR_CTRL enable field are set, as SDM Vol.3B 20.2.2 specifies.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/hw_model.h"
#include "pmu/core/core_counters.h"
#include "arch/regs/x86_msr.h"

#define GLOBAL_ORIG 0x1ull      /* "firmware" left PMC0 enabled: must survive */
#define FIXED_CTRL_ORIG 0x800ull /* PMI bit of fixed counter 2 set by someone else */
#define WIDTH 48

static struct hw_model m;
static struct hw h;

static const uint32_t ctr_msr[3] = { IA32_FIXED_CTR0, IA32_FIXED_CTR1, IA32_FIXED_CTR2 };
static const uint64_t step[3] = { 7, 11, 13 };

static void intel_model(uint32_t version, uint32_t nfixed, uint64_t ctr0_start)
{
	hw_model_init(&m);
	h = hw_model_hw(&m);
	hw_model_cpuid(&m, 0, 0, 0x1b, 0x756e6547, 0x6c65746e, 0x49656e69);
	hw_model_cpuid(&m, CPUID_ARCH_PERFMON, 0, (WIDTH << 16) | (8 << 8) | version, 0, 0,
		       (WIDTH << 5) | nfixed);
	hw_model_reg(&m, HWM_MSR, IA32_PERF_GLOBAL_CTRL, HWM_PLAIN, GLOBAL_ORIG);
	hw_model_reg(&m, HWM_MSR, IA32_FIXED_CTR_CTRL, HWM_PLAIN, FIXED_CTRL_ORIG);
	for (uint32_t i = 0; i < nfixed && i < 3; i++) {
		struct hw_model_reg *r = hw_model_reg(&m, HWM_MSR, ctr_msr[i], HWM_COUNTER, i ? 100 * i : ctr0_start);
		r->step = step[i];
		r->width_mask = (1ull << WIDTH) - 1;
		r->en_id = IA32_PERF_GLOBAL_CTRL;
		r->en_mask = 1ull << (PERF_GLOBAL_CTRL_FIXED_SHIFT + i);
		r->en2_id = IA32_FIXED_CTR_CTRL;
		r->en2_mask = (uint64_t)FIXED_CTR_CTRL_EN_ALL << (FIXED_CTR_CTRL_BITS * i);
	}
}

static uint64_t msr(uint32_t id) { return hw_model_find(&m, HWM_MSR, id)->value; }

static void test_counts_and_restores(void **state)
{
	(void)state;
	intel_model(4, 3, 1000);
	struct core_set s;
	assert_int_equal(core_probe(&h, &s), 0);
	assert_ptr_equal(s.pmu, &pmu_x86_fixed);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.c[0].event, "INST_RETIRED.ANY");
	assert_int_equal(s.pmu->start(&h, &s), HW_OK);
	/* enabled: our fields EN=3, PMI bit of counter 2 cleared only within our field */
	assert_int_equal(msr(IA32_FIXED_CTR_CTRL), 0x333);
	assert_int_equal(msr(IA32_PERF_GLOBAL_CTRL), GLOBAL_ORIG | (7ull << 32));
	hw_model_tick(&m, 10);
	assert_int_equal(s.pmu->stop(&h, &s), HW_OK);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(s.c[i].state, CTR_COUNTED);
		assert_int_equal(s.c[i].delta, 10 * step[i]);
	}
	/* stopped: further ticks do not count */
	uint64_t frozen = msr(IA32_FIXED_CTR0);
	hw_model_tick(&m, 5);
	assert_int_equal(msr(IA32_FIXED_CTR0), frozen);
	assert_int_equal(s.pmu->restore(&h, &s), HW_OK);
	assert_int_equal(msr(IA32_PERF_GLOBAL_CTRL), GLOBAL_ORIG);
	assert_int_equal(msr(IA32_FIXED_CTR_CTRL), FIXED_CTRL_ORIG);
	/* every MSR written was one of the two control registers */
	for (int i = 0; i < m.nlog; i++)
		assert_true(m.log[i].id == IA32_PERF_GLOBAL_CTRL || m.log[i].id == IA32_FIXED_CTR_CTRL);
}

static void test_wraps_at_counter_width(void **state)
{
	(void)state;
	intel_model(4, 3, (1ull << WIDTH) - 20);
	struct core_set s;
	core_probe(&h, &s);
	s.pmu->start(&h, &s);
	hw_model_tick(&m, 10);  /* +70: wraps past 2^48 */
	s.pmu->stop(&h, &s);
	s.pmu->restore(&h, &s);
	assert_int_equal(s.c[0].state, CTR_COUNTED);
	assert_int_equal(s.c[0].delta, 70);
}

static void test_version_below_2_absent(void **state)
{
	(void)state;
	intel_model(1, 0, 0);
	struct core_set s;
	assert_int_equal(core_probe(&h, &s), 0);
	for (int i = 0; i < s.n; i++) {
		assert_int_equal(s.c[i].state, CTR_ABSENT);
		assert_non_null(strstr(s.c[i].why, "perfmon version < 2"));
	}
	/* nothing to program: start writes nothing */
	assert_int_equal(s.pmu->start(&h, &s), HW_OK);
	s.pmu->stop(&h, &s);
	s.pmu->restore(&h, &s);
	assert_int_equal(m.nlog, 0);
}

static void test_fewer_fixed_counters(void **state)
{
	(void)state;
	intel_model(2, 1, 0);
	struct core_set s;
	core_probe(&h, &s);
	assert_int_not_equal(s.c[0].state, CTR_ABSENT);
	assert_int_equal(s.c[1].state, CTR_ABSENT);
	assert_non_null(strstr(s.c[1].why, "1 fixed counters"));
	s.pmu->start(&h, &s);
	assert_int_equal(msr(IA32_PERF_GLOBAL_CTRL), GLOBAL_ORIG | (1ull << 32));
	hw_model_tick(&m, 3);
	s.pmu->stop(&h, &s);
	s.pmu->restore(&h, &s);
	assert_int_equal(s.c[0].delta, 21);
}

static void test_not_advancing_is_not_zero_count(void **state)
{
	(void)state;
	intel_model(4, 3, 0);
	struct core_set s;
	core_probe(&h, &s);
	s.pmu->start(&h, &s);
	s.pmu->stop(&h, &s);  /* no ticks */
	s.pmu->restore(&h, &s);
	for (int i = 0; i < 3; i++)
		assert_int_equal(s.c[i].state, CTR_NOT_ADVANCING);
	assert_string_equal(ctr_state_name(s.c[0].state), "not-advancing");
}

static void test_faulting_control_msr(void **state)
{
	(void)state;
	intel_model(4, 3, 0);
	/* IA32_PERF_GLOBAL_CTRL does not exist (undefined in the model: #GP) */
	m.regs[0].id = 0xFFFF;
	struct core_set s;
	core_probe(&h, &s);
	assert_int_equal(s.pmu->start(&h, &s), HW_FAULT_GP);
	assert_int_equal(s.c[0].state, CTR_FAULTED);
	assert_non_null(strstr(s.c[0].why, "IA32_PERF_GLOBAL_CTRL: #GP"));
	s.pmu->stop(&h, &s);
	assert_int_equal(s.pmu->restore(&h, &s), HW_OK);
	assert_int_equal(m.nlog, 0);  /* nothing was written */
}

/* An exit path between start() and stop(): restore() alone must put everything back. */
static void test_restore_without_stop(void **state)
{
	(void)state;
	intel_model(4, 3, 0);
	struct core_set s;
	core_probe(&h, &s);
	s.pmu->start(&h, &s);
	hw_model_tick(&m, 2);
	assert_int_equal(s.pmu->restore(&h, &s), HW_OK);
	assert_int_equal(msr(IA32_PERF_GLOBAL_CTRL), GLOBAL_ORIG);
	assert_int_equal(msr(IA32_FIXED_CTR_CTRL), FIXED_CTRL_ORIG);
	uint64_t v = msr(IA32_FIXED_CTR0);
	hw_model_tick(&m, 2);
	assert_int_equal(msr(IA32_FIXED_CTR0), v);  /* no longer counting */
	/* restore is idempotent */
	assert_int_equal(s.pmu->restore(&h, &s), HW_OK);
	assert_int_equal(msr(IA32_PERF_GLOBAL_CTRL), GLOBAL_ORIG);
}

static void test_not_x86(void **state)
{
	(void)state;
	hw_model_init(&m);  /* no CPUID leaves: not an x86 CPU */
	h = hw_model_hw(&m);
	struct core_set s = { 0 };
	assert_int_equal(pmu_x86_fixed.probe(&h, &s), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_and_restores),
		cmocka_unit_test(test_wraps_at_counter_width),
		cmocka_unit_test(test_version_below_2_absent),
		cmocka_unit_test(test_fewer_fixed_counters),
		cmocka_unit_test(test_not_advancing_is_not_zero_count),
		cmocka_unit_test(test_faulting_control_msr),
		cmocka_unit_test(test_restore_without_stop),
		cmocka_unit_test(test_not_x86),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
