/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * once_book (efi/out/once_book.c), the bookkeeping behind rep_once(): the console says a line
 * that repeats under every window once and counts the rest. Lines written here by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "efi/out/once_book.h"

static void test_first_time_only(void **state)
{
	(void)state;
	static struct once_book b;
	memset(&b, 0, sizeof(b));
	const char *absent = "            INST_RETIRED.ANY           absent: perfmon version < 2";
	assert_int_equal(once_note(&b, absent, absent), 1);
	assert_int_equal(once_note(&b, absent, absent), 0);
	assert_int_equal(once_note(&b, absent, absent), 0);
	assert_int_equal(b.n, 1);
	assert_int_equal(b.k[0].count, 3);
	/* kept without its indent, runs of blanks as one */
	assert_string_equal(b.k[0].text, "INST_RETIRED.ANY absent: perfmon version < 2");
	/* a key of its own: texts that differ (the fraction) fold under it */
	assert_int_equal(once_note(&b, "link limit impossible", "  link limit: 10.033 of the effective limit"), 1);
	assert_int_equal(once_note(&b, "link limit impossible", "  link limit: 4.561 of the effective limit"), 0);
	assert_string_equal(b.k[1].text, "link limit: 10.033 of the effective limit");
	assert_int_equal(b.k[1].count, 2);
	/* keys that differ in one character are two keys */
	assert_int_equal(once_note(&b, "link limit impossiblf", "x"), 1);
	assert_int_equal(b.n, 3);
}

static void test_full_book_prints_every_time(void **state)
{
	(void)state;
	static struct once_book b;
	char key[16];
	memset(&b, 0, sizeof(b));
	for (int i = 0; i < ONCE_KEYS; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		assert_int_equal(once_note(&b, key, key), 1);
	}
	assert_int_equal(once_note(&b, "one more", "one more"), 1);
	assert_int_equal(once_note(&b, "one more", "one more"), 1);   /* not kept: said again */
	assert_int_equal(once_note(&b, "k0", "k0"), 0);               /* kept ones still fold */
	assert_int_equal(b.n, ONCE_KEYS);
}

static void test_long_text_cut(void **state)
{
	(void)state;
	static struct once_book b;
	char text[300];
	memset(&b, 0, sizeof(b));
	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = 0;
	assert_int_equal(once_note(&b, "long", text), 1);
	assert_int_equal(strlen(b.k[0].text), ONCE_TEXT - 1);
	assert_int_equal(once_note(&b, "", "empty key"), 1);
	assert_int_equal(once_note(&b, "", "empty key"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_time_only),
		cmocka_unit_test(test_full_book_prints_every_time),
		cmocka_unit_test(test_long_text_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
