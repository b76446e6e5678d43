/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The `topdown` record on AMD (pmu/core/amd_pipeline.h): Linux perf's pipeline utilization
 * level 1 of the window's six core counters, in the shape of the Arm record (each category an
 * object with milli_pct / pct or why; counts by input event, null when not counted); with
 * topdown = l2, level 2 of the second multiplexed group: level2 {metric: item}, level2_mixed_groups
 * (the metrics whose ratios take inputs of both groups), level2_counts (scaled) and
 * level2_time_running; else level2_why.
 */
#include "efi/out/pmu_json.h"
#include "pmu/metrics.h"

/* Level 2's members (topdown = l2): group 1's inputs and its eight metrics. */
static void level2_json(struct json *j, const struct corepmu *cp, const struct amd_pipeline_gen *g)
{
	const struct amd_pipeline_l2_out *o = &cp->apl2;
	const struct x86_ctr *c1 = corepmu_apl_read(cp, APL2_FE_LATENCY);
	if (c1)
		json_u64(j, "level2_time_running", metric_ticks_to_ns(c1->running, cp->timer_hz));
	json_obj(j, "level2_counts");   /* scaled to the window */
	for (int i = APL_NINPUT; i < APL_NIN2; i++) {
		const struct x86_ctr *c = corepmu_apl_read(cp, i);
		if (c)
			json_u64(j, apl_input_name(g, i), c->scaled);
		else
			json_null(j, apl_input_name(g, i));
	}
	json_close(j);
	json_arr(j, "level2_mixed_groups");
	for (int k = 0; k < APL2_NMETRIC; k++)
		if (apl2_mixed(&g->l2[k]))
			json_str(j, NULL, g->l2[k].name);
	json_close(j);
	json_obj(j, "level2");
	for (int k = 0; k < APL2_NMETRIC; k++)
		td_item_json(j, g->l2[k].name, o->valid[k], o->milli_pct[k], o->why[k][0] ? o->why[k] : cp->apl.why);
	json_close(j);
}

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
	json_u64(j, "level", cp->apl_l2 ? 2 : 1);
	if (!cp->apl_l2)
		json_str(j, "level2_why", cp->apl2_why[0] ? cp->apl2_why : "not measured");
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
	if (cp->apl_l2)
		level2_json(j, cp, g);
}
