/* SPDX-License-Identifier: BSD-2-Clause */
/* tests/model/hw_model.c: the register model must fault, count and log like the hardware. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/hw_model.h"

#define MSR_PLAIN 0x186u            /* IA32_PERFEVTSEL0 */
#define MSR_RO 0x345u               /* IA32_PERF_CAPABILITIES */
#define MSR_PMC0 0xC1u              /* IA32_PMC0 */
#define MSR_PMC1 0xC2u
#define MSR_FIXED_CTR1 0x30Au       /* IA32_FIXED_CTR1 */
#define MSR_FIXED_CTR_CTRL 0x38Du   /* IA32_FIXED_CTR_CTRL */
#define MSR_GLOBAL_CTRL 0x38Fu      /* IA32_PERF_GLOBAL_CTRL */
#define MSR_MISSING 0xC0010200u
#define SYSREG_PMCCNTR 0xDCE8u      /* an encoding number; the model does not interpret it */
#define SYSREG_PMCR 0xDCE0u
#define SYSREG_MISSING 0x1234u
#define RDPMC_FIXED (1u << 30)

static struct hw_model m;
static struct hw h;

static int setup(void **state)
{
	(void)state;
	hw_model_init(&m);
	h = hw_model_hw(&m);
	return 0;
}

static void test_msr_faults_and_values(void **state)
{
	uint64_t v = 99;
	(void)state;
	assert_int_equal(hw_rdmsr(&h, MSR_MISSING, &v), HW_FAULT_GP);
	assert_int_equal(v, 99);  /* untouched on a fault */
	assert_int_equal(hw_wrmsr(&h, MSR_MISSING, 1), HW_FAULT_GP);

	assert_non_null(hw_model_reg(&m, HWM_MSR, MSR_PLAIN, HWM_PLAIN, 0x1234));
	assert_int_equal(hw_rdmsr(&h, MSR_PLAIN, &v), HW_OK);
	assert_int_equal(v, 0x1234);
	assert_int_equal(hw_wrmsr(&h, MSR_PLAIN, 0x43003c), HW_OK);
	assert_int_equal(hw_rdmsr(&h, MSR_PLAIN, &v), HW_OK);
	assert_int_equal(v, 0x43003c);

	hw_model_reg(&m, HWM_MSR, MSR_RO, HWM_READONLY, 0x4000);
	assert_int_equal(hw_wrmsr(&h, MSR_RO, 0), HW_FAULT_GP);
	assert_int_equal(hw_rdmsr(&h, MSR_RO, &v), HW_OK);
	assert_int_equal(v, 0x4000);

	/* an MSR is not a system register of the same number */
	assert_int_equal(hw_sysreg_read(&h, MSR_PLAIN, &v), HW_FAULT_SYNC);
}

static void test_sysregs(void **state)
{
	uint64_t v;
	(void)state;
	assert_int_equal(hw_sysreg_read(&h, SYSREG_MISSING, &v), HW_FAULT_SYNC);
	assert_int_equal(hw_sysreg_write(&h, SYSREG_MISSING, 1), HW_FAULT_SYNC);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_PMCR, HWM_PLAIN, 0x41023000);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_MISSING, HWM_READONLY, 5);
	assert_int_equal(hw_sysreg_write(&h, SYSREG_PMCR, 0x41023001), HW_OK);
	assert_int_equal(hw_sysreg_read(&h, SYSREG_PMCR, &v), HW_OK);
	assert_int_equal(v, 0x41023001);
	assert_int_equal(hw_sysreg_write(&h, SYSREG_MISSING, 1), HW_FAULT_SYNC);
	assert_int_equal(hw_rdmsr(&h, SYSREG_PMCR, &v), HW_FAULT_GP);
}

static void test_counter_predicates(void **state)
{
	uint64_t v;
	(void)state;
	hw_model_reg(&m, HWM_MSR, MSR_FIXED_CTR_CTRL, HWM_PLAIN, 0);
	hw_model_reg(&m, HWM_MSR, MSR_GLOBAL_CTRL, HWM_PLAIN, 0);
	struct hw_model_reg *c = hw_model_reg(&m, HWM_MSR, MSR_FIXED_CTR1, HWM_COUNTER, 100);
	c->step = 10;
	c->en_id = MSR_FIXED_CTR_CTRL;
	c->en_mask = 0x30;           /* CTR1 enabled at rings 0 and 3 */
	c->en2_id = MSR_GLOBAL_CTRL;
	c->en2_mask = 1ull << 33;    /* PERF_GLOBAL_CTRL.EN_FIXED_CTR1 */
	struct hw_model_reg *free_run = hw_model_reg(&m, HWM_MSR, MSR_PMC1, HWM_COUNTER, 0);
	free_run->step = 1;          /* no predicate: always counts */

	hw_model_tick(&m, 5);
	assert_int_equal(hw_rdmsr(&h, MSR_FIXED_CTR1, &v), HW_OK);
	assert_int_equal(v, 100);    /* neither predicate holds */
	assert_int_equal(free_run->value, 5);

	hw_wrmsr(&h, MSR_FIXED_CTR_CTRL, 0x10);  /* only part of en_mask */
	hw_wrmsr(&h, MSR_GLOBAL_CTRL, 1ull << 33);
	hw_model_tick(&m, 5);
	assert_int_equal(c->value, 100);

	hw_wrmsr(&h, MSR_FIXED_CTR_CTRL, 0x30);
	hw_model_tick(&m, 5);
	assert_int_equal(c->value, 150);

	hw_wrmsr(&h, MSR_GLOBAL_CTRL, 0);  /* second predicate off again */
	hw_model_tick(&m, 5);
	assert_int_equal(c->value, 150);

	/* a predicate on a register that does not exist never holds */
	struct hw_model_reg *orphan = hw_model_reg(&m, HWM_MSR, MSR_PMC0, HWM_COUNTER, 0);
	orphan->step = 1;
	orphan->en_id = MSR_MISSING;
	orphan->en_mask = 1;
	hw_model_tick(&m, 3);
	assert_int_equal(orphan->value, 0);
}

static void test_counter_width_wraps(void **state)
{
	(void)state;
	struct hw_model_reg *c = hw_model_reg(&m, HWM_SYSREG, SYSREG_PMCCNTR, HWM_COUNTER, 0xfffffffe);
	c->step = 3;
	c->width_mask = 0xffffffffull;
	hw_model_tick(&m, 1);
	assert_int_equal(c->value, 1);
	/* many steps at once wrap the same as one at a time */
	c->value = 0;
	c->step = 0x10000;
	hw_model_tick(&m, 0x10001);
	assert_int_equal(c->value, 0x10000);
	/* writes are cut to the width too */
	assert_int_equal(hw_sysreg_write(&h, SYSREG_PMCCNTR, 0x1234567890ull), HW_OK);
	assert_int_equal(c->value, 0x34567890);
}

static void test_rdpmc(void **state)
{
	uint64_t v = 0;
	(void)state;
	hw_model_reg(&m, HWM_MSR, MSR_PMC1, HWM_PLAIN, 111);
	hw_model_reg(&m, HWM_MSR, MSR_FIXED_CTR1, HWM_PLAIN, 222);
	assert_int_equal(hw_rdpmc(&h, 1, &v), HW_FAULT_UD);  /* off until enabled */
	hw_model_rdpmc(&m, 1);
	assert_int_equal(hw_rdpmc(&h, 1, &v), HW_OK);
	assert_int_equal(v, 111);
	assert_int_equal(hw_rdpmc(&h, RDPMC_FIXED | 1, &v), HW_OK);
	assert_int_equal(v, 222);
	assert_int_equal(hw_rdpmc(&h, 0, &v), HW_FAULT_GP);   /* IA32_PMC0 not defined */
	assert_int_equal(hw_rdpmc(&h, RDPMC_FIXED | 2, &v), HW_FAULT_GP);
	hw_model_rdpmc(&m, 0);
	assert_int_equal(hw_rdpmc(&h, 1, &v), HW_FAULT_UD);
}

static void test_cpuid(void **state)
{
	struct hw_cpuid r;
	(void)state;
	hw_model_cpuid(&m, 0xA, 0, 0x07300805, 0, 0, 0x603);
	hw_model_cpuid(&m, 0x4, 1, 1, 2, 3, 4);
	assert_int_equal(hw_cpuid(&h, 0xA, 0, &r), HW_OK);
	assert_int_equal(r.eax, 0x07300805);
	assert_int_equal(r.edx, 0x603);
	assert_int_equal(hw_cpuid(&h, 0x4, 1, &r), HW_OK);
	assert_true(r.eax == 1 && r.ebx == 2 && r.ecx == 3 && r.edx == 4);
	assert_int_equal(hw_cpuid(&h, 0x4, 0, &r), HW_OK);  /* other subleaf: zeros */
	assert_true(r.eax == 0 && r.ebx == 0 && r.ecx == 0 && r.edx == 0);
	hw_model_cpuid(&m, 0xA, 0, 5, 6, 7, 8);  /* redefining replaces */
	assert_int_equal(m.ncpuid, 2);
	hw_cpuid(&h, 0xA, 0, &r);
	assert_int_equal(r.eax, 5);
	for (uint32_t leaf = 0x100; m.ncpuid < HW_MODEL_MAX_CPUID; leaf++)
		hw_model_cpuid(&m, leaf, 0, leaf, 0, 0, 0);
	hw_model_cpuid(&m, 0x999, 0, 1, 1, 1, 1);  /* table full: ignored */
	assert_int_equal(m.ncpuid, HW_MODEL_MAX_CPUID);
	hw_cpuid(&h, 0x999, 0, &r);
	assert_int_equal(r.eax, 0);
}

static void count_call(void *arg) { (*(int *)arg)++; }

static void test_run_on_cpu_and_unsupported(void **state)
{
	int calls = 0;
	uint32_t v32;
	uint64_t v64;
	struct hw_pci_addr pa = { 0, 0, 0, 0 };
	(void)state;
	assert_int_equal(hw_run_on_cpu(&h, 0, count_call, &calls), HW_OK);
	assert_int_equal(hw_run_on_cpu(&h, 1, count_call, &calls), HW_BAD_ARG);
	m.ncpus = 4;
	assert_int_equal(hw_run_on_cpu(&h, 3, count_call, &calls), HW_OK);
	assert_int_equal(hw_run_on_cpu(&h, 4, count_call, &calls), HW_BAD_ARG);
	assert_int_equal(hw_run_on_cpu(&h, 0, NULL, NULL), HW_BAD_ARG);
	assert_int_equal(calls, 2);
	assert_int_equal(hw_mmio_read32(&h, 0x1000, &v32), HW_UNSUPPORTED);
	assert_int_equal(hw_mmio_read64(&h, 0x1000, &v64), HW_UNSUPPORTED);
	assert_int_equal(hw_mmio_write32(&h, 0x1000, 1), HW_UNSUPPORTED);
	assert_int_equal(hw_mmio_write64(&h, 0x1000, 1), HW_UNSUPPORTED);
	assert_int_equal(hw_pci_read32(&h, pa, 0, &v32), HW_UNSUPPORTED);
	assert_int_equal(hw_pci_write32(&h, pa, 0, 1), HW_UNSUPPORTED);
	assert_string_equal(h.ops->name, "model");
}

static void test_write_log(void **state)
{
	(void)state;
	hw_model_reg(&m, HWM_MSR, MSR_PLAIN, HWM_PLAIN, 0);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_PMCR, HWM_PLAIN, 0);
	hw_model_reg(&m, HWM_MSR, MSR_RO, HWM_READONLY, 0);
	hw_wrmsr(&h, MSR_PLAIN, 7);
	hw_wrmsr(&h, MSR_RO, 8);        /* faulted: not logged */
	hw_wrmsr(&h, MSR_MISSING, 9);   /* faulted: not logged */
	hw_sysreg_write(&h, SYSREG_PMCR, 10);
	hw_wrmsr(&h, MSR_PLAIN, 0);
	assert_int_equal(m.nlog, 3);
	assert_true(m.log[0].space == HWM_MSR && m.log[0].id == MSR_PLAIN && m.log[0].value == 7);
	assert_true(m.log[1].space == HWM_SYSREG && m.log[1].id == SYSREG_PMCR && m.log[1].value == 10);
	assert_true(m.log[2].space == HWM_MSR && m.log[2].id == MSR_PLAIN && m.log[2].value == 0);
	for (int i = 0; i < HW_MODEL_MAX_LOG + 10; i++)
		hw_wrmsr(&h, MSR_PLAIN, (uint64_t)i);
	assert_int_equal(m.nlog, HW_MODEL_MAX_LOG);  /* full log stops, writes still happen */
	assert_int_equal(hw_model_find(&m, HWM_MSR, MSR_PLAIN)->value, HW_MODEL_MAX_LOG + 9);
}

static void test_register_table(void **state)
{
	(void)state;
	struct hw_model_reg *r = hw_model_reg(&m, HWM_MSR, MSR_PLAIN, HWM_PLAIN, 1);
	r->step = 5;
	/* redefining replaces kind and value and clears the counter fields */
	assert_ptr_equal(hw_model_reg(&m, HWM_MSR, MSR_PLAIN, HWM_READONLY, 2), r);
	assert_int_equal(m.nregs, 1);
	assert_int_equal(r->kind, HWM_READONLY);
	assert_int_equal(r->value, 2);
	assert_int_equal(r->step, 0);
	assert_null(hw_model_find(&m, HWM_SYSREG, MSR_PLAIN));
	for (uint32_t id = 0x1000; m.nregs < HW_MODEL_MAX_REGS; id++)
		assert_non_null(hw_model_reg(&m, HWM_SYSREG, id, HWM_PLAIN, id));
	assert_null(hw_model_reg(&m, HWM_SYSREG, 0xffff, HWM_PLAIN, 0));
	assert_non_null(hw_model_reg(&m, HWM_SYSREG, 0x1000, HWM_PLAIN, 0));  /* existing: fine */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_msr_faults_and_values, setup),
		cmocka_unit_test_setup(test_sysregs, setup),
		cmocka_unit_test_setup(test_counter_predicates, setup),
		cmocka_unit_test_setup(test_counter_width_wraps, setup),
		cmocka_unit_test_setup(test_rdpmc, setup),
		cmocka_unit_test_setup(test_cpuid, setup),
		cmocka_unit_test_setup(test_run_on_cpu_and_unsupported, setup),
		cmocka_unit_test_setup(test_write_log, setup),
		cmocka_unit_test_setup(test_register_table, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
