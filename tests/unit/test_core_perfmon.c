/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outside oracle: Intel's perfmon core event files (github.com/intel/perfmon, BSD-3-Clause),
 * as extracted into tests/oracle/perfmon/<platform>_core.json by
 * tests/tools/perfmon_core_extract.py (source path, commit and file Version are in each file and
 * in tests/oracle/perfmon/README-core.md). For every family-6 model a perfmon file serves, the
 * named events efiperf's table offers on that model (the generation x86_corepmu.c maps the
 * model to) are encoded by efiperf and compared bit for bit with the perfmon fields placed at
 * the IA32_PERFEVTSELx positions of Intel SDM Vol.3B (event select [7:0], unit mask [15:8],
 * edge [18], AnyThread [21], invert [23], counter mask [31:24]), written here as literal
 * shifts, not efiperf's macros. Every model efiperf maps to a model-specific table must be
 * served by some perfmon file. An event the file lacks is listed and must carry a `cite`.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <cmocka.h>

#include "tests/unit/perfmon_oracle.h"

#include "pmu/core/x86_event.h"
#include "pmu/core/x86_corepmu.h"
#include "pmu/core/load_source.h"

#define MAX_FILES 32
#define MAX_EVENTS 64
#define MAX_MODELS 16

struct pm_event { char name[64]; unsigned code, umask, cmask, inv, edge, any; };
struct pm_file {
	char file[64], path[96], version[16];
	unsigned models[MAX_MODELS], nmodels;
	struct pm_event ev[MAX_EVENTS];
	unsigned nev;
};

static struct pm_file files[MAX_FILES];
static unsigned nfiles;

static void load(const char *dir, const char *name)
{
	char p[256], line[1024];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	assert_true(nfiles < MAX_FILES);
	struct pm_file *pf = &files[nfiles++];
	memset(pf, 0, sizeof(*pf));
	snprintf(pf->file, sizeof(pf->file), "%s", name);
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "\"source\":")) {
			assert_true(perfmon_field(line, "path", pf->path, sizeof(pf->path)));
			assert_true(perfmon_field(line, "Version", pf->version, sizeof(pf->version)));
		} else if (strstr(line, "\"models\":")) {
			for (const char *q = strstr(line, "\"0x"); q; q = strstr(q + 1, "\"0x")) {
				assert_true(pf->nmodels < MAX_MODELS);
				pf->models[pf->nmodels++] = (unsigned)strtoul(q + 1, NULL, 16);
			}
		} else if (strstr(line, "\"EventName\":")) {
			assert_true(pf->nev < MAX_EVENTS);
			struct pm_event *e = &pf->ev[pf->nev++];
			assert_true(perfmon_field(line, "EventName", e->name, sizeof(e->name)));
			e->code = perfmon_num(line, "EventCode");
			e->umask = perfmon_num(line, "UMask");
			e->cmask = perfmon_num(line, "CounterMask");
			e->inv = perfmon_num(line, "Invert");
			e->edge = perfmon_num(line, "EdgeDetect");
			e->any = perfmon_num(line, "AnyThread");
		}
	}
	fclose(f);
	assert_true(pf->nmodels > 0);
	assert_true(pf->nev > 0);
}

static int setup(void **state)
{
	(void)state;
	const char *dir = perfmon_oracle_dir();
	if (!dir)
		return -1;
	DIR *d = opendir(dir);
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		if (n > 10 && !strcmp(de->d_name + n - 10, "_core.json"))
			load(dir, de->d_name);
	}
	closedir(d);
	return nfiles ? 0 : -1;
}

/* IA32_PERFEVTSELx field positions, Intel SDM Vol.3B figure "Layout of IA32_PERFEVTSELx MSRs". */
static uint64_t perfmon_value(const struct pm_event *e)
{
	return (uint64_t)e->code | (uint64_t)e->umask << 8 | (uint64_t)e->edge << 18 | (uint64_t)e->any << 21 |
	       (uint64_t)e->inv << 23 | (uint64_t)e->cmask << 24;
}

static const struct pm_event *find(const struct pm_file *f, const char *name)
{
	for (unsigned i = 0; i < f->nev; i++)
		if (!strcmp(f->ev[i].name, name))
			return &f->ev[i];
	return NULL;
}

/* Compare the table for generations `gens` against file f; returns mismatches. */
static int check(const struct pm_file *f, unsigned model, uint16_t gens, int *compared, int *missing, int quiet)
{
	int bad = 0;
	struct x86_event_caps caps = { .vendor = X86_EV_INTEL, .gens = gens, .any_ok = 1 };
	for (unsigned i = 0; i < intel_core_nevents; i++) {
		const struct x86_named_event *row = &intel_core_events[i];
		const char *name = row->name;
		/* the row efiperf programs for this name on this model (first match) */
		if (x86_named_lookup(X86_EV_INTEL, gens, name, strlen(name)) != row)
			continue;
		const struct pm_event *e = find(f, name);
		if (!e) {
			if (!quiet)
				printf("perfmon %s (model 0x%02X) has no %s: cited as %s\n", f->path, model, name,
				       row->cite ? row->cite : "NOTHING");
			(*missing)++;
			if (!row->cite)
				bad++;
			continue;
		}
		struct x86_event ev;
		char err[160];
		assert_int_equal(x86_event_parse(name, strlen(name), &caps, &ev, err, sizeof(err)), 0);
		(*compared)++;
		if (ev.config != perfmon_value(e)) {
			if (!quiet)
				print_error("%s on model 0x%02X: efiperf 0x%llx, perfmon %s v%s 0x%llx\n", name, model,
					    (unsigned long long)ev.config, f->path, f->version,
					    (unsigned long long)perfmon_value(e));
			bad++;
		}
	}
	return bad;
}

static void test_tables_equal_perfmon(void **state)
{
	(void)state;
	int total = 0, bad = 0;
	for (unsigned k = 0; k < nfiles; k++) {
		const struct pm_file *f = &files[k];
		for (unsigned m = 0; m < f->nmodels; m++) {
			uint16_t gens = (uint16_t)(X86_GEN_ARCH | corepmu_intel_gens(f->models[m], 0));
			int compared = 0, missing = 0;
			bad += check(f, f->models[m], gens, &compared, &missing, 0);
			printf("perfmon %s v%s, model 0x%02X (generations 0x%02x): %d events compared, %d not in the file\n",
			       f->path, f->version, f->models[m], gens, compared, missing);
			total += compared;
		}
	}
	printf("perfmon oracle: %u files, %d encodings compared, %d failures\n", nfiles, total, bad);
	assert_int_equal(bad, 0);
	assert_true(total > 0);
}

/* Every model efiperf gives a model-specific table is served by some perfmon file. */
static void test_every_mapped_model_has_an_oracle(void **state)
{
	(void)state;
	int mapped = 0;
	for (unsigned model = 0; model < 256; model++) {
		if (!corepmu_intel_gens(model, 0))
			continue;
		mapped++;
		int served = 0;
		for (unsigned k = 0; k < nfiles; k++)
			for (unsigned m = 0; m < files[k].nmodels; m++)
				served |= files[k].models[m] == model;
		if (!served)
			fail_msg("family 6 model 0x%02X has a model-specific table but no perfmon file", model);
	}
	printf("perfmon oracle: %d family-6 models mapped, all served by a perfmon file\n", mapped);
	assert_true(mapped >= 30);
}

/* The oracle can fail: the Ice Lake table on a Sapphire Rapids file (what efiperf used to
 * program there) disagrees, on UOPS_ISSUED.ANY and INT_MISC.* at least. */
static void test_icl_table_on_spr_is_caught(void **state)
{
	(void)state;
	for (unsigned k = 0; k < nfiles; k++) {
		if (strcmp(files[k].file, "spr_core.json"))
			continue;
		int compared = 0, missing = 0;
		int bad = check(&files[k], 0x8F, X86_GEN_ARCH | X86_GEN_ICL, &compared, &missing, 1);
		printf("Ice Lake table against %s: %d mismatches or uncited gaps\n", files[k].path, bad);
		assert_true(bad >= 4);
		/* and a hybrid E-core gets no Golden Cove table */
		assert_int_equal(corepmu_intel_gens(0x97, 1), 0);
		assert_int_equal(corepmu_intel_gens(0x97, 0), X86_GEN_GLC);
		return;
	}
	fail_msg("no spr_core.json extract");
}

/* The load-source table's Intel rows (pmu/events/load_source_events.c ls_intel, programmed by name
 * on every Intel CPU; their event and umask are the record's): equal to every perfmon file that
 * lists them, and listed by the files of every model whose generation has MEM_LOAD_RETIRED. */
static void test_load_source_rows_equal_perfmon(void **state)
{
	(void)state;
	int compared = 0;
	for (unsigned k = 0; k < nfiles; k++)
		for (int i = 0; i < ls_intel.n; i++) {
			const struct ls_event *r = &ls_intel.ev[i];
			const struct pm_event *e = find(&files[k], r->name);
			uint16_t gens = corepmu_intel_gens(files[k].models[0], 0);
			int named = x86_named_lookup(X86_EV_INTEL, gens, r->name, strlen(r->name)) != NULL;
			if (!e) {
				if (named)
					fail_msg("%s: efiperf offers %s on model 0x%02X, the file lacks it", files[k].path, r->name,
						 files[k].models[0]);
				continue;
			}
			if (e->code != r->event || e->umask != r->umask)
				fail_msg("load-source %s: efiperf 0x%x/0x%x, perfmon %s 0x%x/0x%x", r->name, r->event, r->umask,
					 files[k].path, e->code, e->umask);
			compared++;
		}
	printf("perfmon oracle: %d load-source row encodings compared\n", compared);
	assert_int_equal(compared, 12 * 4);   /* Skylake .. Meteor Lake files: 12 of the 21 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_source_rows_equal_perfmon),
		cmocka_unit_test(test_tables_equal_perfmon),
		cmocka_unit_test(test_every_mapped_model_has_an_oracle),
		cmocka_unit_test(test_icl_table_on_spr_is_caught),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
