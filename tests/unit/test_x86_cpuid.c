/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86 CPU identification (arch/x86_64/cpuid_pure.c) against the register model.
 * Oracle for the signatures: the family/model numbers Linux names in
 * arch/x86/include/asm/intel-family.h (SKYLAKE_X 0x55, ICELAKE_X 0x6A, SAPPHIRERAPIDS_X 0x8F)
 * and AMD's family 17h (Zen 2 Rome model 0x31), with the SDM Vol.2A CPUID display rules.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/hw_model.h"
#include "arch/x86_64/cpuid_pure.h"
#include "arch/regs/x86_msr.h"

static void test_signature_decode(void **state)
{
	(void)state;
	static const struct { uint32_t eax, fam, mod, step; } cases[] = {
		{ 0x00050654, 0x6, 0x55, 4 },   /* Skylake-SP */
		{ 0x000606A6, 0x6, 0x6A, 6 },   /* Ice Lake-SP */
		{ 0x000806F8, 0x6, 0x8F, 8 },   /* Sapphire Rapids */
		{ 0x00830F10, 0x17, 0x31, 0 },  /* EPYC Rome: family F + ext 8 */
		{ 0x00A00F11, 0x19, 0x01, 1 },  /* EPYC Milan */
		{ 0x00000F29, 0xF, 0x2, 9 },    /* family F, ext family 0, ext model 0 */
		{ 0x00020F12, 0xF, 0x21, 2 },   /* family F: ext model prepended (AMD K8) */
		{ 0x00010676, 0x6, 0x17, 6 },   /* Penryn: ext model 1 */
		{ 0x00000543, 0x5, 0x4, 3 },    /* family 5: ext model ignored */
		{ 0x00010543, 0x5, 0x4, 3 },    /* family 5 with ext model bits set: still ignored */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t f, m, s;
		x86_decode_signature(cases[i].eax, &f, &m, &s);
		assert_int_equal(f, cases[i].fam);
		assert_int_equal(m, cases[i].mod);
		assert_int_equal(s, cases[i].step);
	}
}

static void str_regs(const char *s, uint32_t *r)
{
	for (int k = 0; k < 4; k++)
		r[k] = (uint32_t)(unsigned char)s[4 * k] | (uint32_t)(unsigned char)s[4 * k + 1] << 8 |
		       (uint32_t)(unsigned char)s[4 * k + 2] << 16 | (uint32_t)(unsigned char)s[4 * k + 3] << 24;
}

/* A Skylake-SP-like CPU: "GenuineIntel", brand with leading spaces, leaf 0x15 crystal. */
static void skylake(struct hw_model *m)
{
	hw_model_init(m);
	/* "Genu" "ineI" "ntel" in EBX, EDX, ECX */
	hw_model_cpuid(m, 0, 0, 0x16, 0x756e6547, 0x6c65746e, 0x49656e69);
	hw_model_cpuid(m, 1, 0, 0x00050654, 0, 0, 0);
	hw_model_cpuid(m, CPUID_ARCH_PERFMON, 0, 0x07300404, 0, 0, 0x00000603);
	hw_model_cpuid(m, CPUID_EXT_TOPOLOGY, 0, 1, 2, 0x100, 0);
	hw_model_cpuid(m, CPUID_EXT_TOPOLOGY, 1, 5, 56, 0x201, 0);
	hw_model_cpuid(m, CPUID_TSC_CRYSTAL, 0, 2, 176, 25000000, 0);
	hw_model_cpuid(m, CPUID_EXT_MAXLEAF, 0, 0x80000008, 0, 0, 0);
	static const char brand[49] = "   Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz\0";
	uint32_t r[12];
	for (int k = 0; k < 3; k++)
		str_regs(brand + 16 * k, r + 4 * k);
	for (uint32_t k = 0; k < 3; k++)
		hw_model_cpuid(m, CPUID_BRAND_0 + k, 0, r[4 * k], r[4 * k + 1], r[4 * k + 2], r[4 * k + 3]);
	hw_model_cpuid(m, CPUID_APM, 0, 0, 0, 0, CPUID_APM_EDX_INVARIANT_TSC);
	/* Holds a stale value until CPUID.1 loads the revision (SDM Vol.3A 10.11.7.1). */
	hw_model_reg(m, HWM_MSR, IA32_BIOS_SIGN_ID, HWM_PLAIN, 0xdeadull << 32);
	m->cpuid_effect.set = 1;
	m->cpuid_effect.leaf = CPUID_SIGNATURE;
	m->cpuid_effect.msr = IA32_BIOS_SIGN_ID;
	m->cpuid_effect.value = 0x200005eull << 32;
	hw_model_reg(m, HWM_MSR, IA32_APIC_BASE, HWM_PLAIN, 0xfee00900);
	/* IA32_X2APIC_APICID undefined: #GP, as in xAPIC mode */
}

static const char *probe(const struct cpu_info *ci, const char *name)
{
	for (int i = 0; i < ci->nprobes; i++)
		if (!strcmp(ci->probe[i].name, name))
			return ci->probe[i].result;
	return NULL;
}

static void test_cpu_info_skylake(void **state)
{
	(void)state;
	struct hw_model m;
	skylake(&m);
	struct hw h = hw_model_hw(&m);
	struct cpu_info ci = { 0 };
	x86_cpu_info(&h, &ci);
	assert_string_equal(ci.vendor, "GenuineIntel");
	assert_string_equal(ci.brand, "Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz");
	assert_int_equal(ci.family, 6);
	assert_int_equal(ci.model, 0x55);
	assert_int_equal(ci.stepping, 4);
	assert_true(ci.microcode_valid);
	assert_int_equal(ci.microcode, 0x200005e);
	assert_true(ci.tsc_invariant);
	/* 25 MHz crystal * 176 / 2 = 2.2 GHz (SDM Vol.3B 18.7.3) */
	assert_int_equal(ci.tsc_hz, 2200000000ull);
	assert_string_equal(ci.tsc_source, "cpuid-0x15");
	assert_int_equal(ci.threads_per_core, 2);
	assert_int_equal(ci.logical_per_package, 56);
	/* RDPMC disabled in the model: #UD, reported, not fatal */
	assert_string_equal(probe(&ci, "rdpmc"), "#UD");
	const char *x2 = probe(&ci, "IA32_X2APIC_APICID");
	assert_non_null(x2);
	assert_non_null(strstr(x2, "#GP"));
	assert_non_null(strstr(probe(&ci, "IA32_APIC_BASE"), "xAPIC mode"));
	assert_non_null(strstr(probe(&ci, "CPUID.0AH"), "perfmon version 4, 4 GP counters, 3 fixed"));
}

static void test_tsc_from_leaf16_and_none(void **state)
{
	(void)state;
	struct hw_model m;
	hw_model_init(&m);
	hw_model_cpuid(&m, CPUID_TSC_CRYSTAL, 0, 2, 176, 0, 0);  /* crystal not enumerated */
	hw_model_cpuid(&m, CPUID_PROC_FREQ, 0, 2100, 3900, 100, 0);
	struct hw h = hw_model_hw(&m);
	const char *src;
	assert_int_equal(x86_tsc_hz(&h, 0x16, &src), 2100000000ull);
	assert_string_equal(src, "cpuid-0x16");
	/* max leaf below 0x15: nothing enumerated, caller calibrates */
	assert_int_equal(x86_tsc_hz(&h, 0x14, &src), 0);
	assert_null(src);
}

static void test_microcode_fault_reported(void **state)
{
	(void)state;
	struct hw_model m;
	skylake(&m);
	m.nregs = 0;  /* no MSRs at all: every rdmsr/wrmsr is #GP */
	struct hw h = hw_model_hw(&m);
	struct cpu_info ci = { 0 };
	x86_cpu_info(&h, &ci);
	assert_false(ci.microcode_valid);
	assert_string_equal(probe(&ci, "IA32_BIOS_SIGN_ID"), "#GP");
	assert_string_equal(probe(&ci, "IA32_APIC_BASE"), "#GP");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signature_decode),
		cmocka_unit_test(test_cpu_info_skylake),
		cmocka_unit_test(test_tsc_from_leaf16_and_none),
		cmocka_unit_test(test_microcode_fault_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
