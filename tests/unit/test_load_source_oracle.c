/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outside oracle of the AMD load-source tables (pmu/events/load_source_events.c): Linux's perf
 * JSON (extract and provenance in tests/oracle/linux-perf/amd_core.txt and README.md).
 *   - every event of every generation's table has its row (same EventName) in that
 *     generation's directory with the same EventCode and UMask; a row that ORs several Linux
 *     events (`parts`) must carry exactly the OR of their UMasks, all of the same EventCode;
 *   - the generation a family/model gets equals the one Linux's mapfile.csv gives it: the
 *     mapfile regular expressions, evaluated here with POSIX regexec the way perf does (first
 *     row that matches "AuthenticAMD-<family decimal>-<model hex>" whole), for every model
 *     0x00-0xFF of families 17h, 18h, 19h, 1Ah and 1Bh. A model perf maps to amdzen1, or to no
 *     file, must get no table; so must Family 19h models 30h-3Fh, amdzen4 to the mapfile but Zen 3
 *     to Linux arch/x86/kernel/cpu/amd.c and libpfm4 lib/pfmlib_amd64.c.
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

#include "pmu/core/load_source.h"
#include "tests/unit/linux_mapfile.h"

struct row { char dir[96], name[96]; unsigned long code, mask; };
static struct row rows[128];
static int nrows;

static int load(void **state)
{
	(void)state;
	FILE *f = oracle_open("linux-perf/amd_core.txt");
	if (!f)
		return -1;
	char line[512], a[96], b[96], c[96], code[32], mask[32];
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || !strncmp(line, "amdc ", 5))
			continue;
		int n = sscanf(line, "%95s %95s %95s %31s %31s", a, b, c, code, mask);
		if (n == 5 && nrows < 128) {
			struct row *r = &rows[nrows++];
			snprintf(r->dir, sizeof(r->dir), "%s", a);
			snprintf(r->name, sizeof(r->name), "%s", c);
			r->code = strtoul(code, NULL, 16);
			r->mask = strcmp(mask, "-") ? strtoul(mask, NULL, 16) : 0;
		}
	}
	fclose(f);
	return nrows && linux_mapfile_load() ? 0 : -1;
}

static const struct row *find(const char *dir, const char *name, size_t len)
{
	for (int i = 0; i < nrows; i++)
		if (!strcmp(rows[i].dir, dir) && strlen(rows[i].name) == len && !strncmp(rows[i].name, name, len))
			return &rows[i];
	return NULL;
}

/* 0 when event e of generation dir matches its Linux row(s); prints why not. */
static int check_event(const char *table, const char *dir, const struct ls_event *e)
{
	const char *p = e->parts ? e->parts : e->name;
	unsigned long mask = 0;
	int bad = 0;
	while (*p) {
		size_t len = strcspn(p, " ");
		const struct row *r = find(dir, p, len);
		if (!r) {
			printf("%s: %.*s: no row in %s\n", table, (int)len, p, dir);
			bad = 1;
		} else {
			mask |= r->mask;
			if (r->code != e->event) {
				printf("%s: %s: EventCode 0x%x, %s says 0x%lx\n", table, e->name, e->event, dir, r->code);
				bad = 1;
			}
		}
		p += len;
		p += *p == ' ';
	}
	if (!bad && mask != e->umask) {
		printf("%s: %s: UMask 0x%x, %s says 0x%lx\n", table, e->name, e->umask, dir, mask);
		bad = 1;
	}
	return bad;
}

static void test_every_amd_event_matches_perf_json(void **state)
{
	(void)state;
	const struct ls_table *t[] = { &ls_amd_zen2, &ls_amd_zen3, &ls_amd_zen4, &ls_amd_zen5 };
	int bad = 0, n = 0;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(t[i]->vendor, LS_AMD);
		assert_non_null(t[i]->oracle_dir);
		for (int k = 0; k < t[i]->n; k++, n++)
			bad += check_event(t[i]->name, t[i]->oracle_dir, &t[i]->ev[k]);
		/* six core counters per generation (PerfCtrExtCore / PerfMonV2) */
		assert_true(t[i]->n <= 6);
	}
	printf("oracle: %d AMD load-source events compared with Linux perf JSON, %d mismatches\n", n, bad);
	assert_int_equal(bad, 0);
	assert_int_equal(n, 24);
}

static void test_generation_matches_mapfile(void **state)
{
	(void)state;
	static const unsigned fams[] = { 0x17, 0x18, 0x19, 0x1A, 0x1B };
	int bad = 0, tables = 0;
	for (size_t f = 0; f < sizeof(fams) / sizeof(fams[0]); f++)
		for (unsigned m = 0; m <= 0xFF; m++) {
			const char *want = linux_agreed_dir(fams[f], m);   /* 1Ah: mapfile and amd.c agree */
			const struct ls_table *t = load_source_amd(fams[f], m);
			const char *got = t ? t->oracle_dir : NULL;
			if (want && (!strcmp(want, "amdzen1") || !strcmp(want, "amdzen6")))
				want = NULL;   /* Zen/Zen+, and Zen 6 (amdzen6/load-store.json not compared): no table */
			if (fams[f] == 0x19 && m >= 0x30 && m <= 0x3F) {
				/* amdzen4 to the mapfile, Zen 3 to Linux amd.c and libpfm4: no table */
				assert_string_equal(want, "amdzen4");
				want = NULL;
			}
			if ((want == NULL) != (got == NULL) || (want && strcmp(want, got))) {
				if (bad < 8)
					printf("family 0x%x model 0x%02x: table %s, perf mapfile %s\n", fams[f], m, got ? got : "none",
					       want ? want : "none");
				bad++;
			}
			tables += got != NULL;
		}
	assert_int_equal(bad, 0);
	assert_int_equal(tables, 0xD0 + 0x100 - 0x10 + 0x60);   /* 17h 30h-FFh, 19h but 30h-3Fh, 1Ah Zen 5 */
	assert_null(load_source_amd(0x1A, 0x50));   /* Zen 6 */
	assert_null(load_source_amd(0x1A, 0x30));   /* amdzen6 to the mapfile, nothing to amd.c */
	/* the oracle distinguishes: Milan and Genoa differ, Naples has none */
	assert_string_equal(linux_mapfile_dir(25, 0x01), "amdzen3");
	assert_string_equal(linux_mapfile_dir(25, 0x11), "amdzen4");
	assert_string_equal(linux_mapfile_dir(23, 0x01), "amdzen1");
}

/* A wrong row must fail. */
static void test_oracle_can_fail(void **state)
{
	(void)state;
	struct ls_event e = ls_amd_zen3.ev[1];
	e.umask ^= 0x04;
	assert_int_not_equal(check_event("mutant", "amdzen3", &e), 0);
	e = ls_amd_zen2.ev[2];
	assert_int_not_equal(check_event("mutant", "amdzen3", &e), 0);   /* a Zen 2 name on Zen 3 */
	e = ls_amd_zen4.ev[5];
	e.umask = 0x50;                                                  /* parts ORed wrong */
	assert_int_not_equal(check_event("mutant", "amdzen4", &e), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_amd_event_matches_perf_json),
		cmocka_unit_test(test_generation_matches_mapfile),
		cmocka_unit_test(test_oracle_can_fail),
	};
	return cmocka_run_group_tests(tests, load, NULL);
}
