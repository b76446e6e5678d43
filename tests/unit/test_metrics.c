/* SPDX-License-Identifier: BSD-2-Clause */
/* pmu/metrics.c: time and rate formulas, and the per-CPU outlier flag. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "pmu/metrics.h"

static void test_rates(void **state)
{
	(void)state;
	assert_int_equal(metric_ticks_to_ns(2000000000ull, 2000000000ull), 1000000000ull);
	assert_int_equal(metric_ticks_to_ns(5, 0), 0);
	/* 134217728 bytes in 143113199 ns = 0.938 GB/s (a 128 MiB copy measured under QEMU TCG) */
	assert_int_equal(metric_gbps_milli(134217728ull, 143113199ull), 938);
	assert_int_equal(metric_ratio_milli(1, 3), 333);
	assert_int_equal(metric_ratio_milli(2, 3), 667);
	assert_int_equal(metric_ratio_milli(1, 0), 0);
}

static void test_outliers(void **state)
{
	(void)state;
	uint8_t f[8];
	uint64_t med;
	const uint64_t even[] = { 1000, 1010, 990, 1005 };
	assert_int_equal(metric_outliers(even, 4, 25, f, &med), 0);
	assert_int_equal(med, 1002);
	const uint64_t slow[] = { 1000, 1010, 400, 1005, 995 };   /* CPU 2 at 40% of the others */
	assert_int_equal(metric_outliers(slow, 5, 25, f, &med), 1);
	assert_int_equal(med, 1000);
	assert_true(f[2] && !f[0] && !f[1] && !f[3] && !f[4]);
	const uint64_t edge[] = { 100, 125, 75 };                 /* exactly 25%: not flagged */
	assert_int_equal(metric_outliers(edge, 3, 25, f, &med), 0);
	assert_int_equal(metric_outliers(edge, 0, 25, f, &med), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_outliers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
