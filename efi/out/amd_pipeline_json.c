/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The `topdown` record on AMD (pmu/core/amd_pipeline.h): Linux perf's pipeline utilization
 * level 1 of the window's six core counters, in the shape of the Arm record (each category an
 * object with milli_pct / pct or why; counts by input event, null when not counted).
 */
#include "efi/out/pmu_json.h"
#include "pmu/metrics.h"

void amd_pipeline_json(struct json *j, const struct corepmu *cp)
{
	const struct amd_pipeline_gen *g = cp->apl_gen;
	const struct amd_pipeline_out *o = &cp->apl;
	json_str(j, "method", g ? AMD_PIPELINE_METHOD : NULL);
	json_str(j, "pmu", "amd_core");
	json_bool(j, "valid", o->valid);
	if (!o->valid)
		json_str(j, "why", o->why[0] ? o->why : cp->td_why);
	if (!g)
		return;
	json_u64(j, "level", 1);
	json_str(j, "level2_why", "PipelineL2 needs 6 more events beside level 1's 6, in the same group as "
		 "their cycles: not yet");
	json_str(j, "formula", g->gen);
	json_str(j, "formula_source", g->source);
	json_u64(j, "dispatch_width", g->width);
	if (o->valid) {
		json_u64(j, "slots", o->slots);
		json_str(j, "slots_source", "dispatch_width x ls_not_halted_cyc (total_dispatch_slots)");
	} else {
		json_null(j, "slots");
		json_str(j, "slots_why", o->why);
	}
	const struct x86_ctr *c0 = corepmu_apl_read(cp, APL_CYCLES);
	if (cp->mux.ngroups > 1) {   /* group 0 of several (pmu/core/x86_corepmu_pack.c), or pinned */
		int scaled = c0 && c0->group != X86_PINNED;
		json_bool(j, "inputs_multiplexed", scaled);
		if (scaled) {
			json_u64(j, "inputs_time_enabled", metric_ticks_to_ns(cp->mux.enabled, cp->timer_hz));
			json_u64(j, "inputs_time_running", metric_ticks_to_ns(c0->running, cp->timer_hz));
		}
	}
	json_obj(j, "counts");   /* scaled to the window when the inputs were multiplexed */
	for (int i = 0; i < APL_NINPUT; i++) {
		const struct x86_ctr *c = corepmu_apl_read(cp, i);
		if (c)
			json_u64(j, g->event[i], c->scaled);
		else
			json_null(j, g->event[i]);
	}
	json_close(j);
	for (int k = 0; k < APL_NCAT; k++)
		td_item_json(j, apl_cat_name[k], o->valid, o->milli_pct[k], o->why);
}
