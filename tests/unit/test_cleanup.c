/* SPDX-License-Identifier: BSD-2-Clause */
/* efi/cleanup.c: what the fatal-exception path undoes runs last-registered first, once, and a
 * popped cleanup never runs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/cleanup.h"

static char order[16];
static int norder;
static void note(void *arg) { order[norder++] = *(const char *)arg; }

static void test_lifo_once_and_pop(void **state)
{
	(void)state;
	static const char a = 'a', b = 'b', c = 'c';
	int sa = cleanup_push(note, (void *)&a), sb = cleanup_push(note, (void *)&b);
	int sc = cleanup_push(note, (void *)&c);
	assert_true(sa >= 0 && sb >= 0 && sc >= 0);
	cleanup_pop(sb);
	cleanup_run_all();
	assert_int_equal(norder, 2);
	assert_memory_equal(order, "ca", 2);
	cleanup_run_all();                     /* nothing left: each ran once */
	assert_int_equal(norder, 2);
	for (int i = 0; i < CLEANUP_MAX; i++)
		assert_true(cleanup_push(note, (void *)&a) >= 0);
	assert_int_equal(cleanup_push(note, (void *)&a), -1);   /* full: refused, not overwritten */
	cleanup_run_all();
	assert_int_equal(norder, 2 + CLEANUP_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_lifo_once_and_pop) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
