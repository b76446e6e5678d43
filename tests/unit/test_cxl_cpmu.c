/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CXL CPMU (pmu/uncore/cxl_cpmu.c) on the register model (tests/model/cxl_cpmu_model.c). The
 * expected register values are written as CXL 3.1 8.2.7 gives the fields (Counter Configuration:
 * type [1:0], Enable [8], Threshold [23:16], Events [55:24], Event Group ID Index [63:59];
 * Filter Configuration 0 = HDM decoders, 0xFFFFFFFF none) and the event codes as Linux
 * drivers/perf/cxl_pmu.c names them (s2m_drs_memdata = gid 0x25 bit 0, m2s_rwd_memwr = gid 0x21
 * bit 1, s2m_ndr_cmp = gid 0x24 bit 0, clock_ticks = gid 0 bit 0): counter layouts of each
 * kind, overflow, freeze, fixed counters, filters, the self-check ok/off, and a fault injected
 * at every access with every register restored or named.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/uncore/cxl_cpmu.h"
#include "tests/model/cxl_cpmu_model.h"

static struct cxl_cpmu_model m;
static struct cxl_cpmu pmu;
static struct cxl_cpmu_set set;
static struct saved_reg store[64];
static struct saveset ss;
static struct hw hw;

static const struct cxl_cpmu_event ev_clock = { 0x1E98, 0x0000, 0x1, 0, 0 };
static const struct cxl_cpmu_event ev_ndr_cmp = { 0x1E98, 0x0024, 0x1, 0, 0 };
static const struct cxl_cpmu_event ev_drs_memdata = { 0x1E98, 0x0025, 0x1, 0, 0 };
static const struct cxl_cpmu_event ev_rwd_memwr = { 0x1E98, 0x0021, 0x2, 0, 0 };

static void setup(unsigned width)
{
	cxl_cpmu_model_init(&m, width);
	hw = cxl_cpmu_model_hw(&m);
	saveset_init(&ss, store, 64);
	assert_int_equal(cxl_cpmu_probe(&hw, CPMUM_BASE, &pmu), 0);
}

static void program4(void)
{
	const struct cxl_cpmu_event ev[] = { ev_clock, ev_drs_memdata, ev_rwd_memwr, ev_ndr_cmp };
	assert_int_equal(cxl_cpmu_program(&hw, &pmu, ev, 4, &set, &ss), 0);
}

static void test_probe_layout(void **state)
{
	(void)state;
	setup(48);
	assert_int_equal(pmu.ncounters, 4);
	assert_int_equal(pmu.width, 48);
	assert_int_equal(pmu.nevcaps, 5);
	assert_int_equal(pmu.filters, 1);
	assert_int_equal(pmu.version, 1);
	assert_true(pmu.freeze && pmu.writable_frozen);
	assert_int_equal(pmu.ctr[0].type, CXL_CPMU_FIXED);
	assert_int_equal(pmu.ctr[1].type, CXL_CPMU_FREE_RUNNING);
	assert_int_equal(pmu.ctr[2].type, CXL_CPMU_CONFIGURABLE);
	assert_int_equal(pmu.evcap[3].vid, 0x1E98);
	assert_int_equal(pmu.evcap[3].gid, 0x21);
	assert_int_equal(pmu.evcap[3].supported, 0x3F);
	assert_true(pmu.evcap[0].fixed_only);
	assert_false(pmu.evcap[4].fixed_only);
	assert_int_equal(m.writes, 0);             /* probing only reads */
	/* a CPMU that cannot freeze is refused, as Linux refuses it */
	m.cap &= ~(1ull << 49);
	assert_int_equal(cxl_cpmu_probe(&hw, CPMUM_BASE, &pmu), -1);
	assert_string_equal(pmu.why, "counters cannot be frozen (Counter Freeze Support 0)");
}

static void test_program_registers(void **state)
{
	(void)state;
	setup(48);
	program4();
	assert_int_equal(set.slot[0].counter, 0);   /* clock: the fixed counter */
	assert_int_equal(set.slot[1].counter, 2);   /* DRS MemData: configurable, group index 4 */
	assert_int_equal(set.slot[2].counter, 3);   /* RwD MemWr: configurable, group index 3 */
	assert_int_equal(set.slot[3].counter, 1);   /* NDR Cmp: the free-running counter */
	assert_int_equal(m.cfg[2], 0x2ull | 1ull << 8 | 1ull << 16 | 0x1ull << 24 | 4ull << 59);
	assert_int_equal(m.cfg[3], 0x2ull | 1ull << 8 | 1ull << 16 | 0x2ull << 24 | 3ull << 59);
	assert_int_equal(m.cfg[0], 0x1ull | 1ull << 8 | 1ull << 16 | 0x1ull << 24);   /* fixed: Events stay */
	assert_int_equal(m.cfg[1], 0x0ull | 0x1ull << 24 | 1ull << 59);               /* free-running: untouched */
	assert_int_equal(m.filter[2][0], 0xFFFFFFFFu);
	assert_int_equal(m.freeze, 0xD);            /* counters 0, 2, 3 frozen; free-running 1 not ours to freeze */
}

static void test_counts_and_self_check(void **state)
{
	(void)state;
	setup(48);
	program4();
	cxl_cpmu_model_traffic(&m, 5, 5, 5);        /* frozen: nothing counts but the free-running one */
	assert_int_equal(m.ctr[2], 0);
	assert_int_equal(cxl_cpmu_start(&hw, &set, &ss), 0);
	assert_int_equal(m.freeze, 0);
	cxl_cpmu_model_traffic(&m, 1000, 500, 7777);
	assert_int_equal(cxl_cpmu_stop(&hw, &set, &ss), 0);
	cxl_cpmu_model_traffic(&m, 300, 300, 300);  /* after stop: frozen again */
	assert_int_equal(cxl_cpmu_read(&hw, &set), 0);
	assert_int_equal(set.slot[0].value, 7777);
	assert_int_equal(set.slot[1].value, 1000);
	assert_int_equal(set.slot[2].value, 500);
	assert_int_equal(set.slot[3].value, 500);   /* free-running: the window's delta only */
	struct self_check sc;
	cxl_cpmu_self_check(&set, 1000 * 64, 500 * 64, 0, &sc);
	assert_int_equal(sc.state, SELF_CHECK_OK);
	assert_int_equal(sc.counted_read, 64000);
	assert_int_equal(sc.counted_write, 32000);
	/* restore: every register back as found */
	assert_int_equal(saveset_restore(&hw, &ss), HW_OK);
	assert_int_equal(m.freeze, 0);
	assert_int_equal(m.cfg[2], 2);
	assert_int_equal(m.cfg[3], 2);
	assert_int_equal(m.cfg[0], 0x1ull | 0x1ull << 24);
}

static void test_self_check_off_when_doubled(void **state)
{
	(void)state;
	setup(48);
	m.double_count = 1;
	program4();
	cxl_cpmu_start(&hw, &set, &ss);
	cxl_cpmu_model_traffic(&m, 1000, 500, 1);
	cxl_cpmu_stop(&hw, &set, &ss);
	cxl_cpmu_read(&hw, &set);
	struct self_check sc;
	cxl_cpmu_self_check(&set, 1000 * 64, 500 * 64, 0, &sc);
	assert_int_equal(sc.state, SELF_CHECK_OFF);
	assert_int_equal(sc.ratio_read_milli, 2000);
	saveset_restore(&hw, &ss);
}

static void test_overflow(void **state)
{
	(void)state;
	setup(16);
	program4();
	cxl_cpmu_start(&hw, &set, &ss);
	cxl_cpmu_model_traffic(&m, 70000, 10, 1);   /* 70000 > 2^16: one wrap of the MemData counter */
	cxl_cpmu_stop(&hw, &set, &ss);
	assert_int_equal(cxl_cpmu_read(&hw, &set), 0);
	assert_true(set.slot[1].overflowed);
	assert_int_equal(set.slot[1].value, 70000);
	assert_false(set.slot[2].overflowed);
	assert_int_equal(m.overflow, 1u << 2);      /* RW1C register never written */
	saveset_restore(&hw, &ss);
	/* an Overflow Status bit already set before the window: named, not guessed */
	setup(16);
	m.overflow = 1u << 2;
	program4();
	assert_true(set.slot[1].overflow_unknown);
	assert_string_equal(set.slot[1].why, "Overflow Status bit 2 already set: an overflow in the window is not seen");
	saveset_restore(&hw, &ss);
}

static void test_fixed_taken_and_filters(void **state)
{
	(void)state;
	setup(48);
	/* two clock requests: the fixed counter takes one; its group register is the fixed
	 * counter's own, so no configurable counter can take the other */
	const struct cxl_cpmu_event ev[] = { ev_clock, ev_clock };
	cxl_cpmu_program(&hw, &pmu, ev, 2, &set, &ss);
	assert_int_equal(set.slot[0].counter, 0);
	assert_int_equal(set.slot[1].counter, -1);
	assert_string_equal(set.slot[1].why, "no counter for vid 0x1e98 gid 0x0 mask 0x1");
	saveset_restore(&hw, &ss);
	/* HDM decoder filter: traffic through decoder 0; mask 0x2 counts nothing, 0x1 counts */
	setup(48);
	struct cxl_cpmu_event f[] = { ev_drs_memdata, ev_drs_memdata };
	f[0].filter_hdm = 1, f[0].hdm_mask = 0x2;
	f[1].filter_hdm = 1, f[1].hdm_mask = 0x1;
	cxl_cpmu_program(&hw, &pmu, f, 2, &set, &ss);
	assert_int_equal(m.filter[2][0], 0x2);
	assert_int_equal(m.filter[3][0], 0x1);
	cxl_cpmu_start(&hw, &set, &ss);
	cxl_cpmu_model_traffic(&m, 100, 0, 0);
	cxl_cpmu_stop(&hw, &set, &ss);
	cxl_cpmu_read(&hw, &set);
	assert_int_equal(set.slot[0].value, 0);
	assert_int_equal(set.slot[1].value, 100);
	saveset_restore(&hw, &ss);
	assert_int_equal(m.filter[2][0], 0xFFFFFFFFu);
	assert_int_equal(m.filter[3][0], 0xFFFFFFFFu);
}

/* A fault at each access of program, start, stop, read and restore: every register the driver
 * changed is back as found, or the saveset names it as not put back. */
static void test_fault_every_access(void **state)
{
	(void)state;
	setup(48);
	struct cxl_cpmu_model clean = m;
	program4();
	cxl_cpmu_start(&hw, &set, &ss);
	cxl_cpmu_stop(&hw, &set, &ss);
	cxl_cpmu_read(&hw, &set);
	saveset_restore(&hw, &ss);
	uint64_t total = m.accesses - clean.accesses;
	assert_true(total > 20);
	for (uint64_t k = 1; k <= total; k++) {
		setup(48);
		struct cxl_cpmu_model before = m;
		m.fault_at = m.accesses + k;
		int bad = cxl_cpmu_program(&hw, &pmu, (const struct cxl_cpmu_event[]){ ev_clock, ev_drs_memdata, ev_rwd_memwr }, 3,
					   &set, &ss) != 0;
		if (!bad) {
			bad |= cxl_cpmu_start(&hw, &set, &ss) != 0;
			bad |= cxl_cpmu_stop(&hw, &set, &ss) != 0;
			bad |= cxl_cpmu_read(&hw, &set) != 0;
		}
		hw_status rst = saveset_restore(&hw, &ss);
		struct saveset_report rep = { 0 };
		saveset_report_add(&ss, &rep);
		if (bad)
			assert_true(set.why[0] != 0);
		/* compare every register with what it was */
		struct { uint64_t addr; uint64_t was, now; int wide; } regs[32];
		int nr = 0;
		regs[nr++] = (typeof(regs[0])){ CPMUM_BASE + 0x18, before.freeze, m.freeze, 1 };
		for (int n = 0; n < CPMUM_NCTR; n++) {
			regs[nr++] = (typeof(regs[0])){ CPMUM_BASE + 0x200 + 8u * n, before.cfg[n], m.cfg[n], 1 };
			regs[nr++] = (typeof(regs[0])){ CPMUM_BASE + 0x400 + 32u * n, before.filter[n][0], m.filter[n][0], 0 };
			if (n != 1)   /* the free-running counter moves by itself */
				regs[nr++] = (typeof(regs[0])){ CPMUM_BASE + 0xC00 + 8u * n, before.ctr[n], m.ctr[n], 1 };
		}
		for (int i = 0; i < nr; i++) {
			if (regs[i].was == regs[i].now)
				continue;
			int named = 0;
			struct reg_ref r = regs[i].wide ? reg_mmio64(regs[i].addr) : reg_mmio32(regs[i].addr);
			for (uint32_t f = 0; f < rep.nfailed && f < SAVESET_REPORT_FAILED; f++)
				named |= reg_same(rep.failed[f], r);
			if (!named)
				fail_msg("fault at access %llu: register 0x%llx is 0x%llx, was 0x%llx, and is not named (restore %s)",
					 (unsigned long long)k, (unsigned long long)regs[i].addr, (unsigned long long)regs[i].now,
					 (unsigned long long)regs[i].was, hw_status_name(rst));
		}
		assert_int_equal(m.overflow, before.overflow);   /* RW1C: never written */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_layout),
		cmocka_unit_test(test_program_registers),
		cmocka_unit_test(test_counts_and_self_check),
		cmocka_unit_test(test_self_check_off_when_doubled),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_fixed_taken_and_filters),
		cmocka_unit_test(test_fault_every_access),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
