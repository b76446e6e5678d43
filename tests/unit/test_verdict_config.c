/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Per-machine config search (efi/config/cfg_search.c): the candidates in order, the serial as
 * the logs name it, baseboard products made safe for FAT long names (Microsoft's FAT
 * specification, "Long Directory Entries": " * / : < > ? \ | are not allowed), duplicates and
 * empty names skipped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/config/cfg_search.h"

static char paths[CFG_SEARCH_MAX][CFG_SEARCH_PATH_LEN];

static void test_order(void **state)
{
	(void)state;
	assert_int_equal(cfg_search_paths("LAB7", "X11DPi-N", paths), 3);
	assert_string_equal(paths[0], "\\efiperf\\LAB7.cfg");
	assert_string_equal(paths[1], "\\efiperf\\X11DPi-N.cfg");
	assert_string_equal(paths[2], "\\efiperf\\efiperf.cfg");
}

static void test_skipped(void **state)
{
	(void)state;
	assert_int_equal(cfg_search_paths("noserial", "", paths), 1);
	assert_string_equal(paths[0], "\\efiperf\\efiperf.cfg");
	assert_int_equal(cfg_search_paths("noserial", NULL, paths), 1);
	assert_int_equal(cfg_search_paths("", " . ", paths), 1);
	assert_int_equal(cfg_search_paths("S1", "S1", paths), 2);         /* product named like the serial */
	assert_string_equal(paths[1], "\\efiperf\\efiperf.cfg");
	assert_int_equal(cfg_search_paths("efiperf", NULL, paths), 1);    /* a serial named like the default */
}

static void test_product_names(void **state)
{
	(void)state;
	assert_int_equal(cfg_search_paths("noserial", " Board: A/B \"x\" <1>? | * \\ ", paths), 2);
	assert_string_equal(paths[0], "\\efiperf\\Board_ A_B _x_ _1__ _ _ _.cfg");
	assert_int_equal(cfg_search_paths("noserial", "Standard PC (Q35 + ICH9, 2009).", paths), 2);
	assert_string_equal(paths[0], "\\efiperf\\Standard PC (Q35 + ICH9_ 2009).cfg");
	char longname[200];
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	assert_int_equal(cfg_search_paths(longname, NULL, paths), 2);
	assert_int_equal(strlen(paths[0]), strlen("\\efiperf\\") + 64 + strlen(".cfg"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_skipped),
		cmocka_unit_test(test_product_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
