/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Neoverse TopDown level 1 from Arm PMUv3 counts (pure).
 *
 * Method: Arm's Topdown Methodology for Neoverse, with the formulas of each core's telemetry
 * specification as the Arm Telemetry Solution publishes them (data/pmu/cpu/neoverse/
 * neoverse-<core>.json, "metrics": frontend_bound, backend_bound, retiring, bad_speculation).
 * They share one shape and differ per core only in four ways, which are the data of
 * arm_td_formulas[] (arm_topdown.c), chosen by MIDR_EL1 (implementer, PartNum, variant and
 * revision):
 *   k   Neoverse N2 r0p0-r0p2 count one STALL_SLOT and one STALL_SLOT_FRONTEND per cycle too
 *       many (Neoverse N2 errata notice, as its JSON says): k = 1 subtracts CPU_CYCLES;
 *   X   the per-cycle event of the correction terms: BR_MIS_PRED (V1, V2, N2, the generic
 *       form) or STALL_FRONTEND_FLUSH (N3, V3: frontend stall cycles in flush recovery);
 *   fe, be, bs  the multiples of X / CPU_CYCLES taken from frontend and backend and added to
 *       bad speculation (V2, N2: 1, 3, 4; V1: 4, 0, 4; N3, V3: 1, 0, 1; the Arm SBSA
 *       generic form: 0).
 * With S = slots per cycle and C = CPU_CYCLES:
 *   frontend_bound  = 100 * ((STALL_SLOT_FRONTEND - k*C) / (S*C) - fe * X / C)
 *   backend_bound   = 100 * (STALL_SLOT_BACKEND / (S*C) - be * X / C)
 *   retiring        = 100 * (OP_RETIRED / OP_SPEC) * (1 - (STALL_SLOT - k*C) / (S*C))
 *   bad_speculation = 100 * ((1 - OP_RETIRED / OP_SPEC) * (1 - (STALL_SLOT - k*C) / (S*C))
 *                            + bs * X / C)
 * e.g. Neoverse V3 (S = 10): frontend_bound = (STALL_SLOT_FRONTEND / (10 * CPU_CYCLES) -
 * STALL_FRONTEND_FLUSH / CPU_CYCLES) * 100, bad_speculation = (1 - STALL_SLOT / (10 *
 * CPU_CYCLES)) * (1 - OP_RETIRED / OP_SPEC) * 100 + STALL_FRONTEND_FLUSH / CPU_CYCLES * 100,
 * as neoverse-v3.json and Linux tools/perf/pmu-events/arch/arm64/arm/neoverse-v3/metrics.json
 * write them.
 * S is PMMIR_EL1.SLOTS (Arm ARM D23 PMMIR_EL1, FEAT_PMUv3p4) when the CPU reports it, else the
 * JSON's product_configuration.num_slots for a core of the table (out->slots_source says
 * which); a PMMIR_EL1.SLOTS that differs from the table's is used and noted.
 * Neoverse N1, whose specification has no TopDown L1 on these events (no STALL_SLOT events),
 * gets no items, naming why. A core not in the table gets the generic form of the Arm SBSA
 * (fe = be = bs = 0, k = 0).
 * Each item is computed only from counts it has: an item whose inputs are missing (no slots,
 * an event the CPU lacks, a counter not counted) or whose denominator is 0 names them in
 * `why` and has no value; no ratio is ever made from missing counts.
 */
#ifndef EFIPERF_ARM_TOPDOWN_H
#define EFIPERF_ARM_TOPDOWN_H

#include <stdint.h>

enum arm_td_input { ATD_CPU_CYCLES, ATD_STALL_SLOT_FRONTEND, ATD_STALL_SLOT_BACKEND, ATD_STALL_SLOT,
		    ATD_OP_RETIRED, ATD_OP_SPEC, ATD_BR_MIS_PRED, ATD_STALL_FRONTEND_FLUSH, ATD_NINPUT };
enum arm_td_item { ATD_FRONTEND, ATD_BACKEND, ATD_RETIRING, ATD_BAD_SPEC, ATD_NITEM };

/* The Arm ARM common-event names of the inputs, and the item names (Linux perf's). */
extern const char *const arm_td_input_name[ATD_NINPUT];
extern const char *const arm_td_item_name[ATD_NITEM];

/* One core's TopDown L1 formula (see above). */
struct arm_td_formula {
	const char *core;          /* "Neoverse N2 r0p0-r0p2", "generic (Arm SBSA)" */
	uint16_t part;             /* MIDR_EL1.PartNum (implementer 0x41, Arm Ltd) */
	uint8_t rv_lo, rv_hi;      /* MIDR_EL1 variant << 4 | revision, inclusive range */
	uint8_t slots;             /* num_slots of its telemetry JSON, 0: none */
	uint8_t k, fe, be, bs;     /* see above */
	uint8_t x;                 /* X above: ATD_BR_MIS_PRED or ATD_STALL_FRONTEND_FLUSH */
	const char *no_l1;         /* non-NULL: why this core gets no TopDown L1 items */
	const char *source;        /* where the formula is published */
};

/* The formula for MIDR_EL1 value midr: a table entry, or the generic one. Never NULL. */
const struct arm_td_formula *arm_td_formula_for(uint32_t midr);
extern const struct arm_td_formula arm_td_formulas[];
extern const unsigned arm_td_nformulas;
/* The inputs to program for formula f (NULL: the generic one), bit i = input i: CPU_CYCLES, the
 * STALL_SLOT events, OP_RETIRED, OP_SPEC and its X (the generic form and N1 keep BR_MIS_PRED). */
uint32_t arm_td_inputs(const struct arm_td_formula *f);

struct arm_td_in {
	uint64_t count[ATD_NINPUT];
	uint32_t have;          /* bit i: count[i] was counted */
	uint32_t slots;         /* PMMIR_EL1.SLOTS, 0: unknown */
	const char *slots_why;  /* why slots is 0 (e.g. "PMMIR_EL1: sync-exception"), or NULL */
	const struct arm_td_formula *f;   /* NULL: the generic one */
};

struct arm_td_out {
	int valid[ATD_NITEM];
	int64_t milli_pct[ATD_NITEM];  /* 1/1000 of a percent of slots */
	char why[ATD_NITEM][120];      /* !valid: the inputs missing or zero */
	uint32_t slots;                /* slots per cycle used, 0: none */
	char slots_source[96];         /* "PMMIR_EL1.SLOTS", "<core> num_slots (PMMIR_EL1.SLOTS 0)" */
};

/* Fill out from in. Pure; never divides by zero. */
void arm_topdown(const struct arm_td_in *in, struct arm_td_out *out);

#endif
