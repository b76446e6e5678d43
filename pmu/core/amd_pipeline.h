/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AMD pipeline utilization ("TopDown on AMD") levels 1 and 2 for Zen 4 and Zen 5: pure arithmetic on
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
 * Level 2 (topdown = l2; PipelineL2 of the same files): six more inputs, a second multiplexed
 * group beside level 1's six (pmu/core/x86_mux.h: group 0 the six above, group 1 these six):
 *   fe_latency = cpu@de_no_dispatch_per_slot.no_ops_from_frontend,cmask=W@ (cycles with all W
 *                slots empty), ex_ret_brn_misp, resyncs_or_nc_redirects (Zen 4) /
 *                bp_redirects.resync (Zen 5), ex_no_retire.load_not_complete,
 *                ex_no_retire.not_complete, ex_ret_ucode_ops.
 * Each level-2 metric is  P x (num . count) / (den . count),  P = parent category's fraction
 * (level 1's numerator over slots) or 1 when it has no parent:
 *   frontend_bound_latency   = W x fe_latency / (W x cycles)
 *   frontend_bound_bandwidth = (no_ops_from_frontend - W x fe_latency) / (W x cycles)
 *   bad_speculation_mispredicts / _pipeline_restarts = bad_speculation x misp|resync / (misp + resync)
 *   backend_bound_memory / _cpu = backend_bound x load_not_complete|(not_complete - load_not_complete) / not_complete
 *   retiring_fastpath / _microcode = retiring x (ex_ret_ops - ucode)|ucode / ex_ret_ops
 * (1 - d_ratio(a, b) is written (b - a) / b.) Zen 5's names are frontend_bound_by_latency etc.
 * A metric whose num/den take inputs of both groups (apl2_mixed) is a ratio of scaled counts
 * from different slices: an estimate (frontend_bound_latency/bandwidth against group 0's
 * cycles, retiring_fastpath/microcode: ex_ret_ucode_ops against group 0's ex_ret_ops). The
 * others multiply two exact ratios, one per group. A 0 denominator (Linux: d_ratio 0, so
 * backend_bound_cpu = backend_bound) gives no value, with why. tests/unit/test_amd_pipeline_l2.c
 * checks the table against the PipelineL2 expression text.
 * Zen 1-3 have no PMCx1A0 de_no_dispatch_per_slot in Linux's amdzen1-3 JSON: no table row.
 */
#ifndef EFIPERF_AMD_PIPELINE_H
#define EFIPERF_AMD_PIPELINE_H

#include <stdint.h>

enum apl_input { APL_CYCLES, APL_FE_NO_OPS, APL_BE_STALLS, APL_SMT, APL_OPS_DISP, APL_RET_OPS, APL_NINPUT };
/* Level 2's inputs, after level 1's in one count array (enum apl_input continues). */
enum apl2_input { APL2_FE_LATENCY = APL_NINPUT, APL2_BRN_MISP, APL2_RESYNC, APL2_LOAD_NC, APL2_NOT_COMPLETE,
		  APL2_UCODE_OPS, APL_NIN2 };
#define APL2_NINPUT (APL_NIN2 - APL_NINPUT)
#define APL2_NMETRIC 8
enum apl_cat { APL_FRONTEND, APL_BAD_SPEC, APL_BACKEND, APL_SMT_CONTENTION, APL_RETIRING, APL_NCAT };

/* The category names (Linux perf's MetricName). */
extern const char *const apl_cat_name[APL_NCAT];

/* One PipelineL2 metric: parent x (num . count) / (den . count). */
struct amd_pipeline_l2 {
	const char *name;        /* Linux perf MetricName of this generation */
	int8_t parent;           /* enum apl_cat whose fraction it splits; -1: none (factor 1) */
	int8_t num[APL_NIN2], den[APL_NIN2];
};

/* One generation's level-1 and level-2 formulas. */
struct amd_pipeline_gen {
	const char *gen;                     /* "Zen 4", "Zen 5" */
	uint16_t gens;                       /* the X86_GEN_* bit that selects it */
	uint8_t width;                       /* dispatch slots per cycle, W above */
	const char *event[APL_NINPUT];       /* Linux perf EventName of each input (named events) */
	int8_t coef[APL_NCAT][APL_NINPUT];   /* numerator of category k: sum coef[k][i] x count[i] */
	const char *source;                  /* where the formulas are published */
	const char *event2[APL2_NINPUT];     /* level 2's inputs (enum apl2_input - APL_NINPUT): named
	                                      * events, the cmask one in cpu/NAME,cmask=W/ form */
	struct amd_pipeline_l2 l2[APL2_NMETRIC];
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

/* The event name of input i of either level (i < APL_NIN2). */
const char *apl_input_name(const struct amd_pipeline_gen *g, int i);
/* The multiplexed group input i counts in with topdown = l2: 0 (level 1's) or 1. */
static inline int apl_input_group(int i) { return i >= APL_NINPUT; }
/* Metric m takes inputs of both groups in one ratio: an estimate of scaled counts. */
int apl2_mixed(const struct amd_pipeline_l2 *m);

struct amd_pipeline_l2_out {
	uint8_t valid[APL2_NMETRIC];
	int64_t milli_pct[APL2_NMETRIC];     /* 1/1000 % of slots; < 0 where the parent is */
	char why[APL2_NMETRIC][112];         /* !valid: the input missing, or the denominator 0 */
};

/* Level 2 from count[i] of all APL_NIN2 inputs (scaled), have and whys as amd_pipeline(). Pure;
 * a metric whose inputs are missing, whose parent has no cycles or whose d_ratio denominator is
 * 0 gets valid 0 and why naming the event(s). Counts below 2^52 (48-bit counters scaled by at
 * most 16 groups): the products fit 128 bits. */
void amd_pipeline_l2(const struct amd_pipeline_gen *g, const uint64_t count[APL_NIN2], uint32_t have,
		     const char *const whys[APL_NIN2], struct amd_pipeline_l2_out *out);

#endif
