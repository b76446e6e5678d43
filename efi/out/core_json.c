/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The members of a core counter set (pmu/core/core_counters.h: x86 fixed counters, Arm
 * PMUv3) in a record: counters [{event, unit, state, before, after, delta | why}]; on Arm
 * PMUv3 the event set and PMCR_EL0.N (event_set, event_counters, event_counters_used,
 * not_programmed [{event, why}]), the exception levels counted and MDCR_EL2 as read at EL2; `restore` when the set was
 * started and restored by its own window. Multiplexed (more events than counters,
 * pmu/core/core_mux.h): each counter has `group` (events on event counters), `raw` and `scaled`
 * (= delta) instead of before/after, and the record multiplexed, rounds, window_ns,
 * topdown_groups and groups [{events, running_ns, fraction}] (fraction = running / window).
 */
#include "efi/out/pmu_json.h"
#include "arch/regs/arm_sysreg.h"
#include "pmu/metrics.h"

void mux_group_time_json(struct json *j, uint64_t running_ns, uint64_t window_ns)
{
	json_u64(j, "running_ns", running_ns);
	json_milli(j, "fraction", metric_ratio_milli(running_ns, window_ns));   /* 0 for a 0 window */
}

/* Multiplexed: each group's events, the time it ran and its share of the window. */
static void groups_json(struct json *j, const struct core_set *s)
{
	json_bool(j, "multiplexed", 1);
	json_u64(j, "rounds", s->rounds);
	json_u64(j, "window_ns", s->window_ns);
	json_u64(j, "topdown_groups", s->td_groups);
	json_arr(j, "groups");
	for (uint32_t g = 0; g < s->ngroups && g < CORE_MAX_GROUPS; g++) {
		json_obj(j, NULL);
		json_arr(j, "events");
		for (int i = 0; i < s->n; i++)
			if (s->c[i].group == g)
				json_str(j, NULL, s->c[i].event);
		json_close(j);
		mux_group_time_json(j, s->group_ns[g], s->window_ns);
		json_close(j);
	}
	json_close(j);
}

void core_set_json(struct json *j, const struct core_set *s)
{
	int mux = s->ngroups > 1 && s->nslices;   /* Arm PMUv3 multiplexed (pmu/core/core_mux.h) */
	json_arr(j, "counters");
	for (int i = 0; i < s->n; i++) {
		const struct core_counter *c = &s->c[i];
		json_obj(j, NULL);
		json_str(j, "event", c->event);
		json_str(j, "unit", c->unit);
		json_str(j, "state", ctr_state_name(c->state));
		if (ctr_state_read(c->state) && !mux) {
			json_u64(j, "before", c->before);
			json_u64(j, "after", c->after);
		}
		if (mux && c->group != CORE_ALL_GROUPS)
			json_u64(j, "group", c->group);
		if (mux && ctr_state_read(c->state)) {
			json_u64(j, "raw", c->raw);
			json_u64(j, "scaled", c->delta);
		}
		if (c->state == CTR_COUNTED)
			json_u64(j, "delta", c->delta);
		if (c->why[0])
			json_str(j, "why", c->why);
		json_close(j);
	}
	json_close(j);
	if (s->els[0]) {   /* Arm PMUv3: the exception levels counted, MDCR_EL2 at EL2 */
		if (s->event_set)
			json_str(j, "event_set", s->event_set);
		json_u64(j, "event_counters", s->ngp);   /* PMCR_EL0.N */
		uint64_t used = s->n > ARMV8_C_INST ? (uint64_t)(s->n - ARMV8_C_INST) : 0;
		json_u64(j, "event_counters_used", s->ngroups > 1 && used > s->ngp ? s->ngp : used);
		if (mux)
			groups_json(j, s);
		json_arr(j, "not_programmed");
		for (uint32_t i = 0; i < s->nleft && i < CORE_MAX_LEFT_OUT; i++) {
			json_obj(j, NULL);
			json_str(j, "event", s->left[i].event);
			json_str(j, "why", s->left[i].why);
			json_close(j);
		}
		json_close(j);
		if (s->nleft > CORE_MAX_LEFT_OUT)
			json_u64(j, "not_programmed_unlisted", s->nleft - CORE_MAX_LEFT_OUT);
		json_u64(j, "current_el", s->el);
		json_str(j, "exception_levels", s->els);
		if (s->mdcr_read) {
			json_obj(j, "mdcr_el2");
			json_hex(j, "value", s->mdcr_el2);
			json_u64(j, "hpmn", s->mdcr_el2 & MDCR_EL2_HPMN_MASK);
			json_bool(j, "hpmd", (s->mdcr_el2 & MDCR_EL2_HPMD) != 0);
			json_bool(j, "hccd", (s->mdcr_el2 & MDCR_EL2_HCCD) != 0);
			json_close(j);
		}
	}
	if (s->restore.registers)   /* this set was started and restored (not the x86 window's) */
		json_restore_report(j, &s->restore, NULL);
}

/* One TopDown category (the Arm and AMD `topdown` records); pmu_json.h gives its shape. */
void td_item_json(struct json *j, const char *name, int valid, int64_t milli_pct, const char *why)
{
	json_obj(j, name);
	if (valid) {
		json_i64(j, "milli_pct", milli_pct);   /* 1/1000 % of slots; may be < 0 */
		if (milli_pct >= 0)
			json_milli(j, "pct", (uint64_t)milli_pct);
	} else {
		json_str(j, "why", why);
	}
	json_close(j);
}
