/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Committing HDM decoders for a CFMWS window (efi/pcie/cxl_commit.c) on the register model's
 * host bridge, root port and device component blocks (tests/model/cxl_model.c, QEMU's layout:
 * HDM decoder capability at 0x110 of the CXL.cache/mem range). Register values are the CXL 3.1
 * 8.2.4.20 fields written out: Base/Size Low [31:28], Control IG [3:0] IW [7:4] Commit [9]
 * Committed [10] Error Not Committed [11] Target Device Type [12], Global Control HDM Decoder
 * Enable [1]. After saveset_restore every register is as found; refusals and failures are named.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/pcie/cxl_commit.h"
#include "tests/model/cxl_model.h"

static struct cxl_model m, before;
static struct saved_reg store[64];
static struct saveset ss;
static struct hw hw;
static char why[160];

#define WIN_BASE 0x110000000ull   /* QEMU's CFMWS base for the test topology (the CEDT fixture) */
#define WIN_SIZE (256ull << 20)
#define HDM(blk, off) ((blk)[(0x1110 + (off)) / 4])   /* a register of the HDM capability */

static const struct cxl_commit_hop path[] = {
	{ "host bridge _UID 0xc", CXLM_HB_BASE, 0, 0 },
	{ "0000:0c:00.0", CXLM_RP_BASE, 0, 0 },
	{ "0000:0d:00.0", CXLM_COMP_BASE, 1, 0 },
};

static int commit(uint64_t base, uint64_t size)
{
	hw = cxl_model_hw(&m);
	struct cxl_env env = { .hw = &hw, .now = cxl_model_now, .arg = &m, .hz = 1000 };
	saveset_init(&ss, store, 64);
	why[0] = 0;
	return cxl_commit_window(&env, base, size, path, 3, &ss, why, sizeof(why));
}

static void assert_as_found(void)
{
	assert_memory_equal(before.hb, m.hb, sizeof(m.hb));
	assert_memory_equal(before.rp, m.rp, sizeof(m.rp));
	assert_memory_equal(before.comp, m.comp, sizeof(m.comp));
}

static void test_commit_and_restore(void **state)
{
	(void)state;
	cxl_model_init(&m);
	before = m;
	assert_int_equal(commit(WIN_BASE, WIN_SIZE), 0);
	assert_string_equal(why, "");
	uint32_t *blk[] = { m.hb, m.rp, m.comp };
	for (int i = 0; i < 3; i++) {
		assert_int_equal(HDM(blk[i], 0x04), 0x2);                 /* HDM Decoder Enable */
		assert_int_equal(HDM(blk[i], 0x10), 0x10000000);          /* Base Low: 0x110000000 [31:28] */
		assert_int_equal(HDM(blk[i], 0x14), 0x1);                 /* Base High */
		assert_int_equal(HDM(blk[i], 0x18), 0x10000000);          /* Size Low: 256 MiB */
		assert_int_equal(HDM(blk[i], 0x1C), 0);
		assert_int_equal(HDM(blk[i], 0x20), 0x1600);              /* Type 3, Committed, Commit; IW 0 IG 0 */
	}
	assert_int_equal(saveset_restore(&hw, &ss), HW_OK);
	assert_as_found();
	/* a second commit in the same "boot" finds them uncommitted again */
	assert_int_equal(commit(WIN_BASE, WIN_SIZE), 0);
	assert_int_equal(saveset_restore(&hw, &ss), HW_OK);
	assert_as_found();
}

static void test_refuses_committed(void **state)
{
	(void)state;
	cxl_model_init(&m);
	HDM(m.comp, 0x20) = 0x1600;                                       /* the device's decoder is the firmware's */
	before = m;
	assert_int_equal(commit(WIN_BASE, WIN_SIZE), -1);
	assert_string_equal(why, "0000:0d:00.0: decoder 0 already committed (control 0x1600): not changed");
	assert_int_equal(m.comp_writes, 0);                               /* refused before any write */
	assert_as_found();
	cxl_model_init(&m);
	assert_int_equal(commit(WIN_BASE + 0x1000, WIN_SIZE), -1);
	assert_string_equal(why, "window 0x110001000+0x10000000 is not 256 MiB aligned");
}

static void test_error_and_timeout(void **state)
{
	(void)state;
	cxl_model_init(&m);
	m.commit_error = 1;
	before = m;
	assert_int_equal(commit(WIN_BASE, WIN_SIZE), -1);
	assert_string_equal(why, "host bridge _UID 0xc: decoder 0 Error Not Committed (control 0x1a00)");
	saveset_restore(&hw, &ss);
	assert_as_found();
	cxl_model_init(&m);
	m.commit_never = 1;
	before = m;
	assert_int_equal(commit(WIN_BASE, WIN_SIZE), -1);
	assert_string_equal(why, "host bridge _UID 0xc: decoder 0 not Committed after 10 ms");
	assert_true(m.ticks > 10 && m.ticks < 20);
	saveset_restore(&hw, &ss);
	assert_as_found();
}

/* A fault at each access: commit fails by name, and restore leaves every register as found or
 * names it. */
static void test_fault_every_access(void **state)
{
	(void)state;
	cxl_model_init(&m);
	assert_int_equal(commit(WIN_BASE, WIN_SIZE), 0);
	saveset_restore(&hw, &ss);
	uint64_t total = m.accesses;
	for (uint64_t k = 1; k <= total; k++) {
		cxl_model_init(&m);
		before = m;
		m.fault_at = k;
		int rc = commit(WIN_BASE, WIN_SIZE);
		hw_status rst = saveset_restore(&hw, &ss);
		struct saveset_report rep = { 0 };
		saveset_report_add(&ss, &rep);
		if (rc)
			assert_true(why[0] != 0);
		if (rst == HW_OK)
			assert_as_found();
		else
			assert_true(rep.nfailed > 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commit_and_restore),
		cmocka_unit_test(test_refuses_committed),
		cmocka_unit_test(test_error_and_timeout),
		cmocka_unit_test(test_fault_every_access),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
