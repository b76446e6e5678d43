/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SMBIOS parsing (efi/smbios*.c) over synthetic tables laid out per DSP0134 SMBIOS 3.7:
 * entry points (5.2.1, 5.2.2), structures and string-sets (6.1.2, 6.1.3), types 0, 1, 2, 4,
 * 17, 127 (7.1, 7.2, 7.3, 7.5, 7.18, 7.45); malformed tables; the log-name serial.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/fw/smbios.h"
#include "tests/unit/acpi_build.h"
#include "tests/unit/json_check.h"

#define BASE   0x000F0000ull
#define EP     BASE
#define TABLE  (BASE + 0x100)
#define SIZE   0x1000

static struct smbios_info info;

/* Where build_table puts type 1 (type 0: 24 + 36 string bytes) and the first type 4 (type 1:
 * 27 + 25, type 2: 15 + 26). */
#define T1_OFF 60
#define T4_OFF 153

/* Appends a structure: formatted area f (f[1] = its length) and strings; returns new offset. */
static size_t put_struct(uint8_t *t, size_t off, const uint8_t *f, const char *const *s, int n)
{
	memcpy(t + off, f, f[1]);
	off += f[1];
	for (int i = 0; i < n; i++) {
		size_t l = strlen(s[i]) + 1;
		memcpy(t + off, s[i], l);
		off += l;
	}
	if (n == 0)
		t[off++] = 0;
	t[off++] = 0;
	return off;
}

/* Types 0, 1, 2, 4 (twice), 17 (four devices), 127. Returns the table length. */
static size_t build_table(uint8_t *t)
{
	size_t o = 0;
	uint8_t f[0x5C];

	memset(f, 0, sizeof(f));
	f[0] = 0; f[1] = 0x18; f[4] = 1; f[5] = 2; f[8] = 3;
	o = put_struct(t, o, f, (const char *const[]){ "Acme BIOS Co.", "  V1.23  ", "11/20/2026" }, 3);

	memset(f, 0, sizeof(f));
	f[0] = 1; f[1] = 0x1B; f[2] = 1; f[4] = 1; f[5] = 2; f[6] = 0; f[7] = 3;
	for (int i = 0; i < 16; i++)
		f[8 + i] = (uint8_t)(0x11 * i);      /* 00 11 22 ... FF */
	o = put_struct(t, o, f, (const char *const[]){ "Acme", "Model \x01X", "SN-42/7 A" }, 3);

	memset(f, 0, sizeof(f));
	f[0] = 2; f[1] = 0x0F; f[2] = 2; f[4] = 1; f[5] = 2; f[7] = 3;
	o = put_struct(t, o, f, (const char *const[]){ "Acme Boards", "MB-1", "BRD0001" }, 3);

	for (int cpu = 0; cpu < 2; cpu++) {
		memset(f, 0, sizeof(f));
		f[0] = 4; f[1] = 0x30; f[2] = (uint8_t)(4 + cpu); f[4] = 1; f[7] = 2; f[0x10] = 3;
		put16(f + 0x14, 4000);
		put16(f + 0x16, (uint16_t)(2500 + cpu));
		o = put_struct(t, o, f, (const char *const[]){ cpu ? "CPU1" : "CPU0", "GenuineIntel",
							      "Xeon(R) X" }, 3);
	}

	/* 16 GiB DDR4-3200 at 2933; an empty slot; 64 GiB (Extended Size) at 5600 (Extended
	 * Speed); 16 MiB in KiB granularity. */
	memset(f, 0, sizeof(f));
	f[0] = 17; f[1] = 0x28; put16(f + 0x0A, 64); put16(f + 0x0C, 16384); put16(f + 0x15, 3200); put16(f + 0x20, 2933);
	o = put_struct(t, o, f, NULL, 0);
	put16(f + 0x0C, 0);
	o = put_struct(t, o, f, NULL, 0);
	memset(f, 0, sizeof(f));
	f[0] = 17; f[1] = 0x5C; put16(f + 0x0A, 64); put16(f + 0x0C, 0x7FFF); put32(f + 0x1C, 65536);
	put16(f + 0x15, 0xFFFF); put32(f + 0x54, 5600);
	o = put_struct(t, o, f, NULL, 0);
	memset(f, 0, sizeof(f));
	f[0] = 17; f[1] = 0x15; put16(f + 0x0C, 0x8000 | 16384);
	o = put_struct(t, o, f, NULL, 0);

	memset(f, 0, sizeof(f));
	f[0] = 127; f[1] = 4;
	return put_struct(t, o, f, NULL, 0);
}

static void ep3(uint8_t *e, uint32_t max, uint64_t addr)
{
	memcpy(e, "_SM3_", 5);
	e[6] = 0x18; e[7] = 3; e[8] = 7; e[9] = 0; e[10] = 1;
	put32(e + 0x0C, max);
	put64(e + 0x10, addr);
	fix_sum(e, 0x18, 5);
}

static void ep21(uint8_t *e, uint8_t minor, uint16_t len, uint32_t addr, uint16_t count)
{
	memcpy(e, "_SM_", 4);
	e[5] = 0x1F; e[6] = 2; e[7] = minor;
	memcpy(e + 0x10, "_DMI_", 5);
	put16(e + 0x16, len);
	put32(e + 0x18, addr);
	put16(e + 0x1C, count);
	e[0x1E] = (uint8_t)(0x20 | minor);
	fix_sum(e, 0x1F, 0x15);                     /* intermediate: covers 0x10..0x1E */
	fix_sum(e + 0x10, 15, 0x05);
	fix_sum(e, 0x1F, 4);
}

static size_t setup(struct img *im)
{
	img_init(im, BASE, SIZE);
	size_t len = build_table(img_at(im, TABLE));
	ep3(img_at(im, EP), 0x800, TABLE);          /* maximum size beyond the real table */
	return len;
}

static void test_v3_table(void **state)
{
	(void)state;
	struct img im;
	setup(&im);
	assert_int_equal(smbios_parse(&im.pm, EP, &info), 0);
	assert_string_equal(info.entry, "_SM3_");
	assert_int_equal(info.major, 3);
	assert_int_equal(info.minor, 7);
	assert_int_equal(info.table_addr, TABLE);
	assert_int_equal(info.nstructs, 10);
	assert_true(info.end_found);
	assert_int_equal(info.ndefects, 0);
	assert_string_equal(info.bios.vendor, "Acme BIOS Co.");
	assert_string_equal(info.bios.version, "V1.23");
	assert_string_equal(info.bios.date, "11/20/2026");
	assert_string_equal(info.system.manufacturer, "Acme");
	assert_string_equal(info.system.product, "Model ?X");
	assert_string_equal(info.system.version, "");
	assert_string_equal(info.system.serial, "SN-42/7 A");
	assert_string_equal(info.system.uuid, "33221100-5544-7766-8899-aabbccddeeff");
	assert_string_equal(info.board.manufacturer, "Acme Boards");
	assert_string_equal(info.board.product, "MB-1");
	assert_string_equal(info.board.serial, "BRD0001");
	assert_int_equal(info.nprocs_total, 2);
	assert_string_equal(info.proc[1].socket, "CPU1");
	assert_string_equal(info.proc[0].manufacturer, "GenuineIntel");
	assert_string_equal(info.proc[0].version, "Xeon(R) X");
	assert_int_equal(info.proc[0].max_mhz, 4000);
	assert_int_equal(info.proc[1].current_mhz, 2501);
	assert_int_equal(info.mem.devices, 4);
	assert_int_equal(info.mem.populated, 3);
	assert_int_equal(info.mem.total_mib, 16384 + 65536 + 16);
	assert_int_equal(info.mem.speed_mts, 5600);
	assert_int_equal(info.mem.configured_mts, 2933);
	/* Data Width 64 bits: 2933 MT/s x 8 bytes + 5600 (no configured speed: the rated) x 8; the
	 * KiB-sized device has no speed */
	assert_int_equal(info.mem.peak_mbps, 2933 * 8 + 5600 * 8);
	assert_int_equal(info.mem.peak_unknown, 1);

	static char buf[8192];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	smbios_to_json(&info, &j);
	json_end(&j);
	assert_true(json_check_object(buf, sb.len));
	assert_non_null(strstr(buf, "\"system\":{\"manufacturer\":\"Acme\",\"product\":\"Model ?X\","
				    "\"version\":\"\",\"serial\":\"SN-42/7 A\""));
	assert_non_null(strstr(buf, "\"entry\":\"_SM3_\",\"version\":\"3.7\""));
	char serial[40];
	smbios_log_serial(&info, serial, sizeof(serial));
	assert_string_equal(serial, "SN-42_7_A");
	img_free(&im);
}

static void test_v21_entry(void **state)
{
	(void)state;
	struct img im;
	size_t len = setup(&im);
	ep21(img_at(&im, EP), 5, (uint16_t)len, (uint32_t)TABLE, 10);
	assert_int_equal(smbios_parse(&im.pm, EP, &info), 0);
	assert_string_equal(info.entry, "_SM_");
	assert_int_equal(info.table_len, len);
	assert_int_equal(info.nstructs, 10);
	assert_int_equal(info.ndefects, 0);
	/* SMBIOS 2.5: the UUID is printed in wire (big-endian) order. */
	assert_string_equal(info.system.uuid, "00112233-4455-6677-8899-aabbccddeeff");
	assert_string_equal(info.board.serial, "BRD0001");

	/* The structure count bounds the walk. */
	ep21(img_at(&im, EP), 8, (uint16_t)len, (uint32_t)TABLE, 3);
	assert_int_equal(smbios_parse(&im.pm, EP, &info), 0);
	assert_int_equal(info.nstructs, 3);
	assert_false(info.end_found);
	assert_int_equal(info.nprocs_total, 0);
	assert_int_equal(info.ndefects, 0);

	/* Broken checksums and anchors refuse the entry point. */
	ep21(img_at(&im, EP), 8, (uint16_t)len, (uint32_t)TABLE, 10);
	img_at(&im, EP)[0x1C] += 1;                 /* both sums now off by one */
	assert_int_equal(smbios_parse(&im.pm, EP, &info), -1);
	assert_string_equal(info.defect, "_SM_ checksum 0x01 != 0");
	img_at(&im, EP)[4] -= 1;                    /* outer sum fixed, _DMI_ still off */
	assert_int_equal(smbios_parse(&im.pm, EP, &info), -1);
	assert_string_equal(info.defect, "_DMI_ checksum 0x01 != 0");
	ep3(img_at(&im, EP), 0x800, TABLE);
	img_at(&im, EP)[0x10] ^= 0x40;
	assert_int_equal(smbios_parse(&im.pm, EP, &info), -1);
	assert_string_equal(info.defect, "_SM3_ checksum 0x40 != 0");
	assert_int_equal(smbios_parse(&im.pm, TABLE, &info), -1);
	assert_string_equal(info.defect, "no _SM3_ or _SM_ anchor at 0xf0100");
	img_free(&im);
}

static void test_walk_defects(void **state)
{
	(void)state;
	struct img im;
	size_t len = setup(&im);
	uint8_t *t = img_at(&im, TABLE);

	/* String index out of range: type 1 serial names string 5 of 3. */
	t[T1_OFF + 7] = 5;
	assert_int_equal(smbios_parse(&im.pm, EP, &info), 0);
	assert_int_equal(info.ndefects, 1);
	assert_string_equal(info.defects[0], "type 1 serial: string 5 of 3");
	assert_string_equal(info.system.serial, "");
	assert_true(info.end_found);                /* not fatal: the walk goes on */

	/* Unterminated strings: the table ends inside type 4's string-set. */
	img_free(&im);
	setup(&im);
	t = img_at(&im, TABLE);
	ep3(img_at(&im, EP), T4_OFF + 0x30 + 5, TABLE);    /* cut after "CPU0\0" */
	assert_int_equal(smbios_parse(&im.pm, EP, &info), 0);
	assert_string_equal(info.defects[0], "structure at 0x99 type 4: strings never terminate");
	assert_true(info.board.present);            /* the structures before it are kept */
	assert_int_equal(info.nprocs_total, 0);
	assert_false(info.end_found);

	/* Length < 4 stops the walk. */
	img_free(&im);
	setup(&im);
	t = img_at(&im, TABLE);
	t[T1_OFF + 1] = 3;
	assert_int_equal(smbios_parse(&im.pm, EP, &info), 0);
	assert_string_equal(info.defects[0], "structure at 0x3c type 1: length 3 < 4 stops the walk");
	assert_true(info.bios.present);
	assert_false(info.system.present);

	/* A table outside memory. */
	ep3(img_at(&im, EP), 0x800, 0x80000000);
	assert_int_equal(smbios_parse(&im.pm, EP, &info), 0);
	assert_string_equal(info.defects[0], "table at 0x80000000 length 2048 not mappable");
	(void)len;
	img_free(&im);
}

static void serial_of(const char *sn, const char *want)
{
	memset(&info, 0, sizeof(info));
	info.system.present = 1;
	snprintf(info.system.serial, sizeof(info.system.serial), "%s", sn);
	char out[64];
	memset(out, 'Z', sizeof(out));
	smbios_log_serial(&info, out, sizeof(out));
	if (strcmp(out, want) != 0)
		fail_msg("serial \"%s\": got \"%s\", want \"%s\"", sn, out, want);
}

static void test_log_serial(void **state)
{
	(void)state;
	serial_of("", "noserial");
	serial_of("Not Specified", "noserial");
	serial_of("to be filled by o.e.m.", "noserial");
	serial_of("Default string", "noserial");
	serial_of("0", "noserial");
	serial_of("NONE", "noserial");
	serial_of("System Serial Number", "noserial");
	serial_of("00000000-0000", "noserial");
	serial_of("ffffffff", "noserial");
	serial_of("FFFF FFFF", "noserial");
	serial_of("ABC123", "ABC123");
	serial_of("SN3-0077 (rack 4)", "SN3-0077__rack_4");
	serial_of("..hidden..", "hidden");
	serial_of("a/b\\c:d*e", "a_b_c_d_e");
	serial_of("0123456789abcdefghijklmnopqrstuvwxyz", "0123456789abcdefghijklmnopqrstuv");
	serial_of("F00F", "F00F");
	memset(&info, 0, sizeof(info));             /* no type 1 at all */
	char out[9];
	smbios_log_serial(&info, out, sizeof(out));
	assert_string_equal(out, "noserial");
	smbios_log_serial(&info, out, 4);           /* bounded by the caller's size */
	assert_string_equal(out, "nos");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v3_table),
		cmocka_unit_test(test_v21_entry),
		cmocka_unit_test(test_walk_defects),
		cmocka_unit_test(test_log_serial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
