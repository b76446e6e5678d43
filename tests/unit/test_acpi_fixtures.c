/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ACPI parsing (efi/acpi*.c) against real firmware tables (tests/unit/fixtures/README.md):
 *   - QEMU 7.2 q35 + OVMF (Debian 12), -smp 4, two NUMA nodes of 64 MiB, distance 21: the RSDP,
 *     XSDT and all eight tables it lists, at their original addresses, unmodified.
 *   - Firecracker's MADT, FADT and MCFG (copied from /sys/firmware/acpi/tables of the VM these
 *     tests were written on), wrapped in a synthetic RSDP + XSDT.
 * Expected values are iasl's (ACPICA 20200925, Debian acpica-tools, `iasl -d` on each table),
 * except the HPET comparator count and counter size, which iasl leaves encoded in the Hardware
 * Block ID 0x8086A201 and which follow from IA-PC HPET 1.0a 2.3.4 (bits 12:8 = 2: three
 * comparators; bit 13: 64-bit).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/fw/acpi.h"
#include "tests/unit/acpi_build.h"
#include "tests/unit/acpi_json.h"

static struct acpi_info info;

/* Test binaries run from tests/ (unit.mk); also allow the repository root. */
static long fixture(const char *name, uint8_t **data)
{
	char path[256];
	snprintf(path, sizeof(path), "unit/fixtures/%s", name);
	long n = read_file(path, data);
	if (n < 0) {
		snprintf(path, sizeof(path), "tests/unit/fixtures/%s", name);
		n = read_file(path, data);
	}
	if (n < 0)
		fail_msg("fixture %s not found", name);
	return n;
}

#define Q35_RSDP 0x777e014

static void test_qemu_q35(void **state)
{
	(void)state;
	struct chunks k;
	char path[256];
	snprintf(path, sizeof(path), "unit/fixtures/qemu-q35-acpi.chunks");
	if (chunks_load(&k, path) != 0)
		assert_int_equal(chunks_load(&k, "tests/unit/fixtures/qemu-q35-acpi.chunks"), 0);
	assert_int_equal(acpi_parse(&k.pm, Q35_RSDP, &info), 0);
	assert_int_equal(info.rsdp_revision, 2);
	assert_string_equal(info.oem_id, "BOCHS");
	assert_int_equal(info.xsdt_addr, 0x777d0e8);
	assert_string_equal(info.root, "XSDT");
	/* iasl: Signature, Table Length, Oem ID (QEMU's tables, then OVMF's boot logo table). */
	static const struct { const char *sig; uint64_t addr; uint32_t len; const char *oem; } t[] = {
		{ "FACP", 0x7779000, 0xF4, "BOCHS" }, { "APIC", 0x7778000, 0x90, "BOCHS" },
		{ "HPET", 0x7777000, 0x38, "BOCHS" }, { "SRAT", 0x7776000, 0x110, "BOCHS" },
		{ "SLIT", 0x7775000, 0x30, "BOCHS" }, { "MCFG", 0x7774000, 0x3C, "BOCHS" },
		{ "WAET", 0x7773000, 0x28, "BOCHS" }, { "BGRT", 0x7772000, 0x38, "INTEL" },
	};
	assert_int_equal(info.ntables, 8);
	for (int i = 0; i < 8; i++) {
		assert_string_equal(info.table[i].sig, t[i].sig);
		assert_int_equal(info.table[i].addr, t[i].addr);
		assert_int_equal(info.table[i].length, t[i].len);
		assert_true(info.table[i].valid);
		assert_string_equal(info.table[i].oem_id, t[i].oem);
		assert_string_equal(info.table[i].defect, "");
	}
	/* FACP: Revision 03, PM Timer Block Address 0608, length 04, X PM Timer Block SystemIO
	 * 0x608 width 0x20, Flags 000084A5: 32-bit PM Timer 0, Hardware Reduced 0. */
	assert_int_equal(info.fadt.revision, 3);
	assert_int_equal(info.fadt.flags, 0x84A5);
	assert_int_equal(info.fadt.pm_tmr_blk, 0x608);
	assert_int_equal(info.fadt.pm_tmr_len, 4);
	assert_string_equal(info.fadt.pm_timer_source, "X_PM_TMR_BLK");
	assert_int_equal(info.fadt.pm_timer.space_id, ACPI_GAS_SPACE_IO);
	assert_int_equal(info.fadt.pm_timer.address, 0x608);
	assert_int_equal(info.fadt.pm_timer.bit_width, 0x20);
	assert_int_equal(info.fadt.tmr_bits, 24);
	assert_false(info.fadt.hw_reduced);
	/* APIC: Local Apic Address FEE00000, four enabled Processor Local APICs (ids 0..3), an
	 * I/O APIC, five Interrupt Source Overrides and a Local APIC NMI. */
	assert_int_equal(info.madt.lapic_addr, 0xFEE00000);
	assert_int_equal(info.madt.lapic.enabled, 4);
	assert_int_equal(info.madt.lapic.online_capable + info.madt.lapic.disabled, 0);
	assert_int_equal(info.madt.other, 7);
	assert_int_equal(info.madt.ncpu, 4);
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(info.madt.cpu[i].id, i);
	assert_string_equal(info.madt.defect, "");
	/* HPET: Hardware Block ID 8086A201, SystemMemory FED00000, Minimum Clock Ticks 0. */
	assert_int_equal(info.hpet.block_id, 0x8086A201);
	assert_int_equal(info.hpet.base.address, 0xFED00000);
	assert_int_equal(info.hpet.min_tick, 0);
	assert_int_equal(info.hpet.comparators, 3);
	assert_true(info.hpet.counter_64bit);
	/* SRAT: APIC IDs 0,1 in domain 0, 2,3 in domain 1; memory [0, A0000) and
	 * [100000, +3F00000) in 0, [4000000, +4000000) in 1, one disabled entry. */
	assert_int_equal(info.srat.ncpu, 4);
	static const uint32_t dom[4] = { 0, 0, 1, 1 };
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(info.srat.cpu[i].id, i);
		assert_int_equal(info.srat.cpu[i].domain, dom[i]);
	}
	assert_int_equal(info.srat.nmem, 3);
	assert_int_equal(info.srat.mem_disabled, 1);
	assert_int_equal(info.srat.mem[1].base, 0x100000);
	assert_int_equal(info.srat.mem[1].length, 0x3F00000);
	assert_int_equal(info.srat.mem[2].base, 0x4000000);
	assert_int_equal(info.srat.mem[2].length, 0x4000000);
	assert_int_equal(info.srat.mem[2].domain, 1);
	/* SLIT: Localities 2, rows "0A 15" and "15 0A". */
	static const uint8_t d[4] = { 0x0A, 0x15, 0x15, 0x0A };
	assert_int_equal(info.slit.n, 2);
	assert_memory_equal(info.slit.dist, d, 4);
	/* MCFG: Base Address B0000000, segment 0, buses 00..FF. */
	assert_int_equal(info.nmcfg, 1);
	assert_int_equal(info.mcfg[0].base, 0xB0000000);
	assert_int_equal(info.mcfg[0].segment, 0);
	assert_int_equal(info.mcfg[0].start_bus, 0);
	assert_int_equal(info.mcfg[0].end_bus, 0xFF);
	assert_false(info.apmt.present);

	static char buf[1 << 15];
	assert_true(acpi_json_record(&info, buf, sizeof(buf)));
	free(k.file);
}

static void test_firecracker(void **state)
{
	(void)state;
	static const char *const names[3] = { "firecracker-APIC.dat", "firecracker-FACP.dat",
					      "firecracker-MCFG.dat" };
	struct img im;
	img_init(&im, 0x100000, 0x4000);
	uint64_t addr[3];
	for (int i = 0; i < 3; i++) {
		uint8_t *d;
		long n = fixture(names[i], &d);
		addr[i] = 0x101000 + 0x1000 * (uint64_t)i;
		memcpy(img_at(&im, addr[i]), d, (size_t)n);
		free(d);
	}
	acpi_root(img_at(&im, 0x100100), 1, addr, 3);
	acpi_rsdp(img_at(&im, 0x100000), 2, 0, 0x100100);
	assert_int_equal(acpi_parse(&im.pm, 0x100000, &info), 0);
	for (int i = 0; i < 3; i++) {
		assert_true(info.table[i].valid);
		assert_string_equal(info.table[i].oem_id, "FIRECK");
	}
	/* APIC (iasl): revision 06, an I/O APIC, then Local APIC ids 0 and 1, both enabled. */
	assert_int_equal(info.madt.lapic.enabled, 2);
	assert_int_equal(info.madt.other, 1);
	assert_int_equal(info.madt.cpu[1].id, 1);
	/* FACP: revision 06, FADT Minor Revision 05, Flags 00100030: Hardware Reduced 1,
	 * PM Timer Block Address 0 and length 0: no PM timer. */
	assert_int_equal(info.fadt.revision, 6);
	assert_int_equal(info.fadt.minor_revision, 5);
	assert_int_equal(info.fadt.flags, 0x00100030);
	assert_true(info.fadt.hw_reduced);
	assert_false(info.fadt.pm_timer_present);
	/* MCFG: Base Address EEC00000, segment 0, buses 00..00. */
	assert_int_equal(info.nmcfg, 1);
	assert_int_equal(info.mcfg[0].base, 0xEEC00000);
	assert_int_equal(info.mcfg[0].end_bus, 0);
	img_free(&im);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_q35),
		cmocka_unit_test(test_firecracker),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
