/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outside oracle of the AMD uncore tables: Linux's perf JSON (extract and provenance in
 * tests/oracle/linux-perf/). Every event of every family's DF, L3 and UMC table must have its
 * row there (same EventName) with the same EventCode and UMask / RdWrMask, and the CTL efiperf
 * writes for it must equal the CTL the row gives under Linux's format layout for that PMU
 * (arch/x86/events/amd/uncore.c: event14 config:0-7,32-35,59-60, umask8 config:8-15; event14v2
 * config:0-7,32-37, umask12 config:8-15,24-27; L3 event8/umask8 plus the defaults of
 * amd_uncore_l3_event_init; UMC event config:0-7, rdwrmask config:8-9), written out here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/unit/oracle_file.h"

#include "pmu/uncore/amd_uncore.h"
#include "tests/unit/linux_mapfile.h"


struct row { char dir[16], file[32], unit[8], name[96]; unsigned long code, mask; };
static struct row rows[256];
static int nrows;

static int load(void **state)
{
	(void)state;
	FILE *f = oracle_open("linux-perf/amd_uncore.txt");
	if (!f)
		return -1;
	char line[512], code[32], mask[32];
	while (fgets(line, sizeof(line), f) && nrows < 256) {
		struct row *r = &rows[nrows];
		if (line[0] == '#' || sscanf(line, "%15s %31s %7s %95s %31s %31s", r->dir, r->file, r->unit, r->name, code,
					     mask) != 6)
			continue;
		r->code = strtoul(code, NULL, 16);
		r->mask = strcmp(mask, "-") ? strtoul(mask, NULL, 16) : 0;
		nrows++;
	}
	fclose(f);
	return nrows && linux_mapfile_load() ? 0 : -1;
}

static const struct row *find(const char *dir, const char *unit, const char *name)
{
	for (int i = 0; i < nrows; i++)
		if (!strcmp(rows[i].dir, dir) && !strcmp(rows[i].unit, unit) && !strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

/* The perf JSON directory of a family's box table (Zen 2 DF: the Zen 3 file, see README). */
static const char *dir_of(const char *family, enum amd_box b)
{
	if (!strcmp(family, "Zen2"))
		return b == AMD_BOX_DF ? "amdzen3" : "amdzen2";
	if (!strcmp(family, "Zen3"))
		return "amdzen3";
	if (!strcmp(family, "Zen6"))
		return "amdzen6";
	return !strcmp(family, "Zen4") ? "amdzen4" : "amdzen5";
}

/* CTL from a row by Linux's format layout (not efiperf's tables). */
static uint64_t linux_ctl(const char *family, enum amd_box b, const struct row *r)
{
	uint64_t ev = r->code, um = r->mask;
	int v2 = strcmp(family, "Zen2") && strcmp(family, "Zen3");
	switch (b) {
	case AMD_BOX_DF:
		if (v2)
			return (ev & 0xFF) | ((ev >> 8) & 0x3F) << 32 | (um & 0xFF) << 8 | ((um >> 8) & 0xF) << 24 | 1ull << 22;
		return (ev & 0xFF) | ((ev >> 8) & 0xF) << 32 | ((ev >> 12) & 3) << 59 | (um & 0xFF) << 8 | 1ull << 22;
	case AMD_BOX_L3:
		if (!strcmp(family, "Zen2"))   /* Family 17h: SliceMask 0xF << 48, ThreadMask 0xFF << 56 */
			return ev | um << 8 | 1ull << 22 | 0xFull << 48 | 0xFFull << 56;
		return ev | um << 8 | 1ull << 22 | 3ull << 56 | 1ull << 46 | 1ull << 47;
	default:
		return ev | um << 8 | 1ull << 31;
	}
}

static void test_every_event_matches_perf_json(void **state)
{
	(void)state;
	static const char *const unit[] = { "DFPMC", "L3PMC", "UMCPMC" };
	unsigned compared = 0, mismatches = 0;
	for (size_t i = 0; i < amd_uncore_nfamilies; i++) {
		const struct amd_uncore_family *f = &amd_uncore_families[i];
		if (i && !strcmp(amd_uncore_families[i - 1].name, f->name))
			continue;                  /* a second model range of the same family shares the tables */
		for (int b = 0; b < AMD_NBOX; b++) {
			const struct amd_box_desc *d = &f->box[b];
			unsigned n = 0;
			for (uint16_t k = 0; d->pmu && k < d->nevents; k++) {
				const struct amd_uncore_event *e = &d->events[k];
				const struct row *r = find(dir_of(f->name, (enum amd_box)b), unit[b], e->name);
				if (!r) {
					printf("%s %s %s: no row in %s\n", f->name, d->pmu, e->name, dir_of(f->name, (enum amd_box)b));
					mismatches++;
					continue;
				}
				uint64_t ctl = 0;
				char why[160];
				assert_int_equal(amd_uncore_encode(d, e->name, strlen(e->name), &ctl, NULL, why, sizeof(why)), 0);
				if (e->event != r->code || e->umask != r->mask || ctl != linux_ctl(f->name, (enum amd_box)b, r)) {
					printf("%s %s %s: efiperf 0x%x/0x%x CTL 0x%llx, perf JSON 0x%lx/0x%lx CTL 0x%llx\n", f->name,
					       d->pmu, e->name, e->event, e->umask, (unsigned long long)ctl, r->code, r->mask,
					       (unsigned long long)linux_ctl(f->name, (enum amd_box)b, r));
					mismatches++;
				}
				n++;
			}
			if (d->pmu)
				printf("oracle: %s %s: %u events against %s\n", f->name, d->pmu, n, d->source);
			compared += n;
		}
	}
	printf("oracle: %u AMD uncore events compared with Linux perf JSON, %u mismatches\n", compared, mismatches);
	assert_int_equal(mismatches, 0);
	assert_int_equal(compared, 162);   /* 8+6+8+6+32+17+13+40+3+13 +3+13 (Zen 6 L3, UMC) */
}

/* A wrong row must fail: the comparison is not vacuous. */
static void test_oracle_can_fail(void **state)
{
	(void)state;
	const struct row *r = find("amdzen3", "DFPMC", "dram_channel_data_controller_1");
	assert_non_null(r);
	struct row bad = *r;
	bad.code = 0x07;
	assert_int_not_equal(linux_ctl("Zen3", AMD_BOX_DF, &bad), linux_ctl("Zen3", AMD_BOX_DF, r));
	assert_null(find("amdzen3", "DFPMC", "no_such_event"));
}

/* Every model a family table serves is one Linux's mapfile.csv gives that generation's
 * directory: the table cannot serve a model its events were never compared for. */
static void test_every_served_model_matches_mapfile(void **state)
{
	(void)state;
	static const unsigned fams[] = { 0x17, 0x18, 0x19, 0x1A, 0x1B };
	int bad = 0, served = 0, unserved = 0;
	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++)
		for (unsigned m = 0; m <= 0xFF; m++) {
			const struct amd_uncore_family *f = amd_uncore_family_for(fams[k], m);
			const char *want = linux_agreed_dir(fams[k], m);   /* 1Ah: mapfile and amd.c agree */
			if (!f) {
				unserved += want && strcmp(want, "amdzen1");
				continue;
			}
			served++;
			const char *got = dir_of(f->name, AMD_BOX_L3);   /* the generation's own directory */
			if (!want || strcmp(want, got)) {
				if (bad < 8)
					printf("family 0x%x model 0x%02x: efiperf's %s table (%s), perf mapfile.csv %s\n", fams[k], m,
					       f->name, got, want ? want : "no directory");
				bad++;
			}
		}
	printf("oracle: %d AMD family/models served by an uncore table, all the generation mapfile.csv gives; "
	       "%d models mapfile.csv names have no table\n", served, unserved);
	assert_int_equal(bad, 0);
	/* 17h 30h-FFh; 19h 00h-2Fh, 40h-AFh; 1Ah Zen 5 00h-2Fh, 40h-4Fh, 60h-7Fh, Zen 6 50h-5Fh, 80h-AFh, C0h-CFh */
	assert_int_equal(served, 0xD0 + 0x30 + 0x70 + 0x60 + 0x50);
	/* Zen 6 is not Zen 5: its own tables, no DF table and a why for it */
	assert_string_equal(amd_uncore_family_for(0x1A, 0x50)->name, "Zen6");
	assert_string_equal(amd_uncore_family_for(0x1A, 0x02)->name, "Zen5");
	assert_null(amd_uncore_family_for(0x1A, 0x50)->box[AMD_BOX_DF].pmu);
	assert_non_null(strstr(amd_uncore_family_for(0x1A, 0x50)->box[AMD_BOX_DF].absent, "no data-fabric.json"));
	/* 1Ah 30h-3Fh: amdzen6 to the mapfile, no generation to amd.c: no table */
	assert_string_equal(linux_mapfile_dir(26, 0x30), "amdzen6");
	assert_null(linux_amdc_gen(0x1A, 0x30));
	assert_null(amd_uncore_family_for(0x1A, 0x30));
	assert_null(amd_uncore_family_for(0x1A, 0xD0));
	/* the check can fail: Linux's two sources disagree on 19h 30h-3Fh (amd.c: Zen 3), which has no table */
	assert_string_equal(linux_mapfile_dir(25, 0x31), "amdzen4");
	assert_null(amd_uncore_family_for(0x19, 0x31));
	assert_string_equal(dir_of(amd_uncore_family_for(0x19, 0x21)->name, AMD_BOX_L3), "amdzen3");
	assert_string_equal(linux_mapfile_dir(25, 0x21), "amdzen3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_event_matches_perf_json),
		cmocka_unit_test(test_every_served_model_matches_mapfile),
		cmocka_unit_test(test_oracle_can_fail),
	};
	return cmocka_run_group_tests(tests, load, NULL);
}
