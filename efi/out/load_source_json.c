/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The `load_source` object of a latency point (pmu/core/load_source.h), one writer for Intel,
 * AMD and Arm:
 *   {table, valid, why?, loads, denominator, denominator_from, attributed,
 *    levels: [{level, count, fraction, derived, why?}],    count/fraction null when unknown
 *    events: [{event, level, kind, state, count?, why?}]}  the raw events as counted
 * fraction: count / denominator, 3 decimals ("0.825"). A level is null with `why`, never 0,
 * when what it is made of is absent, faulted, or nothing of the table advanced.
 */
#include "efi/out/pmu_json.h"
#include "pmu/core/ctr_state.h"

static const char *const kind_name[] = { [LS_SERVED] = "served", [LS_MISSED] = "missed", [LS_ACCESSES] = "accesses" };

void load_source_json(struct json *j, const struct ls_window *w)
{
	const struct ls_result *r = &w->r;
	json_obj(j, "load_source");
	json_str(j, "table", w->t->name);
	json_bool(j, "valid", r->valid);
	if (!r->valid)
		json_str(j, "why", r->why);
	if (w->loads)
		json_u64(j, "loads", w->loads);
	else
		json_null(j, "loads");
	if (r->denominator_from) {
		json_u64(j, "denominator", r->denominator);
		json_str(j, "denominator_from", r->denominator_from);
	} else {
		json_null(j, "denominator");
	}
	json_u64(j, "attributed", r->attributed);
	json_arr(j, "levels");
	for (int i = 0; i < r->nlevels; i++) {
		const struct ls_level_out *o = &r->lv[i];
		json_obj(j, NULL);
		json_str(j, "level", load_source_level_name(o->level));
		if (o->known)
			json_u64(j, "count", o->count);
		else
			json_null(j, "count");
		if (o->known && o->has_milli)
			json_milli(j, "fraction", o->milli);
		else
			json_null(j, "fraction");
		json_bool(j, "derived", o->derived);
		if (!o->known)
			json_str(j, "why", o->why);
		json_close(j);
	}
	json_close(j);
	json_arr(j, "events");
	for (int i = 0; i < w->t->n; i++) {
		const struct ls_event *e = &w->t->ev[i];
		json_obj(j, NULL);
		json_str(j, "event", e->name);
		json_str(j, "level", e->kind == LS_ACCESSES ? NULL : load_source_level_name(e->level));
		json_str(j, "kind", kind_name[e->kind]);
		json_str(j, "state", ctr_state_name(w->c[i].state));
		if (w->c[i].state == CTR_COUNTED)
			json_u64(j, "count", w->c[i].count);
		if (w->why[i][0])
			json_str(j, "why", w->why[i]);
		json_close(j);
	}
	json_close(j);
	json_close(j);
}
