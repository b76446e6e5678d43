/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ACPI table parsing (efi/acpi*.c) over a synthetic platform (tests/unit/acpi_synth.h): every
 * parsed field of FACP, APIC, MCFG, SRAT, HPET, SLIT and APMT, the table list, and the JSON
 * record checked by an independent JSON validator. Expected values are the ones the builder
 * wrote, at the offsets ACPI 6.5 (5.2.9, 5.2.12, 5.2.16, 5.2.17), PCI Firmware 3.3 (4.1.2),
 * IA-PC HPET 1.0a (3.2.4) and ARM DEN0117 give.
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

static struct acpi_info info;   /* large: keep it off the stack */

static void parse_ok(struct img *im)
{
	assert_int_equal(acpi_parse(&im->pm, SYN_RSDP, &info), 0);
	assert_string_equal(info.defect, "");
}

static void test_table_list(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	parse_ok(&im);
	assert_int_equal(info.rsdp_revision, 2);
	assert_string_equal(info.oem_id, "EFIPRF");
	assert_int_equal(info.xsdt_addr, SYN_XSDT);
	assert_string_equal(info.root, "XSDT");
	assert_string_equal(info.root_note, "");
	static const char *sigs[SYN_NTABLES] = { "FACP", "APIC", "MCFG", "SRAT", "HPET",
						 "SLIT", "APMT", "WAET" };
	static const uint64_t addrs[SYN_NTABLES] = { SYN_FACP, SYN_APIC, SYN_MCFG, SYN_SRAT,
						     SYN_HPET, SYN_SLIT, SYN_APMT, SYN_WAET };
	assert_int_equal(info.ntables, SYN_NTABLES);
	for (int i = 0; i < SYN_NTABLES; i++) {
		assert_string_equal(info.table[i].sig, sigs[i]);
		assert_int_equal(info.table[i].addr, addrs[i]);
		assert_true(info.table[i].valid);
		assert_int_equal(info.table[i].parsed, i != 7);   /* WAET: listed, not parsed */
		assert_string_equal(info.table[i].defect, "");
		assert_string_equal(info.table[i].oem_id, "EFIPRF");
		assert_string_equal(info.table[i].oem_table_id, "SYNTHTBL");
	}
	assert_int_equal(info.table[0].length, 276);
	assert_int_equal(info.table[0].revision, 6);
	assert_ptr_equal(acpi_find(&info, "SLIT"), &info.table[5]);
	assert_null(acpi_find(&info, "DMAR"));
	img_free(&im);
}

static void test_fadt(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	parse_ok(&im);
	const struct acpi_fadt *f = &info.fadt;
	assert_true(f->present);
	assert_int_equal(f->revision, 6);
	assert_int_equal(f->minor_revision, 5);
	assert_int_equal(f->flags, (1u << 8) | (1u << 20) | 1);
	assert_true(f->hw_reduced);
	assert_int_equal(f->tmr_bits, 32);
	assert_true(f->pm_timer_present);
	assert_string_equal(f->pm_timer_source, "X_PM_TMR_BLK");  /* preferred when non-zero */
	assert_int_equal(f->pm_timer.space_id, ACPI_GAS_SPACE_IO);
	assert_int_equal(f->pm_timer.address, 0x1808);
	assert_int_equal(f->pm_timer.bit_width, 32);
	assert_int_equal(f->pm_tmr_blk, 0x608);
	assert_int_equal(f->pm_tmr_len, 4);
	assert_string_equal(f->defect, "");

	/* An ACPI 1.0 FADT (116 bytes): no X_PM_TMR_BLK, flags without TMR_VAL_EXT. */
	uint8_t *t = img_at(&im, SYN_FACP);
	memset(t, 0, 276);
	acpi_hdr(t, "FACP", 116, 1);
	put32(t + 76, 0xB008);
	t[91] = 4;
	acpi_fix(t);
	parse_ok(&im);
	assert_string_equal(f->pm_timer_source, "PM_TMR_BLK");
	assert_int_equal(f->pm_timer.address, 0xB008);
	assert_int_equal(f->pm_timer.space_id, ACPI_GAS_SPACE_IO);
	assert_int_equal(f->tmr_bits, 24);
	assert_false(f->hw_reduced);
	assert_int_equal(f->revision, 1);
	img_free(&im);
}

static void test_madt(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	parse_ok(&im);
	const struct acpi_madt *m = &info.madt;
	assert_true(m->present);
	assert_int_equal(m->lapic_addr, 0xFEE00000);
	assert_int_equal(m->flags, 1);
	assert_int_equal(m->lapic.enabled, 2);
	assert_int_equal(m->lapic.online_capable, 1);
	assert_int_equal(m->lapic.disabled, 1);
	assert_int_equal(m->x2apic.enabled, 1);
	assert_int_equal(m->x2apic.online_capable, 0);
	assert_int_equal(m->x2apic.disabled, 1);
	assert_int_equal(m->gicc.enabled, 1);
	assert_int_equal(m->gicc.online_capable, 1);
	assert_int_equal(m->gicc.disabled, 0);
	assert_int_equal(m->other, 2);
	assert_int_equal(m->ncpu, 4);
	static const struct { uint64_t id; uint32_t uid; uint8_t kind; } want[4] = {
		{ 0, 0, ACPI_CPU_LAPIC }, { 2, 1, ACPI_CPU_LAPIC }, { 0x100, 4, ACPI_CPU_X2APIC },
		{ 0x81000100, 7, ACPI_CPU_GICC },
	};
	for (int i = 0; i < 4; i++) {
		assert_int_equal(m->cpu[i].id, want[i].id);
		assert_int_equal(m->cpu[i].uid, want[i].uid);
		assert_int_equal(m->cpu[i].kind, want[i].kind);
	}
	assert_string_equal(m->defect, "");
	img_free(&im);
}

static void test_mcfg(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	parse_ok(&im);
	assert_true(info.mcfg_present);
	assert_int_equal(info.nmcfg, 2);
	assert_int_equal(info.mcfg[0].base, 0xE0000000);
	assert_int_equal(info.mcfg[0].segment, 0);
	assert_int_equal(info.mcfg[0].start_bus, 0);
	assert_int_equal(info.mcfg[0].end_bus, 0xFF);
	assert_int_equal(info.mcfg[1].base, 0x3F000000000ull);
	assert_int_equal(info.mcfg[1].segment, 1);
	assert_int_equal(info.mcfg[1].start_bus, 0x10);
	assert_int_equal(info.mcfg[1].end_bus, 0x1F);
	assert_int_equal(info.mcfg_rejected, 1);
	assert_string_equal(info.mcfg_defect, "segment 2: end bus 0x10 < start bus 0x20");
	img_free(&im);
}

static void test_srat(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	parse_ok(&im);
	const struct acpi_srat *s = &info.srat;
	assert_true(s->present);
	assert_int_equal(s->ncpu, 3);
	assert_int_equal(s->cpu[0].id, 2);
	assert_int_equal(s->cpu[0].domain, 0x201);
	assert_int_equal(s->cpu[0].kind, ACPI_CPU_LAPIC);
	assert_int_equal(s->cpu[1].id, 0x100);
	assert_int_equal(s->cpu[1].domain, 3);
	assert_int_equal(s->cpu[1].kind, ACPI_CPU_X2APIC);
	assert_int_equal(s->cpu[2].id, 7);
	assert_int_equal(s->cpu[2].domain, 5);
	assert_int_equal(s->cpu[2].kind, ACPI_CPU_GICC);
	assert_int_equal(s->cpu_disabled, 1);
	assert_int_equal(s->nmem, 2);
	assert_int_equal(s->mem[0].base, 0);
	assert_int_equal(s->mem[0].length, 0xA0000);
	assert_int_equal(s->mem[0].domain, 0);
	assert_int_equal(s->mem[1].base, 0x100000000ull);
	assert_int_equal(s->mem[1].length, 0x40000000);
	assert_int_equal(s->mem[1].domain, 1);
	assert_int_equal(s->mem[1].flags, 3);
	assert_int_equal(s->mem_disabled, 1);
	assert_int_equal(s->other, 1);
	assert_string_equal(s->defect, "");
	img_free(&im);
}

static void test_hpet_slit(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	parse_ok(&im);
	const struct acpi_hpet *h = &info.hpet;
	assert_true(h->present);
	assert_int_equal(h->block_id, 0x8086A201);
	assert_int_equal(h->comparators, 3);
	assert_true(h->counter_64bit);
	assert_int_equal(h->vendor, 0x8086);
	assert_int_equal(h->base.space_id, ACPI_GAS_SPACE_MEMORY);
	assert_int_equal(h->base.address, 0xFED00000);
	assert_int_equal(h->base.bit_width, 64);
	assert_int_equal(h->min_tick, 0x80);
	assert_int_equal(h->number, 0);

	const struct acpi_slit *s = &info.slit;
	static const uint8_t d[9] = { 10, 21, 31, 21, 10, 21, 31, 21, 10 };
	assert_true(s->present);
	assert_int_equal(s->n, 3);
	assert_memory_equal(s->dist, d, 9);
	assert_string_equal(s->defect, "");
	img_free(&im);
}

static void test_apmt(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	parse_ok(&im);
	const struct acpi_apmt *p = &info.apmt;
	assert_true(p->present);
	assert_int_equal(p->nnodes, 3);
	const struct acpi_apmt_node *n = &p->node[0];
	assert_int_equal(n->length, 56);
	assert_int_equal(n->flags, 2);
	assert_int_equal(n->type, APMT_NODE_ACPI);
	assert_int_equal(n->id, 0);
	assert_memory_equal(&n->inst_primary, "NVDA2021", 8);   /* little-endian host */
	assert_int_equal(n->inst_secondary, 5);
	assert_int_equal(n->base0, 0x11000000000ull);
	assert_int_equal(n->base1, 0);
	assert_int_equal(n->ovflw_gsiv, 0x100);
	assert_int_equal(n->proc_affinity, 0x10000000);
	n = &p->node[1];
	assert_int_equal(n->type, APMT_NODE_CACHE);
	assert_int_equal(n->flags, 5);
	assert_int_equal(n->id, 1);
	assert_int_equal(n->base0, 0x12000000);
	assert_int_equal(n->base1, 0x12010000);
	assert_int_equal(n->ovflw_gsiv, 200);
	assert_int_equal(n->ovflw_flags, 1);
	assert_int_equal(n->proc_affinity, 3);
	assert_int_equal(n->impl_id, 0x2010043B);
	assert_int_equal(p->node[2].type, 0xFF);
	assert_string_equal(p->defect, "");
	img_free(&im);
}

static char json_buf[1 << 16];

static const char *to_json(void)
{
	assert_true(acpi_json_record(&info, json_buf, sizeof(json_buf)));
	return json_buf;
}

static void test_json(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	parse_ok(&im);
	const char *s = to_json();
	static const char *want[] = {
		"\"rsdp\":{\"revision\":2,\"oem\":\"EFIPRF\"",
		"\"xsdt\":\"0x7f000100\"",
		"{\"sig\":\"WAET\",\"addr\":\"0x7f008000\",\"length\":40,\"revision\":1,"
		"\"oem_id\":\"EFIPRF\",\"oem_table_id\":\"SYNTHTBL\",\"valid\":true,\"parsed\":false,"
		"\"defect\":null}",
		"\"mcfg\":[{\"base\":\"0xe0000000\",\"segment\":0,\"start_bus\":0,\"end_bus\":255}",
		"\"cpu_ids\":[\"0x0\",\"0x2\",\"0x100\",\"0x81000100\"]",
		"\"cpus\":[[2,513],[256,3],[7,5]]",
		"\"pm_timer\":{\"source\":\"X_PM_TMR_BLK\",\"space\":\"io\",\"address\":\"0x1808\",\"bits\":32",
		"\"comparators\":3,\"counter_bits\":64",
		"\"distance\":[[10,21,31],[21,10,21],[31,21,10]]",
		"\"type\":4,\"type_name\":\"cache\"",
		"\"type_name\":\"reserved\"",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(s, want[i]))
			fail_msg("missing %s in %s", want[i], s);
	img_free(&im);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_list),
		cmocka_unit_test(test_fadt),
		cmocka_unit_test(test_madt),
		cmocka_unit_test(test_mcfg),
		cmocka_unit_test(test_srat),
		cmocka_unit_test(test_hpet_slit),
		cmocka_unit_test(test_apmt),
		cmocka_unit_test(test_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
