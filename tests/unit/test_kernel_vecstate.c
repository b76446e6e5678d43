/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Full vector width inside the firmware (arch/vecstate.h), on a register model written here from
 * the SDM, not from the code under test:
 *  - CR4.OSXSAVE is bit 18 (SDM Vol. 3A 2.5, Figure 2-7); XGETBV/XSETBV raise #UD while it is
 *    clear (Vol. 2C XGETBV/XSETBV); XSETBV raises #GP for XCR0 without bit 0, or with AVX (bit
 *    2) but not SSE (bit 1), or with the AVX-512 bits 5-7 not all equal or without AVX, or a
 *    bit outside CPUID.(0DH,0):EAX (Vol. 2C XSETBV "Operation" / Vol. 1 13.3);
 *  - the plans from literal CPUID / ID register values (QEMU Skylake-Server has AVX and AVX-512
 *    state, qemu64 has no XSAVE; Arm ARM D19.2 CPACR_EL1.ZEN [17:16], CPTR_EL2.TZ [8]);
 *  - enable then restore leaves the registers as the firmware had them, read back; a fault at
 *    any access is named and what was written before it is still undone.
 * What QEMU cannot show (a fault half-way, an already-enabled firmware) is shown here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "arch/vecstate.h"

/* ---- model -------------------------------------------------------------------------------- */
static struct {
	uint64_t cr4, xcr0, supported;
	int accesses, fail_at;    /* fail the access numbered fail_at (1-based), 0 = never */
	char log[32][24];
} m;

static int injected(void)
{
	return ++m.accesses == m.fail_at;
}

static void logf_(const char *s, uint64_t v)
{
	if (m.accesses <= 32)
		snprintf(m.log[m.accesses - 1], sizeof(m.log[0]), "%s %llx", s, (unsigned long long)v);
}

static hw_status rd_cr4(uint64_t *v)
{
	if (injected())
		return HW_FAULT_GP;
	*v = m.cr4;
	logf_("rd cr4", *v);
	return HW_OK;
}

static hw_status wr_cr4(uint64_t v)
{
	if (injected())
		return HW_FAULT_GP;
	m.cr4 = v;
	logf_("wr cr4", v);
	return HW_OK;
}

static hw_status rd_xcr0(uint64_t *v)
{
	if (injected() || !(m.cr4 & 0x40000))
		return HW_FAULT_UD;
	*v = m.xcr0;
	logf_("rd xcr0", *v);
	return HW_OK;
}

static hw_status wr_xcr0(uint64_t v)
{
	if (injected() || !(m.cr4 & 0x40000))
		return HW_FAULT_UD;
	uint64_t zmm = v & 0xE0;
	if (!(v & 1) || ((v & 4) && !(v & 2)) || (zmm && (zmm != 0xE0 || !(v & 4))) || (v & ~m.supported))
		return HW_FAULT_GP;
	m.xcr0 = v;
	logf_("wr xcr0", v);
	return HW_OK;
}

static const struct vec_ops ops = { rd_cr4, wr_cr4, rd_xcr0, wr_xcr0 };

static void model(uint64_t cr4, uint64_t xcr0, uint64_t supported, int fail_at)
{
	memset(&m, 0, sizeof(m));
	m.cr4 = cr4, m.xcr0 = xcr0, m.supported = supported, m.fail_at = fail_at;
}

/* ---- plans -------------------------------------------------------------------------------- */
#define L1_XSAVE_AVX ((1u << 26) | (1u << 28))

static void test_x86_plans(void **state)
{
	(void)state;
	struct vec_plan p;
	/* qemu64: no XSAVE */
	x86_vec_plan(0xD, 0x80002001, 0, 0, &p);
	assert_non_null(p.why);
	assert_non_null(strstr(p.why, "XSAVE"));
	assert_int_equal(p.ctl_set, 0);
	/* AVX state (x87, SSE, AVX = 0x7), no AVX-512: CR4 bit 18, XCR0 0x7 */
	x86_vec_plan(0xD, L1_XSAVE_AVX, 1u << 5, 0x7, &p);
	assert_null(p.why);
	assert_int_equal(p.ctl_set, 0x40000);
	assert_int_equal(p.xcr_set, 0x7);
	/* Skylake-Server: 0x2E7 supported (PKRU bit 9 too), AVX512F: 0xE7, never PKRU */
	x86_vec_plan(0xD, L1_XSAVE_AVX, (1u << 5) | (1u << 16), 0x2E7, &p);
	assert_int_equal(p.xcr_set, 0xE7);
	/* AVX512F but Hi16_ZMM state missing: AVX only */
	x86_vec_plan(0xD, L1_XSAVE_AVX, 1u << 16, 0x67, &p);
	assert_int_equal(p.xcr_set, 0x7);
	/* XSAVE without AVX state */
	x86_vec_plan(0xD, 1u << 26, 0, 0x3, &p);
	assert_non_null(p.why);
	/* leaf 0DH not reported */
	x86_vec_plan(0x7, L1_XSAVE_AVX, 0, 0x7, &p);
	assert_non_null(p.why);
}

static void test_aarch64_plans(void **state)
{
	(void)state;
	struct vec_plan p;
	const uint64_t sve1 = 1ull << 32;
	aarch64_vec_plan(0x1100000011111111ull & ~(0xFull << 32), 1, 0, &p);   /* no SVE */
	assert_non_null(p.why);
	assert_non_null(strstr(p.why, "SVE"));
	aarch64_vec_plan(sve1, 1, 0, &p);              /* EL1: CPACR_EL1.ZEN = 0b11, LEN max */
	assert_null(p.why);
	assert_string_equal(p.ctl_name, "CPACR_EL1");
	assert_string_equal(p.xcr_name, "ZCR_EL1");
	assert_int_equal(p.ctl_set, 0x30000);
	assert_int_equal(p.ctl_clear, 0);
	assert_int_equal(p.xcr_set, 0xF);
	aarch64_vec_plan(sve1, 2, 0, &p);              /* EL2, E2H = 0: clear CPTR_EL2.TZ */
	assert_string_equal(p.ctl_name, "CPTR_EL2");
	assert_int_equal(p.ctl_set, 0);
	assert_int_equal(p.ctl_clear, 0x100);
	aarch64_vec_plan(sve1, 2, 1, &p);              /* EL2, E2H = 1: CPACR layout */
	assert_int_equal(p.ctl_set, 0x30000);
	assert_int_equal(aarch64_sve_untrapped(1, 0, 0x300000), 0);     /* FPEN on, ZEN off */
	assert_int_equal(aarch64_sve_untrapped(1, 0, 0x330000), 1);
	assert_int_equal(aarch64_sve_untrapped(1, 0, 0x310000), 0);     /* ZEN = 0b01: EL0 traps */
	assert_int_equal(aarch64_sve_untrapped(2, 0, 0x33FF), 0);       /* TZ set */
	assert_int_equal(aarch64_sve_untrapped(2, 0, 0x32FF), 1);
	assert_int_equal(aarch64_sve_untrapped(2, 1, 0x30000), 1);
}

/* ---- sequence ----------------------------------------------------------------------------- */
static const uint64_t FW_CR4 = 0x668;    /* OVMF-like: PAE, PGE, OSFXSR, OSXMMEXCPT... no OSXSAVE */

static void test_enable_restore_from_ovmf_state(void **state)
{
	(void)state;
	struct vec_plan p;
	x86_vec_plan(0xD, L1_XSAVE_AVX, (1u << 5) | (1u << 16), 0x2E7, &p);
	model(FW_CR4, 0x1, 0x2E7, 0);
	struct vec_cpu c = { .cpu = 3 };
	assert_int_equal(vec_enable(&ops, &p, &c), 0);
	assert_int_equal(c.cpu, 3);
	assert_true(c.enabled);
	assert_int_equal(c.ctl_fw, 0x668);
	assert_int_equal(c.ctl_on, 0x40668);
	assert_int_equal(c.xcr_fw, 0x1);
	assert_int_equal(c.xcr_on, 0xE7);
	assert_int_equal(m.cr4, 0x40668);
	assert_int_equal(m.xcr0, 0xE7);
	assert_int_equal(vec_restore(&ops, &c), 0);
	assert_true(c.restored);
	assert_int_equal(m.cr4, 0x668);
	assert_int_equal(m.xcr0, 0x1);
	assert_int_equal(c.ctl_back, 0x668);
	assert_int_equal(c.xcr_back, 0x1);
	/* the order: CR4 first on, XCR0 first off, each write read back */
	static const char *const want[] = {
		"rd cr4 668", "wr cr4 40668", "rd cr4 40668", "rd xcr0 1", "wr xcr0 e7", "rd xcr0 e7",
		"wr xcr0 1", "rd xcr0 1", "wr cr4 668", "rd cr4 668",
	};
	assert_int_equal(m.accesses, 10);
	for (int i = 0; i < 10; i++)
		assert_string_equal(m.log[i], want[i]);
	/* restoring twice writes nothing more */
	assert_int_equal(vec_restore(&ops, &c), 0);
	assert_int_equal(m.accesses, 10);
}

static void test_firmware_already_enabled(void **state)
{
	(void)state;
	struct vec_plan p;
	x86_vec_plan(0xD, L1_XSAVE_AVX, 1u << 5, 0x7, &p);
	model(FW_CR4 | 0x40000, 0x7, 0x7, 0);
	struct vec_cpu c = { 0 };
	assert_int_equal(vec_enable(&ops, &p, &c), 0);
	assert_true(c.enabled);
	assert_false(c.ctl_written);
	assert_false(c.xcr_written);
	assert_int_equal(m.accesses, 2);   /* two reads, no write */
	assert_int_equal(vec_restore(&ops, &c), 0);
	assert_true(c.restored);
}

static void test_no_avx_touches_nothing(void **state)
{
	(void)state;
	struct vec_plan p;
	x86_vec_plan(0xD, 0x80002001, 0, 0, &p);
	model(FW_CR4, 0x1, 0x3, 0);
	struct vec_cpu c = { 0 };
	assert_int_equal(vec_enable(&ops, &p, &c), 0);
	assert_false(c.enabled);
	assert_int_equal(m.accesses, 1);   /* CR4 read only */
	assert_int_equal(vec_restore(&ops, &c), 0);
	assert_int_equal(m.cr4, FW_CR4);
}

/* A fault at every access of enable, once: enable fails naming the step, and restore leaves
 * CR4 and XCR0 as the firmware had them. */
static void test_fault_at_every_access(void **state)
{
	(void)state;
	struct vec_plan p;
	x86_vec_plan(0xD, L1_XSAVE_AVX, (1u << 5) | (1u << 16), 0x2E7, &p);
	static const char *const step[] = { "read ctl", "write ctl", "read back ctl", "read xcr", "write xcr",
					    "read back xcr" };
	for (int at = 1; at <= 6; at++) {
		model(FW_CR4, 0x1, 0x2E7, at);
		struct vec_cpu c = { 0 };
		assert_int_equal(vec_enable(&ops, &p, &c), -1);
		assert_false(c.enabled);
		assert_string_equal(c.failed, step[at - 1]);
		assert_int_not_equal(c.st, HW_OK);
		m.fail_at = 0;
		c.failed = NULL;
		assert_int_equal(vec_restore(&ops, &c), 0);
		assert_true(c.restored);
		assert_int_equal(m.cr4, FW_CR4);
		assert_int_equal(m.xcr0, 0x1);
	}
	/* a fault restoring CR4: not restored, named */
	model(FW_CR4, 0x1, 0x2E7, 0);
	struct vec_cpu c = { 0 };
	assert_int_equal(vec_enable(&ops, &p, &c), 0);
	m.fail_at = m.accesses + 3;       /* wr xcr0, rd xcr0, then the CR4 write */
	assert_int_equal(vec_restore(&ops, &c), -1);
	assert_false(c.restored);
	assert_string_equal(c.failed, "restore ctl");
	assert_int_equal(m.xcr0, 0x1);
	assert_int_equal(m.cr4, 0x40668);
}

/* An XCR0 the CPU refuses (#GP): the plan never asks for PKRU or a partial AVX-512 set. */
static void test_model_refuses_bad_xcr0(void **state)
{
	(void)state;
	model(FW_CR4 | 0x40000, 0x1, 0x2E7, 0);
	assert_int_equal(wr_xcr0(0x5), HW_FAULT_GP);     /* AVX without SSE */
	assert_int_equal(wr_xcr0(0x67), HW_FAULT_GP);    /* opmask, ZMM_Hi256 without Hi16_ZMM */
	assert_int_equal(wr_xcr0(0x7), HW_OK);
	struct vec_plan p;
	x86_vec_plan(0xD, L1_XSAVE_AVX, 1u << 16, 0x2E7, &p);
	assert_int_equal(wr_xcr0(p.xcr_set), HW_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_plans),
		cmocka_unit_test(test_aarch64_plans),
		cmocka_unit_test(test_enable_restore_from_ovmf_state),
		cmocka_unit_test(test_firmware_already_enabled),
		cmocka_unit_test(test_no_avx_touches_nothing),
		cmocka_unit_test(test_fault_at_every_access),
		cmocka_unit_test(test_model_refuses_bad_xcr0),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
