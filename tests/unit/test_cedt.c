/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CEDT parsing (efi/fw/acpi_cedt.c) against iasl: each fixture (tests/unit/fixtures/README.md)
 * is the complete `iasl -d` output of a real CEDT, by an ACPICA iasl that knows CEDT. The test
 * reads the table's bytes from the dump's "Raw Table Data" and the expected value of every
 * field from iasl's decoded lines, walking them in order, and compares what efiperf parsed.
 * Then the bad inputs: a CFMWS target that is no CHBS host bridge, reserved ENIW/HBIG, a record
 * length that disagrees with the ways, a misaligned window, a structure running past the end,
 * a zero-length structure, and the limits.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_cedt.h"
#include "tests/unit/acpi_build.h"

/* One decoded field of the dump: "[0A4h 0164 004h]   First Target : 0000000C". */
struct field { char name[48]; uint64_t val; };
struct dump {
	uint8_t raw[4096];
	uint32_t nraw;
	struct field f[512];
	int nf;
};

static void load_dump(const char *name, struct dump *d)
{
	char path[256];
	FILE *fp = NULL;
	const char *dirs[] = { "unit/fixtures/", "tests/unit/fixtures/" };
	for (int i = 0; i < 2 && !fp; i++) {
		snprintf(path, sizeof(path), "%s%s", dirs[i], name);
		fp = fopen(path, "r");
	}
	if (!fp)
		fail_msg("fixture %s not found", name);
	memset(d, 0, sizeof(*d));
	char ln[512];
	int raw = 0;
	while (fgets(ln, sizeof(ln), fp)) {
		if (strstr(ln, "Raw Table Data")) {
			raw = 1;
			continue;
		}
		if (raw) {
			/* "    0000: 43 45 44 54 ...  // CEDT..." */
			char *c = strchr(ln, ':');
			if (!c)
				continue;
			char *end = strstr(ln, "//");
			if (end)
				*end = 0;
			for (char *p = c + 1;;) {
				char *q;
				unsigned long b = strtoul(p, &q, 16);
				if (q == p)
					break;
				assert_true(d->nraw < sizeof(d->raw));
				d->raw[d->nraw++] = (uint8_t)b;
				p = q;
			}
			continue;
		}
		if (ln[0] != '[')
			continue;
		char *rb = strchr(ln, ']'), *colon = rb ? strchr(rb, ':') : NULL;
		if (!colon)
			continue;
		char *s = rb + 1;
		while (*s == ' ')
			s++;
		char *e = colon;
		while (e > s && e[-1] == ' ')
			e--;
		assert_true(d->nf < (int)(sizeof(d->f) / sizeof(d->f[0])));
		struct field *f = &d->f[d->nf++];
		snprintf(f->name, sizeof(f->name), "%.*s", (int)(e - s), s);
		f->val = strtoull(colon + 1, NULL, 16);
	}
	fclose(fp);
	assert_true(d->nraw > ACPI_HEADER_LEN);
}

/* The value of the next field named `name` at or after *i (advancing *i past it). */
static uint64_t next(const struct dump *d, int *i, const char *name)
{
	for (; *i < d->nf; (*i)++)
		if (!strcmp(d->f[*i].name, name))
			return d->f[(*i)++].val;
	fail_msg("iasl field '%s' not found", name);
	return 0;
}

/* Walks iasl's fields in table order and compares each structure with the parser's. */
static void check_against_iasl(const char *fixture, uint32_t want_chbs, uint32_t want_cfmws)
{
	static struct dump d;
	static struct acpi_cedt c;
	load_dump(fixture, &d);
	acpi_parse_cedt(d.raw, d.nraw, &c);
	assert_true(c.present);
	assert_string_equal(c.defect, "");
	int i = 0;
	assert_int_equal(d.nraw, next(&d, &i, "Table Length"));
	assert_int_equal(c.revision, next(&d, &i, "Revision"));
	uint32_t nh = 0, nw = 0;
	while (i < d.nf) {
		int at = i;
		uint64_t type;
		for (; at < d.nf && strcmp(d.f[at].name, "Subtable Type"); at++)
			;
		if (at == d.nf)
			break;
		i = at;
		type = next(&d, &i, "Subtable Type");
		uint64_t len = next(&d, &i, "Length");
		if (type == 0) {
			assert_true(nh < c.nchbs);
			const struct acpi_cedt_chbs *h = &c.chbs[nh++];
			assert_int_equal(len, 0x20);
			assert_int_equal(h->uid, next(&d, &i, "Associated host bridge"));
			assert_int_equal(h->version, next(&d, &i, "Specification version"));
			assert_int_equal(h->base, next(&d, &i, "Register base"));
			assert_int_equal(h->length, next(&d, &i, "Register length"));
		} else if (type == 1) {
			assert_true(nw < c.ncfmws);
			const struct acpi_cedt_cfmws *w = &c.cfmws[nw++];
			assert_string_equal(w->defect, "");
			assert_int_equal(w->record_length, len);
			assert_int_equal(w->base, next(&d, &i, "Window base address"));
			assert_int_equal(w->size, next(&d, &i, "Window size"));
			assert_int_equal(w->eniw, next(&d, &i, "Interleave Members"));
			assert_int_equal(w->arithmetic, next(&d, &i, "Interleave Arithmetic"));
			assert_int_equal(w->hbig, next(&d, &i, "Granularity"));
			assert_int_equal(w->restrictions, next(&d, &i, "Restrictions"));
			assert_int_equal(w->qtg_id, next(&d, &i, "QtgId"));
			/* iasl lists "First Target" then "Next Target" for each further one. */
			assert_int_equal(w->target[0], next(&d, &i, "First Target"));
			uint32_t k = 1;
			while (i < d.nf && !strcmp(d.f[i].name, "Next Target")) {
				assert_true(k < w->ntargets);
				assert_int_equal(w->target[k++], d.f[i++].val);
			}
			assert_int_equal(k, w->ntargets);
			for (k = 0; k < w->ntargets; k++)
				assert_true(w->target_chbs[k] >= 0);
		} else {
			fail_msg("unexpected subtable type %llu", (unsigned long long)type);
		}
	}
	assert_int_equal(nh, c.nchbs);
	assert_int_equal(nw, c.ncfmws);
	assert_int_equal(c.nchbs, want_chbs);
	assert_int_equal(c.ncfmws, want_cfmws);
}

static void test_qemu72_cedt(void **state)
{
	(void)state;
	check_against_iasl("qemu72-q35-cxl-CEDT.dsl", 1, 1);
}

static void test_linux_flexible_cedt(void **state)
{
	(void)state;
	check_against_iasl("linux-flexible-CEDT.dsl", 2, 7);
}

/* Interleave encodings: CXL 3.1 Table 9-23 (ENIW) and 8.2.4.20.7 (IG), literals. */
static void test_encodings(void **state)
{
	(void)state;
	static const struct { uint8_t eniw; uint32_t ways; } w[] = {
		{ 0, 1 }, { 1, 2 }, { 2, 4 }, { 3, 8 }, { 4, 16 }, { 5, 0 }, { 7, 0 },
		{ 8, 3 }, { 9, 6 }, { 10, 12 }, { 11, 0 }, { 0xff, 0 },
	};
	for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++)
		assert_int_equal(cedt_interleave_ways(w[k].eniw), w[k].ways);
	static const struct { uint32_t enc, bytes; } g[] = {
		{ 0, 256 }, { 1, 512 }, { 2, 1024 }, { 3, 2048 }, { 4, 4096 }, { 5, 8192 }, { 6, 16384 },
		{ 7, 0 }, { 0xffffffff, 0 },
	};
	for (size_t k = 0; k < sizeof(g) / sizeof(g[0]); k++)
		assert_int_equal(cedt_granularity(g[k].enc), g[k].bytes);
}

/* The QEMU table's bytes, edited. */
static struct dump qd;
static struct acpi_cedt qc;
#define QEMU_CFMWS 0x44           /* iasl: [044h] Subtable Type 01 */
static void qemu_bytes(void) { load_dump("qemu72-q35-cxl-CEDT.dsl", &qd); }

static void test_target_no_host_bridge(void **state)
{
	(void)state;
	qemu_bytes();
	put32(qd.raw + QEMU_CFMWS + 0x24, 0x5);   /* First Target: _UID 5, the CHBS is 0xC */
	acpi_parse_cedt(qd.raw, qd.nraw, &qc);
	assert_int_equal(qc.ncfmws, 1);
	assert_int_equal(qc.cfmws[0].target_chbs[0], -1);
	assert_string_equal(qc.cfmws[0].defect, "target 0: _UID 0x5 is no CHBS host bridge");
	assert_string_equal(qc.defect, "");
}

static void test_reserved_and_misfit(void **state)
{
	(void)state;
	qemu_bytes();
	qd.raw[QEMU_CFMWS + 0x18] = 5;            /* ENIW 5 is reserved */
	acpi_parse_cedt(qd.raw, qd.nraw, &qc);
	assert_string_equal(qc.cfmws[0].defect, "ENIW 5 is reserved");
	qemu_bytes();
	qd.raw[QEMU_CFMWS + 0x18] = 1;            /* 2 ways, but one target listed */
	acpi_parse_cedt(qd.raw, qd.nraw, &qc);
	assert_string_equal(qc.cfmws[0].defect, "record length 40 != 44 for 2 interleave ways");
	qemu_bytes();
	put32(qd.raw + QEMU_CFMWS + 0x1C, 7);     /* HBIG 7 is reserved */
	acpi_parse_cedt(qd.raw, qd.nraw, &qc);
	assert_string_equal(qc.cfmws[0].defect, "HBIG 7 is reserved");
	qemu_bytes();
	put64(qd.raw + QEMU_CFMWS + 0x08, 0x110001000ull);
	acpi_parse_cedt(qd.raw, qd.nraw, &qc);
	assert_string_equal(qc.cfmws[0].defect, "base 0x110001000 is not 256 MiB aligned");
	qemu_bytes();
	put64(qd.raw + QEMU_CFMWS + 0x10, 0);
	acpi_parse_cedt(qd.raw, qd.nraw, &qc);
	assert_string_equal(qc.cfmws[0].defect, "size 0x0 is not a non-zero multiple of 1 x 256 MiB");
}

static void test_walk_defects(void **state)
{
	(void)state;
	qemu_bytes();
	put16(qd.raw + QEMU_CFMWS + 2, 0x40);     /* runs past the 108-byte table */
	acpi_parse_cedt(qd.raw, qd.nraw, &qc);
	assert_string_equal(qc.defect, "structure at 0x44: length 64 runs past the end 108");
	assert_int_equal(qc.nchbs, 1);
	assert_int_equal(qc.ncfmws, 0);
	qemu_bytes();
	put16(qd.raw + 0x24 + 2, 0);              /* CHBS of length 0 */
	acpi_parse_cedt(qd.raw, qd.nraw, &qc);
	assert_string_equal(qc.defect, "structure at 0x24: length 0 stops the walk");
	qemu_bytes();
	put16(qd.raw + 0x24 + 2, 0x10);           /* CHBS too short: skipped, walk goes on */
	qd.raw[0x24 + 0x10] = 0x7;                /* a reserved-type structure fills the rest */
	put16(qd.raw + 0x24 + 0x12, 0x10);
	acpi_parse_cedt(qd.raw, qd.nraw, &qc);
	assert_string_equal(qc.defect, "CHBS at 0x24: length 16 < 32");
	assert_int_equal(qc.nchbs, 0);
	assert_int_equal(qc.nreserved, 1);
	assert_int_equal(qc.ncfmws, 1);
	assert_int_equal(qc.cfmws[0].target_chbs[0], -1);
	acpi_parse_cedt(qd.raw, ACPI_HEADER_LEN + 2, &qc);
	assert_string_equal(qc.defect, "structure at 0x24: 2 bytes left < header 4");
}

/* More CHBS than ACPI_MAX_CEDT_CHBS: the rest counted, never written past. */
static void test_limits(void **state)
{
	(void)state;
	static uint8_t t[ACPI_HEADER_LEN + (ACPI_MAX_CEDT_CHBS + 3) * 0x20];
	memset(t, 0, sizeof(t));
	for (int k = 0; k < ACPI_MAX_CEDT_CHBS + 3; k++) {
		uint8_t *e = t + ACPI_HEADER_LEN + k * 0x20;
		put16(e + 2, 0x20);
		put32(e + 4, (uint32_t)k);
	}
	acpi_parse_cedt(t, sizeof(t), &qc);
	assert_int_equal(qc.nchbs, ACPI_MAX_CEDT_CHBS);
	assert_int_equal(qc.chbs_dropped, 3);
	assert_int_equal(qc.ntype[0], ACPI_MAX_CEDT_CHBS + 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu72_cedt),
		cmocka_unit_test(test_linux_flexible_cedt),
		cmocka_unit_test(test_encodings),
		cmocka_unit_test(test_target_no_host_bridge),
		cmocka_unit_test(test_reserved_and_misfit),
		cmocka_unit_test(test_walk_defects),
		cmocka_unit_test(test_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
