/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Companion ACPI devices of APMT ACPI-device nodes (efi/fw/apmt_companion.c) on SSDT bytes iasl
 * compiled from tests/aml/cspmu_companion_ssdt.asl (tests/unit.mk). Oracles are the ASL's
 * literals and ARM DEN0117's layout: an ACPI-device node's Instance primary holds the _HID's 8
 * ASCII bytes in memory order (read as a little-endian u64, "EFPT0001" is 0x3130303054504645),
 * Instance secondary the _UID; Linux arm_cspmu_acpi_dev_get matches the _UID as its decimal
 * string, so an integer _UID 7 and a string _UID "7" both match, "7x" does not.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/aml_file.h"

#include "efi/fw/apmt_companion.h"

#define HID_EFPT 0x3130303054504645ull     /* "EFPT0001" */
#define HID_NVDA 0x313230324144564Eull     /* "NVDA2021" */

static uint8_t ssdt[4096];
static uint32_t ssdt_len;
static struct aml_info info;
static struct acpi_apmt apmt;

static int load(void **state)
{
	(void)state;
	if (!ssdt_len)
		ssdt_len = aml_file_load("cspmu_companion_ssdt", ssdt, sizeof(ssdt));
	return ssdt_len > 36 ? 0 : -1;
}

static void add(uint8_t type, uint32_t id, uint64_t primary, uint32_t secondary)
{
	apmt.node[apmt.nnodes++] = (struct acpi_apmt_node){ .length = 56, .type = type, .id = id,
							    .inst_primary = primary, .inst_secondary = secondary };
}

static void setup_apmt(void)
{
	memset(&apmt, 0, sizeof(apmt));
	apmt.present = 1;
	add(3, 20, HID_EFPT, 1);
	add(3, 21, HID_EFPT, 2);
	add(3, 22, HID_EFPT, 7);
	add(3, 23, HID_EFPT, 9);          /* no such _UID */
	add(4, 24, HID_NVDA, 0);          /* a cache node: its primary is no HID */
	add(3, 25, 0x0102, 0);            /* not printable: no HID to keep */
	add(3, 26, HID_NVDA, 0);
}

static void parse(const char **want, uint32_t nwant)
{
	aml_host_reset(&info);
	info.want_hid = want;
	info.nwant = nwant;
	assert_int_equal(aml_parse_table(ssdt, ssdt_len, 1, &info), 0);
}

static void test_hid_bytes(void **state)
{
	(void)state;
	char hid[9];
	apmt_node_hid(HID_EFPT, hid);
	assert_string_equal(hid, "EFPT0001");
	apmt_node_hid(0x4241, hid);       /* "AB": ends at the first NUL */
	assert_string_equal(hid, "AB");
}

static void test_keep_list(void **state)
{
	(void)state;
	setup_apmt();
	char store[ACPI_MAX_APMT][9];
	const char *want[ACPI_MAX_APMT];
	assert_int_equal(apmt_companion_hids(&apmt, store, want, ACPI_MAX_APMT), 2);
	assert_string_equal(want[0], "EFPT0001");
	assert_string_equal(want[1], "NVDA2021");
	assert_int_equal(apmt_companion_hids(&apmt, store, want, 1), 1);
	parse(want, 1);
	assert_int_equal(info.ndev, 4);   /* TGT1, TGT2, TGT7, TGTX */
	/* a keep-list without the HID: the devices are only counted */
	static const char *other[] = { "NVDA2021" };
	parse(other, 1);
	assert_int_equal(info.ndev, 0);
	assert_int_equal(info.dev_other, 4);
	struct apmt_companion c;
	apmt_companion_of(&apmt.node[0], &info, &c);
	assert_int_equal(c.found, 0);
}

static void test_lookup(void **state)
{
	(void)state;
	setup_apmt();
	static const char *want[] = { "EFPT0001" };
	parse(want, 1);
	struct apmt_companion c;
	apmt_companion_of(&apmt.node[0], &info, &c);
	assert_int_equal(c.apmt_id, 20);
	assert_true(c.found && c.has_instance_id && c.has_block);
	assert_string_equal(c.path, "\\_SB_.TGT1");
	assert_int_equal(c.instance_id, 3);
	assert_int_equal(c.block, 0x800021000ull);   /* the first memory resource, not the second */
	assert_int_equal(c.block_len, 0x1000);
	assert_string_equal(c.why, "");
	apmt_companion_of(&apmt.node[1], &info, &c);
	assert_true(c.found && c.has_instance_id && !c.has_block);
	assert_int_equal(c.instance_id, 5);
	assert_non_null(strstr(c.why, "no _CRS"));
	assert_non_null(strstr(c.why, "\\_SB_.TGT2"));
	apmt_companion_of(&apmt.node[2], &info, &c);
	assert_true(c.found && !c.has_instance_id && c.has_block);
	assert_string_equal(c.path, "\\_SB_.TGT7");  /* _UID "7" matches 7; "7x" would not */
	assert_int_equal(c.block, 0x40000000);
	assert_non_null(strstr(c.why, "no _DSD instance_id"));
	apmt_companion_of(&apmt.node[3], &info, &c);
	assert_int_equal(c.found, 0);
	assert_non_null(strstr(c.why, "_HID \"EFPT0001\" and _UID 9"));
	apmt_companion_of(&apmt.node[5], &info, &c);   /* instance primary 0x102 */
	assert_int_equal(c.found, 0);
	assert_string_equal(c.why, "the node's instance primary 0x102 is no _HID");
	assert_null(aml_find_hid_uid(&info, "EFPT0001", 8));
	assert_string_equal(aml_find_hid_uid(&info, "EFPT0001", 2)->path, "\\_SB_.TGT2");
}

static int unload(void **state)
{
	(void)state;
	aml_info_free(&info);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hid_bytes),
		cmocka_unit_test(test_keep_list),
		cmocka_unit_test(test_lookup),
	};
	return cmocka_run_group_tests(tests, load, unload);
}
