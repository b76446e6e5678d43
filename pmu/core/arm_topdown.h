/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Neoverse TopDown level 1 from Arm PMUv3 counts (pure).
 *
 * Method: Arm's Topdown Methodology for Neoverse ("Arm Neoverse V2 Core Telemetry
 * Specification", Arm document 109528, "Topdown L1 metrics"; the same formulas in the Arm
 * Telemetry Solution's per-core JSON, gitlab.arm.com telemetry-solution data/pmu/cpu/
 * neoverse/neoverse-v2.json and neoverse-n2.json, and in Linux tools/perf/pmu-events/arch/
 * arm64/arm/neoverse-n2-v2/metrics.json), with S = PMMIR_EL1.SLOTS (Arm ARM D23 PMMIR_EL1)
 * and C = CPU_CYCLES:
 *   frontend_bound  = 100 * (STALL_SLOT_FRONTEND / (C * S) - BR_MIS_PRED / C)
 *   backend_bound   = 100 * (STALL_SLOT_BACKEND / (C * S) - 3 * BR_MIS_PRED / C)
 *   retiring        = 100 * (OP_RETIRED / OP_SPEC) * (1 - STALL_SLOT / (C * S))
 *   bad_speculation = 100 * ((1 - OP_RETIRED / OP_SPEC) * (1 - STALL_SLOT / (C * S))
 *                            + 4 * BR_MIS_PRED / C)
 * (the four add up to 100 * (STALL_SLOT_FRONTEND + STALL_SLOT_BACKEND + C*S - STALL_SLOT) / (C*S)).
 * Each item is computed only from counts it has: an item whose inputs are missing (no
 * PMMIR_EL1.SLOTS, an event the CPU lacks, a counter not counted) or whose denominator is 0
 * names them in `why` and has no value; no ratio is ever made from missing counts.
 */
#ifndef EFIPERF_ARM_TOPDOWN_H
#define EFIPERF_ARM_TOPDOWN_H

#include <stdint.h>

enum arm_td_input { ATD_CPU_CYCLES, ATD_STALL_SLOT_FRONTEND, ATD_STALL_SLOT_BACKEND, ATD_STALL_SLOT,
		    ATD_OP_RETIRED, ATD_OP_SPEC, ATD_BR_MIS_PRED, ATD_NINPUT };
enum arm_td_item { ATD_FRONTEND, ATD_BACKEND, ATD_RETIRING, ATD_BAD_SPEC, ATD_NITEM };

/* The Arm ARM common-event names of the inputs, and the item names (Linux perf's). */
extern const char *const arm_td_input_name[ATD_NINPUT];
extern const char *const arm_td_item_name[ATD_NITEM];

struct arm_td_in {
	uint64_t count[ATD_NINPUT];
	uint32_t have;          /* bit i: count[i] was counted */
	uint32_t slots;         /* PMMIR_EL1.SLOTS, 0: unknown */
	const char *slots_why;  /* why slots is 0 (e.g. "PMMIR_EL1: sync-exception"), or NULL */
};

struct arm_td_out {
	int valid[ATD_NITEM];
	int64_t milli_pct[ATD_NITEM];  /* 1/1000 of a percent of slots */
	char why[ATD_NITEM][120];      /* !valid: the inputs missing or zero */
};

/* Fill out from in. Pure; never divides by zero. */
void arm_topdown(const struct arm_td_in *in, struct arm_td_out *out);

#endif
