/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SMBIOS parsing (efi/smbios*.c) against real tables: QEMU 7.2 q35 + OVMF (Debian 12) guests,
 * dumped from guest memory into the `dmidecode --dump-bin` layout (tests/unit/fixtures/
 * README.md), one with the SMBIOS 2.1-style entry point (SMBIOS 2.8) and one with the 3.0
 * entry point (`-M q35,smbios-entry-point-type=64`, SMBIOS 3.0.0). Expected values are what
 * dmidecode 3.4 (Debian 12) prints for the same files with `dmidecode --from-dump FILE`.
 * Where dmidecode prints "Not Specified" the structure names no string (index 0), which this
 * parser reports as "".
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

static struct smbios_info info;

/* Maps a dump at physical 0: the entry point is at 0, the table at 32 (as dmidecode writes). */
static void load(const char *name, struct img *im)
{
	uint8_t *d;
	char path[256];
	snprintf(path, sizeof(path), "unit/fixtures/%s", name);
	long n = read_file(path, &d);
	if (n < 0) {
		snprintf(path, sizeof(path), "tests/unit/fixtures/%s", name);
		n = read_file(path, &d);
	}
	if (n < 0)
		fail_msg("fixture %s not found", name);
	im->mem = d;
	im->buf.data = d;
	im->buf.base = 0;
	im->buf.size = (uint64_t)n;
	im->pm.map = physmem_buf_map;
	im->pm.ctx = &im->buf;
}

static void common_qemu(void)
{
	/* Handle 0x0000 type 0: Vendor EfiperfBIOS, Version 1.2.3, Release Date Not Specified */
	assert_string_equal(info.bios.vendor, "EfiperfBIOS");
	assert_string_equal(info.bios.version, "1.2.3");
	assert_string_equal(info.bios.date, "");
	/* Handle 0x0100 type 1: Manufacturer EfiperfCorp, Product Name TestBox, Version pc-q35-7.2 */
	assert_string_equal(info.system.manufacturer, "EfiperfCorp");
	assert_string_equal(info.system.product, "TestBox");
	assert_string_equal(info.system.version, "pc-q35-7.2");
	/* No type 2 (QEMU emits it only when asked for). */
	assert_false(info.board.present);
	/* Handle 0x0400 type 4: Socket Designation CPU 0, Manufacturer QEMU, Version pc-q35-7.2,
	 * Max Speed 2000 MHz, Current Speed 2000 MHz; one processor. */
	assert_int_equal(info.nprocs_total, 1);
	assert_string_equal(info.proc[0].socket, "CPU 0");
	assert_string_equal(info.proc[0].manufacturer, "QEMU");
	assert_string_equal(info.proc[0].version, "pc-q35-7.2");
	assert_int_equal(info.proc[0].max_mhz, 2000);
	assert_int_equal(info.proc[0].current_mhz, 2000);
	/* Handle 0x1100 type 17: Size 128 MB, Speed Unknown, Configured Memory Speed Unknown */
	assert_int_equal(info.mem.devices, 1);
	assert_int_equal(info.mem.populated, 1);
	assert_int_equal(info.mem.total_mib, 128);
	assert_int_equal(info.mem.speed_mts, 0);
	assert_int_equal(info.mem.configured_mts, 0);
	/* Nine structures, the last "Handle 0xFEFF, DMI type 127, 4 bytes End Of Table". */
	assert_int_equal(info.nstructs, 9);
	assert_true(info.end_found);
	assert_int_equal(info.ndefects, 0);

	static char buf[4096];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	smbios_to_json(&info, &j);
	json_end(&j);
	assert_true(json_check_object(buf, sb.len));
}

static void test_qemu_smbios21(void **state)
{
	(void)state;
	struct img im;
	load("qemu-q35-smbios21.bin", &im);
	assert_int_equal(smbios_parse(&im.pm, 0, &info), 0);
	/* "SMBIOS 2.8 present." */
	assert_string_equal(info.entry, "_SM_");
	assert_int_equal(info.major, 2);
	assert_int_equal(info.minor, 8);
	assert_int_equal(info.declared_structs, 9);
	common_qemu();
	/* Serial Number EFIPERF-TEST-0042; UUID "Not Settable" = all 16 bytes zero (7.2.1). */
	assert_string_equal(info.system.serial, "EFIPERF-TEST-0042");
	assert_string_equal(info.system.uuid, "00000000-0000-0000-0000-000000000000");
	char serial[40];
	smbios_log_serial(&info, serial, sizeof(serial));
	assert_string_equal(serial, "EFIPERF-TEST-0042");
	img_free(&im);
}

static void test_qemu_smbios3(void **state)
{
	(void)state;
	struct img im;
	load("qemu-q35-smbios3.bin", &im);
	assert_int_equal(smbios_parse(&im.pm, 0, &info), 0);
	/* "SMBIOS 3.0.0 present." */
	assert_string_equal(info.entry, "_SM3_");
	assert_int_equal(info.major, 3);
	assert_int_equal(info.minor, 0);
	common_qemu();
	/* Serial Number "SN3-0077 (rack 4)", UUID 12345678-9abc-def0-1122-334455667788 (as given
	 * to QEMU with -uuid: the little-endian first fields are undone). */
	assert_string_equal(info.system.serial, "SN3-0077 (rack 4)");
	assert_string_equal(info.system.uuid, "12345678-9abc-def0-1122-334455667788");
	char serial[40];
	smbios_log_serial(&info, serial, sizeof(serial));
	assert_string_equal(serial, "SN3-0077__rack_4");
	img_free(&im);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_smbios21),
		cmocka_unit_test(test_qemu_smbios3),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
