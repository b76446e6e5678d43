/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Records of the PMU drivers' result structs: pmu/ returns structs, efi/out/ writes JSON.
 *   efi/out/cha_json.c:      the `cha` record (Intel uncore CHA)
 *   efi/out/corepmu_json.c:  `corepmu`, `core_counters`, `topdown`, `ibs` (x86 core PMU)
 *   efi/out/amd_pipeline_json.c: `topdown` on AMD Zen 4/5 (pipeline utilization)
 *   efi/out/load_source_json.c: a latency point's `load_source` object (Intel, AMD, Arm)
 *   efi/out/core_json.c:     a core counter set's counters (x86 fixed counters, Arm PMUv3)
 * The caller opens the record (rep_begin) and closes it; these write its members.
 */
#ifndef EFIPERF_OUT_PMU_JSON_H
#define EFIPERF_OUT_PMU_JSON_H

#include "efi/out/jsonl.h"
#include "pmu/uncore/intel_cha.h"
#include "pmu/core/x86_corepmu.h"
#include "pmu/core/load_source.h"
#include "pmu/core/core_counters.h"

/* Members of the `cha` record. */
void cha_result_json(const struct cha_request *req, const struct cha_result *res, struct json *j);
/* The record when cha_prepare failed: platform (or null), status "error", why. */
void cha_error_json(const struct cha_request *req, const char *why, struct json *j);

void corepmu_json_probe(struct json *j, const struct corepmu *cp);     /* object fields */
void corepmu_json_counters(struct json *j, const struct corepmu *cp);  /* `core_counters` */
void corepmu_json_topdown(struct json *j, const struct corepmu *cp);   /* `topdown` */
void corepmu_json_ibs(struct json *j, const struct corepmu *cp);       /* `ibs` */
/* `topdown` on AMD (efi/out/amd_pipeline_json.c): method AMD_PIPELINE_METHOD, pmu "amd_core",
 * valid (else why), level 1 with level2_why or 2 (topdown = l2), formula, formula_source,
 * dispatch_width, slots (or null) and slots_source, counts {input event: delta or null}, each
 * category a td_item_json(); level 2: level2_time_running, level2_counts, level2_mixed_groups,
 * level2 {metric: td_item_json()}. */
#define AMD_PIPELINE_METHOD "amd-pipeline"
void amd_pipeline_json(struct json *j, const struct corepmu *cp);
/* One TopDown category object (efi/out/core_json.c): {milli_pct (1/1000 % of slots, may be < 0),
 * pct when >= 0} or {why} (the Arm and AMD `topdown` records). */
void td_item_json(struct json *j, const char *name, int valid, int64_t milli_pct, const char *why);
/* A core counter set's members (efi/out/core_json.c): counters[], Arm exception levels,
 * mdcr_el2, restore. */
void core_set_json(struct json *j, const struct core_set *s);

/* The time members of one multiplexed group's entry in `groups` [{events, running_ns, fraction}]
 * (the CHA record's and a core counter set's, efi/out/core_json.c): running_ns, and fraction =
 * running_ns / window_ns in thousandths (0 when the window is 0), perf's enabled/running. */
void mux_group_time_json(struct json *j, uint64_t running_ns, uint64_t window_ns);

/* The `load_source` object of one window (efi/out/load_source_json.c). */
void load_source_json(struct json *j, const struct ls_window *w);

/* `restore`: {status, registers, written, failed: [{register, status}...], dropped}: what a
 * save set's restore put back (pmu/saveset.h), for any PMU driver's record. */

/* The `restore` object every record of a PMU that wrote registers carries
 * (efi/out/restore_json.c): status ("ok", or the first failed write-back's status such as "#GP",
 * or "not-restored" when restore never ran), registers (saved), written, failed [{register,
 * status}] (at most SAVESET_REPORT_FAILED listed), nfailed, not_saved (registers the save set
 * had no room for, only when non-zero), why (only when given). */
void json_restore_report(struct json *j, const struct saveset_report *r, const char *why);

#endif
