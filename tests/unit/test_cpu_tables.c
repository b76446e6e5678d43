/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpu_tables_note (pmu/cpu_tables.h): which x86 CPUs no table of efiperf's serves, and the
 * note every record then carries. The CPUs are written out from their public identities:
 * Diamond Rapids is Intel family 19 (Linux arch/x86/include/asm/intel-family.h
 * INTEL_DIAMONDRAPIDS_X, IFM(19, 0x01)); Sierra Forest 6/0xAF, Granite Rapids-D 6/0xAE,
 * Goldmont 6/0x5C (no table); AMD Family 1Ah models from Linux arch/x86/kernel/cpu/amd.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/cpu_tables.h"
#include "pmu/core/x86_corepmu.h"

static void test_unknown_cpus_are_named(void **state)
{
	(void)state;
	char note[160] = "";
	/* Diamond Rapids: family 19, in no perfmon file yet, so in none of efiperf's tables */
	assert_int_equal(cpu_tables_note("GenuineIntel", 19, 0x01, note, sizeof(note)), 1);
	assert_string_equal(note, "GenuineIntel family 0x13 model 0x1: not in efiperf's CPU tables, architectural events only");
	/* and the core PMU gives it the architectural events alone */
	assert_int_equal(corepmu_x86_gens("GenuineIntel", 19, 0x01), X86_GEN_ARCH);
	/* a family-6 model no row names */
	assert_int_equal(cpu_tables_note("GenuineIntel", 6, 0x5C, note, sizeof(note)), 1);
	assert_non_null(strstr(note, "family 0x6 model 0x5c"));
	/* AMD: Family 1Ah 30h is amdzen6 to perf's mapfile but nothing to amd.c */
	assert_int_equal(cpu_tables_note("AuthenticAMD", 0x1A, 0x30, note, sizeof(note)), 1);
	assert_non_null(strstr(note, "AuthenticAMD family 0x1a model 0x30"));
	assert_non_null(strstr(note, "raw core events only"));
	/* a note that does not fit is cut, never overrun */
	char small[16];
	assert_int_equal(cpu_tables_note("GenuineIntel", 19, 0x01, small, sizeof(small)), 1);
	assert_int_equal(strlen(small), sizeof(small) - 1);
}

static void test_known_cpus_have_no_note(void **state)
{
	(void)state;
	static const struct { const char *vendor; uint32_t family, model; } known[] = {
		{ "GenuineIntel", 6, 0x55 }, { "GenuineIntel", 6, 0x8F }, { "GenuineIntel", 6, 0xAD },
		{ "GenuineIntel", 6, 0xAE }, { "GenuineIntel", 6, 0xAF }, { "GenuineIntel", 6, 0xDD },
		{ "GenuineIntel", 6, 0x97 }, { "AuthenticAMD", 0x19, 0x01 }, { "AuthenticAMD", 0x1A, 0x02 },
		{ "AuthenticAMD", 0x1A, 0x50 }, { "AuthenticAMD", 0x1A, 0xC0 }, { "HygonGenuine", 0x18, 0x00 },
		{ "ARM", 8, 0 },
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		char note[160] = "untouched";
		assert_int_equal(cpu_tables_note(known[i].vendor, known[i].family, known[i].model, note, sizeof(note)), 0);
		assert_string_equal(note, "untouched");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_cpus_are_named),
		cmocka_unit_test(test_known_cpus_have_no_note),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
