/* SPDX-License-Identifier: BSD-2-Clause */
/* efi/pmtimer.c: PM timer wrap (24 and 32 bits, ACPI 6.5 4.8.3.3) and the calibration ratio. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "efi/fw/pmtimer.h"

static void test_delta_wraps(void **state)
{
	(void)state;
	assert_int_equal(pmtimer_delta(100, 400, 24), 300);
	assert_int_equal(pmtimer_delta(0xFFFFF0, 0x10, 24), 0x20);          /* 24-bit wrap */
	assert_int_equal(pmtimer_delta(0xFFFFFFF0u, 0x10, 32), 0x20);       /* 32-bit wrap */
	/* a 24-bit timer's upper byte reads as zero: the mask keeps stray bits out */
	assert_int_equal(pmtimer_delta(0xFFFFF0, 0xFF000010u, 24), 0x20);
}

static void test_hz(void **state)
{
	(void)state;
	/* 200e6 cycles over 357954 PM ticks (about 100 ms): 200e6 * 3579545 / 357954 = 2000002793.66 */
	assert_int_equal(pmtimer_hz(200000000ull, 357954), 2000002794ull);
	assert_int_equal(pmtimer_hz(PMTIMER_HZ, PMTIMER_HZ), PMTIMER_HZ);
	assert_int_equal(pmtimer_hz(1, 0), 0);
	/* no overflow for a 5 GHz counter over 2^32 PM ticks (20 minutes) */
	assert_int_equal(pmtimer_hz(5000000000ull * 1200ull, (uint64_t)PMTIMER_HZ * 1200ull), 5000000000ull);
}

static void test_ppm(void **state)
{
	(void)state;
	assert_int_equal(pmtimer_ppm(2002000000ull, 2000000000ull), 1000);
	assert_int_equal(pmtimer_ppm(1998000000ull, 2000000000ull), -1000);
	assert_int_equal(pmtimer_ppm(2000002000ull, 2000000000ull), 1);
	assert_int_equal(pmtimer_ppm(5, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_wraps),
		cmocka_unit_test(test_hz),
		cmocka_unit_test(test_ppm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
