/* SPDX-License-Identifier: BSD-2-Clause */
/* arch/fixup.c's table lookup and arch/hw.c's status names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "arch/fixup.h"
#include "arch/hw.h"

static const struct fixup_entry table[] = {
	{ .fault_ip = 0x401000, .fixup_ip = 0x401100 },
	{ .fault_ip = 0x400ff0, .fixup_ip = 0x401200 },  /* any order */
	{ .fault_ip = 0x402000, .fixup_ip = 0x402010 },
};
#define NTABLE (sizeof(table) / sizeof(table[0]))

static void test_lookup_hits(void **state)
{
	(void)state;
	for (size_t i = 0; i < NTABLE; i++)
		assert_int_equal(fixup_lookup(table, NTABLE, table[i].fault_ip), table[i].fixup_ip);
}

static void test_lookup_misses(void **state)
{
	(void)state;
	/* only the exact faulting instruction matches: neighbours, fixups and 0 do not */
	assert_int_equal(fixup_lookup(table, NTABLE, 0x401001), 0);
	assert_int_equal(fixup_lookup(table, NTABLE, 0x400fff), 0);
	assert_int_equal(fixup_lookup(table, NTABLE, 0x401100), 0);
	assert_int_equal(fixup_lookup(table, NTABLE, 0), 0);
	assert_int_equal(fixup_lookup(table, NTABLE, UINTPTR_MAX), 0);
	/* n bounds the search */
	assert_int_equal(fixup_lookup(table, 2, 0x402000), 0);
	assert_int_equal(fixup_lookup(table, 0, 0x401000), 0);
	assert_int_equal(fixup_lookup(NULL, 0, 0x401000), 0);
}

static void test_status_names(void **state)
{
	static const struct { hw_status st; const char *name; } names[] = {
		{ HW_OK, "ok" }, { HW_FAULT_GP, "#GP" }, { HW_FAULT_UD, "#UD" },
		{ HW_FAULT_SYNC, "sync-exception" }, { HW_UNSUPPORTED, "unsupported" },
		{ HW_BAD_ARG, "bad-argument" }, { HW_ERROR, "firmware-error" },
		{ HW_FAULT_PF, "#PF" }, { HW_FAULT_ABORT, "data-abort" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_string_equal(hw_status_name(names[i].st), names[i].name);
	assert_string_equal(hw_status_name((hw_status)(HW_FAULT_ABORT + 1)), "unknown-status");
	assert_string_equal(hw_status_name((hw_status)-1), "unknown-status");
	assert_string_equal(hw_status_name((hw_status)1000), "unknown-status");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup_hits),
		cmocka_unit_test(test_lookup_misses),
		cmocka_unit_test(test_status_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
