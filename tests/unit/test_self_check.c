/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pmu/self_check.c: counted against expected bytes per direction, and its JSON object (never
 * a field left out). Figures are literals: 16 MiB = 16777216 bytes read from a disk = the
 * device writing 16777216 bytes of memory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/self_check.h"
#include "efi/out/dma_json.h"
#include "tests/unit/json_check.h"

static struct self_check sc;
static char buf[1024];

static const char *to_json(void)
{
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	self_check_json(&j, "self_check", &sc);
	json_end(&j);
	assert_true(json_check_object(buf, strlen(buf)));
	/* every member is there, whatever the state */
	const char *keys[] = { "\"state\":", "\"expected_read_bytes\":", "\"expected_write_bytes\":",
			       "\"counted_read_bytes\":", "\"counted_write_bytes\":", "\"ratio_read\":",
			       "\"ratio_write\":", "\"tolerance\":", "\"why\":" };
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strstr(buf, keys[i]))
			fail_msg("%s missing in %s", keys[i], buf);
	return buf;
}

static void test_ok_within_tolerance(void **state)
{
	(void)state;
	struct self_check_bytes exp = { .read = 0, .write = 16777216 };
	/* 2 % more: command and PRP fetches the driver made */
	struct self_check_bytes cnt = { .read = 4096, .write = 17112760, .have_read = 1, .have_write = 1 };
	self_check_compute(&exp, &cnt, 0, NULL, &sc);
	assert_int_equal(sc.state, SELF_CHECK_OK);
	assert_int_equal(sc.tolerance_milli, 100);
	assert_true(sc.have_ratio_write);
	assert_int_equal(sc.ratio_write_milli, 1020);
	assert_false(sc.have_ratio_read);        /* nothing expected: not judged */
	assert_non_null(strstr(to_json(), "\"state\":\"ok\""));
	assert_non_null(strstr(buf, "\"ratio_read\":null"));
	assert_non_null(strstr(buf, "\"ratio_write\":1.020"));
	/* exactly at the edge: 10 % over is still ok, one byte more is off */
	cnt.write = 18454938;   /* 16777216 x 1.1 = 18454937.6 */
	self_check_compute(&exp, &cnt, 0, NULL, &sc);
	assert_int_equal(sc.state, SELF_CHECK_OFF);
	cnt.write = 18454937;
	self_check_compute(&exp, &cnt, 0, NULL, &sc);
	assert_int_equal(sc.state, SELF_CHECK_OK);
}

static void test_doubled_is_off(void **state)
{
	(void)state;
	struct self_check_bytes exp = { .read = 8192, .write = 8192 };
	struct self_check_bytes cnt = { .read = 8192, .write = 16384, .have_read = 1, .have_write = 1 };
	self_check_compute(&exp, &cnt, 0, NULL, &sc);
	assert_int_equal(sc.state, SELF_CHECK_OFF);
	assert_int_equal(sc.ratio_write_milli, 2000);
	assert_int_equal(sc.ratio_read_milli, 1000);
	assert_non_null(strstr(sc.why, "write"));
	assert_non_null(strstr(to_json(), "\"state\":\"off\""));
	/* too few counts are off as well */
	cnt.write = 4096;
	self_check_compute(&exp, &cnt, 0, NULL, &sc);
	assert_int_equal(sc.state, SELF_CHECK_OFF);
}

static void test_not_advancing_and_absent(void **state)
{
	(void)state;
	struct self_check_bytes exp = { .write = 1048576 };
	struct self_check_bytes zero = { .have_read = 1, .have_write = 1 };
	self_check_compute(&exp, &zero, 0, NULL, &sc);
	assert_int_equal(sc.state, SELF_CHECK_NOT_ADVANCING);
	assert_non_null(strstr(to_json(), "\"state\":\"not-advancing\""));
	assert_non_null(strstr(buf, "\"counted_write_bytes\":0"));
	/* no counters at all */
	self_check_compute(&exp, NULL, 0, "cha = off", &sc);
	assert_int_equal(sc.state, SELF_CHECK_ABSENT);
	assert_string_equal(sc.why, "cha = off");
	assert_non_null(strstr(to_json(), "\"counted_write_bytes\":null"));
	/* counters ran, the window moves no DMA bytes (the memory copy) */
	struct self_check_bytes none = { 0 };
	self_check_compute(&none, &zero, 0, "a memory copy moves no PCIe bytes", &sc);
	assert_int_equal(sc.state, SELF_CHECK_ABSENT);
	assert_string_equal(sc.why, "a memory copy moves no PCIe bytes");
	/* the write formula's events were not counted */
	struct self_check_bytes no_write = { .read = 64, .have_read = 1 };
	self_check_compute(&exp, &no_write, 0, NULL, &sc);
	assert_int_equal(sc.state, SELF_CHECK_ABSENT);
	assert_non_null(strstr(sc.why, "write"));
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(self_check_state_name(SELF_CHECK_OK), "ok");
	assert_string_equal(self_check_state_name(SELF_CHECK_OFF), "off");
	assert_string_equal(self_check_state_name(SELF_CHECK_NOT_ADVANCING), "not-advancing");
	assert_string_equal(self_check_state_name(SELF_CHECK_ABSENT), "absent");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ok_within_tolerance),
		cmocka_unit_test(test_doubled_is_off),
		cmocka_unit_test(test_not_advancing_and_absent),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
