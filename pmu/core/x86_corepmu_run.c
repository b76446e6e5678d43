/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86 core PMU window entry points: configure, start, tick, stop, restore
 * (pmu/core/x86_corepmu.h). Every MSR written goes through the save set cp->sv;
 * corepmu_restore() writes them back in reverse order (so fixed counter 3 before PERF_METRICS, IA32_PERF_GLOBAL_CTRL
 * and PerfCntrGlobalCtl last).
 */
#include "pmu/core/x86_corepmu.h"
#include "arch/lib/fmt.h"
#include <string.h>

/* AMD pipeline utilization inputs (pmu/core/amd_pipeline.h) as events of this CPU: level 1's
 * six on the first counters (group 0 when level 2 runs), level 2's six (topdown = l2, with
 * multiplex) on the same counters as group 1. */
static void apl_plan(struct corepmu *cp, int topdown, int multiplex)
{
	memset(cp->apl_idx, -1, sizeof(cp->apl_idx));
	memset(&cp->apl, 0, sizeof(cp->apl));
	memset(&cp->apl2, 0, sizeof(cp->apl2));
	cp->apl_l2 = 0;
	fmt_snprintf(cp->apl2_why, sizeof(cp->apl2_why), "%s", topdown == 1 ? "topdown = on: level 1 only; topdown = l2 "
		     "adds PipelineL2 as a second multiplexed group (level 1 then counts about half the window)" : "");
	fmt_snprintf(cp->apl.why, sizeof(cp->apl.why), "%s", !topdown ? "topdown = off" : cp->apl_gen ? "not measured" : cp->td_why);
	if (!topdown || !cp->apl_gen)
		return;
	if (cp->ac.ncounters < APL_NINPUT) {   /* all six in one window, or none: user events keep the counters */
		fmt_snprintf(cp->apl.why, sizeof(cp->apl.why), "pipeline utilization needs %d core counters at once, "
			     "this CPU has %u (%s)", APL_NINPUT, cp->ac.ncounters, cp->ac.layout ? cp->ac.layout : "none");
		if (topdown == 2)
			fmt_snprintf(cp->apl2_why, sizeof(cp->apl2_why), "level 2 needs level 1's %d counters too", APL_NINPUT);
		return;
	}
	int l2 = topdown == 2 && multiplex;
	if (topdown == 2 && !multiplex)
		fmt_snprintf(cp->apl2_why, sizeof(cp->apl2_why), "level 2 needs multiplexing (a window with ticks): level 1 only");
	for (int i = 0; i < (l2 ? APL_NIN2 : APL_NINPUT); i++) {
		const char *name = apl_input_name(cp->apl_gen, i);
		struct x86_event ev;
		char err[8];
		if (x86_event_parse(name, strlen(name), &cp->caps, &ev, err, sizeof(err)))
			continue;   /* not an event of this CPU: named in the why */
		cp->apl_idx[i] = (int8_t)(l2 ? amd_core_add_on(&cp->ac, name, ev.config, i % APL_NINPUT, (uint8_t)apl_input_group(i))
					    : amd_core_add(&cp->ac, name, ev.config));
	}
	if (l2) {
		cp->apl_l2 = 1;
		cp->mux.ngroups = 2;
	}
}

/* The inputs were added by apl_plan() (topdown = on, a Zen 4/5 row, six counters). */
static int apl_planned(const struct corepmu *cp)
{
	return cp->topdown_on && cp->apl_gen && cp->apl_idx[APL_CYCLES] >= 0;
}

const struct x86_ctr *corepmu_apl_read(const struct corepmu *cp, int i)
{
	const struct x86_ctr *c = cp->apl_idx[i] >= 0 ? &cp->ac.c[cp->apl_idx[i]] : NULL;
	return c && ctr_state_read(c->state) ? c : NULL;
}

/* After amd_core_stop: the inputs' deltas (or why each is missing) through amd_pipeline(). */
static void apl_finish(struct corepmu *cp)
{
	if (!apl_planned(cp))
		return;
	uint64_t count[APL_NIN2] = { 0 };
	const char *whys[APL_NIN2] = { 0 };
	uint32_t have = 0;
	for (int i = 0; i < (cp->apl_l2 ? APL_NIN2 : APL_NINPUT); i++) {
		const struct x86_ctr *c = corepmu_apl_read(cp, i);
		if (c) {
			count[i] = c->scaled;   /* = acc unless the inputs were groups of several */
			have |= 1u << i;
		} else {   /* amd_pipeline names the first missing input with this */
			whys[i] = cp->apl_idx[i] < 0 ? "not a named event of this CPU" : cp->ac.c[cp->apl_idx[i]].why;
		}
	}
	amd_pipeline(cp->apl_gen, count, have, whys, &cp->apl);
	if (cp->apl_l2)
		amd_pipeline_l2(cp->apl_gen, count, have, whys, &cp->apl2);
}

int corepmu_configure(struct corepmu *cp, const struct corepmu_config *cfg, char *err, size_t errlen)
{
	err[0] = 0;
	cp->topdown_on = cfg->topdown;
	cp->mux.ngroups = 1;
	if (cp->backend == CP_INTEL_ARCH) {
		cp->ic.ngp_used = cp->ic.nhw = 0;
		cp->ic.metrics = 0;
		/* TopDown first: its events take the first general counters. */
		enum td_kind k = cfg->topdown && cp->td_rule ? (enum td_kind)cp->td_kind : TD_NONE;
		td_plan(&cp->td, &cp->ic, k, cp->td_level2, cp->smt);
		if (k == TD_NONE)
			intel_core_plan_fixed(&cp->ic, 0, 0);
		if (cfg->topdown && k == TD_NONE)
			fmt_snprintf(cp->td.why, sizeof(cp->td.why), "%s", cp->td_why);
		if (corepmu_add_events(cp, cfg->core_events, cfg->multiplex, err, errlen))
			return -1;
		if (cfg->ibs != IBS_MODE_OFF)
			fmt_snprintf(cp->ibs.why, sizeof(cp->ibs.why), "IBS: AMD only");
		cp->ibs.mode = (uint8_t)cfg->ibs;
		return 0;
	}
	if (cp->backend == CP_AMD_CORE) {
		cp->ac.nused = cp->ac.nhw = 0;
		memset(&cp->td, 0, sizeof(cp->td));
		/* pipeline utilization first: its six inputs take the first core counters */
		apl_plan(cp, cfg->topdown, cfg->multiplex);
		if (corepmu_add_events(cp, cfg->core_events, cfg->multiplex, err, errlen))
			return -1;
		return amd_ibs_config(&cp->ibs, cfg->ibs, cfg->ibs_period, cfg->ibs_count, err, errlen);
	}
	return 0;
}

static void note(struct corepmu *cp, hw_status st)
{
	if (st != HW_OK && cp->fault == HW_OK)
		cp->fault = st;
}

hw_status corepmu_start(const struct hw *hw, struct corepmu *cp, uint64_t now, uint64_t timer_hz)
{
	cp->timer_hz = timer_hz;
	cp->last_tick = now;
	cp->ticks = 0;
	cp->fault = HW_OK;
	cp->started = 1;
	saveset_init(&cp->sv, cp->sv_e, X86_SAVE_MAX);
	x86_mux_begin(&cp->mux, now, timer_hz);
	cp->ic.cur = cp->ac.cur = 0;
	if (cp->backend == CP_INTEL_ARCH) {
		note(cp, intel_core_start(hw, &cp->ic, &cp->sv));
		note(cp, td_start(hw, &cp->td, &cp->ic, &cp->sv));
		note(cp, intel_core_unfreeze(hw, &cp->ic));
	} else if (cp->backend == CP_AMD_CORE) {
		if (apl_planned(cp)) {   /* no result of an earlier window */
			memset(&cp->apl, 0, sizeof(cp->apl));
			memset(&cp->apl2, 0, sizeof(cp->apl2));   /* its metrics show apl.why */
			fmt_snprintf(cp->apl.why, sizeof(cp->apl.why), "not measured: the window did not stop");
		}
		note(cp, amd_core_start(hw, &cp->ac, &cp->sv));
		note(cp, amd_ibs_start(hw, &cp->ibs, &cp->sv));
	}
	return cp->fault;
}

static int tick_due(const struct corepmu *cp, uint64_t now)
{
	return !cp->timer_hz || now - cp->last_tick >= cp->timer_hz / CP_TICK_DIV;
}

/* Switch to the next multiplexed group (pmu/core/x86_mux.h). */
static hw_status rotate(const struct hw *hw, struct corepmu *cp, uint64_t now)
{
	uint8_t next = x86_mux_next(&cp->mux);
	hw_status st = cp->backend == CP_AMD_CORE ? amd_core_rotate(hw, &cp->ac, &cp->sv, next)
						   : intel_core_rotate(hw, &cp->ic, &cp->sv, next);
	if ((cp->backend == CP_AMD_CORE ? cp->ac.cur : cp->ic.cur) == next)
		x86_mux_switch(&cp->mux, now);
	return st;
}

hw_status corepmu_tick(const struct hw *hw, struct corepmu *cp, uint64_t now)
{
	hw_status st = HW_OK;
	if (!cp->started)
		return HW_OK;
	if (cp->backend == CP_AMD_CORE)
		st = ibs_poll(hw, &cp->ibs);
	if (x86_mux_due(&cp->mux, now)) {
		hw_status rs = rotate(hw, cp, now);
		note(cp, rs);
		st = st != HW_OK ? st : rs;
	}
	if (!tick_due(cp, now))
		return st;
	cp->last_tick = now;
	cp->ticks++;
	if (cp->backend == CP_INTEL_ARCH) {
		/* Frozen around the reads so SLOTS, PERF_METRICS and the counters agree (Linux arch/x86/events/intel/core.c
		 * reads the pair with the PMU disabled). */
		st = intel_core_freeze(hw, &cp->ic);
		intel_core_read(hw, &cp->ic);
		hw_status s2 = td_sample(hw, &cp->td, &cp->ic, 1);
		hw_status s3 = intel_core_unfreeze(hw, &cp->ic);
		st = st != HW_OK ? st : s2 != HW_OK ? s2 : s3;
	} else if (cp->backend == CP_AMD_CORE) {
		amd_core_read(hw, &cp->ac);
	}
	note(cp, st);
	return st;
}

hw_status corepmu_stop(const struct hw *hw, struct corepmu *cp, uint64_t now)
{
	if (!cp->started)
		return HW_OK;
	hw_status st = HW_OK;
	x86_mux_end(&cp->mux, now);
	if (cp->backend == CP_INTEL_ARCH) {
		int was = cp->ic.programmed;
		st = intel_core_stop(hw, &cp->ic);
		x86_mux_finish(&cp->mux, cp->ic.gp, cp->ic.ngp_used);
		if (was) {
			cp->ic.programmed = 1;  /* td_sample needs the unit as programmed (frozen) */
			hw_status s2 = td_sample(hw, &cp->td, &cp->ic, 0);
			cp->ic.programmed = 0;
			st = st != HW_OK ? st : s2;
		}
		td_finish(&cp->td, &cp->ic);
	} else if (cp->backend == CP_AMD_CORE) {
		st = amd_ibs_stop(hw, &cp->ibs);
		hw_status s2 = amd_core_stop(hw, &cp->ac, &cp->sv);
		x86_mux_finish(&cp->mux, cp->ac.c, cp->ac.nused);
		st = st != HW_OK ? st : s2;
		apl_finish(cp);
	}
	cp->started = 0;
	note(cp, st);
	return st;
}

hw_status corepmu_restore(const struct hw *hw, struct corepmu *cp)
{
	cp->started = 0;
	cp->ic.programmed = 0;
	cp->ac.programmed = 0;
	cp->ibs.running = 0;
	hw_status st = saveset_restore(hw, &cp->sv);
	memset(&cp->restore, 0, sizeof(cp->restore));
	saveset_report_add(&cp->sv, &cp->restore);
	return st;
}

void corepmu_call(void *arg)
{
	struct corepmu_call *c = arg;
	switch (c->op) {
	case CP_OP_PROBE: c->st = corepmu_probe(c->hw, c->cp) ? HW_UNSUPPORTED : HW_OK; break;
	case CP_OP_START: c->st = corepmu_start(c->hw, c->cp, c->now, c->timer_hz); break;
	case CP_OP_TICK: c->st = corepmu_tick(c->hw, c->cp, c->now); break;
	case CP_OP_STOP: c->st = corepmu_stop(c->hw, c->cp, c->now); break;
	case CP_OP_RESTORE: c->st = corepmu_restore(c->hw, c->cp); break;
	default: c->st = HW_BAD_ARG; break;
	}
}
