/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Malformed ACPI input (efi/acpi*.c): a refused RSDP returns -1; a defective table is listed
 * with its defect and never parsed; defective entries stop a walk with a defect and keep what
 * came before; bounds are counted, never written past; no walk can loop.
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

static void test_rsdp_refused(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	uint8_t *r = img_at(&im, SYN_RSDP);
	r[9] += 1;                                  /* ACPI 1.0 checksum broken */
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), -1);
	assert_string_equal(info.defect, "RSDP checksum 0x01 != 0");
	assert_int_equal(info.ntables, 0);

	acpi_rsdp(r, 2, 0, SYN_XSDT);
	r[33] = 0x5;                                /* reserved byte: only the extended sum sees it */
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), -1);
	assert_string_equal(info.defect, "RSDP extended checksum 0x05 != 0");

	acpi_rsdp(r, 2, 0, SYN_XSDT);
	r[0] = 'X';
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), -1);
	assert_string_equal(info.defect, "RSDP signature is not \"RSD PTR \"");

	assert_int_equal(acpi_parse(&im.pm, 0x1000, &info), -1);
	assert_string_equal(info.defect, "RSDP not mappable at 0x1000");
	/* An RSDP in the last 20 bytes: revision 2 needs 36. */
	uint8_t *tail = img_at(&im, SYN_BASE + SYN_SIZE - 20);
	acpi_rsdp(tail, 0, 0, 0);
	tail[15] = 2;
	fix_sum(tail, 20, 8);
	assert_int_equal(acpi_parse(&im.pm, SYN_BASE + SYN_SIZE - 20, &info), -1);
	assert_string_equal(info.defect, "RSDP revision 2: 36 bytes not mappable");
	img_free(&im);
}

static void test_rsdt_fallback(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	static const uint64_t t[2] = { SYN_MCFG, SYN_HPET };
	acpi_root(img_at(&im, SYN_SPARE), 0, t, 2);
	acpi_rsdp(img_at(&im, SYN_RSDP), 0, (uint32_t)SYN_SPARE, 0);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_string_equal(info.root, "RSDT");
	assert_string_equal(info.root_note, "no XSDT (RSDP revision 0): using the RSDT");
	assert_int_equal(info.ntables, 2);
	assert_int_equal(info.nmcfg, 2);
	assert_true(info.hpet.present);

	/* Revision 2 with a broken XSDT: said so, then the RSDT. */
	acpi_rsdp(img_at(&im, SYN_RSDP), 2, (uint32_t)SYN_SPARE, SYN_XSDT);
	img_at(&im, SYN_XSDT)[40] ^= 0x10;
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_string_equal(info.root, "RSDT");
	assert_string_equal(info.root_note,
			    "XSDT at 0x7f000100: checksum 0x10 != 0; trying the RSDT");
	assert_int_equal(info.ntables, 2);
	img_free(&im);
}

/* Replaces the XSDT with the standard list plus `extra`. */
static void xsdt_plus(struct img *im, uint64_t extra)
{
	uint64_t t[SYN_NTABLES + 1] = { SYN_FACP, SYN_APIC, SYN_MCFG, SYN_SRAT,
					SYN_HPET, SYN_SLIT, SYN_APMT, SYN_WAET, extra };
	syn_xsdt(im, t, SYN_NTABLES + 1);
}

static void test_table_defects(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	/* Bad checksum: listed with the defect, not parsed. */
	img_at(&im, SYN_APIC)[50] ^= 0x12;
	/* Truncated: a table whose Length runs past the end of memory. */
	uint64_t trunc = SYN_BASE + SYN_SIZE - 64;
	acpi_hdr(img_at(&im, trunc), "SSDT", 4096, 2);
	xsdt_plus(&im, trunc);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_false(info.table[1].valid);
	assert_false(info.table[1].parsed);
	assert_string_equal(info.table[1].defect, "checksum 0x12 != 0");
	assert_false(info.madt.present);
	assert_string_equal(info.table[8].sig, "SSDT");
	assert_string_equal(info.table[8].defect, "length 4096 not mappable at 0x7f03ffc0");
	assert_true(info.fadt.present);             /* the others are unaffected */

	/* An XSDT entry pointing outside memory; a Length below the header. */
	xsdt_plus(&im, 0xDEAD0000);
	acpi_hdr(img_at(&im, SYN_WAET), "WAET", 20, 1);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_string_equal(info.table[8].defect, "not mappable at 0xdead0000");
	assert_string_equal(info.table[8].sig, "");
	assert_string_equal(info.table[7].defect, "length 20 < header 36");

	/* A non-printable signature. */
	uint8_t *w = img_at(&im, SYN_WAET);
	acpi_hdr(w, "WA\x01T", 40, 1);
	acpi_fix(w);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_string_equal(info.table[7].sig, "WA?T");
	assert_string_equal(info.table[7].defect, "signature not printable");
	img_free(&im);
}

static void test_duplicates_and_self_reference(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	/* A second MCFG with other content; the XSDT also lists itself and the RSDP. */
	uint8_t *m2 = img_at(&im, SYN_SPARE);
	acpi_hdr(m2, "MCFG", 60, 1);
	mcfg_alloc(m2 + 44, 0xB0000000, 7, 0, 0x3F);
	acpi_fix(m2);
	uint64_t t[SYN_NTABLES + 3] = { SYN_FACP, SYN_APIC, SYN_MCFG, SYN_SRAT, SYN_HPET, SYN_SLIT,
					SYN_APMT, SYN_WAET, SYN_SPARE, SYN_XSDT, SYN_RSDP };
	syn_xsdt(&im, t, SYN_NTABLES + 3);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_int_equal(info.ntables, SYN_NTABLES + 3);
	assert_true(info.table[8].valid);
	assert_false(info.table[8].parsed);
	assert_string_equal(info.table[8].defect, "duplicate of 0x7f003000: not parsed");
	assert_int_equal(info.nmcfg, 2);            /* the first MCFG's segments only */
	assert_int_equal(info.mcfg[0].segment, 0);
	/* The XSDT listed as a table: validated and listed, never walked again. */
	assert_string_equal(info.table[9].sig, "XSDT");
	assert_true(info.table[9].valid);
	assert_false(info.table[9].parsed);
	/* The RSDP as a table: "RSD " with a Length that is really RsdtAddress = 0. */
	assert_false(info.table[10].valid);
	img_free(&im);
}

static void test_madt_walk_stops(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	uint8_t *t = img_at(&im, SYN_APIC);
	/* Zero-length entry after the two enabled Local APICs. */
	uint32_t len = syn_apic_body(t);
	t[44 + 16 + 1] = 0;
	acpi_hdr(t, "APIC", len, 6);
	acpi_fix(t);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_true(info.madt.present);
	assert_int_equal(info.madt.lapic.enabled, 2);
	assert_int_equal(info.madt.ncpu, 2);
	assert_int_equal(info.madt.x2apic.enabled, 0);
	assert_string_equal(info.madt.defect, "entry at 0x3c type 0x0: length 0 stops the walk");

	/* An entry running past the end of the table. */
	len = syn_apic_body(t);
	acpi_hdr(t, "APIC", len - 3, 6);            /* the last entry (6 bytes) is cut */
	acpi_fix(t);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_int_equal(info.madt.gicc.enabled, 1);
	assert_int_equal(info.madt.other, 1);
	assert_string_equal(info.madt.defect,
			    "entry at 0x11c type 0x4: length 6 runs past the end 287");

	/* A GICC too short for its MPIDR: skipped with a defect, the walk goes on. */
	len = syn_apic_body(t);
	t[44 + 4 * 8 + 12 + 2 * 16 + 1] = 40;
	memmove(t + 44 + 4 * 8 + 12 + 2 * 16 + 40, t + 44 + 4 * 8 + 12 + 2 * 16 + 82, 82 + 6);
	acpi_hdr(t, "APIC", len - 42, 6);
	acpi_fix(t);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_int_equal(info.madt.gicc.enabled, 0);
	assert_int_equal(info.madt.gicc.online_capable, 1);
	assert_int_equal(info.madt.other, 2);
	assert_string_equal(info.madt.defect, "entry at 0x78 type 0xb: length 40 < 76, skipped");
	img_free(&im);
}

static void test_apmt_walk_stops(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	uint8_t *t = img_at(&im, SYN_APMT);
	put16(t + 92, 0);                           /* second node: length 0 */
	acpi_fix(t);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_int_equal(info.apmt.nnodes, 1);      /* the node before it is kept */
	assert_int_equal(info.apmt.node[0].base0, 0x11000000000ull);
	assert_string_equal(info.apmt.defect, "node at 0x5c: length 0 < 56 stops the walk");

	put16(t + 92, 56 + 57);                     /* runs past the end of the table */
	acpi_fix(t);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_int_equal(info.apmt.nnodes, 1);
	assert_string_equal(info.apmt.defect, "node at 0x5c: length 113 runs past the end 204");

	put16(t + 92, 20);                          /* shorter than the node header */
	acpi_fix(t);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_string_equal(info.apmt.defect, "node at 0x5c: length 20 < 56 stops the walk");
	img_free(&im);
}

static void test_slit_bounds(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	uint8_t *t = img_at(&im, SYN_SLIT);
	put64(t + 36, 4);                           /* 4 localities need 44 + 16 bytes, not 53 */
	acpi_fix(t);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_true(info.slit.present);
	assert_string_equal(info.slit.defect, "length 53 < 60 for 4 localities");
	put64(t + 36, 65);
	acpi_fix(t);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_string_equal(info.slit.defect, "65 localities > limit ACPI_SLIT_MAX 64");
	put64(t + 36, 1ull << 40);                  /* N*N would overflow 32 bits */
	acpi_fix(t);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_string_equal(info.slit.defect, "1099511627776 localities > limit ACPI_SLIT_MAX 64");
	img_free(&im);
}

static void test_bounds(void **state)
{
	(void)state;
	struct img im;
	syn_platform(&im);
	/* 1100 enabled x2APIC entries: 1024 ids kept, 76 counted as dropped. */
	enum { N = 1100 };
	uint64_t big = SYN_SPARE;
	uint8_t *t = img_at(&im, big);
	unsigned o = 44;
	for (unsigned i = 0; i < N; i++)
		o += madt_x2apic(t + o, i, 1, i);
	acpi_hdr(t, "APIC", o, 6);
	acpi_fix(t);
	/* 262 XSDT entries: 256 listed, 6 counted. */
	static uint64_t list[262];
	list[0] = big;
	for (unsigned i = 1; i < 262; i++)
		list[i] = SYN_WAET;
	syn_xsdt(&im, list, 262);
	assert_int_equal(acpi_parse(&im.pm, SYN_RSDP, &info), 0);
	assert_int_equal(info.ntables, 256);
	assert_int_equal(info.tables_dropped, 6);
	assert_int_equal(info.madt.x2apic.enabled, N);
	assert_int_equal(info.madt.ncpu, ACPI_MAX_CPU_IDS);
	assert_int_equal(info.madt.cpu_dropped, N - ACPI_MAX_CPU_IDS);
	assert_int_equal(info.madt.cpu[ACPI_MAX_CPU_IDS - 1].id, ACPI_MAX_CPU_IDS - 1);
	/* Both named as limits, in the order of acpi.c's limits[]. */
	assert_int_equal(info.nlimits, 2);
	assert_string_equal(info.limit[0].limit, "ACPI_MAX_TABLES");
	assert_int_equal(info.limit[0].not_kept, 6);
	assert_string_equal(info.limit[1].limit, "ACPI_MAX_CPU_IDS");
	assert_int_equal(info.limit[1].max, 1024);
	assert_int_equal(info.limit[1].not_kept, N - 1024);
	img_free(&im);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rsdp_refused),
		cmocka_unit_test(test_rsdt_fallback),
		cmocka_unit_test(test_table_defects),
		cmocka_unit_test(test_duplicates_and_self_reference),
		cmocka_unit_test(test_madt_walk_stops),
		cmocka_unit_test(test_apmt_walk_stops),
		cmocka_unit_test(test_slit_bounds),
		cmocka_unit_test(test_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
