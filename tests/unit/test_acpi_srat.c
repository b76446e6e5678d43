/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SRAT proximity domain width by table revision (efi/fw/acpi_srat.c). The table below is
 * literal bytes, laid out by hand from the SRAT structures of ACPI 6.5 section 5.2.16 (the
 * revision 1 layout is the same with the upper domain bytes reserved, as Linux's
 * drivers/acpi/numa/srat.c reads it): a revision 1 SRAT whose reserved upper domain bytes hold
 * junk must give the low 8 bits; the same bytes as revision 2 or 3 give all 32 bits.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/fw/acpi.h"
#include "tests/unit/acpi_synth.h"

static struct acpi_info info;

static const uint8_t srat_rev1[128] = {
	/* header: "SRAT", Length 128, Revision 1, Checksum 0x62, "EFIPRF", "SYNTHTBL",
	 * OEM Revision 1, Creator ID "TEST", Creator Revision 0x20250101 */
	0x53, 0x52, 0x41, 0x54, 0x80, 0x00, 0x00, 0x00, 0x01, 0x62, 0x45, 0x46,
	0x49, 0x50, 0x52, 0x46, 0x53, 0x59, 0x4e, 0x54, 0x48, 0x54, 0x42, 0x4c,
	0x01, 0x00, 0x00, 0x00, 0x54, 0x45, 0x53, 0x54, 0x01, 0x01, 0x25, 0x20,
	/* Reserved u32 = 1 @36, Reserved u64 @40 */
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* @48 type 0, length 16: domain low byte 0x03, APIC ID 5, Flags Enabled, SAPIC EID 0,
	 * bytes 9..11 (domain [31:8] since revision 2) 0xaa 0xbb 0xcc, clock domain 0 */
	0x00, 0x10, 0x03, 0x05, 0x01, 0x00, 0x00, 0x00, 0x00, 0xaa, 0xbb, 0xcc,
	0x00, 0x00, 0x00, 0x00,
	/* @64 type 1, length 40: domain bytes 0x02 0xde 0xad 0xbe, reserved u16,
	 * base 0x100000000, length 0x40000000, reserved u32, Flags Enabled, reserved u64 */
	0x01, 0x28, 0x02, 0xde, 0xad, 0xbe, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* @104 type 2, length 24: reserved u16, domain 0x01020304, x2APIC ID 0x100, Flags
	 * Enabled, clock domain 0, reserved u32 (x2APIC structures are 32-bit in any revision) */
	0x02, 0x18, 0x00, 0x00,
	0x04, 0x03, 0x02, 0x01, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* The synthetic platform with its SRAT replaced by srat_rev1 as revision rev. */
static void parse_with(struct img *im, uint8_t rev)
{
	syn_platform(im);
	uint8_t *t = img_at(im, SYN_SRAT);
	memset(t, 0, 0x1000);
	memcpy(t, srat_rev1, sizeof(srat_rev1));
	if (rev != 1) {
		t[8] = rev;
		acpi_fix(t);
	}
	assert_int_equal(acpi_parse(&im->pm, SYN_RSDP, &info), 0);
	assert_true(info.srat.present);
	assert_string_equal(info.srat.defect, "");
	assert_int_equal(info.srat.revision, rev);
	assert_int_equal(info.srat.ncpu, 2);
	assert_int_equal(info.srat.nmem, 1);
	assert_int_equal(info.srat.cpu[0].id, 5);
	assert_int_equal(info.srat.cpu[1].id, 0x100);
	assert_int_equal(info.srat.mem[0].base, 0x100000000ull);
	assert_int_equal(info.srat.mem[0].length, 0x40000000ull);
}

static void test_srat_rev1_low_byte(void **state)
{
	(void)state;
	struct img im;
	parse_with(&im, 1);
	/* The literal table's checksum is right as written: the table is valid unmodified. */
	assert_true(info.table[3].valid);
	assert_int_equal(info.srat.domain_bits, 8);
	assert_int_equal(info.srat.cpu[0].domain, 0x03);
	assert_int_equal(info.srat.mem[0].domain, 0x02);
	assert_int_equal(info.srat.cpu[1].domain, 0x01020304);
	assert_int_equal(info.srat.domain_upper_ignored, 2);
	img_free(&im);
}

static void test_srat_rev2_and_3_keep_32_bits(void **state)
{
	(void)state;
	for (uint8_t rev = 2; rev <= 3; rev++) {
		struct img im;
		parse_with(&im, rev);
		assert_int_equal(info.srat.domain_bits, 32);
		assert_int_equal(info.srat.cpu[0].domain, 0xccbbaa03u);
		assert_int_equal(info.srat.mem[0].domain, 0xbeadde02u);
		assert_int_equal(info.srat.cpu[1].domain, 0x01020304);
		assert_int_equal(info.srat.domain_upper_ignored, 0);
		img_free(&im);
	}
}

/* The synthetic platform with srat_rev1 in place of its SRAT, to be changed and acpi_fix()ed. */
static uint8_t *load_rev1(struct img *im)
{
	syn_platform(im);
	uint8_t *t = img_at(im, SYN_SRAT);
	memset(t, 0, 0x1000);
	memcpy(t, srat_rev1, sizeof(srat_rev1));
	return t;
}

/* Revision 1 with the reserved bytes zero, as firmware should write them: nothing ignored. */
static void test_srat_rev1_clean(void **state)
{
	(void)state;
	struct img im;
	uint8_t *t = load_rev1(&im);
	memset(t + 48 + 9, 0, 3);
	memset(t + 64 + 3, 0, 3);
	acpi_fix(t);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_int_equal(info.srat.cpu[0].domain, 0x03);
	assert_int_equal(info.srat.mem[0].domain, 0x02);
	assert_int_equal(info.srat.domain_upper_ignored, 0);
	img_free(&im);
}

/* A memory range whose last byte lies past 2^64 - 1 is a defect naming the entry, not a range. */
static void test_srat_wrapping_range(void **state)
{
	(void)state;
	struct img im;
	uint8_t *t = load_rev1(&im);
	/* entry @64: base @72 = 0xFFFFFFFFC0000000, length @80 = 0x80000000 (ends 2^30 past 2^64) */
	static const uint8_t base[8] = { 0x00, 0x00, 0x00, 0xc0, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t len[8] = { 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00 };
	memcpy(t + 72, base, 8);
	memcpy(t + 80, len, 8);
	acpi_fix(t);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_int_equal(info.srat.nmem, 0);
	assert_string_equal(info.srat.defect, "memory affinity at 0x40: base 0xffffffffc0000000 + length 0x80000000 "
					      "wraps past 2^64, skipped");
	/* length 0x40000000 ends on the last byte exactly: a range, no defect */
	t[83] = 0x40;
	acpi_fix(t);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_int_equal(info.srat.nmem, 1);
	assert_string_equal(info.srat.defect, "");
	img_free(&im);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_srat_rev1_low_byte),
		cmocka_unit_test(test_srat_rev2_and_3_keep_32_bits),
		cmocka_unit_test(test_srat_rev1_clean),
		cmocka_unit_test(test_srat_wrapping_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
