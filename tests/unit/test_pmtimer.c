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

/* pmtimer_calibrate over a fake timer: every clock() call moves the clock 2^20 ticks, so one
 * poll (the wait's first read, its check, the read after the PM read) is 3 x 2^20 = 3145728
 * ticks; every PM read moves the timer `step`. With step = 3579545 / 5 = 715909 PM ticks
 * (0.2 s) per poll the clock runs 3145728 x 5 = 15728640 Hz, exactly. */
struct fake {
	uint32_t pm, step, bits;
	int reads, io_reads, uses, faults, refuse;
	hw_status fail;          /* status of every PM read (HW_OK: it answers) */
	uint64_t used_addr, used_len, fault_addr;
	hw_status fault_st;
	const char *used_table, *used_field;
};
static struct fake F;
static uint64_t now;
static uint64_t fake_clock(void) { return now += 1u << 20; }
static uint32_t next_pm(void)
{
	uint32_t v = F.pm;
	F.pm = (F.pm + F.step) & (F.bits >= 32 ? 0xFFFFFFFFu : (1u << F.bits) - 1);
	return v;
}
static hw_status fake_mmio(void *ctx, uint64_t addr, uint32_t *v)
{
	(void)ctx;
	(void)addr;
	F.reads++;
	if (F.fail != HW_OK)
		return F.fail;
	*v = next_pm();
	return HW_OK;
}
static hw_status fake_io(void *ctx, uint16_t port, uint32_t *v)
{
	(void)ctx;
	assert_int_equal(port, 0x608);
	F.io_reads++;
	*v = next_pm();
	return HW_OK;
}
static int fake_use(const char *table, const char *field, uint64_t addr, uint64_t len)
{
	F.uses++;
	F.used_table = table;
	F.used_field = field;
	F.used_addr = addr;
	F.used_len = len;
	return F.refuse ? -1 : 0;
}
static hw_status fake_fault(const char *table, const char *field, uint64_t addr, hw_status st)
{
	(void)table;
	(void)field;
	F.faults++;
	F.fault_addr = addr;
	F.fault_st = st;
	return st;
}
static const struct hw_ops fake_ops = { .name = "pm-model", .mmio_read32 = fake_mmio, .io_read32 = fake_io };
static const struct hw fake_hw = { &fake_ops, NULL };
static const struct pmtimer_env env = { &fake_hw, fake_clock, fake_use, fake_fault };

static struct acpi_fadt fadt(uint8_t space, uint64_t addr, int bits)
{
	struct acpi_fadt f = { 0 };
	f.present = 1;
	f.pm_timer_present = 1;
	f.pm_timer.space_id = space;
	f.pm_timer.address = addr;
	f.tmr_bits = bits;
	return f;
}

static void calibrate_memory_space(void **state)
{
	(void)state;
	const char *why = NULL;
	/* 24-bit timer at 0xFF0000: the first poll's step wraps it (0xFF0000 + 715909 > 2^24) */
	F = (struct fake){ .pm = 0xFF0000, .step = 715909, .bits = 24 };
	struct acpi_fadt f = fadt(ACPI_GAS_SPACE_MEMORY, 0xFED00008ull, 24);
	/* 1000 ms = 3579545 PM ticks = 5 polls of 715909 */
	assert_int_equal(pmtimer_calibrate(&env, &f, 1000, &why), 15728640ull);
	assert_null(why);
	assert_int_equal(F.reads, 6);            /* the first read, then one per poll */
	assert_int_equal(F.uses, 1);             /* the address judged once, before any read */
	assert_string_equal(F.used_table, "FADT");
	assert_string_equal(F.used_field, "X_PM_TMR_BLK");
	assert_int_equal(F.used_addr, 0xFED00008ull);
	assert_int_equal(F.used_len, 4);
	assert_int_equal(F.faults, 0);
}

static void memory_space_refused_or_faulting(void **state)
{
	(void)state;
	const char *why = NULL;
	struct acpi_fadt f = fadt(ACPI_GAS_SPACE_MEMORY, 0xFFFFFFFF00000000ull, 32);
	F = (struct fake){ .step = 715909, .bits = 32, .refuse = 1 };
	assert_int_equal(pmtimer_calibrate(&env, &f, 100, &why), 0);
	assert_string_equal(why, "PM timer address refused (firmware_defect record)");
	assert_int_equal(F.reads, 0);            /* a refused address is never read */

	F = (struct fake){ .step = 715909, .bits = 32, .fail = HW_FAULT_PF };
	why = NULL;
	assert_int_equal(pmtimer_calibrate(&env, &f, 100, &why), 0);
	assert_string_equal(why, "PM timer read faulted (firmware_defect record)");
	assert_int_equal(F.faults, 1);
	assert_int_equal(F.fault_st, HW_FAULT_PF);
	assert_int_equal(F.fault_addr, 0xFFFFFFFF00000000ull);

	F = (struct fake){ .step = 715909, .bits = 32, .fail = HW_UNSUPPORTED };
	why = NULL;
	assert_int_equal(pmtimer_calibrate(&env, &f, 100, &why), 0);
	assert_string_equal(why, "PM timer read failed");
}

static void io_space_stuck_and_other_spaces(void **state)
{
	(void)state;
	const char *why = NULL;
	struct acpi_fadt f = fadt(ACPI_GAS_SPACE_IO, 0x608, 32);
	F = (struct fake){ .step = 715909, .bits = 32 };
	/* 100 ms = 357954 PM ticks: one poll of 715909 is enough */
	assert_int_equal(pmtimer_calibrate(&env, &f, 100, &why), 15728640ull);
	assert_int_equal(F.io_reads, 2);
	assert_int_equal(F.uses, 0);             /* an I/O port is no memory-map question */

	F = (struct fake){ .step = 0, .bits = 32 };
	why = NULL;
	assert_int_equal(pmtimer_calibrate(&env, &f, 100, &why), 0);
	assert_string_equal(why, "PM timer does not advance");
	assert_int_equal(F.io_reads, 1 + 1001);  /* the first read, then 1000 still polls and one more */

	f.pm_timer.space_id = 2;   /* PCI configuration space */
	assert_int_equal(pmtimer_calibrate(&env, &f, 100, &why), 0);
	assert_string_equal(why, "PM timer in an address space other than I/O or memory");
	f.pm_timer_present = 0;
	assert_int_equal(pmtimer_calibrate(&env, &f, 100, &why), 0);
	assert_string_equal(why, "no ACPI PM timer in the FADT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_wraps),
		cmocka_unit_test(test_hz),
		cmocka_unit_test(test_ppm),
		cmocka_unit_test(calibrate_memory_space),
		cmocka_unit_test(memory_space_refused_or_faulting),
		cmocka_unit_test(io_space_stuck_and_other_spaces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
