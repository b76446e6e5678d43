/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Record fields of the x86 core PMU (pmu/x86_corepmu.h). The caller opens the record
 * (rep_begin("core_counters") etc.), may add its own fields (cpu), calls one of these, and
 * closes it. Ratios are per-mille written with json_milli ("0.229" = 22.9 %). A counter that
 * is absent or faulted carries `why`, never a zero count.
 */
#include "efi/out/pmu_json.h"
#include "pmu/core/x86_corepmu.h"
#include "arch/regs/x86_amd_msr.h"
#include "efi/out/jsonl.h"
#include "pmu/metrics.h"
#include <string.h>

static const char *const td_path_name[] = { NULL, "rdpmc", "rdmsr" };
static const char *const ibs_mode_name[] = { "off", "fetch", "op" };

static const struct { uint32_t bit; const char *name; } quirk_names[] = {
	{ IBS_Q_420_STOP, "Fam10h #420 stop sequence" },
	{ IBS_Q_718_OPDATA3, "Fam15h #718 IbsOpData3 clear" },
	{ IBS_Q_FETCH_EN_0_1, "Fam16h-18h IbsFetchEn 0-1 re-arm" },
	{ IBS_Q_1197_LINAD0, "Fam19h #1197 drop IbsFetchLinAd 0" },
	{ IBS_Q_1238_ICMISS, "Fam19h #1238 IbsIcMiss unreliable" },
	{ IBS_Q_1293_OPDATA2, "Fam19h #1293 IbsOpData2 invalid on SwPf/MissNoMab" },
};

void corepmu_json_probe(struct json *j, const struct corepmu *cp)
{
	json_str(j, "backend", cp->backend_name);
	json_str(j, "vendor", cp->vendor[0] ? cp->vendor : NULL);
	json_u64(j, "family", cp->family);
	json_u64(j, "model", cp->model);
	json_bool(j, "smt", cp->smt);
	if (cp->backend == CP_INTEL_ARCH) {
		const struct intel_core *ic = &cp->ic;
		json_u64(j, "perfmon_version", ic->version);
		json_u64(j, "gp_counters", ic->ngp);
		json_u64(j, "gp_width", ic->gp_width);
		json_u64(j, "fixed_counters", ic->nfixed);
		json_u64(j, "fixed_width", ic->fixed_width);
		json_bool(j, "full_width_writes", ic->full_width);
		json_bool(j, "anythread", ic->any_ok);
		json_bool(j, "hybrid", cp->hybrid);
		if (ic->perf_cap_st == HW_OK)
			json_hex(j, "perf_capabilities", ic->perf_cap);
		else
			json_str(j, "perf_capabilities", hw_status_name(ic->perf_cap_st));
	} else if (cp->backend == CP_AMD_CORE) {
		json_str(j, "layout", cp->ac.layout);
		json_u64(j, "counters", cp->ac.ncounters);
		json_bool(j, "perfctr_core", cp->ac.perfctr_core);
		json_bool(j, "perfmon_v2", cp->ac.v2);
		json_obj(j, "ibs");
		json_bool(j, "present", cp->ibs.present);
		if (cp->ibs.present)
			json_hex(j, "caps", cp->ibs.caps);
		json_arr(j, "quirks");
		for (unsigned i = 0; i < sizeof(quirk_names) / sizeof(quirk_names[0]); i++)
			if (cp->ibs.quirks & quirk_names[i].bit)
				json_str(j, NULL, quirk_names[i].name);
		json_close(j);
		json_close(j);
	}
	json_obj(j, "topdown");
	/* Intel: by TopDown kind (td_kind); AMD: one method, pipeline utilization */
	static const char *const kind_name[] = { NULL, "general-counters", "general-counters", "perf-metrics" };
	const char *method = cp->backend == CP_AMD_CORE ? AMD_PIPELINE_METHOD : kind_name[cp->td_kind];
	json_str(j, "method", cp->td_rule ? method : NULL);
	if (cp->td_rule) {
		json_u64(j, "level", cp->td_level2 ? 2 : 1);
		json_str(j, "rule", cp->td_rule);
	} else {
		json_str(j, "why", cp->td_why);
	}
	json_close(j);
	json_arr(j, "lacks");
	for (int i = 0; i < cp->nlacks; i++)
		json_str(j, NULL, cp->lacks[i]);
	json_close(j);
}

/* Timer ticks as ns (the window's timer, cp->timer_hz). */
static uint64_t ns(const struct corepmu *cp, uint64_t ticks) { return metric_ticks_to_ns(ticks, cp->timer_hz); }

static int multiplexed(const struct corepmu *cp) { return cp->mux.ngroups > 1; }

/* One counter; multiplexed (pmu/core/x86_mux.h): group (none when pinned: fixed counters,
 * topdown = on's inputs), time_enabled / time_running (ns), raw and scaled (= delta) in place of
 * before/after. */
static void counter(struct json *j, const struct corepmu *cp, const struct x86_ctr *c, int fixed)
{
	int mux = multiplexed(cp);
	json_obj(j, NULL);
	json_str(j, "event", c->event);
	if (c->config)
		json_hex(j, "config", c->config);
	json_str(j, "state", ctr_state_name(c->state));
	if (ctr_state_read(c->state)) {
		if (!mux) {
			json_u64(j, "before", c->first);
			json_u64(j, "after", c->last);
		}
		json_u64(j, "reads", c->reads);
	}
	if (mux && !fixed && c->group != X86_PINNED)
		json_u64(j, "group", c->group);
	if (mux && (ctr_state_read(c->state) || c->state == CTR_NOT_COUNTED)) {
		int pinned = fixed || c->group == X86_PINNED;
		json_u64(j, "time_enabled", ns(cp, cp->mux.enabled));
		json_u64(j, "time_running", ns(cp, pinned ? cp->mux.enabled : c->running));
	}
	if (mux && ctr_state_read(c->state)) {
		json_u64(j, "raw", c->acc);
		json_u64(j, "scaled", c->scaled);
	}
	if (c->state == CTR_COUNTED)
		json_u64(j, "delta", c->scaled);
	if (c->why[0])
		json_str(j, "why", c->why);
	json_close(j);
}

/* Multiplexed: the groups, the rotations, each group's events and running time. */
static void mux_json(struct json *j, const struct corepmu *cp, const struct x86_ctr *c, int n)
{
	const struct x86_mux *m = &cp->mux;
	json_bool(j, "multiplexed", 1);
	json_u64(j, "group_count", m->ngroups);
	json_u64(j, "rotations", m->rotations);
	json_u64(j, "window_ns", ns(cp, m->enabled));
	json_u64(j, "slice_ns", ns(cp, m->slice));
	json_arr(j, "groups");
	for (unsigned g = 0; g < m->ngroups && g < X86_MUX_MAX_GROUPS; g++) {
		json_obj(j, NULL);
		json_arr(j, "events");
		for (int i = 0; i < n; i++)
			if (c[i].group == g)
				json_str(j, NULL, c[i].event);
		json_close(j);
		mux_group_time_json(j, ns(cp, m->running[g]), ns(cp, m->enabled));
		json_close(j);
	}
	json_close(j);
}

void corepmu_json_counters(struct json *j, const struct corepmu *cp)
{
	int amd = cp->backend == CP_AMD_CORE;
	const struct x86_ctr *gen = amd ? cp->ac.c : cp->ic.gp;
	int ngen = amd ? cp->ac.nused : cp->backend == CP_INTEL_ARCH ? cp->ic.ngp_used : 0;
	json_str(j, "backend", cp->backend_name);
	json_u64(j, "ticks", cp->ticks);
	if (cp->fault != HW_OK)
		json_str(j, "fault", hw_status_name(cp->fault));
	json_arr(j, "counters");
	for (int i = 0; cp->backend == CP_INTEL_ARCH && i < cp->ic.nfx && i < 3; i++)
		counter(j, cp, &cp->ic.fx[i], 1);
	for (int i = 0; i < ngen; i++)
		counter(j, cp, &gen[i], 0);
	json_close(j);
	if (multiplexed(cp))
		mux_json(j, cp, gen, ngen);
	json_restore_report(j, &cp->restore, NULL);
}

void corepmu_json_topdown(struct json *j, const struct corepmu *cp)
{
	const struct intel_topdown *td = &cp->td;
	if (cp->backend == CP_AMD_CORE) {
		amd_pipeline_json(j, cp);
		return;
	}
	json_str(j, "method", td->variant);
	if (multiplexed(cp))   /* Intel TopDown's inputs are pinned: never scaled */
		json_bool(j, "inputs_multiplexed", 0);
	json_bool(j, "valid", td->valid);
	if (!td->valid) {
		json_str(j, "why", td->why[0] ? td->why : "TopDown not measured");
		return;
	}
	json_u64(j, "level", td->ncat > TD_L1 ? 2 : 1);
	json_u64(j, "slots", td->slots);
	json_obj(j, "ratio");
	for (unsigned k = 0; k < td->ncat; k++)
		json_milli(j, td_cat_name[k], td->permille[k]);
	json_close(j);
	json_obj(j, "slots_by_category");
	for (unsigned k = 0; k < td->ncat; k++)
		json_u64(j, td_cat_name[k], td->cat[k]);
	json_close(j);
	json_obj(j, "raw");
	if (td->kind == TD_METRICS) {
		json_str(j, "read_path", td_path_name[td->path]);
		if (td->path == TD_PATH_RDMSR)
			json_str(j, "rdpmc", hw_status_name(td->rdpmc_status));
		json_u64(j, "last_slots", td->raw_slots);
		json_hex(j, "last_perf_metrics", td->raw_metrics);
		json_u64(j, "reads", td->reads);
		json_u64(j, "resets", td->resets);
		json_u64(j, "clamped", td->clamped);
	} else {
		const int8_t gi[] = { td->gi_issued, td->gi_retired, td->gi_idq, td->gi_recovery, td->gi_clks };
		for (unsigned k = 0; k < sizeof(gi); k++)
			if (gi[k] >= 0)
				json_u64(j, cp->ic.gp[gi[k]].event, cp->ic.gp[gi[k]].acc);
		if (td->gi_clks < 0)
			json_u64(j, cp->ic.fx[1].event, cp->ic.fx[1].acc);
		json_bool(j, "any_thread_form", td->any_form);
	}
	json_close(j);
}

static void hist(struct json *j, const char *key, const uint64_t *n)
{
	json_obj(j, key);
	json_arr(j, "bounds");
	for (int i = 0; i < IBS_LAT_BUCKETS - 1; i++)
		json_u64(j, NULL, ibs_lat_bounds[i]);
	json_close(j);
	json_arr(j, "counts");
	for (int i = 0; i < IBS_LAT_BUCKETS; i++)
		json_u64(j, NULL, n[i]);
	json_close(j);
	json_close(j);
}

void corepmu_json_ibs(struct json *j, const struct corepmu *cp)
{
	const struct amd_ibs *ibs = &cp->ibs;
	const struct ibs_hist *h = &ibs->h;
	json_str(j, "mode", ibs_mode_name[ibs->mode < 3 ? ibs->mode : 0]);
	json_bool(j, "present", ibs->present);
	if (ibs->why[0] || !ibs->present || ibs->mode == IBS_MODE_OFF) {
		json_str(j, "why", ibs->why[0] ? ibs->why : "ibs = off");
		return;
	}
	json_u64(j, "period", ibs->period);
	json_str(j, "count", ibs->count == IBS_COUNT_OPS ? "ops" : "cycles");
	json_hex(j, "ctl", ibs->cfg);
	json_u64(j, "polls", ibs->polls);
	json_u64(j, "samples", h->samples);
	json_u64(j, "dropped", h->dropped);
	/* Work per sample: cycles counted by ls_not_halted_cyc over samples (cycle mode only). */
	uint64_t cyc = 0;
	const char *cyc_name = "ls_not_halted_cyc";
	const struct x86_named_event *ce = x86_named_lookup(X86_EV_AMD, cp->caps.gens, cyc_name, strlen(cyc_name));
	for (int i = 0; ce && i < cp->ac.nused; i++)
		if (cp->ac.c[i].config == x86_named_config(X86_EV_AMD, ce) && cp->ac.c[i].state == CTR_COUNTED)
			cyc = cp->ac.c[i].scaled;
	if (ibs->mode == IBS_MODE_OP && ibs->count == IBS_COUNT_CYCLES && cyc && h->samples)
		json_u64(j, "effective_period", cyc / h->samples);
	else
		json_str(j, "effective_period_why", "needs op sampling by cycles and ls_not_halted_cyc in core_events");
	if (ibs->mode == IBS_MODE_FETCH) {
		json_u64(j, "completed", h->fetch_comp);
		json_u64(j, "ic_miss", h->ic_miss);
		json_u64(j, "ic_miss_unreliable", h->ic_miss_unreliable);
		json_u64(j, "l1_tlb_miss", h->l1tlb_miss);
		json_u64(j, "l2_tlb_miss", h->l2tlb_miss);
		json_u64(j, "l2_miss", h->fetch_l2_miss);
		json_u64(j, "oc_miss", h->oc_miss);
		json_u64(j, "l3_miss", h->fetch_l3_miss);
		json_u64(j, "fetch_lat_sum", h->fetch_lat_sum);
		hist(j, "fetch_lat", h->fetch_lat);
		return;
	}
	json_u64(j, "rip_invalid", h->rip_invalid);
	json_u64(j, "mem_ops", h->mem_ops);
	json_u64(j, "loads", h->loads);
	json_u64(j, "stores", h->stores);
	json_u64(j, "uc", h->uc);
	json_u64(j, "wc", h->wc);
	json_milli(j, "uc_wc_share", ibs_uc_wc_permille(h));
	json_u64(j, "locked", h->locked);
	json_u64(j, "dc_miss", h->dc_miss);
	json_u64(j, "l2_miss", h->l2_miss);
	json_u64(j, "dc_l1_tlb_miss", h->dc_l1tlb_miss);
	json_u64(j, "dc_l2_tlb_miss", h->dc_l2tlb_miss);
	json_u64(j, "data2_invalid", h->data2_invalid);
	json_u64(j, "dc_miss_lat_sum", h->dc_miss_lat_sum);
	hist(j, "dc_miss_lat", h->dc_miss_lat);
	json_obj(j, "data_src");
	int zen4 = !!(ibs->caps & IBS_CAPS_ZEN4);
	for (unsigned s = 1; s < IBS_DATA_SRC_N; s++) {
		if (!h->data_src[s])
			continue;
		const char *name = ibs_data_src_name(s, zen4);
		char buf[16];
		if (!name) {
			fmt_snprintf(buf, sizeof(buf), "src_%u", s);
			name = buf;
		}
		json_u64(j, name, h->data_src[s]);
	}
	json_close(j);
	json_u64(j, "remote_node", h->rmt_node);
}
