/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AMD pipeline utilization ("TopDown on AMD") level 1 for Zen 4 and Zen 5: pure arithmetic on
 * counts, and the table of formulas per generation.
 *
 * Source: Linux tools/perf/pmu-events/arch/x86/amdzen4/pipeline.json and amdzen5/pipeline.json,
 * metric group PipelineL1 (AMD PPR for Family 19h Model 11h and for Family 1Ah Model 02h, "Core
 * Performance Monitor Counters", "Pipeline Utilization", describe the same method):
 *   total_dispatch_slots = W * ls_not_halted_cyc          (W = 6 on Zen 4, 8 on Zen 5)
 *   frontend_bound  = de_no_dispatch_per_slot.no_ops_from_frontend / total_dispatch_slots
 *   bad_speculation = (de_src_op_disp.all - ex_ret_ops) / total_dispatch_slots
 *   backend_bound   = de_no_dispatch_per_slot.backend_stalls / total_dispatch_slots
 *   smt_contention  = de_no_dispatch_per_slot.smt_contention / total_dispatch_slots
 *   retiring        = ex_ret_ops / total_dispatch_slots
 * (d_ratio: 0 when the denominator is 0; here: no value, with why.) Each category is the
 * numerator coef[k] . count over W x cycles: the coefficients are the table's data, checked by
 * tests/unit/test_amd_pipeline.c against the JSON text (tests/oracle/linux-perf/amd_pipeline.txt).
 *
 * Level 1 only: the six inputs fill the six core counters (PerfCtrExtCore); the PipelineL2
 * metrics need six more events (a cmask=W form of no_ops_from_frontend, ex_ret_brn_misp,
 * resyncs_or_nc_redirects / bp_redirects.resync, ex_no_retire.load_not_complete and
 * .not_complete, ex_ret_ucode_ops) that would have to share a multiplexed group with the cycles
 * (pmu/core/x86_mux.h multiplexes core_events around the six inputs): not yet.
 * Zen 1-3 have no PMCx1A0 de_no_dispatch_per_slot in Linux's amdzen1-3 JSON: no table row.
 */
#ifndef EFIPERF_AMD_PIPELINE_H
#define EFIPERF_AMD_PIPELINE_H

#include <stdint.h>

enum apl_input { APL_CYCLES, APL_FE_NO_OPS, APL_BE_STALLS, APL_SMT, APL_OPS_DISP, APL_RET_OPS, APL_NINPUT };
enum apl_cat { APL_FRONTEND, APL_BAD_SPEC, APL_BACKEND, APL_SMT_CONTENTION, APL_RETIRING, APL_NCAT };

/* The category names (Linux perf's MetricName). */
extern const char *const apl_cat_name[APL_NCAT];

/* One generation's level-1 formulas. */
struct amd_pipeline_gen {
	const char *gen;                     /* "Zen 4", "Zen 5" */
	uint16_t gens;                       /* the X86_GEN_* bit that selects it */
	uint8_t width;                       /* dispatch slots per cycle, W above */
	const char *event[APL_NINPUT];       /* Linux perf EventName of each input (named events) */
	int8_t coef[APL_NCAT][APL_NINPUT];   /* numerator of category k: sum coef[k][i] x count[i] */
	const char *source;                  /* where the formulas are published */
};

extern const struct amd_pipeline_gen amd_pipeline_gens[];
extern const unsigned amd_pipeline_ngens;

/* The row for a CPU of X86_GEN_* bits gens, NULL when none (Zen 1-3, Intel). */
const struct amd_pipeline_gen *amd_pipeline_for(uint16_t gens);
/* Why a CPU without a row gets no pipeline utilization (one line). */
extern const char amd_pipeline_no_row[];

struct amd_pipeline_out {
	int valid;
	char why[128];                /* !valid: the input missing or 0 */
	uint64_t slots;               /* W x cycles */
	int64_t milli_pct[APL_NCAT];  /* 1/1000 % of slots; bad_speculation may be < 0 */
};

/* Fill out from count[i] (input i's delta), have (bit i: input i was counted; a missing one is
 * named with its why, whys[i] or "not counted"). Pure; never divides by zero: cycles 0 gives
 * valid 0 and why "ls_not_halted_cyc counted 0: no cycles counted". */
void amd_pipeline(const struct amd_pipeline_gen *g, const uint64_t count[APL_NINPUT], uint32_t have,
		  const char *const whys[APL_NINPUT], struct amd_pipeline_out *out);

#endif
