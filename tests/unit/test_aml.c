/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The bounded AML reader (efi/fw/aml.c) on bytes iasl compiled (tests/aml/nv_pmu_ssdt.asl,
 * built by tests/unit.mk with Debian's acpica-tools) and on hand-assembled bytes. Expected
 * values are read off the ASL source by hand (addresses, lengths, _UIDs, property values) and
 * from the EISAID encoding of ACPI 6.5 19.6 worked by hand (EISAID("PNP0A08"): letters P N P as
 * 5-bit 0x10 0x0E 0x10 = 0x41D0 big-endian, then 0x0A 0x08: bytes 41 D0 0A 08); the
 * offsets of patched objects come from searching the compiled bytes, not from the reader.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/aml_file.h"

#include "efi/fw/aml.h"

static struct aml_info info;
static uint8_t ssdt[8192];
static uint32_t ssdt_len;

static int load(void **state)
{
	(void)state;
	if (!ssdt_len)
		ssdt_len = aml_file_load("nv_pmu_ssdt", ssdt, sizeof(ssdt));
	return ssdt_len > 36 ? 0 : -1;
}

static void reset(void) { aml_host_reset(&info); }

static const struct aml_device *by_path(const char *path)
{
	for (uint32_t i = 0; i < info.ndev; i++)
		if (!strcmp(info.dev[i].path, path))
			return &info.dev[i];
	return NULL;
}

static const uint64_t BAR = 0x800000000ull;   /* tests/aml/nv_pmu_ssdt.asl */

static void test_iasl_ssdt_devices(void **state)
{
	(void)state;
	reset();
	assert_int_equal(aml_parse_table(ssdt, ssdt_len, 1, &info), 0);
	for (uint32_t i = 0; i < info.ndefects; i++)
		print_message("defect: %s\n", info.defect[i]);
	assert_int_equal(info.ndefects, 0);
	assert_int_equal(info.ndev, 5);          /* CM00 C2C0 MIXD SUB0 BAD0 */

	const struct aml_device *cm = by_path("\\_SB_.CM00");
	assert_non_null(cm);
	assert_string_equal(cm->hid, "NVDA2021");
	assert_string_equal(cm->table, "SSDT");
	assert_int_equal(cm->table_index, 1);
	assert_true(cm->has_uid && !cm->uid_is_string);
	assert_int_equal(cm->uid, 0);
	assert_int_equal(cm->nranges, 15);
	for (uint32_t i = 0; i < 15; i++) {
		assert_int_equal(cm->range[i].base, BAR + i * 0x1000);
		assert_int_equal(cm->range[i].length, 0x1000);
		assert_int_equal(cm->range[i].kind, AML_QWORD_MEM);
	}
	assert_int_equal(cm->nprops, 0);

	const struct aml_device *c2c = by_path("\\_SB_.C2C0");
	assert_non_null(c2c);
	assert_string_equal(c2c->hid, "NVDA2023");
	assert_int_equal(c2c->uid, 1);
	assert_int_equal(c2c->nranges, 15);
	assert_int_equal(c2c->range[14].base, BAR + 0x1E000);
	uint64_t v = 0;
	assert_true(aml_prop_u64(c2c, "gpu0_en_mask", &v));
	assert_int_equal(v, 0xFF);
	assert_true(aml_prop_u64(c2c, "gpu1_en_mask", &v));
	assert_int_equal(v, 0x3F00);
	assert_false(aml_prop_u64(c2c, "cpu_en_mask", &v));

	const struct aml_device *mx = by_path("\\_SB_.MIXD");
	assert_non_null(mx);
	assert_string_equal(mx->hid, "PNP0C02");
	assert_true(mx->has_uid && mx->uid_is_string);
	assert_string_equal(mx->uid_str, "17");
	assert_int_equal(mx->uid, 17);
	assert_int_equal(mx->nranges, 3);        /* IO and DWordIO are not memory */
	assert_int_equal(mx->range[0].kind, AML_MEM32_FIXED);
	assert_int_equal(mx->range[0].base, 0xFED00000);
	assert_int_equal(mx->range[0].length, 0x400);
	assert_int_equal(mx->range[1].kind, AML_DWORD_MEM);
	assert_int_equal(mx->range[1].base, 0xFE000000);
	assert_int_equal(mx->range[1].length, 0x100000);
	assert_int_equal(mx->range[2].kind, AML_EXT_MEM);
	assert_int_equal(mx->range[2].base, 0x100000000ull);
	assert_int_equal(mx->range[2].length, 0x2000);
	/* the hierarchical-data UUID's package is skipped; device properties read */
	assert_int_equal(mx->nprops, 2);
	assert_string_equal(mx->prop[0].name, "label");
	assert_true(mx->prop[0].is_string);
	assert_string_equal(mx->prop[0].str, "mix");
	assert_true(aml_prop_u64(mx, "count", &v));
	assert_int_equal(v, 3);

	const struct aml_device *sub = by_path("\\_SB_.MIXD.SUB0");
	assert_non_null(sub);
	assert_string_equal(sub->hid, "EFIP0001");
	assert_int_equal(sub->uid, 0x123456789ull);

	uint32_t from = 0;
	const struct aml_device *a = aml_find_hid(&info, "NVDA2021", &from);
	const struct aml_device *b = aml_find_hid(&info, "NVDA2021", &from);
	assert_ptr_equal(a, cm);
	assert_non_null(b);
	assert_string_equal(b->path, "\\_SB_.BAD0");
	assert_null(aml_find_hid(&info, "NVDA2021", &from));
}

/* The caller's _HID list: only those devices are kept, the others with a _HID counted. */
static void test_wanted_hids(void **state)
{
	(void)state;
	static const char *const want[] = { "NVDA2023", "EFIP0001" };
	reset();
	info.want_hid = want;
	info.nwant = 2;
	assert_int_equal(aml_parse_table(ssdt, ssdt_len, 1, &info), 0);
	assert_int_equal(info.ndev, 2);
	assert_string_equal(info.dev[0].path, "\\_SB_.C2C0");
	assert_string_equal(info.dev[1].path, "\\_SB_.MIXD.SUB0");   /* nested in a device not kept */
	assert_int_equal(info.dev_other, 3);                          /* CM00, MIXD, BAD0 */
	assert_int_equal(info.ntables, 1);
	assert_string_equal(info.table[0].sig, "SSDT");
	assert_int_equal(info.table[0].length, ssdt_len);
	assert_int_equal(info.table[0].rc, 0);
}

/* Offset of the DeviceOp (0x5B 0x82) whose NameSeg is seg, found in the bytes. */
static uint32_t device_op(const uint8_t *t, uint32_t len, const char *seg)
{
	for (uint32_t i = 0; i + 7 < len; i++)
		if (t[i] == 0x5B && t[i + 1] == 0x82 && !memcmp(t + i + 3, seg, 4))
			return i;
	fail_msg("no Device(%s) with a one-byte PkgLength in the table", seg);
	return 0;
}

static void test_cut_short_device_is_a_defect(void **state)
{
	(void)state;
	static uint8_t t[8192];
	memcpy(t, ssdt, ssdt_len);
	uint32_t off = device_op(t, ssdt_len, "BAD0");
	assert_true(t[off + 2] < 0x3F);
	t[off + 2] = 0x3F;                       /* 63 bytes: past the table's end */
	reset();
	assert_int_equal(aml_parse_table(t, ssdt_len, 2, &info), 0);
	assert_int_equal(info.ndev, 4);          /* BAD0 not used, the others are */
	assert_null(by_path("\\_SB_.BAD0"));
	assert_non_null(by_path("\\_SB_.C2C0"));
	assert_int_equal(info.ndefects, 1);
	char want[64];
	snprintf(want, sizeof(want), "SSDT[2] @0x%x \\_SB_.BAD0: Device PkgLength 0x3f", off);
	print_message("%s\n", info.defect[0]);
	assert_non_null(strstr(info.defect[0], want));
	assert_non_null(strstr(info.defect[0], "cut short"));
}

/* Every prefix of the table, its Length field set to the prefix: never a read past it (ASan),
 * never a range or device the whole table does not have. */
static void test_every_prefix(void **state)
{
	(void)state;
	reset();
	aml_parse_table(ssdt, ssdt_len, 0, &info);
	uint32_t full = info.ndev;
	/* the one top-level boundary inside the table: the second Scope(\_SB), 7 bytes before
	 * Device(BAD0) (ScopeOp, a 1-byte PkgLength, "\_SB_") */
	uint32_t boundary = device_op(ssdt, ssdt_len, "BAD0") - 7;
	assert_int_equal(ssdt[boundary], 0x10);
	for (uint32_t n = 0; n < ssdt_len; n++) {
		uint8_t *t = malloc(n ? n : 1);
		memcpy(t, ssdt, n);
		if (n >= 8) {
			t[4] = (uint8_t)n;
			t[5] = (uint8_t)(n >> 8);
			t[6] = t[7] = 0;
		}
		reset();
		int rc = aml_parse_table(t, n, 0, &info);
		free(t);                         /* before any assertion: a failure must not leak */
		assert_int_equal(rc, n < 36 ? -1 : 0);
		assert_true(info.ndev <= full);
		if (n > 36 && n < ssdt_len && n != boundary)
			assert_true(info.ndefects >= 1);
		for (uint32_t i = 0; i < info.ndev; i++)
			assert_true(info.dev[i].nranges <= 15);
	}
}

/* Hand-assembled: a 36-byte header and the given body. */
static uint32_t table(uint8_t *t, const uint8_t *body, uint32_t n)
{
	memset(t, 0, 36);
	memcpy(t, "DSDT", 4);
	uint32_t len = 36 + n;
	t[4] = (uint8_t)len;
	t[5] = (uint8_t)(len >> 8);
	memcpy(t + 36, body, n);
	return len;
}

static void test_hand_assembled(void **state)
{
	(void)state;
	uint8_t t[512];
	/* Scope(\_SB) with a 2-byte PkgLength (0x40 | low nibble, then the next 8 bits):
	 *   Device(PCI0){ Name(_HID, EisaId("PNP0A08")) Method(_STA,0){ Return(0x0F) } } */
	static const uint8_t body[] = {
		0x10, 0x43, 0x02, '\\', '_', 'S', 'B', '_',                 /* PkgLength 0x3 | 0x02 << 4 = 0x23 */
		0x5B, 0x82, 0x19, 'P', 'C', 'I', '0',
		0x08, '_', 'H', 'I', 'D', 0x0C, 0x41, 0xD0, 0x0A, 0x08,
		0x14, 0x09, '_', 'S', 'T', 'A', 0x00, 0xA4, 0x0A, 0x0F,
		0xA3,                                                       /* Noop */
	};
	reset();
	assert_int_equal(aml_parse_table(t, table(t, body, sizeof(body)), 0, &info), 0);
	assert_int_equal(info.ndefects, 0);
	assert_int_equal(info.ndev, 1);
	assert_string_equal(info.dev[0].path, "\\_SB_.PCI0");
	assert_string_equal(info.dev[0].hid, "PNP0A08");
	assert_false(info.dev[0].has_uid);

	/* a byte that is no AML opcode (0x02, ACPI 6.5 20.3 assigns it none) ends its scope with
	 * a defect naming it; the next top-level scope is still read */
	static const uint8_t body2[] = {
		0x10, 0x0D, '_', 'S', 'B', '_', 0x02, 'B', 'U', 'F', 'F', 0x00, 'X', 'X',
		0x10, 0x16, '_', 'G', 'P', 'E', 0x5B, 0x82, 0x0F, 'D', 'E', 'V', '1',
		0x08, '_', 'H', 'I', 'D', 0x0D, 'A', 'B', 'C', 0x00,
	};
	reset();
	assert_int_equal(aml_parse_table(t, table(t, body2, sizeof(body2)), 3, &info), 0);
	assert_int_equal(info.ndefects, 1);
	assert_string_equal(info.defect[0], "DSDT[3] @0x2a \\_SB_: object (opcode 0x02): not an AML term opcode "
					    "(ACPI 6.5 20.3); rest of the scope not read");
	assert_int_equal(info.ndev, 1);
	assert_string_equal(info.dev[0].path, "\\_GPE.DEV1");
	assert_string_equal(info.dev[0].hid, "ABC");

	/* a Buffer (_CRS) whose PkgLength runs past its Device: the device is kept without it */
	static const uint8_t body3[] = {
		0x5B, 0x82, 0x18, 'D', 'E', 'V', '2',
		0x08, '_', 'H', 'I', 'D', 0x0D, 'X', 0x00,
		0x08, '_', 'C', 'R', 'S', 0x11, 0x30, 0x0A, 0x02, 0x79, 0x00,
	};
	reset();
	assert_int_equal(aml_parse_table(t, table(t, body3, sizeof(body3)), 0, &info), 0);
	assert_int_equal(info.ndev, 1);
	assert_false(info.dev[0].has_crs);
	assert_int_equal(info.ndefects, 1);
	assert_non_null(strstr(info.defect[0], "@0x33 \\DEV2: Name (opcode 0x08): PkgLength runs past the enclosing "
				      "object (the operand at 0x38, opcode 0x11)"));
	assert_non_null(strstr(info.defect[0], "PkgLength runs past"));

	/* a large resource descriptor longer than its buffer */
	static const uint8_t body4[] = {
		0x5B, 0x82, 0x1C, 'D', 'E', 'V', '3',
		0x08, '_', 'H', 'I', 'D', 0x0D, 'X', 0x00,
		0x08, '_', 'C', 'R', 'S', 0x11, 0x09, 0x0A, 0x06, 0x86, 0x09, 0x00, 0x01, 0x00, 0x10,
	};
	reset();
	assert_int_equal(aml_parse_table(t, table(t, body4, sizeof(body4)), 0, &info), 0);
	assert_int_equal(info.ndev, 1);
	assert_true(info.dev[0].has_crs);
	assert_int_equal(info.dev[0].nranges, 0);
	assert_int_equal(info.ndefects, 1);
	assert_non_null(strstr(info.defect[0], "_CRS descriptor 0x86 runs past the buffer's end"));
}

static void test_depth_bound(void **state)
{
	(void)state;
	/* 40 nested Scope(A___) objects, each 7 bytes (op, 2-byte PkgLength to the end, NameSeg):
	 * the reader stops at AML_MAX_DEPTH with one defect */
	uint8_t b2[40 * 7], t[400];
	uint32_t n = 40 * 7;
	for (uint32_t i = 0; i < 40; i++) {
		uint32_t rest = n - i * 7 - 1;
		b2[i * 7] = 0x10;
		b2[i * 7 + 1] = (uint8_t)(0x40 | (rest & 0xF));
		b2[i * 7 + 2] = (uint8_t)(rest >> 4);
		memcpy(b2 + i * 7 + 3, "A___", 4);
	}
	reset();
	assert_int_equal(aml_parse_table(t, table(t, b2, n), 0, &info), 0);
	assert_int_equal(info.ndefects, 1);
	assert_non_null(strstr(info.defect[0], "nesting deeper than 16 levels"));
}

static void test_bad_header(void **state)
{
	(void)state;
	uint8_t t[40] = "SSDT";
	reset();
	assert_int_equal(aml_parse_table(t, 20, 0, &info), -1);
	assert_non_null(strstr(info.defect[0], "shorter than its 36-byte header"));
	t[4] = 200;                               /* Length beyond the bytes given */
	reset();
	assert_int_equal(aml_parse_table(t, 40, 0, &info), -1);
	assert_non_null(strstr(info.defect[0], "header Length 200 is outside [36, 40]"));
}

/* t[0..n) read into a fresh info as table 0, with no defect (each one printed first). */
static void parse_clean(const uint8_t *t, uint32_t n)
{
	reset();
	assert_int_equal(aml_parse_table(t, n, 0, &info), 0);
	for (uint32_t i = 0; i < info.ndefects; i++)
		print_message("defect: %s\n", info.defect[i]);
	assert_int_equal(info.ndefects, 0);
}

/* One Device(DEV0) holding body[0..n) after a Name(_HID, "HID0000"), inside Scope(\_SB): the
 * hand-assembled bytes of the cases. A 2-byte PkgLength (lead 0x40 | low nibble, then
 * bits 11:4) on both, so bodies up to 4095 bytes fit. Returns the table's length. */
static uint32_t in_device(uint8_t *t, const uint8_t *body, uint32_t n)
{
	uint8_t b[1024];
	uint32_t k = 0, dev_len = 2 + 4 + 14 + n, scope_len = 2 + 4 + 2 + dev_len;
	b[k++] = 0x10;
	b[k++] = (uint8_t)(0x40 | (scope_len & 0xF));
	b[k++] = (uint8_t)(scope_len >> 4);
	memcpy(b + k, "_SB_", 4), k += 4;
	b[k++] = 0x5B, b[k++] = 0x82;
	b[k++] = (uint8_t)(0x40 | (dev_len & 0xF));
	b[k++] = (uint8_t)(dev_len >> 4);
	memcpy(b + k, "DEV0", 4), k += 4;
	static const uint8_t hid[] = { 0x08, '_', 'H', 'I', 'D', 0x0D, 'H', 'I', 'D', '0', '0', '0', '0', 0x00 };
	memcpy(b + k, hid, sizeof(hid)), k += sizeof(hid);
	memcpy(b + k, body, n), k += n;
	return table(t, b, k);
}

/* The byte sequences, each followed by a Device that must still be read. */
static void test_real_firmware_shapes(void **state)
{
	(void)state;
	uint8_t t[1200];
	static const uint8_t after[] = { 0x5B, 0x82, 0x0D, 'N', 'E', 'X', 'T', 0x08, '_', 'H', 'I', 'D', 0x0D, 'N', 0x00 };
	uint8_t b[512];
	uint32_t n;
	/* Qualcomm: Name(SIDS, "SC8280") followed by zero padding at device scope, three ZeroOps,
	 * then OneOp and OnesOp statements */
	static const uint8_t pad[] = { 0x08, 'S', 'I', 'D', 'S', 0x0D, 'S', 'C', '8', '2', '8', '0', 0x00, 0x00, 0x00, 0x00,
				       0x01, 0xFF };
	/* OperationRegion (SANV, SystemMemory, SANB, SANL) */
	static const uint8_t region[] = { 0x5B, 0x80, 0x53, 0x41, 0x4E, 0x56, 0x00, 0x53, 0x41, 0x4E, 0x42, 0x53, 0x41, 0x4E, 0x4C };
	/* Name (HPSB, Buffer (SBSZ) {0x00}) */
	static const uint8_t buffer[] = { 0x08, 0x48, 0x50, 0x53, 0x42, 0x11, 0x06, 0x53, 0x42, 0x53, 0x5A, 0x00 };
	/* CreateDWordField (BUF0, 0x04, FLD0) and OperationRegion (GNVS, SystemMemory,
	 * Add (BASE, 0x10), 0x20) */
	static const uint8_t create[] = { 0x8A, 'B', 'U', 'F', '0', 0x0A, 0x04, 'F', 'L', 'D', '0',
					  0x5B, 0x80, 'G', 'N', 'V', 'S', 0x00, 0x72, 'B', 'A', 'S', 'E', 0x0A, 0x10, 0x00,
					  0x0A, 0x20 };
	const struct { const uint8_t *b; uint32_t n; } cases[] = {
		{ pad, sizeof(pad) }, { region, sizeof(region) }, { buffer, sizeof(buffer) }, { create, sizeof(create) },
	};
	for (uint32_t c = 0; c < 4; c++) {
		memcpy(b, cases[c].b, cases[c].n);
		memcpy(b + cases[c].n, after, sizeof(after));
		n = in_device(t, b, cases[c].n + (uint32_t)sizeof(after));
		parse_clean(t, n);
		assert_int_equal(info.ndev, 2);
		assert_string_equal(info.dev[0].path, "\\_SB_.DEV0");
		assert_string_equal(info.dev[0].hid, "HID0000");
		assert_string_equal(info.dev[1].path, "\\_SB_.DEV0.NEXT");
		assert_string_equal(info.dev[1].hid, "N");
		assert_true(info.dev[1].hid_odd);
		assert_false(info.dev[0].hid_odd);
	}
}

/* Method invocations at scope level take their declared ArgCount; undeclared names are plain
 * references; External MethodObj declares one; \_OSI is predefined with one argument. */
static void test_method_invocations(void **state)
{
	(void)state;
	uint8_t t[600];
	static const uint8_t body[] = {
		0x14, 0x08, 'M', 'T', 'H', '2', 0x02, 0xA4, 0x00,          /* Method (MTH2, 2) { Return (Zero) } */
		0x15, 'E', 'X', 'T', '1', 0x08, 0x01,                      /* External (EXT1, MethodObj) 1 arg */
		'M', 'T', 'H', '2', 0x0A, 0x05, 'U', 'N', 'D', 'F',       /* MTH2 (0x05, UNDF) */
		'E', 'X', 'T', '1', 0x01,                                  /* EXT1 (One) */
		'U', 'N', 'D', 'F',                                        /* UNDF: a reference */
		0xA0, 0x1E, '\\', '_', 'O', 'S', 'I', 0x0D, 'W', 'i', 'n', 'd', 'o', 'w', 's', 0x00,   /* If (\_OSI ("Windows")) */
		0x5B, 0x82, 0x0D, 'I', 'N', 'I', 'F', 0x08, '_', 'H', 'I', 'D', 0x0D, 'I', 0x00,     /* { Device (INIF) } */
		0xA1, 0x17, 0x5B, 0x82, 0x14, 'I', 'N', 'E', 'L', 0x08, '_', 'U', 'I', 'D', 0x0A, 0x07,   /* Else { Device (INEL) */
		0x08, '_', 'H', 'I', 'D', 0x0D, 'E', 0x00,              /* { _UID 7, _HID "E" } } */
	};
	uint32_t n = in_device(t, body, sizeof(body));
	parse_clean(t, n);
	assert_int_equal(info.ndev, 3);
	assert_string_equal(info.dev[1].path, "\\_SB_.DEV0.INIF");
	assert_string_equal(info.dev[2].path, "\\_SB_.DEV0.INEL");
	assert_int_equal(info.dev[2].uid, 7);
	/* names declared: \_OSI, MTH2, EXT1 (methods); DEV0, INIF, INEL and their four Names */
	assert_int_equal(info.nmethod, 10);

	/* the same bytes, MTH2 declared with seven arguments: its invocation takes everything up
	 * to the Device's end as arguments (the If and Else among them), then one more is missing:
	 * the ArgCount decides the sizing, as in ACPICA */
	uint8_t t2[600];
	memcpy(t2, t, n);
	t2[36 + 7 + 8 + 14 + 6] = 0x07;     /* header, Scope, Device, _HID, Method bytes */
	reset();
	assert_int_equal(aml_parse_table(t2, n, 0, &info), 0);
	assert_int_equal(info.ndefects, 1);
	print_message("%s\n", info.defect[0]);
	assert_non_null(strstr(info.defect[0], "\\_SB_.DEV0: name or method invocation (opcode 0x4d): operand missing: the enclosing "
					      "object ends first"));
	assert_int_equal(info.ndev, 1);

	/* a Name nearer than the method shadows it (ACPI 6.5 5.3): Method (\\MTH1, 1) at the root,
	 * Name (MTH1, Zero) in the Device; MTH1 there is a reference, so the Zero after it is a
	 * statement of its own and no argument (else the Device named ZERO below would be eaten) */
	static const uint8_t shadow[] = {
		0x08, 'M', 'T', 'H', '1', 0x00,                             /* Name (MTH1, Zero) */
		'M', 'T', 'H', '1',                                         /* MTH1 */
		0x5B, 0x82, 0x0D, 'Z', 'E', 'R', 'O', 0x08, '_', 'H', 'I', 'D', 0x0D, 'Z', 0x00,
	};
	static const uint8_t root_method[] = { 0x14, 0x07, '\\', 'M', 'T', 'H', '1', 0x01 };
	uint8_t t3[600], b3[300];
	memcpy(b3, root_method, sizeof(root_method));
	uint32_t n3 = in_device(t3, shadow, sizeof(shadow));
	/* the root Method before the Scope: shift the Scope and add the method's bytes */
	memmove(t3 + 36 + sizeof(root_method), t3 + 36, n3 - 36);
	memcpy(t3 + 36, b3, sizeof(root_method));
	n3 += (uint32_t)sizeof(root_method);
	t3[4] = (uint8_t)n3;
	t3[5] = (uint8_t)(n3 >> 8);
	parse_clean(t3, n3);
	assert_int_equal(info.ndev, 2);
	assert_string_equal(info.dev[1].path, "\\_SB_.DEV0.ZERO");
	/* without the Name, MTH1 resolves to the root method and takes the Device as its argument */
	t3[36 + sizeof(root_method) + 7 + 8 + 14 + 1] = 'X';       /* Name (XTH1, Zero) */
	reset();
	assert_int_equal(aml_parse_table(t3, n3, 0, &info), 0);
	assert_int_equal(info.ndev, 1);
}

/* More devices than the old fixed 32, strings longer than 8 and 16 characters, and _DSD values
 * that are packages, buffers and references. */
static void test_many_devices_long_strings_dsd(void **state)
{
	(void)state;
	static uint8_t t[8192];
	uint8_t b[8000];
	uint32_t k = 0;
	for (int i = 0; i < 100; i++) {           /* Device (Dnnn) { Name (_HID, "ACPI0007") Name (_UID, i) } */
		static const uint8_t d[] = { 0x5B, 0x82, 0x1B, 'D', '0', '0', '0', 0x08, '_', 'H', 'I', 'D', 0x0D,
					     'A', 'C', 'P', 'I', '0', '0', '0', '7', 0x00, 0x08, '_', 'U', 'I', 'D', 0x0A, 0 };
		memcpy(b + k, d, sizeof(d));
		b[k + 4] = (uint8_t)('0' + i / 100), b[k + 5] = (uint8_t)('0' + i / 10 % 10), b[k + 6] = (uint8_t)('0' + i % 10);
		b[k + sizeof(d) - 1] = (uint8_t)i;
		k += sizeof(d);
	}
	static const uint8_t odd[] = {
		0x5B, 0x82, 0x44, 0x06, 'O', 'D', 'D', '0',                 /* PkgLength 0x64 */
		0x08, '_', 'H', 'I', 'D', 0x0D, 'O', 'E', 'M', '2', 'U', 'P', 'D', 'X', '6', '5', 'M', 'P', 'A', 0x00,
		0x08, '_', 'U', 'I', 'D', 0x0D, 'U', 'S', 'B', ' ', '_', 'P', 'L', 'D', ' ', 'O', 'b', 'j', 'e', 'c', 't',
		' ', 'C', 'o', 'n', 't', 'a', 'i', 'n', 'e', 'r', 0x00,
		0x08, '_', 'D', 'S', 'D', 0x12, 0x24, 0x02,                 /* Package (2) { ToUUID, Package (3) { */
		0x11, 0x13, 0x0A, 0x10, 0x14, 0xd8, 0xff, 0xda, 0xba, 0x6e, 0x8c, 0x4d, 0x8a, 0x91, 0xbc, 0x9b, 0xbf, 0x4a,
		0xa3, 0x01,
		0x12, 0x0D, 0x01, 0x12, 0x0A, 0x02, 0x0D, 'r', 0x00, '\\', '_', 'S', 'B', '_',   /* {"r", \_SB_} */
	};
	memcpy(b + k, odd, sizeof(odd));
	k += sizeof(odd);
	uint32_t n = table(t, b, k);
	parse_clean(t, n);
	assert_int_equal(info.ndev, 101);
	assert_int_equal(info.dev_dropped, 0);
	assert_string_equal(info.dev[99].path, "\\D099");
	assert_int_equal(info.dev[99].uid, 99);
	const struct aml_device *o = &info.dev[100];
	assert_string_equal(o->hid, "OEM2UPDX65MPA");
	assert_true(o->hid_odd);
	assert_string_equal(o->uid_str, "USB _PLD Object Container");
	assert_int_equal(o->nprops, 1);
	assert_int_equal(o->prop[0].kind, AML_PROP_REF);
	assert_string_equal(o->prop[0].name, "r");
	assert_string_equal(o->prop[0].str, "\\_SB_");
	uint32_t from = 0;
	assert_ptr_equal(aml_find_hid(&info, "OEM2UPDX65MPA", &from), o);
	assert_ptr_equal(aml_find_hid_uid(&info, "ACPI0007", 64), &info.dev[64]);

	/* a pool that gives nothing: no device kept, each counted, no name recorded; one defect
	 * says so for each */
	reset();
	info.pool_alloc = NULL;
	assert_int_equal(aml_parse_table(t, n, 0, &info), 0);
	assert_int_equal(info.ndev, 0);
	assert_int_equal(info.dev_dropped, 101);
	assert_int_equal(info.ndefects, 2);
	assert_non_null(strstr(info.defect[0], "the pool gave no room to record the names declared"));
	assert_non_null(strstr(info.defect[1], "the pool gave no room for more than 0 devices"));
}

/* _DSD property values that are a package and a buffer: kept with their counts, no defect. */
static void test_dsd_package_and_buffer_values(void **state)
{
	(void)state;
	uint8_t t[200];
	static const uint8_t body[] = {
		0x5B, 0x82, 0x45, 0x04, 'P', 'K', 'G', '0',                 /* PkgLength 0x45 */
		0x08, '_', 'H', 'I', 'D', 0x0D, 'X', 0x00,
		0x08, '_', 'D', 'S', 'D', 0x12, 0x31, 0x02,                 /* Package (2) { ToUUID, */
		0x11, 0x13, 0x0A, 0x10, 0x14, 0xd8, 0xff, 0xda, 0xba, 0x6e, 0x8c, 0x4d, 0x8a, 0x91, 0xbc, 0x9b, 0xbf, 0x4a,
		0xa3, 0x01,
		0x12, 0x1A, 0x02,                                           /* Package (2) { */
		0x12, 0x0B, 0x02, 0x0D, 'a', 0x00, 0x12, 0x05, 0x02, 0x01, 0x0A, 0x02,   /* {"a", {One, 2}} */
		0x12, 0x0B, 0x02, 0x0D, 'b', 0x00, 0x11, 0x05, 0x0A, 0x02, 0xAA, 0xBB,   /* {"b", Buffer (2)} } } */
	};
	parse_clean(t, table(t, body, sizeof(body)));
	assert_int_equal(info.ndev, 1);
	const struct aml_device *d = &info.dev[0];
	assert_int_equal(d->nprops, 2);
	assert_string_equal(d->prop[0].name, "a");
	assert_int_equal(d->prop[0].kind, AML_PROP_PKG);
	assert_int_equal(d->prop[0].value, 2);
	assert_string_equal(d->prop[1].name, "b");
	assert_int_equal(d->prop[1].kind, AML_PROP_BUF);
	assert_int_equal(d->prop[1].value, 2);
	uint64_t v;
	assert_false(aml_prop_u64(d, "a", &v));     /* not an integer */
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
		cmocka_unit_test(test_iasl_ssdt_devices),
		cmocka_unit_test(test_wanted_hids),
		cmocka_unit_test(test_cut_short_device_is_a_defect),
		cmocka_unit_test(test_every_prefix),
		cmocka_unit_test(test_hand_assembled),
		cmocka_unit_test(test_depth_bound),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_real_firmware_shapes),
		cmocka_unit_test(test_method_invocations),
		cmocka_unit_test(test_many_devices_long_strings_dsd),
		cmocka_unit_test(test_dsd_package_and_buffer_values),
	};
	return cmocka_run_group_tests(tests, load, unload);
}
