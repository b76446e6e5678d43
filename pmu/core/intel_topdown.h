/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel TopDown level 1 (and level 2 on Sapphire Rapids and later).
 *
 * Ice Lake and later (IA32_PERF_CAPABILITIES[15], or the P-core models where that bit is
 * unreliable, Linux arch/x86/events/intel/core.c): fixed counter 3 SLOTS and IA32_PERF_METRICS, whose byte k is
 * category k's share of SLOTS as an 8-bit fraction of 0xff (Linux tools/perf/Documentation/topdown.txt "Decoding metrics
 * values"; Linux arch/x86/events/intel/core.c). Both are read with RDPMC (ECX bit 30 | 3, bit 29: Linux tools/perf/Documentation/topdown.txt
 * read_slots/read_metrics); when RDPMC faults they are read with RDMSR and the record says
 * which path was used. Counts use perf's delta method (metric byte x slots, difference of
 * two reads, kept only when positive as the kernel does, Linux arch/x86/events/intel/core.c). SLOTS and
 * PERF_METRICS are reset (fixed counter 3 first, then PERF_METRICS: Linux arch/x86/events/intel/core.c, QEMU "SDM: Write
 * IA32_PERF_METRICS after fixed counter 3") at window start and on every tick, because the
 * 8-bit fractions lose precision as SLOTS grows (Linux tools/perf/Documentation/topdown.txt "Resetting metrics counters").
 *
 * Before Ice Lake: general counters UOPS_ISSUED.ANY, UOPS_RETIRED.RETIRE_SLOTS,
 * IDQ_UOPS_NOT_DELIVERED.CORE, INT_MISC.RECOVERY_CYCLES and cycles from fixed counter 1,
 * SLOTS = 4 x cycles; with SMT on and AnyThread supported, the per-core forms (THREAD_ANY / 2,
 * RECOVERY_CYCLES_ANY / 2). Formulas: pmu-tools skl_client_ratios.py (pmu-tools simple_ratios.py).
 *
 * Ratios are per-mille (no floating point in the app), each category normalised by the sum of
 * the four level-1 categories (Intel PCM, pmu-tools PERF_METRICS_SUM; Intel PCM, pmu-tools).
 */
#ifndef EFIPERF_INTEL_TOPDOWN_H
#define EFIPERF_INTEL_TOPDOWN_H

#include "pmu/core/intel_core.h"
#include "pmu/core/intel_topdown_math.h"

enum td_kind { TD_NONE, TD_GP_SNB, TD_GP_SKL, TD_METRICS };
enum td_path { TD_PATH_NONE, TD_PATH_RDPMC, TD_PATH_RDMSR };

struct intel_topdown {
	uint8_t kind, level2, any_form, path;
	const char *variant;       /* "perf-metrics", "general-counters", NULL */
	char why[112];             /* TD_NONE or failed: why */
	hw_status rdpmc_status;    /* first RDPMC attempt (HW_OK, #UD, #GP) */
	hw_status fault;           /* a read or reset that failed */
	/* PERF_METRICS path */
	uint64_t last_slots, last_metrics;
	uint64_t raw_slots, raw_metrics;   /* the last raw pair read */
	uint64_t slots;            /* accumulated SLOTS over the window */
	uint64_t cat[TD_NCAT];     /* accumulated slots per category */
	uint32_t reads, resets, clamped;
	/* general-counter path: indices into intel_core gp[] (-1 none); cycles from fx[1] or gp */
	int8_t gi_issued, gi_retired, gi_idq, gi_recovery, gi_clks;
	/* result */
	unsigned ncat;
	uint32_t permille[TD_NCAT];
	int valid;
};

/* Add what the variant needs to the core unit (fixed counter 3 + PERF_METRICS enable, or the
 * general-counter events). kind TD_NONE leaves ic untouched. */
void td_plan(struct intel_topdown *td, struct intel_core *ic, enum td_kind kind, int level2,
	     int any_form);
/* With the core unit frozen: save and reset SLOTS and PERF_METRICS. */
hw_status td_start(const struct hw *hw, struct intel_topdown *td, struct intel_core *ic,
		   struct saveset *sv);
/* With the core unit frozen: read SLOTS + PERF_METRICS, accumulate, and reset when asked. */
hw_status td_sample(const struct hw *hw, struct intel_topdown *td, struct intel_core *ic, int reset);
/* After the last sample / intel_core_stop: categories and ratios. */
void td_finish(struct intel_topdown *td, struct intel_core *ic);

#endif
