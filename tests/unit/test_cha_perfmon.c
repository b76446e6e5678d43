/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outside oracle: Intel's perfmon event files (github.com/intel/perfmon, BSD-3-Clause), extracted
 * by tests/tools/perfmon_cha_extract.py into tests/oracle/perfmon/<platform>_cha.json (source
 * paths, versions and commit in each file and in tests/oracle/perfmon/README.md). Every named
 * event of every platform table is compared bit for bit with Intel's row of the same name:
 * EventCode, UMask, UMaskExt, the CTL value efiperf writes (event | umask << 8 | umask_ext << 32,
 * plus EN bit 22 on SKX/CLX/ICX only, as the uncore manuals give it), FILTER_VALUE as the raw
 * FILTER1 value, the CHAFilter0[26:17] state field, the counters the box table's constraints
 * allow against Intel's "Counter" field (TOR_OCCUPANCY: "0"), and no port or FC mask. An event Intel's
 * files do not have is listed, and its table row must cite a source other than perfmon.
 * Which table serves which CPU model is checked against Intel's mapfile.csv: every model a table
 * serves must be served by Intel with a file that is compared with that same table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/perfmon_oracle.h"

#include "pmu/uncore/intel_cha.h"

static const struct perfmon_row *lookup(const struct perfmon_row *rows, unsigned n, const char *name)
{
	static const char *const prefix[] = { "UNC_CHA_", "UNC_C_" };
	for (int k = 0; k < 2; k++)
		for (unsigned i = 0; i < n; i++)
			if (!strncmp(rows[i].name, prefix[k], strlen(prefix[k])) && !strcmp(rows[i].name + strlen(prefix[k]), name))
				return &rows[i];
	return NULL;
}

/* platform file, efiperf table, CTL enable bit per the platform's uncore manual */
static const struct { const char *file, *table; uint64_t en; } plats[] = {
	{ "skx", "SKX", 1ull << 22 }, { "clx", "SKX", 1ull << 22 }, { "icx", "ICX", 1ull << 22 },
	{ "spr", "SPR", 0 }, { "emr", "EMR", 0 }, { "gnr", "GNR", 0 }, { "srf", "SRF", 0 }, { "cwf", "CWF", 0 },
};

static void test_tables_against_perfmon(void **state)
{
	(void)state;
	static struct perfmon_row rows[PERFMON_ORACLE_MAX_ROWS];
	unsigned total = 0, missing_total = 0;
	for (size_t k = 0; k < sizeof(plats) / sizeof(plats[0]); k++) {
		const struct cha_platform *p = cha_platform_by_name(plats[k].table);
		assert_non_null(p);
		unsigned n = perfmon_oracle_load(plats[k].file, "cha", PERFMON_ORACLE_FILTERS, rows);
		unsigned checked = 0, missing = 0;
		assert_true(n > 0);
		for (const struct cha_event *e = p->events; e->name; e++) {
			const struct perfmon_row *r = lookup(rows, n, e->name);
			if (!r) {
				printf("perfmon %s: %s not in Intel's files; table cites: %s\n", plats[k].file, e->name, e->source);
				if (!e->source || !e->source[0] || strstr(e->source, "perfmon"))
					fail_msg("%s %s: not in perfmon, so its row must cite another source (\"%s\")", p->name,
						 e->name, e->source ? e->source : "");
				missing++;
				continue;
			}
			char spec[128], why[160];
			struct cha_encoding x;
			snprintf(spec, sizeof(spec), "cha/%s/", e->name);
			if (cha_encode(p, spec, strlen(spec), &x, why, sizeof(why)))
				fail_msg("%s: %s", spec, why);
			uint64_t ctl = r->code | r->umask << 8 | r->umask_ext << 32 | plats[k].en;
			if (e->event != r->code || e->umask != r->umask || e->umask_ext != r->umask_ext || x.ctl != ctl)
				fail_msg("%s %s: ours event 0x%x umask 0x%x umask_ext 0x%x CTL 0x%llx; Intel (%s) 0x%llx 0x%llx "
					 "0x%llx -> CTL 0x%llx", p->name, e->name, e->event, e->umask, e->umask_ext,
					 (unsigned long long)x.ctl, plats[k].file, (unsigned long long)r->code,
					 (unsigned long long)r->umask, (unsigned long long)r->umask_ext, (unsigned long long)ctl);
			/* the counters the box table lets the event use are the ones Intel lists */
			uint8_t may = (uint8_t)(box_event_counters(&p->box, e->event) & ((1u << p->box.num_counters) - 1));
			if (!r->counters || may != r->counters)
				fail_msg("%s %s: efiperf schedules event 0x%x on counters 0x%x; Intel's Counter field gives 0x%x",
					 p->name, e->name, e->event, may, r->counters);
			if (r->port || r->fc)
				fail_msg("%s: Intel gives PortMask/FCMask 0x%llx/0x%llx, a CHA has none", r->name,
					 (unsigned long long)r->port, (unsigned long long)r->fc);
			if (r->filter_value) {
				/* FILTER_VALUE is the raw FILTER1 register value */
				if (!(x.uses & 2) || x.filter[1] != r->filter_value)
					fail_msg("%s %s: FILTER1 0x%llx (uses %u), Intel FILTER_VALUE 0x%llx", p->name, e->name,
						 (unsigned long long)x.filter[1], x.uses, (unsigned long long)r->filter_value);
			} else if (!strcmp(r->filter, "CHAFilter0[26:17]")) {
				uint64_t state = 0x3FFull << 17;
				if (!(x.uses & 1) || !x.filter[0] || (x.filter[0] & ~state))
					fail_msg("%s %s: FILTER0 0x%llx is not a state match in bits 26:17", p->name, e->name,
						 (unsigned long long)x.filter[0]);
			} else if (!strncmp(r->filter, "CHAFilter1", 10)) {
				assert_true(x.uses & 2);     /* the opcode filter is programmed (all opcodes) */
			} else if (strcmp(r->filter, "na") && r->filter[0]) {
				fail_msg("%s: Intel's filter \"%s\" is not one this test knows", r->name, r->filter);
			}
			checked++;
		}
		printf("perfmon %s: %u events of the %s table compared bit for bit, %u not in Intel's files\n",
		       plats[k].file, checked, p->name, missing);
		assert_true(checked >= 14);
		total += checked;
		missing_total += missing;
	}
	printf("perfmon: %u comparisons, %u events not in the oracle\n", total, missing_total);
}

/* The comparison can fail: a wrong umask_ext against a real row is caught. */
static void test_oracle_catches_a_wrong_value(void **state)
{
	(void)state;
	static struct perfmon_row rows[PERFMON_ORACLE_MAX_ROWS];
	unsigned n = perfmon_oracle_load("gnr", "cha", PERFMON_ORACLE_FILTERS, rows);
	const struct perfmon_row *r = lookup(rows, n, "TOR_INSERTS.CXL_MISS_MEMPUSHWR");
	assert_non_null(r);
	assert_int_equal(r->umask_ext, 0x78CC6FFE);          /* Intel's literal, 31 bits */
	assert_int_equal(r->umask_ext & 0xFFFFFF, 0xCC6FFE); /* what a 24-bit field would have kept */
	assert_true((r->umask_ext & 0xFFFFFF) != r->umask_ext);
}

/* The constraint check can fail: Intel restricts TOR_OCCUPANCY to counter 0 on every platform,
 * and an event select with every counter allowed differs from it. */
static void test_occupancy_counter_zero(void **state)
{
	(void)state;
	static struct perfmon_row rows[PERFMON_ORACLE_MAX_ROWS];
	for (size_t k = 0; k < sizeof(plats) / sizeof(plats[0]); k++) {
		unsigned n = perfmon_oracle_load(plats[k].file, "cha", PERFMON_ORACLE_FILTERS, rows);
		const struct perfmon_row *r = lookup(rows, n, "TOR_OCCUPANCY.IO_MISS_ITOM");
		assert_non_null(r);
		assert_int_equal(r->code, 0x36);
		assert_int_equal(r->counters, 0x1);
		const struct perfmon_row *c = lookup(rows, n, "CLOCKTICKS");
		assert_non_null(c);
		assert_int_equal(c->counters, 0xF);
		assert_true(c->counters != r->counters);
	}
}

#define NPLATS (sizeof(plats) / sizeof(plats[0]))

static const char *cha_table_of(unsigned model)
{
	const struct cha_platform *p = cha_platform_for_cpu(6, model);
	return p ? p->name : NULL;
}

static const char *cha_compared_with(const char *folder)
{
	for (size_t k = 0; k < NPLATS; k++)
		if (!strcmp(plats[k].file, folder))
			return plats[k].table;
	return NULL;
}

/* For every family-6 model a CHA table serves (cha_platform_for_cpu), each perfmon file Intel's
 * mapfile.csv serves that model with (any stepping) is one test_tables_against_perfmon compares
 * with that very table: no table serves a model its events were never compared for. */
static void test_every_served_model_compared(void **state)
{
	(void)state;
	unsigned served, pairs = perfmon_check_served_models("CHA", cha_table_of, cha_compared_with, &served);
	assert_int_equal(served, 9);   /* 0x55, 0x6A, 0x6C, 0x8F, 0xCF, 0xAD, 0xAE, 0xAF, 0xDD */
	assert_int_equal(pairs, 10);   /* 0x55: SKX (steppings 0-4) and CLX (5-F) */
	/* Granite Rapids-D (0xAE) has no file of its own: Intel serves it with GNR's */
	char dirs[4][8];
	assert_int_equal(perfmon_uncore_dirs(0xAE, dirs, 4), 1);
	assert_string_equal(dirs[0], "gnr");
	assert_string_equal(cha_platform_for_cpu(6, 0xAF)->name, "SRF");
	assert_string_equal(cha_platform_for_cpu(6, 0xDD)->name, "CWF");
	/* the check can fail: Grand Ridge (0xB6) has Intel files no test compares */
	assert_int_equal(perfmon_uncore_dirs(0xB6, dirs, 4), 1);
	assert_string_equal(dirs[0], "grr");
	assert_null(cha_platform_for_cpu(6, 0xB6));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_occupancy_counter_zero),
		cmocka_unit_test(test_every_served_model_compared),
		cmocka_unit_test(test_tables_against_perfmon),
		cmocka_unit_test(test_oracle_catches_a_wrong_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
