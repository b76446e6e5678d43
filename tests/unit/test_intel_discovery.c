/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The uncore discovery table parser (pmu/uncore/intel_discovery.c) on tables built here byte by
 * byte as Linux arch/x86/events/intel/uncore_discovery.h lays them out (global entry: stride
 * [15:8] in 8-byte units, max_units [25:16], access [63:62]; unit: num_regs [7:0], ctl_offset
 * [15:8], bit_width [23:16], ctr_offset [31:24], access [63:62]; control address; box_type
 * [15:0], box_id [31:16]): a good table, then one defect at a time, each named while the other
 * units are still taken.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/uncore/intel_discovery.h"

static uint8_t buf[4096];
static struct disc_table t;

static void put(size_t at, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		buf[at + i] = (uint8_t)(v >> (8 * i));
}

/* Global entry: 32-byte stride, n units, global control 0x2FF0. */
static size_t global(unsigned n)
{
	memset(buf, 0, sizeof(buf));
	put(0, 4u << 8 | (uint64_t)n << 16);
	put(8, 0x2FF0);
	return (size_t)(n + 1) * 32;
}

static void unit(unsigned i, uint64_t q0, uint64_t ctl, uint16_t type, uint16_t id)
{
	put((i + 1) * 32, q0);
	put((i + 1) * 32 + 8, ctl);
	put((i + 1) * 32 + 16, type | (uint64_t)id << 16);
}

#define MSR4x48 (4 | 0x8ull << 8 | 48ull << 16 | 0x1ull << 24)
#define MMIO4x48 (4 | 0x40ull << 8 | 48ull << 16 | 0x08ull << 24 | 1ull << 62)

static void test_good(void **state)
{
	(void)state;
	size_t len = global(5);
	unit(0, MSR4x48, 0x3010, 1, 1);
	unit(1, MSR4x48, 0x3000, 1, 0);
	unit(2, MMIO4x48, 0xFC004000, 6, 1);
	unit(3, 0, 0, 0, 0);                                    /* not a unit: skipped quietly */
	unit(4, 4 | 2ull << 62 | 48ull << 16, 0x1u << 28 | 0x7Eu << 20 | (2u << 3 | 1) << 12 | 0x318, 9, 0);
	assert_int_equal(disc_table_bytes(buf, 8), 6 * 32);
	assert_int_equal(disc_parse(buf, len, &t), 0);
	assert_int_equal(t.stride, 32);
	assert_int_equal(t.max_units, 5);
	assert_int_equal(t.global_ctl, 0x2FF0);
	assert_int_equal(t.nunits, 4);
	assert_int_equal(t.skipped, 1);
	assert_int_equal(t.ndefects, 0);
	assert_int_equal(t.unit[0].ctl, 0x3010);
	assert_int_equal(t.unit[0].ctl_offset, 8);
	assert_int_equal(t.unit[0].ctr_offset, 1);
	assert_int_equal(t.unit[0].bit_width, 48);
	assert_int_equal(t.unit[2].access, DISC_MMIO);
	assert_int_equal(t.unit[3].access, DISC_PCI);
	assert_int_equal(t.unit[3].pci.segment, 1);
	assert_int_equal(t.unit[3].pci.bus, 0x7E);
	assert_int_equal(t.unit[3].pci.dev, 2);
	assert_int_equal(t.unit[3].pci.func, 1);
	assert_int_equal(t.unit[3].pci_reg, 0x318);
	uint32_t idx[4];
	assert_int_equal(disc_units_of(&t, 1, idx, 4), 2);
	assert_int_equal(t.unit[idx[0]].box_id, 0);                  /* ascending box id */
	assert_int_equal(t.unit[idx[1]].box_id, 1);
	assert_int_equal(disc_find(&t, 6, 1), 2);
	assert_int_equal(disc_find(&t, 6, 0), -1);
	assert_string_equal(disc_access_name(DISC_ACCESS_UNKNOWN), "unknown");
}

/* One bad unit among good ones: named, the others taken. */
static void bad_one(uint64_t q0, uint64_t ctl, const char *want)
{
	size_t len = global(3);
	unit(0, MSR4x48, 0x3000, 1, 0);
	unit(1, q0, ctl, 1, 1);
	unit(2, MSR4x48, 0x3020, 1, 2);
	assert_int_equal(disc_parse(buf, len, &t), 0);
	assert_int_equal(t.nunits, 2);
	assert_int_equal(t.ndefects, 1);
	if (!strstr(t.defect[0], want))
		fail_msg("defect \"%s\" lacks \"%s\"", t.defect[0], want);
	assert_non_null(strstr(t.defect[0], "unit 1 (box type 1 id 1)"));
}

static void test_unit_defects(void **state)
{
	(void)state;
	bad_one(MSR4x48 | 3ull << 62, 0x3010, "access type 3 is unknown");
	bad_one((MSR4x48 & ~0xFF0000ull) | 65ull << 16, 0x3010, "4 counters of 65 bits");
	bad_one(MSR4x48 & ~0xFFull, 0x3010, "0 counters of 48 bits");
	bad_one(MSR4x48, 0xFFFFFFF8ull, "outside the MSR space");          /* CTL3 at +0xB */
	bad_one(MMIO4x48, 0xFFFFFFFFFFFFFFF0ull, "outside the MMIO space");
	bad_one(4 | 2ull << 62 | 48ull << 16 | 0xF0ull << 24, 0xFF0, "outside the PCI space");
	/* the same box twice */
	size_t len = global(2);
	unit(0, MSR4x48, 0x3000, 1, 0);
	unit(1, MSR4x48, 0x3010, 1, 0);
	assert_int_equal(disc_parse(buf, len, &t), 0);
	assert_int_equal(t.nunits, 1);
	assert_non_null(strstr(t.defect[0], "box type 1 id 0 is listed twice"));
}

static void test_table_defects(void **state)
{
	(void)state;
	/* short: 4 units claimed, 2 read */
	global(4);
	unit(0, MSR4x48, 0x3000, 1, 0);
	unit(1, MSR4x48, 0x3010, 1, 1);
	assert_int_equal(disc_parse(buf, 3 * 32, &t), 0);
	assert_int_equal(t.nunits, 2);
	assert_non_null(strstr(t.defect[0], "4 units of 32 bytes need 160 bytes, 96 were read"));
	/* stride below one entry */
	global(1);
	put(0, 2u << 8 | 1u << 16);
	assert_int_equal(disc_table_bytes(buf, 8), 0);
	assert_int_equal(disc_parse(buf, 64, &t), -1);
	assert_non_null(strstr(t.defect[0], "stride 16 bytes"));
	/* unreadable global entry, too few bytes */
	memset(buf, 0xFF, 64);
	assert_int_equal(disc_parse(buf, 64, &t), -1);
	assert_non_null(strstr(t.defect[0], "global entry reads 0xffffffffffffffff"));
	assert_int_equal(disc_parse(buf, 16, &t), -1);
	assert_non_null(strstr(t.defect[0], "16 bytes read"));
	/* absurd count: 1023 units of 255 x 8 bytes, all of them valid units up to what is read */
	memset(buf, 0, sizeof(buf));
	put(0, 255u << 8 | 1023u << 16);
	assert_int_equal(disc_table_bytes(buf, 8), 1024u * 2040u);
	assert_int_equal(disc_parse(buf, sizeof(buf), &t), 0);
	assert_int_equal(t.nunits, 0);
	assert_non_null(strstr(t.defect[0], "1023 units of 2040 bytes"));
	/* more valid units than the parser keeps: the rest is named */
	size_t len = global(DISC_MAX_UNITS + 2);
	static uint8_t big[(DISC_MAX_UNITS + 3) * 32];
	(void)len;
	memset(big, 0, sizeof(big));
	for (int i = 0; i < 8; i++)
		big[i] = buf[i];
	for (unsigned i = 0; i < DISC_MAX_UNITS + 2; i++)
		for (int w = 0; w < 3; w++) {
			uint64_t v = w == 0 ? MSR4x48 : w == 1 ? 0x10000 + 0x10 * i : 1 | (uint64_t)i << 16;
			for (int b = 0; b < 8; b++)
				big[(i + 1) * 32 + 8 * w + b] = (uint8_t)(v >> (8 * b));
		}
	assert_int_equal(disc_parse(big, sizeof(big), &t), 0);
	assert_int_equal(t.nunits, DISC_MAX_UNITS);
	assert_non_null(strstr(t.defect[0], "more than 512 units"));
}

/* CHA 0 (box type 0, id 0) has a q2 of 0 and is a unit (Linux dropped the q2 == 0 test of
 * uncore_discovery_invalid_unit for it: "perf/x86/intel/uncore: Fix invalid unit check"); a q1
 * of 0 is not a unit. */
static void test_cha0_is_a_unit(void **state)
{
	(void)state;
	/* CHA 0, a unit whose control is 0, CHA 1 (SPR CHA n BOX_CTL 0x2000 + 0x10 n) */
	static const uint64_t ctl[3] = { 0x2000, 0, 0x2010 };
	size_t len = global(3);
	for (unsigned i = 0; i < 3; i++)
		unit(i, MSR4x48, ctl[i], 0, i ? 1 : 0);
	assert_int_equal(disc_parse(buf, len, &t), 0);
	assert_int_equal(t.nunits, 2);
	assert_int_equal(t.skipped, 1);
	assert_int_equal(disc_find(&t, 0, 0), 0);
	assert_int_equal(t.unit[0].ctl, 0x2000);
	assert_int_equal(t.unit[1].ctl, 0x2010);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_cha0_is_a_unit),
		cmocka_unit_test(test_unit_defects),
		cmocka_unit_test(test_table_defects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
