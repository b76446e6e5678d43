/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CXL CPMU as a window attachment (efi/measure/cxl_cpmu_attach.c) through the attachment
 * list (efi/measure/attach.c) on the CPMU register model (tests/model/cxl_cpmu_model.c). The
 * register values are written out from CXL 3.1 8.2.7 (Counter Configuration: type [1:0],
 * Enable [8], Threshold [23:16], Events [55:24], Event Group ID Index [63:59]; Freeze at 0x18)
 * and the event codes as Linux drivers/perf/cxl_pmu.c names them (s2m_drs_memdata gid 0x25
 * bit 0, m2s_rwd_memwr gid 0x21 bit 1, clock_ticks gid 0 bit 0): the whole life on one window,
 * the self-check ok when the counts follow the bytes moved and off when the model counts twice,
 * a CPMU that cannot freeze skipped but restored, and a fault at every access with every
 * register put back or named.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/cxl_cpmu_attach.h"
#include "tests/model/cxl_cpmu_model.h"

static struct cxl_cpmu_model m;
static struct hw hw;
static struct cxl_cpmu_attach c;
static struct attachment a;
static struct attach_list l;

#define LINE 64u

static void setup(void)
{
	cxl_cpmu_model_init(&m, 48);
	hw = cxl_cpmu_model_hw(&m);
	memset(&c, 0, sizeof(c));
	c.base = CPMUM_BASE;
	a = (struct attachment){ .ops = &cxl_cpmu_attach_ops, .self = &c };
	l = (struct attach_list){ .a = &a, .n = 1, .hw = &hw };
}

/* One window: reads and writes lines of traffic while the counters run. */
static int window(uint64_t reads, uint64_t writes)
{
	int ready = attach_prepare_all(&l);
	const struct window_counters *wc = attach_counters(&l);
	cxl_cpmu_model_traffic(&m, 9, 9, 9);            /* before start: frozen, not counted */
	wc->start(wc->ctx);
	cxl_cpmu_model_traffic(&m, reads, writes, 4242);
	wc->stop(wc->ctx);
	cxl_cpmu_model_traffic(&m, 7, 7, 7);            /* after stop: not counted */
	c.expected_read = reads * LINE;
	c.expected_write = writes * LINE;
	attach_read_all(&l);
	return ready;
}

static void test_life_and_self_check_ok(void **state)
{
	(void)state;
	setup();
	uint64_t cfg2 = m.cfg[2], cfg3 = m.cfg[3], cfg0 = m.cfg[0];
	assert_int_equal(window(1000, 500), 1);
	assert_ptr_equal(attach_find(&l, "cxl_cpmu"), &a);
	assert_int_equal(a.st, HW_OK);
	/* DRS MemData on configurable counter 2 (group index 4), RwD MemWr on 3 (index 3),
	 * clock ticks on the fixed counter 0; M2S Req MemRd finds no counter left */
	assert_int_equal(m.cfg[2], 0x2ull | 1ull << 8 | 1ull << 16 | 0x1ull << 24 | 4ull << 59);
	assert_int_equal(m.cfg[3], 0x2ull | 1ull << 8 | 1ull << 16 | 0x2ull << 24 | 3ull << 59);
	assert_int_equal(c.set.slot[0].value, 1000);
	assert_int_equal(c.set.slot[1].value, 500);
	assert_int_equal(c.set.slot[2].counter, -1);
	assert_true(c.set.slot[2].why[0] != 0);
	assert_int_equal(c.set.slot[3].value, 4242);
	assert_int_equal(c.check.state, SELF_CHECK_OK);
	assert_int_equal(c.check.counted_read, 64000);
	assert_int_equal(c.check.counted_write, 32000);
	assert_int_equal(c.check.ratio_read_milli, 1000);
	assert_int_equal(attach_restore_all(&l), 0);
	/* as found: configurations, Freeze 0, no failure named */
	assert_int_equal(m.cfg[2], cfg2);
	assert_int_equal(m.cfg[3], cfg3);
	assert_int_equal(m.cfg[0], cfg0);
	assert_int_equal(m.freeze, 0);
	assert_int_equal(c.restore.nfailed, 0);
	assert_true(c.restore.written > 0);
}

static void test_self_check_off_when_doubled(void **state)
{
	(void)state;
	setup();
	m.double_count = 1;
	window(1000, 500);
	assert_int_equal(c.check.state, SELF_CHECK_OFF);
	assert_int_equal(c.check.ratio_read_milli, 2000);
	assert_int_equal(c.check.ratio_write_milli, 2000);
	assert_int_equal(attach_restore_all(&l), 0);
}

static void test_no_freeze_skipped_and_restored(void **state)
{
	(void)state;
	setup();
	m.cap &= ~(1ull << 49);   /* Counter Freeze Support 0 */
	assert_int_equal(window(10, 10), 0);
	assert_int_equal(a.st, HW_UNSUPPORTED);
	assert_string_equal(a.why, "counters cannot be frozen (Counter Freeze Support 0)");
	assert_int_equal(m.writes, 0);            /* probing reads only; start/stop skipped */
	assert_int_equal(c.check.state, SELF_CHECK_OK);   /* zeroed: read never ran (0 = ok is no claim) */
	assert_int_equal(c.check.expected_read, 0);
	assert_int_equal(attach_restore_all(&l), 0);
	assert_int_equal(c.restore.written, 0);
}

static void test_fault_every_access(void **state)
{
	(void)state;
	setup();
	uint64_t first = m.accesses;
	window(100, 100);
	attach_restore_all(&l);
	uint64_t total = m.accesses - first;
	assert_true(total > 20);
	for (uint64_t k = 1; k <= total; k++) {
		setup();
		struct cxl_cpmu_model before = m;
		m.fault_at = m.accesses + k;
		window(100, 100);
		int rrc = attach_restore_all(&l);
		if (a.st != HW_OK)
			assert_non_null(a.why);
		struct { uint64_t addr, was, now; int wide; } regs[1 + 3 * CPMUM_NCTR];
		int nr = 0;
		regs[nr++] = (typeof(regs[0])){ CPMUM_BASE + 0x18, before.freeze, m.freeze, 1 };
		for (int n = 0; n < CPMUM_NCTR; n++) {
			regs[nr++] = (typeof(regs[0])){ CPMUM_BASE + 0x200 + 8u * n, before.cfg[n], m.cfg[n], 1 };
			regs[nr++] = (typeof(regs[0])){ CPMUM_BASE + 0x400 + 32u * n, before.filter[n][0], m.filter[n][0], 0 };
			if (n != 1)   /* the free-running counter moves by itself */
				regs[nr++] = (typeof(regs[0])){ CPMUM_BASE + 0xC00 + 8u * n, before.ctr[n], m.ctr[n], 1 };
		}
		int changed = 0;
		for (int i = 0; i < nr; i++) {
			if (regs[i].was == regs[i].now)
				continue;
			changed++;
			int named = 0;
			struct reg_ref r = regs[i].wide ? reg_mmio64(regs[i].addr) : reg_mmio32(regs[i].addr);
			for (uint32_t f = 0; f < c.restore.nfailed && f < SAVESET_REPORT_FAILED; f++)
				named |= reg_same(c.restore.failed[f], r);
			if (!named)
				fail_msg("fault at access %llu: register 0x%llx is 0x%llx, was 0x%llx, not named",
					 (unsigned long long)k, (unsigned long long)regs[i].addr,
					 (unsigned long long)regs[i].now, (unsigned long long)regs[i].was);
		}
		if (changed)
			assert_int_equal(rrc, -1);
		assert_int_equal(m.overflow, before.overflow);   /* RW1C: never written */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_life_and_self_check_ok),
		cmocka_unit_test(test_self_check_off_when_doubled),
		cmocka_unit_test(test_no_freeze_skipped_and_restored),
		cmocka_unit_test(test_fault_every_access),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
