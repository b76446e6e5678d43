/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TopDown formulas (pmu/intel_topdown.h): pure integer arithmetic, tested against Linux tools/perf/Documentation/topdown.txt's
 * decoding, delta method and `perf stat --topdown` example.
 */
#include "pmu/core/intel_topdown_math.h"

const char *const td_cat_name[TD_NCAT] = {
	"retiring", "bad_speculation", "frontend_bound", "backend_bound",
	"heavy_operations", "branch_mispredicts", "fetch_latency", "memory_bound",
};

#define METRIC_FULL 0xFFu  /* "All four fields add up to 0xff (= 100%)" (Linux tools/perf/Documentation/topdown.txt) */

uint64_t td_scaled(uint64_t slots, uint64_t metrics, unsigned k)
{
	uint64_t b = td_metric_byte(metrics, k);
	/* slots x b / 0xff without overflow for any 64-bit slots */
	return (slots / METRIC_FULL) * b + (slots % METRIC_FULL) * b / METRIC_FULL;
}

void td_delta(uint64_t slots_a, uint64_t m_a, uint64_t slots_b, uint64_t m_b, unsigned ncat,
	      uint64_t out[])
{
	for (unsigned k = 0; k < ncat; k++) {
		uint64_t a = td_scaled(slots_a, m_a, k), b = td_scaled(slots_b, m_b, k);
		out[k] = b > a ? b - a : 0;
	}
}

uint32_t td_permille(uint64_t part, uint64_t total)
{
	if (!total)
		return 0;
	/* Scale both down until part x 1000 + total / 2 fits in 64 bits. */
	while (part > (UINT64_MAX - total) / 1000u) {
		part >>= 1;
		total >>= 1;
	}
	if (!total)
		return 0;
	return (uint32_t)((part * 1000u + total / 2) / total);
}

void td_ratios(const uint64_t cat[], unsigned ncat, uint32_t permille[])
{
	uint64_t sum = 0;
	for (unsigned k = 0; k < TD_L1 && k < ncat; k++)
		sum += cat[k];
	for (unsigned k = 0; k < ncat; k++)
		permille[k] = td_permille(cat[k], sum);
}

#define PIPELINE_WIDTH 4u  /* SNB..SKL issue width (pmu-tools *_ratios.py Pipeline_Width) */

uint64_t td_gp_l1(const struct td_gp_counts *c, uint64_t cat[TD_L1])
{
	uint64_t clks = c->any_form ? c->clks / 2 : c->clks;
	uint64_t rec = c->any_form ? c->recovery / 2 : c->recovery;
	uint64_t slots = PIPELINE_WIDTH * clks;
	uint64_t bad_in = c->uops_issued + PIPELINE_WIDTH * rec;
	cat[TD_FE_BOUND] = c->idq_not_delivered;
	cat[TD_BAD_SPEC] = bad_in > c->retire_slots ? bad_in - c->retire_slots : 0;
	cat[TD_RETIRING] = c->retire_slots;
	uint64_t used = cat[TD_FE_BOUND] + cat[TD_BAD_SPEC] + cat[TD_RETIRING];
	cat[TD_BE_BOUND] = slots > used ? slots - used : 0;
	return slots;
}
