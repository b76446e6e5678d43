/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TopDown formulas: pure integer arithmetic on counts, no registers (pmu/core/intel_topdown.c
 * reads the counters and calls these; this file depends on nothing of it).
 *   - PERF_METRICS: byte k of IA32_PERF_METRICS is category k's share of SLOTS in 1/0xff (Intel
 *     SDM Vol.3B, "Performance Metrics" of the Ice Lake and later PMU; Linux
 *     arch/x86/events/intel/core.c icl_get_metrics_event_value);
 *   - general counters (Sandy Bridge..Skylake): the level-1 formulas of pmu-tools
 *     (github.com/andikleen/pmu-tools, snb_client_ratios.py / skl_client_ratios.py);
 *   - ratios per mille of the level-1 sum.
 */
#ifndef EFIPERF_INTEL_TOPDOWN_MATH_H
#define EFIPERF_INTEL_TOPDOWN_MATH_H

#include <stdint.h>

enum td_cat {
	TD_RETIRING, TD_BAD_SPEC, TD_FE_BOUND, TD_BE_BOUND,           /* level 1: bytes 0-3 */
	TD_HEAVY_OPS, TD_BR_MISPREDICT, TD_FETCH_LAT, TD_MEM_BOUND,   /* level 2: bytes 4-7 */
	TD_NCAT
};
#define TD_L1 4u

extern const char *const td_cat_name[TD_NCAT];

static inline unsigned td_metric_byte(uint64_t metrics, unsigned k)
{
	return (unsigned)(metrics >> (8 * k)) & 0xFF;
}
/* slots x byte_k / 0xff (Linux arch/x86/events/intel/core.c icl_get_metrics_event_value). */
uint64_t td_scaled(uint64_t slots, uint64_t metrics, unsigned k);
/* Linux tools/perf/Documentation/topdown.txt: out[k] = scaled(b) - scaled(a), 0 when negative (8-bit rounding, Linux arch/x86/events/intel/core.c). */
void td_delta(uint64_t slots_a, uint64_t m_a, uint64_t slots_b, uint64_t m_b, unsigned ncat,
	      uint64_t out[]);
/* round(part x 1000 / total), 0 when total is 0; exact for any 64-bit inputs. */
uint32_t td_permille(uint64_t part, uint64_t total);
/* permille[k] = cat[k] / (cat[0] + .. + cat[3]) for k < ncat. */
void td_ratios(const uint64_t cat[], unsigned ncat, uint32_t permille[]);

struct td_gp_counts {
	uint64_t clks, uops_issued, retire_slots, idq_not_delivered, recovery;
	int any_form;   /* clks and recovery are AnyThread counts: halved (both threads) */
};
/* pmu-tools skl_client_ratios.py: SLOTS = 4 x clks; FE = IDQ_UOPS_NOT_DELIVERED.CORE; BadSpec = UOPS_ISSUED
 * - RETIRE_SLOTS + 4 x recovery; Retiring = RETIRE_SLOTS; BE = SLOTS - (FE + BadSpec +
 * Retiring), each clamped at 0. Returns SLOTS; cat[0..3] in slots. */
uint64_t td_gp_l1(const struct td_gp_counts *c, uint64_t cat[TD_L1]);

#endif
