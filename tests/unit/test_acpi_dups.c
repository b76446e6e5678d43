/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Duplicate tables and fixed limits (efi/fw/acpi.c, acpi_dup.c) over the synthetic platform
 * (tests/unit/acpi_synth.h). Real machines list two HPETs that disagree, or two MCFGs with
 * different bus ranges: the record must name the duplicate, both addresses, the one parsed and
 * why, and each differing field with both values. Expected values are the literal ones the
 * test wrote at the offsets of IA-PC HPET 1.0a table 3, PCI Firmware 3.3 table 4-3 and ACPI 6.5
 * 5.2.6 / 5.2.12. Limits: exactly at a limit nothing is reported; one past it, the record
 * names the limit and how many were not kept.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/fw/acpi.h"
#include "tests/unit/acpi_synth.h"
#include "tests/unit/acpi_json.h"

static struct acpi_info info;
static char json_buf[1 << 18];

static void expect_in_json(const char *want)
{
	assert_true(acpi_json_record(&info, json_buf, sizeof(json_buf)));
	if (!strstr(json_buf, want))
		fail_msg("missing %s in %s", want, json_buf);
}

/* The standard tables, then `extra` (n addresses) appended to the XSDT. */
static void list_extra(struct img *im, const uint64_t *extra, unsigned n)
{
	uint64_t t[SYN_NTABLES + 32] = { SYN_FACP, SYN_APIC, SYN_MCFG, SYN_SRAT,
					 SYN_HPET, SYN_SLIT, SYN_APMT, SYN_WAET };
	assert_true(n <= 32);
	memcpy(t + SYN_NTABLES, extra, n * sizeof(*extra));
	syn_xsdt(im, t, SYN_NTABLES + n);
	assert_int_equal(acpi_parse(&im->pm, SYN_RSDP, &info), 0);
}

/* The spare table the caller wrote (its checksum fixed here) listed after the standard ones:
 * the one duplicate it makes. */
static const struct acpi_dup *parse_spare_dup(struct img *im)
{
	acpi_fix(img_at(im, SYN_SPARE));
	const uint64_t extra[] = { SYN_SPARE };
	list_extra(im, extra, 1);
	assert_int_equal(info.ndups, 1);
	return &info.dup[0];
}

static void expect_diff(const struct acpi_dup *d, uint32_t k, const char *name, const char *used,
			const char *other)
{
	assert_true(k < d->ndiff);
	assert_string_equal(d->diff[k].name, name);
	assert_string_equal(d->diff[k].used, used);
	assert_string_equal(d->diff[k].other, other);
}

static void test_two_hpets_disagree(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	/* Second HPET: another block (base 0xFED01000), 32-bit counter, HPET number 1. */
	uint8_t *h = img_at(&im, SYN_SPARE);
	memcpy(h, img_at(&im, SYN_HPET), 56);
	put32(h + 36, 0x8086A001);
	put64(h + 44, 0xFED01000);
	h[52] = 1;
	const struct acpi_dup *d = parse_spare_dup(&im);

	/* The first HPET is the one parsed, and the second is listed with a note. */
	assert_int_equal(info.hpet.base.address, 0xFED00000);
	assert_true(info.table[SYN_NTABLES].valid);
	assert_false(info.table[SYN_NTABLES].parsed);
	assert_string_equal(info.table[SYN_NTABLES].defect, "duplicate of 0x7f005000: not parsed");

	assert_string_equal(d->sig, "HPET");
	assert_int_equal(d->used, SYN_HPET);
	assert_int_equal(d->other, SYN_SPARE);
	assert_int_equal(d->used_entry, 4);
	assert_int_equal(d->other_entry, SYN_NTABLES);
	assert_string_equal(d->why, "first valid HPET in XSDT order");
	assert_int_equal(d->ndiff, 3);
	expect_diff(d, 0, "event_timer_block_id", "0x8086a201", "0x8086a001");
	expect_diff(d, 1, "base_address.address", "0xfed00000", "0xfed01000");
	expect_diff(d, 2, "hpet_number", "0x0", "0x1");
	assert_int_equal(info.nlimits, 0);
	expect_in_json("\"duplicates\":[{\"sig\":\"HPET\",\"used\":\"0x7f005000\",\"other\":\"0x7f009000\","
		       "\"used_entry\":4,\"other_entry\":8,\"why\":\"first valid HPET in XSDT order\","
		       "\"identical\":false,\"differences\":[{\"field\":\"event_timer_block_id\","
		       "\"used\":\"0x8086a201\",\"other\":\"0x8086a001\"}");
	expect_in_json("\"differences_not_listed\":0}],\"limits\":[]");
	img_free(&im);
}

static void test_two_mcfgs_bus_ranges(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	/* The same three allocations, but segment 0 ends at bus 0x3f, and a newer OEM revision. */
	uint8_t *m = img_at(&im, SYN_SPARE);
	memcpy(m, img_at(&im, SYN_MCFG), 44 + 3 * 16);
	put32(m + 24, 2);
	m[44 + 11] = 0x3F;
	const struct acpi_dup *d = parse_spare_dup(&im);
	assert_int_equal(info.mcfg[0].end_bus, 0xFF);      /* the first MCFG's */
	assert_string_equal(d->sig, "MCFG");
	assert_int_equal(d->ndiff, 2);
	expect_diff(d, 0, "oem_revision", "0x1", "0x2");
	expect_diff(d, 1, "allocation[0].end_bus", "0xff", "0x3f");
	img_free(&im);
}

/* One allocation instead of three: the length, allocation 0's end bus, and the two
 * allocations only the first MCFG has. */
static void test_mcfg_fewer_allocations(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	uint8_t *m = img_at(&im, SYN_SPARE);
	acpi_hdr(m, "MCFG", 44 + 16, 1);
	mcfg_alloc(m + 44, 0xE0000000, 0, 0, 0x3F);
	const struct acpi_dup *d = parse_spare_dup(&im);
	assert_int_equal(d->ndiff, 4);
	expect_diff(d, 0, "length", "0x5c", "0x3c");
	expect_diff(d, 1, "allocation[0].end_bus", "0xff", "0x3f");
	expect_diff(d, 2, "allocation[1]", "present", "absent");
	expect_diff(d, 3, "allocation[2]", "present", "absent");
	assert_int_equal(info.nlimits, 0);
	img_free(&im);
}

/* An HPET differing in 11 fields, three more than ACPI_DUP_FIELDS lists: counted, and named as
 * a limit. */
static void test_dup_fields_limit(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	uint8_t *h = img_at(&im, SYN_SPARE);
	memcpy(h, img_at(&im, SYN_HPET), 56);
	memcpy(h + 10, "OTHER ", 6);
	memcpy(h + 16, "OTHERTBL", 8);
	put32(h + 24, 7);
	memcpy(h + 28, "ASL ", 4);
	put32(h + 32, 5);
	put32(h + 36, 0x10DEA001);
	h[40] = 1;
	h[41] = 32;
	put64(h + 44, 0x500);
	h[52] = 2;
	put16(h + 53, 0x40);
	const struct acpi_dup *d = parse_spare_dup(&im);
	assert_int_equal(d->ndiff, 11);
	expect_diff(d, 0, "oem_id", "EFIPRF", "OTHER ");
	expect_diff(d, 1, "oem_table_id", "SYNTHTBL", "OTHERTBL");
	expect_diff(d, 3, "creator_id", "TEST", "ASL ");
	expect_diff(d, 7, "base_address.bit_width", "0x40", "0x20");
	assert_int_equal(info.dup_fields_dropped, 3);
	assert_int_equal(info.nlimits, 1);
	assert_string_equal(info.limit[0].limit, "ACPI_DUP_FIELDS");
	assert_int_equal(info.limit[0].max, 8);
	assert_int_equal(info.limit[0].not_kept, 3);
	expect_in_json("\"differences_not_listed\":3}]");
	expect_in_json("\"limits\":[{\"limit\":\"ACPI_DUP_FIELDS\",\"max\":8,\"not_kept\":3,"
		       "\"what\":\"differing fields listed\"}]");
	img_free(&im);
}

static void test_identical_and_structure_range(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	/* A byte-identical copy of the MADT, and one whose second Local APIC has APIC ID 3. */
	uint8_t *a = img_at(&im, SYN_SPARE), *b = img_at(&im, SYN_SPARE + 0x1000);
	uint32_t len = syn_apic_body(a);
	acpi_hdr(a, "APIC", len, 6);
	acpi_fix(a);
	memcpy(b, a, len);
	b[44 + 8 + 3] = 3;
	acpi_fix(b);
	const uint64_t extra[] = { SYN_SPARE, SYN_SPARE + 0x1000 };
	list_extra(&im, extra, 2);
	assert_int_equal(info.ndups, 2);
	assert_int_equal(info.dup[0].ndiff, 0);
	assert_int_equal(info.dup[1].ndiff, 1);
	assert_int_equal(info.dup[1].used, SYN_APIC);
	/* Byte 0x37 = 44 + 8 + 3: inside the interrupt controller structures. */
	expect_diff(&info.dup[1], 0, "structures @0x37-0x37", "", "");
	expect_in_json("\"identical\":true,\"differences\":[]");
	expect_in_json("{\"field\":\"structures @0x37-0x37\",\"used\":null,\"other\":null}");
	img_free(&im);
}

static void test_dups_limit(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	/* The HPET listed 17 more times: 16 duplicates described, one counted. */
	uint64_t extra[ACPI_MAX_DUPS + 1];
	for (unsigned i = 0; i < ACPI_MAX_DUPS + 1; i++)
		extra[i] = SYN_HPET;
	list_extra(&im, extra, ACPI_MAX_DUPS);
	assert_int_equal(info.ndups, 16);
	assert_int_equal(info.nlimits, 0);
	list_extra(&im, extra, ACPI_MAX_DUPS + 1);
	assert_int_equal(info.ndups, 16);
	assert_int_equal(info.dups_dropped, 1);
	assert_int_equal(info.nlimits, 1);
	assert_string_equal(info.limit[0].limit, "ACPI_MAX_DUPS");
	assert_int_equal(info.limit[0].not_kept, 1);
	img_free(&im);
}

/* A root table of n entries: the MADT, then the WAET repeated. */
static void parse_root_of(struct img *im, unsigned n)
{
	static uint64_t list[300];
	assert_true(n <= 300);
	list[0] = SYN_APIC;
	for (unsigned i = 1; i < n; i++)
		list[i] = SYN_WAET;
	syn_xsdt(im, list, n);
	assert_int_equal(acpi_parse(&im->pm, SYN_RSDP, &info), 0);
}

static void test_table_limit(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	parse_root_of(&im, 256);           /* a real root table lists 52: 256 all kept */
	assert_int_equal(info.ntables, 256);
	assert_int_equal(info.tables_dropped, 0);
	assert_int_equal(info.nlimits, 0);
	assert_true(info.table[255].valid);
	parse_root_of(&im, 257);
	assert_int_equal(info.ntables, 256);
	assert_int_equal(info.tables_dropped, 1);
	assert_int_equal(info.nlimits, 1);
	assert_string_equal(info.limit[0].limit, "ACPI_MAX_TABLES");
	assert_int_equal(info.limit[0].max, 256);
	assert_int_equal(info.limit[0].not_kept, 1);
	expect_in_json("\"limits\":[{\"limit\":\"ACPI_MAX_TABLES\",\"max\":256,\"not_kept\":1,"
		       "\"what\":\"root table entries\"}]");
	img_free(&im);
}

/* An MCFG of n allocations, segment i at bus 0..0xff of its own 256 MiB window. */
static void mcfg_of(struct img *im, unsigned n)
{
	uint8_t *m = img_at(im, SYN_MCFG);
	memset(m, 0, 0x1000);
	acpi_hdr(m, "MCFG", 44 + 16 * n, 1);
	for (unsigned i = 0; i < n; i++)
		mcfg_alloc(m + 44 + 16 * i, 0x4000000000ull + ((uint64_t)i << 28), (uint16_t)i, 0, 0xFF);
	acpi_fix(m);
	syn_std_xsdt(im);
	assert_int_equal(acpi_parse(&im->pm, SYN_RSDP, &info), 0);
}

static void test_mcfg_limit(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	mcfg_of(&im, 64);
	assert_int_equal(info.nmcfg, 64);
	assert_int_equal(info.mcfg[63].segment, 63);
	assert_int_equal(info.mcfg[63].base, 0x4000000000ull + (63ull << 28));
	assert_int_equal(info.nlimits, 0);
	mcfg_of(&im, 65);
	assert_int_equal(info.nmcfg, 64);
	assert_int_equal(info.mcfg_dropped, 1);
	assert_int_equal(info.nlimits, 1);
	assert_string_equal(info.limit[0].limit, "ACPI_MAX_MCFG");
	assert_int_equal(info.limit[0].max, 64);
	assert_int_equal(info.limit[0].not_kept, 1);
	img_free(&im);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_hpets_disagree),
		cmocka_unit_test(test_two_mcfgs_bus_ranges),
		cmocka_unit_test(test_mcfg_fewer_allocations),
		cmocka_unit_test(test_dup_fields_limit),
		cmocka_unit_test(test_identical_and_structure_range),
		cmocka_unit_test(test_dups_limit),
		cmocka_unit_test(test_table_limit),
		cmocka_unit_test(test_mcfg_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
