/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outside oracle: Intel's perfmon event files (github.com/intel/perfmon, BSD-3-Clause), extracted
 * by tests/tools/perfmon_uncore_extract.py into tests/oracle/perfmon/<platform>_imc_iio.json
 * (source paths, versions and commit in each file and in tests/oracle/perfmon/README.md). Every
 * named IMC and IIO event of every platform table is compared bit for bit with Intel's row of the
 * same name: EventCode, UMask, PortMask (ch_mask), FCMask (fc_mask), the counters it may use
 * ("Counter"), and the CTL efiperf writes against the CTL built here from Intel's values with
 * the layout Linux's format attributes give (literal positions: ch_mask at bit 36, fc_mask at
 * 44 on SKX/CLX and 48 on ICX, SPR, EMR, GNR; EN bit 22). Where Intel's row also gives UMaskExt
 * (SPR and later: the CTL's bits 63:32 as the generic PMON counter control holds them), the
 * CTL's high half must equal it: a second, layout-free check of where ch_mask and fc_mask go.
 * Every table event must be in Intel's file. Which table serves which CPU model is checked
 * against Intel's mapfile.csv (tests/oracle/perfmon/mapfile_uncore.csv): every model a table
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

#include "pmu/uncore/intel_uncore.h"

static unsigned ext;                  /* rows whose UMaskExt was compared */

static unsigned compare(const char *file, const char *table, unsigned fc_shift)
{
	struct perfmon_row rows[PERFMON_ORACLE_MAX_ROWS];
	unsigned n = perfmon_oracle_load(file, "imc_iio", 0, rows), checked = 0;
	ext = 0;
	const struct intel_uncore_platform *p = intel_uncore_platform_by_name(table);
	assert_non_null(p);
	for (int b = 0; b < INTEL_NBOX; b++) {
		const struct intel_box_desc *d = &p->box[b];
		const char *pre = b == INTEL_BOX_IMC ? "UNC_M_" : "UNC_IIO_";
		for (uint16_t i = 0; i < d->nevents; i++) {
			const struct intel_uncore_event *e = &d->events[i];
			char full[96];
			snprintf(full, sizeof(full), "%s%s", pre, e->name);
			const struct perfmon_row *r = NULL;
			for (unsigned k = 0; k < n && !r; k++)
				if (!strcmp(rows[k].name, full))
					r = &rows[k];
			if (!r)
				fail_msg("%s: %s is not in Intel's perfmon file", file, full);
			if (r->code != e->event || r->umask != e->umask || r->port != e->ch_mask || r->fc != e->fc_mask)
				fail_msg("%s %s: efiperf 0x%x/0x%x ch 0x%x fc 0x%x, perfmon 0x%llx/0x%llx ch 0x%llx fc 0x%llx", file,
					 full, e->event, e->umask, e->ch_mask, e->fc_mask, (unsigned long long)r->code,
					 (unsigned long long)r->umask, (unsigned long long)r->port, (unsigned long long)r->fc);
			uint64_t want = r->code | r->umask << 8 | 1ull << 22 | r->port << 36 | r->fc << fc_shift, ctl;
			char spec[128], why[160];
			intel_uncore_event_spec(d, e, spec, sizeof(spec));
			if (intel_uncore_encode(d, spec, strlen(spec), &ctl, NULL, NULL, why, sizeof(why)))
				fail_msg("%s: %s", spec, why);
			if (ctl != want)
				fail_msg("%s %s: CTL 0x%llx, perfmon's fields give 0x%llx", file, full, (unsigned long long)ctl,
					 (unsigned long long)want);
			if (r->umask_ext && ctl >> 32 != r->umask_ext)
				fail_msg("%s %s: CTL 0x%llx, perfmon UMaskExt 0x%llx is bits 63:32", file, full, (unsigned long long)ctl,
					 (unsigned long long)r->umask_ext);
			ext += r->umask_ext != 0;
			uint8_t may = box_event_counters(d->type, e->event);
			if (may != r->counters)
				fail_msg("%s %s: counters 0x%x, perfmon says \"%s\"", file, full, may, r->counter);
			checked++;
		}
	}
	return checked;
}

/* Every extract and the table it is compared with; rows compared; rows whose UMaskExt was
 * compared (-1: not counted). SPR, EMR: 4 IMC + 33 IIO rows; the 8 DATA_REQ_BY_CPU.MEM_READ rows
 * carry UMaskExt. GNR: 7 IMC (two subchannels) + 33 IIO; every DATA_REQ row carries UMaskExt. */
static const struct { const char *file, *table; unsigned fc_shift, rows; int ext; } cases[] = {
	{ "skx", "SKX", 44, 21, -1 }, { "clx", "SKX", 44, 21, -1 }, { "icx", "ICX", 48, 37, -1 },
	{ "spr", "SPR", 48, 37, 8 },  { "emr", "EMR", 48, 37, 8 },  { "gnr", "GNR", 48, 40, 32 },
	{ "srf", "SRF", 48, 40, 32 }, { "cwf", "CWF", 48, 40, 32 },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static void test_every_extract(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCASES; k++) {
		assert_int_equal(compare(cases[k].file, cases[k].table, cases[k].fc_shift), cases[k].rows);
		if (cases[k].ext >= 0)
			assert_int_equal(ext, (unsigned)cases[k].ext);
		printf("perfmon %s: %u IMC/IIO rows of efiperf's %s table compared\n", cases[k].file, cases[k].rows,
		       cases[k].table);
	}
}

static const char *unc_table_of(unsigned model)
{
	const struct intel_uncore_platform *p = intel_uncore_platform_for(6, model);
	return p ? (p->events_of ? p->events_of : p->name) : NULL;   /* GNR-D: GNR's files and events */
}

static const char *unc_compared_with(const char *folder)
{
	for (size_t k = 0; k < NCASES; k++)
		if (!strcmp(cases[k].file, folder))
			return cases[k].table;
	return NULL;
}

/* For every family-6 model an IMC/IIO table serves (intel_uncore_platform_for), each perfmon
 * file Intel's mapfile.csv serves that model with (any stepping) is compared above with that
 * very table: no table serves a model its events were never compared for. */
static void test_every_served_model_compared(void **state)
{
	(void)state;
	unsigned served, pairs = perfmon_check_served_models("IMC/IIO", unc_table_of, unc_compared_with, &served);
	printf("perfmon mapfile: %u models served by an IMC/IIO table, %u (model, file) pairs, each compared\n", served,
	       pairs);
	assert_int_equal(served, 9);   /* 0x55, 0x6A, 0x6C, 0x8F, 0xCF, 0xAD, 0xAE, 0xAF, 0xDD */
	assert_int_equal(pairs, 10);   /* 0x55: SKX (steppings 0-4) and CLX (5-F) */
	/* the check can fail: Emerald Rapids' model is Intel's EMR file, not SPR's */
	char dirs[4][8];
	assert_int_equal(perfmon_uncore_dirs(0xCF, dirs, 4), 1);
	assert_string_equal(dirs[0], "emr");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_extract),
		cmocka_unit_test(test_every_served_model_compared),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
