/* SPDX-License-Identifier: BSD-2-Clause */
/* pmu/saveset.c against the register model: the first value read is the one restored, writes
 * are put back last-first, a failed write-back is kept and named, full sets refuse by status,
 * and injected faults at every access leave every register as found or named as failed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/hw_model.h"
#include "pmu/saveset.h"

static struct hw_model m;
static struct hw h;

static void setup_regs(void)
{
	hw_model_init(&m);
	h = hw_model_hw(&m);
	hw_model_reg(&m, HWM_MSR, 0x186, HWM_PLAIN, 0x1111);
	hw_model_reg(&m, HWM_MSR, 0x187, HWM_PLAIN, 0x2222);
	hw_model_reg(&m, HWM_MSR, 0x38F, HWM_PLAIN, 0x3333);
	hw_model_reg(&m, HWM_SYSREG, 0xDCE0, HWM_PLAIN, 0x4444);
}

static uint64_t val(uint8_t sp, uint32_t id) { return hw_model_find(&m, sp, id)->value; }

static void test_save_write_restore(void **state)
{
	(void)state;
	setup_regs();
	struct saved_reg st[8];
	struct saveset s;
	saveset_init(&s, st, 8);
	uint64_t v = 0;
	assert_int_equal(saveset_save(&h, &s, reg_msr(0x186), &v), HW_OK);
	assert_int_equal(v, 0x1111);
	assert_int_equal(saveset_write(&h, &s, reg_msr(0x186), 0xAAAA), HW_OK);
	assert_int_equal(saveset_write(&h, &s, reg_msr(0x186), 0xBBBB), HW_OK);  /* second write: no re-save */
	assert_int_equal(saveset_write(&h, &s, reg_sysreg(0xDCE0), 0x5), HW_OK);
	assert_int_equal(saveset_save(&h, &s, reg_msr(0x187), NULL), HW_OK);      /* saved, never written */
	assert_int_equal(s.n, 3);
	assert_true(saveset_lookup(&s, reg_msr(0x186), &v));
	assert_int_equal(v, 0x1111);
	assert_false(saveset_lookup(&s, reg_msr(0x38F), NULL));
	assert_int_equal(val(HWM_MSR, 0x186), 0xBBBB);
	int nlog = m.nlog;
	assert_int_equal(saveset_restore(&h, &s), HW_OK);
	assert_int_equal(val(HWM_MSR, 0x186), 0x1111);
	assert_int_equal(val(HWM_SYSREG, 0xDCE0), 0x4444);
	/* last written first: the sysreg (saved second) goes back before MSR 0x186; 0x187 untouched */
	assert_int_equal(m.nlog - nlog, 2);
	assert_int_equal(m.log[nlog].id, 0xDCE0);
	assert_int_equal(m.log[nlog + 1].id, 0x186);
	/* restore again: nothing left to write */
	assert_int_equal(saveset_restore(&h, &s), HW_OK);
	assert_int_equal(m.nlog - nlog, 2);
	struct saveset_report r = { 0 };
	saveset_report_add(&s, &r);
	assert_int_equal(r.status, HW_OK);
	assert_int_equal(r.registers, 3);
	assert_int_equal(r.written, 2);
	assert_int_equal(r.nfailed, 0);
}

static void test_unsaved_register_is_never_written(void **state)
{
	(void)state;
	setup_regs();
	struct saved_reg st[4];
	struct saveset s;
	saveset_init(&s, st, 4);
	/* 0x999 does not exist: #GP on the save read, so no write happens */
	assert_int_equal(saveset_write(&h, &s, reg_msr(0x999), 1), HW_FAULT_GP);
	assert_int_equal(s.n, 0);
	assert_int_equal(m.nlog, 0);
}

static void test_full_set(void **state)
{
	(void)state;
	setup_regs();
	struct saved_reg st[2];
	struct saveset s;
	saveset_init(&s, st, 2);
	assert_int_equal(saveset_write(&h, &s, reg_msr(0x186), 1), HW_OK);
	assert_int_equal(saveset_write(&h, &s, reg_msr(0x187), 2), HW_OK);
	assert_int_equal(saveset_write(&h, &s, reg_msr(0x38F), 3), HW_BAD_ARG);
	assert_int_equal(val(HWM_MSR, 0x38F), 0x3333);   /* refused, not written */
	assert_int_equal(s.dropped, 1);
	assert_int_equal(saveset_restore(&h, &s), HW_OK);
	struct saveset_report r = { 0 };
	saveset_report_add(&s, &r);
	assert_int_equal(r.dropped, 1);
}

static void test_failed_restore_is_named(void **state)
{
	(void)state;
	setup_regs();
	struct saved_reg st[4];
	struct saveset s;
	saveset_init(&s, st, 4);
	assert_int_equal(saveset_write(&h, &s, reg_msr(0x186), 1), HW_OK);
	assert_int_equal(saveset_write(&h, &s, reg_msr(0x38F), 2), HW_OK);
	/* the first write-back (0x38F, last written) fails; 0x186 must still be put back */
	m.fail_at = m.naccess + 1;
	assert_int_equal(saveset_restore(&h, &s), HW_FAULT_GP);
	assert_int_equal(val(HWM_MSR, 0x186), 0x1111);
	assert_int_equal(val(HWM_MSR, 0x38F), 2);
	struct saveset_report r = { 0 };
	saveset_report_add(&s, &r);
	assert_int_equal(r.status, HW_FAULT_GP);
	assert_int_equal(r.nfailed, 1);
	assert_int_equal(r.failed[0].addr, 0x38F);
	assert_int_equal(r.failed_st[0], HW_FAULT_GP);
	char name[40];
	reg_name(r.failed[0], name, sizeof(name));
	assert_string_equal(name, "MSR 0x38f");
	/* a retry puts it back and the report is clean */
	m.fail_at = 0;
	assert_int_equal(saveset_restore(&h, &s), HW_OK);
	assert_int_equal(val(HWM_MSR, 0x38F), 0x3333);
	r = (struct saveset_report){ 0 };
	saveset_report_add(&s, &r);
	assert_int_equal(r.nfailed, 0);
}

static void test_restore_never_ran_is_named(void **state)
{
	(void)state;
	setup_regs();
	struct saved_reg st[4];
	struct saveset s;
	saveset_init(&s, st, 4);
	assert_int_equal(saveset_write(&h, &s, reg_msr(0x187), 9), HW_OK);
	struct saveset_report r = { 0 };
	saveset_report_add(&s, &r);
	assert_int_equal(r.nfailed, 1);
	assert_int_equal(r.status, HW_ERROR);
}

/* A three-register sequence with a fault injected at every access in turn: afterwards every
 * register holds its original value, or the report names it. */
static void sequence(struct saveset *s)
{
	saveset_write(&h, s, reg_msr(0x38F), 0);
	saveset_write(&h, s, reg_msr(0x186), 0x43003C);
	saveset_write(&h, s, reg_msr(0x38F), 1);
	saveset_write(&h, s, reg_msr(0x187), 0x4300C0);
}

static void test_fault_at_every_access(void **state)
{
	(void)state;
	setup_regs();
	struct saved_reg st[8];
	struct saveset s;
	saveset_init(&s, st, 8);
	sequence(&s);
	uint32_t before_restore = m.naccess;
	saveset_restore(&h, &s);
	uint32_t total = m.naccess;
	assert_true(total >= 9);
	for (uint32_t k = 1; k <= total; k++)
		for (int sticky = 0; sticky <= 1; sticky++) {
			setup_regs();
			struct hw_model orig = m;
			m.fail_at = k;
			m.fail_sticky = (uint8_t)sticky;
			saveset_init(&s, st, 8);
			sequence(&s);
			saveset_restore(&h, &s);
			assert_true(m.nfailed >= 1);
			struct saveset_report r = { 0 };
			saveset_report_add(&s, &r);
			int changed = hw_model_plain_diff(&orig, &m, NULL, NULL);
			if (!sticky && k <= before_restore)
				assert_int_equal(changed, 0);  /* one fault before restore: restore repairs all */
			/* every register not as found is named (a write-back that failed after a write
			 * that also failed is named too: efiperf cannot tell, so it says so) */
			assert_true((int)r.nfailed >= changed);
			for (int i = 0; i < m.nregs; i++) {
				if (m.regs[i].value == orig.regs[i].value)
					continue;
				int named = 0;
				for (uint32_t f = 0; f < r.nfailed && f < SAVESET_REPORT_FAILED; f++)
					named |= r.failed[f].addr == m.regs[i].id;
				assert_true(named);
			}
		}
}

static void test_names(void **state)
{
	(void)state;
	char b[48];
	reg_name(reg_sysreg(0xDCE0), b, sizeof(b));
	assert_string_equal(b, "sysreg 0xdce0");
	reg_name(reg_mmio64(0xFE000010ull), b, sizeof(b));
	assert_string_equal(b, "MMIO 0xfe000010");
	struct hw_pci_addr f = { 0, 0x7F, 0x1E, 3 };
	reg_name(reg_pci32(f, 0x94), b, sizeof(b));
	assert_string_equal(b, "PCI 0000:7f:1e.3+0x94");
	assert_false(reg_same(reg_pci32(f, 0x94), reg_pci32((struct hw_pci_addr){ 0, 0x7F, 0x1E, 2 }, 0x94)));
	assert_true(reg_same(reg_msr(0x186), reg_msr(0x186)));
	assert_false(reg_same(reg_msr(0x186), reg_sysreg(0x186)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_write_restore),
		cmocka_unit_test(test_unsaved_register_is_never_written),
		cmocka_unit_test(test_full_set),
		cmocka_unit_test(test_failed_restore_is_named),
		cmocka_unit_test(test_restore_never_ran_is_named),
		cmocka_unit_test(test_fault_at_every_access),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
