/* SPDX-License-Identifier: BSD-2-Clause */
/* efi/parse_num.c: the one number parser of settings (dma_write_lba) and event strings (cha/...,
 * cpu/..., core/...); expected values written out by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/lib/parse_num.h"

static int parse(const char *s, uint64_t max, uint64_t *v)
{
	return num_parse_u64(s, strlen(s), max, v);
}

static void test_values(void **state)
{
	uint64_t v = 7;
	(void)state;
	assert_int_equal(parse("0", UINT64_MAX, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse("4095", UINT64_MAX, &v), 0);
	assert_int_equal(v, 4095);
	assert_int_equal(parse("0x800", UINT64_MAX, &v), 0);
	assert_int_equal(v, 2048);
	assert_int_equal(parse("0XfF", UINT64_MAX, &v), 0);
	assert_int_equal(v, 255);
	assert_int_equal(parse("18446744073709551615", UINT64_MAX, &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(parse("0xFFFFFFFF", UINT32_MAX, &v), 0);
	assert_int_equal(v, UINT32_MAX);
	assert_int_equal(parse("007", 7, &v), 0);   /* leading zeros are decimal, not octal */
	assert_int_equal(v, 7);
}

static void test_errors(void **state)
{
	uint64_t v = 7;
	(void)state;
	assert_int_equal(parse("", UINT64_MAX, &v), NUM_NOT_A_NUMBER);
	assert_int_equal(parse("0x", UINT64_MAX, &v), NUM_NOT_A_NUMBER);
	assert_int_equal(parse("12a", UINT64_MAX, &v), NUM_NOT_A_NUMBER);   /* hex digit in decimal */
	assert_int_equal(parse("0x1g", UINT64_MAX, &v), NUM_NOT_A_NUMBER);
	assert_int_equal(parse("-1", UINT64_MAX, &v), NUM_NOT_A_NUMBER);
	assert_int_equal(parse(" 1", UINT64_MAX, &v), NUM_NOT_A_NUMBER);
	assert_int_equal(parse("18446744073709551616", UINT64_MAX, &v), NUM_TOO_LARGE);
	assert_int_equal(parse("0x100000000", UINT32_MAX, &v), NUM_TOO_LARGE);
	assert_int_equal(parse("8", 7, &v), NUM_TOO_LARGE);
	assert_int_equal(parse("99999999999999999999999x", UINT64_MAX, &v), NUM_NOT_A_NUMBER);
	assert_int_equal(v, 7);   /* untouched by every failure */
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_values), cmocka_unit_test(test_errors) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
