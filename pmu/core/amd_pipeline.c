/* SPDX-License-Identifier: BSD-2-Clause */
/* AMD pipeline utilization level 1 (pmu/core/amd_pipeline.h for the formulas and sources). */
#include "pmu/core/amd_pipeline.h"
#include "pmu/core/x86_event.h"
#include "arch/lib/fmt.h"

const char *const apl_cat_name[APL_NCAT] = {
	"frontend_bound", "bad_speculation", "backend_bound", "smt_contention", "retiring",
};

/* Inputs in enum apl_input order, the EventNames of amdzen4/{core,other}.json and
 * amdzen5/{load-store,decode,execution}.json (the same six names on both). */
#define APL_EVENTS { "ls_not_halted_cyc", "de_no_dispatch_per_slot.no_ops_from_frontend", \
		     "de_no_dispatch_per_slot.backend_stalls", "de_no_dispatch_per_slot.smt_contention", \
		     "de_src_op_disp.all", "ex_ret_ops" }

/* PipelineL1 numerators, category (row) x input (column: cycles, fe_no_ops, be_stalls, smt,
 * ops_disp, ret_ops); the denominator is W x ls_not_halted_cyc. The two generations' JSON have
 * the same five expressions; only W differs. */
#define APL_L1 { \
	/* frontend_bound  */ { 0, 1, 0, 0, 0, 0 }, \
	/* bad_speculation */ { 0, 0, 0, 0, 1, -1 }, \
	/* backend_bound   */ { 0, 0, 1, 0, 0, 0 }, \
	/* smt_contention  */ { 0, 0, 0, 1, 0, 0 }, \
	/* retiring        */ { 0, 0, 0, 0, 0, 1 } }

const struct amd_pipeline_gen amd_pipeline_gens[] = {
	{ "Zen 4", X86_GEN_ZEN4, 6, APL_EVENTS, APL_L1,
	  "Linux tools/perf/pmu-events/arch/x86/amdzen4/pipeline.json PipelineL1 (total_dispatch_slots = 6 * ls_not_halted_cyc)" },
	{ "Zen 5", X86_GEN_ZEN5, 8, APL_EVENTS, APL_L1,
	  "Linux tools/perf/pmu-events/arch/x86/amdzen5/pipeline.json PipelineL1 (total_dispatch_slots = 8 * ls_not_halted_cyc)" },
};
const unsigned amd_pipeline_ngens = sizeof(amd_pipeline_gens) / sizeof(amd_pipeline_gens[0]);

const char amd_pipeline_no_row[] =
	"AMD pipeline utilization: Zen 4/5 only (Linux amdzen1-3 JSON have no PMCx1A0 de_no_dispatch_per_slot)";

const struct amd_pipeline_gen *amd_pipeline_for(uint16_t gens)
{
	for (unsigned i = 0; i < amd_pipeline_ngens; i++)
		if (gens & amd_pipeline_gens[i].gens)
			return &amd_pipeline_gens[i];
	return 0;
}

#define MILLI_PCT 100000   /* 100 % in 1/1000 % */

typedef __int128 i128;

void amd_pipeline(const struct amd_pipeline_gen *g, const uint64_t count[APL_NINPUT], uint32_t have,
		  const char *const whys[APL_NINPUT], struct amd_pipeline_out *out)
{
	*out = (struct amd_pipeline_out){ 0 };
	for (int i = 0; i < APL_NINPUT; i++)
		if (!(have & (1u << i))) {
			fmt_snprintf(out->why, sizeof(out->why), "%s: %s", g->event[i],
				     whys && whys[i] && whys[i][0] ? whys[i] : "not counted");
			return;
		}
	if (!count[APL_CYCLES]) {
		fmt_snprintf(out->why, sizeof(out->why), "%s counted 0: no cycles counted", g->event[APL_CYCLES]);
		return;
	}
	i128 slots = (i128)g->width * count[APL_CYCLES];
	out->slots = (uint64_t)slots;   /* W <= 8 and 48-bit counts: fits */
	for (int k = 0; k < APL_NCAT; k++) {
		i128 num = 0;
		for (int i = 0; i < APL_NINPUT; i++)
			num += (i128)g->coef[k][i] * count[i];
		num *= MILLI_PCT;
		out->milli_pct[k] = (int64_t)((num >= 0 ? num + slots / 2 : num - slots / 2) / slots);
	}
	out->valid = 1;
}
