/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/oracle/linux-perf/amd_pipeline.txt (Linux perf's amdzen4/amdzen5 pipeline.json metrics
 * and the events they name, one line each) as rows, for the AMD pipeline-utilization tests
 * (test_amd_pipeline.c: level 1, test_amd_pipeline_l2.c: level 2), and the PERF_CTL field bits
 * of an event line. Header-only, host only: one test file includes it.
 */
#ifndef EFIPERF_TESTS_AMD_PIPELINE_ORACLE_H
#define EFIPERF_TESTS_AMD_PIPELINE_ORACLE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pmu/core/amd_pipeline.h"
#include "pmu/core/x86_event.h"
#include "tests/unit/oracle_file.h"
#include "tests/unit/amd_perfctl.h"
#include "tests/unit/json_check.h"
#include "pmu/core/x86_corepmu.h"
#include "efi/out/pmu_json.h"

#define MAX_LINES 64
/* metric: dir file "metric" MetricName MetricGroup-or-"-" rest = MetricExpr;
 * event: dir file "event" EventName EventCode (in group) rest = UMask or "-" */
static struct line { char dir[16], file[32], kind[8], name[64], group[48], rest[200]; } ln[MAX_LINES];
static int nln;

/* The rows read (0: the file is missing). */
static int load(void)
{
	FILE *f = oracle_open("linux-perf/amd_pipeline.txt");
	if (!f)
		return 0;
	char buf[400];
	nln = 0;
	while (fgets(buf, sizeof(buf), f) && nln < MAX_LINES) {
		struct line *l = &ln[nln];
		int off = 0;
		buf[strcspn(buf, "\n")] = 0;
		if (buf[0] == '#' || sscanf(buf, "%15s %31s %7s %63s %47s %n", l->dir, l->file, l->kind, l->name, l->group, &off) < 5)
			continue;
		snprintf(l->rest, sizeof(l->rest), "%s", buf + off);   /* metric: the expression; event: the UMask */
		nln++;
	}
	fclose(f);
	return nln;
}

/* The Linux directory of a table row. */
static inline const char *dir_of(const struct amd_pipeline_gen *g)
{
	return g->gens == X86_GEN_ZEN4 ? "amdzen4" : g->gens == X86_GEN_ZEN5 ? "amdzen5" : "?";
}

static inline const struct line *find(const char *dir, const char *kind, const char *name)
{
	for (int i = 0; i < nln; i++)
		if (!strcmp(ln[i].dir, dir) && !strcmp(ln[i].kind, kind) && !strcmp(ln[i].name, name))
			return &ln[i];
	return NULL;
}

/* PERF_CTL field bits of an event line (tests/unit/amd_perfctl.h). */
static inline uint64_t json_config(const struct line *l)
{
	return amd_perfctl_fields(strtoull(l->group, NULL, 16), strcmp(l->rest, "-") ? strtoull(l->rest, NULL, 16) : 0);
}

/* The event caps of a CPU of row g as probed: Family 19h model 11h (Zen 4), 1Ah model 02h (Zen 5). */
static inline struct x86_event_caps row_caps(const struct amd_pipeline_gen *g)
{
	int zen4 = g->gens == X86_GEN_ZEN4;
	return (struct x86_event_caps){ .vendor = X86_EV_AMD,
					.gens = corepmu_x86_gens("AuthenticAMD", zen4 ? 0x19 : 0x1A, zen4 ? 0x11 : 0x02) };
}

/* The `topdown` record of cp's last window, checked to be one JSON object (static buffer). */
static inline const char *topdown_record(const struct corepmu *cp)
{
	static char buf[4096];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	corepmu_json_topdown(&j, cp);
	json_end(&j);
	if (sb.overflow || !json_check_object(buf, strlen(buf)))
		return "record overflowed or is not one JSON object";
	return buf;
}

#endif
