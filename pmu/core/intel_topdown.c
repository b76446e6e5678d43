/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TopDown unit (pmu/intel_topdown.h): programming and reading; formulas are in
 * intel_topdown_math.c.
 */
#include "pmu/core/intel_topdown.h"
#include "pmu/core/x86_event.h"
#include "arch/regs/x86_msr.h"
#include "arch/lib/fmt.h"
#include <string.h>

static int8_t add_named(struct intel_core *ic, uint16_t gens, const char *name)
{
	const struct x86_named_event *e = x86_named_lookup(X86_EV_INTEL, gens, name, strlen(name));
	if (!e)
		return -1;
	return (int8_t)intel_core_add(ic, name, x86_named_config(X86_EV_INTEL, e));
}

void td_plan(struct intel_topdown *td, struct intel_core *ic, enum td_kind kind, int level2, int any_form)
{
	memset(td, 0, sizeof(*td));
	td->kind = (uint8_t)kind;
	td->gi_issued = td->gi_retired = td->gi_idq = td->gi_recovery = td->gi_clks = -1;
	if (kind == TD_METRICS) {
		td->variant = "perf-metrics";
		td->level2 = (uint8_t)!!level2;
		td->ncat = level2 ? TD_NCAT : TD_L1;
		intel_core_plan_fixed(ic, 1, 0);
		ic->metrics = 1;
		if (ic->fx[FIXED_CTR_SLOTS].state == CTR_ABSENT)
			fmt_snprintf(td->why, sizeof(td->why), "no fixed counter 3 (SLOTS): %s",
				     ic->fx[FIXED_CTR_SLOTS].why);
		return;
	}
	if (kind != TD_GP_SNB && kind != TD_GP_SKL)
		return;
	uint8_t gen = kind == TD_GP_SNB ? X86_GEN_SNB : X86_GEN_SKL;
	td->variant = "general-counters";
	td->ncat = TD_L1;
	td->any_form = (uint8_t)(any_form && ic->any_ok);
	intel_core_plan_fixed(ic, 0, td->any_form);
	td->gi_issued = add_named(ic, gen, "UOPS_ISSUED.ANY");
	td->gi_retired = add_named(ic, gen, "UOPS_RETIRED.RETIRE_SLOTS");
	td->gi_idq = add_named(ic, gen, "IDQ_UOPS_NOT_DELIVERED.CORE");
	td->gi_recovery = add_named(ic, gen, td->any_form ? "INT_MISC.RECOVERY_CYCLES_ANY" : "INT_MISC.RECOVERY_CYCLES");
	if (ic->fx[1].state == CTR_ABSENT)  /* cycles on a general counter instead */
		td->gi_clks = add_named(ic, X86_GEN_ARCH | gen, td->any_form ? "CPU_CLK_UNHALTED.THREAD_P_ANY" :
					"CPU_CLK_UNHALTED.THREAD_P");
	const int8_t gi[] = { td->gi_issued, td->gi_retired, td->gi_idq, td->gi_recovery };
	for (unsigned k = 0; k < sizeof(gi); k++)
		if (gi[k] < 0 || ic->gp[gi[k]].state == CTR_ABSENT) {
			fmt_snprintf(td->why, sizeof(td->why), "%s: %s", gi[k] < 0 ? "event table" : ic->gp[gi[k]].event,
				     gi[k] < 0 ? "missing" : ic->gp[gi[k]].why);
			return;
		}
}

static int metrics_live(const struct intel_topdown *td, const struct intel_core *ic)
{
	return td->kind == TD_METRICS && !td->why[0] && ic->programmed &&
	       x86_ctr_live(&ic->fx[FIXED_CTR_SLOTS]);
}

static void failed(struct intel_topdown *td, struct intel_core *ic, const char *what, hw_status st)
{
	td->fault = st;
	fmt_snprintf(td->why, sizeof(td->why), "%s: %s", what, hw_status_name(st));
	x86_ctr_fault(&ic->fx[FIXED_CTR_SLOTS], what, st);
}

/* Fixed counter 3 first, then PERF_METRICS (Linux arch/x86/events/intel/core.c; QEMU "SDM: Write IA32_PERF_METRICS after
 * fixed counter 3"). */
static hw_status reset(const struct hw *hw, struct intel_topdown *td)
{
	hw_status st = hw_wrmsr(hw, IA32_FIXED_CTR3, 0);
	if (st == HW_OK)
		st = hw_wrmsr(hw, IA32_PERF_METRICS, 0);
	if (st == HW_OK) {
		td->last_slots = td->last_metrics = 0;
		td->resets++;
	}
	return st;
}

hw_status td_start(const struct hw *hw, struct intel_topdown *td, struct intel_core *ic, struct saveset *sv)
{
	td->slots = 0;
	memset(td->cat, 0, sizeof(td->cat));
	memset(td->permille, 0, sizeof(td->permille));
	td->reads = td->resets = td->clamped = 0;
	td->valid = 0;
	if (!metrics_live(td, ic))
		return HW_OK;
	ic->fx[FIXED_CTR_SLOTS].reads = 0;
	ic->fx[FIXED_CTR_SLOTS].acc = 0;
	/* Saved in this order so that the restore writes fixed counter 3 before PERF_METRICS. */
	hw_status st = saveset_save(hw, sv, reg_msr(IA32_PERF_METRICS), NULL);
	if (st != HW_OK) {
		failed(td, ic, "IA32_PERF_METRICS", st);
		return st;
	}
	st = saveset_save(hw, sv, reg_msr(IA32_FIXED_CTR3), NULL);
	/* the first reset goes through the set, so both are marked for restore */
	if (st == HW_OK)
		st = saveset_write(hw, sv, reg_msr(IA32_FIXED_CTR3), 0);
	if (st == HW_OK)
		st = saveset_write(hw, sv, reg_msr(IA32_PERF_METRICS), 0);
	if (st == HW_OK) {
		td->last_slots = td->last_metrics = 0;
		td->resets++;
	}
	if (st != HW_OK)
		failed(td, ic, "IA32_FIXED_CTR3/IA32_PERF_METRICS reset", st);
	return st;
}

/* SLOTS and PERF_METRICS as Linux tools/perf/Documentation/topdown.txt reads them, RDPMC first; RDMSR once RDPMC faulted. */
static hw_status read_pair(const struct hw *hw, struct intel_topdown *td, uint64_t *slots, uint64_t *metrics)
{
	if (td->path != TD_PATH_RDMSR) {
		hw_status st = hw_rdpmc(hw, RDPMC_FIXED | FIXED_CTR_SLOTS, slots);
		if (st == HW_OK)
			st = hw_rdpmc(hw, RDPMC_METRICS, metrics);
		if (td->path == TD_PATH_NONE)
			td->rdpmc_status = st;
		if (st == HW_OK) {
			td->path = TD_PATH_RDPMC;
			return HW_OK;
		}
		td->path = TD_PATH_RDMSR;
	}
	hw_status st = hw_rdmsr(hw, IA32_FIXED_CTR3, slots);
	if (st == HW_OK)
		st = hw_rdmsr(hw, IA32_PERF_METRICS, metrics);
	return st;
}

hw_status td_sample(const struct hw *hw, struct intel_topdown *td, struct intel_core *ic, int do_reset)
{
	if (!metrics_live(td, ic))
		return HW_OK;
	uint64_t s, m, d[TD_NCAT];
	hw_status st = read_pair(hw, td, &s, &m);
	if (st != HW_OK) {
		failed(td, ic, "SLOTS/PERF_METRICS read", st);
		return st;
	}
	td->reads++;
	td->raw_slots = s;
	td->raw_metrics = m;
	struct x86_ctr *fc3 = &ic->fx[FIXED_CTR_SLOTS];
	uint64_t ds = (s - td->last_slots) & fc3->width_mask;
	if (s) {  /* Linux arch/x86/events/intel/core.c: "if (!slots) return" */
		td_delta(td->last_slots, td->last_metrics, s, m, td->ncat, d);
		for (unsigned k = 0; k < td->ncat; k++)
			td->cat[k] += d[k];
		/* A category whose share fell between two reads without a reset lost precision:
		 * counted, reported as `clamped`. */
		for (unsigned k = 0; k < td->ncat; k++)
			if (td_scaled(s, m, k) < td_scaled(td->last_slots, td->last_metrics, k))
				td->clamped++;
		td->slots += ds;
		td->last_slots = s;
		td->last_metrics = m;
	}
	fc3->acc = td->slots;
	fc3->reads++;
	if (do_reset) {
		st = reset(hw, td);
		if (st != HW_OK) {
			failed(td, ic, "IA32_FIXED_CTR3/IA32_PERF_METRICS reset", st);
			return st;
		}
	}
	return HW_OK;
}

static uint64_t acc(const struct intel_core *ic, int8_t i)
{
	return i >= 0 ? ic->gp[i].acc : 0;
}

void td_finish(struct intel_topdown *td, struct intel_core *ic)
{
	td->valid = 0;
	if (td->kind == TD_METRICS) {
		x86_ctr_finish(&ic->fx[FIXED_CTR_SLOTS]);
		if (td->why[0] || !td->reads)
			return;
	} else if (td->kind == TD_GP_SNB || td->kind == TD_GP_SKL) {
		if (td->why[0])
			return;
		const int8_t gi[] = { td->gi_issued, td->gi_retired, td->gi_idq, td->gi_recovery, td->gi_clks };
		for (unsigned k = 0; k < sizeof(gi); k++)
			if (gi[k] >= 0 && ic->gp[gi[k]].state == CTR_FAULTED) {
				fmt_snprintf(td->why, sizeof(td->why), "%s: %s", ic->gp[gi[k]].event, ic->gp[gi[k]].why);
				return;
			}
		struct td_gp_counts c = {
			.clks = td->gi_clks >= 0 ? acc(ic, td->gi_clks) : ic->fx[1].acc,
			.uops_issued = acc(ic, td->gi_issued), .retire_slots = acc(ic, td->gi_retired),
			.idq_not_delivered = acc(ic, td->gi_idq), .recovery = acc(ic, td->gi_recovery),
			.any_form = td->any_form,
		};
		td->slots = td_gp_l1(&c, td->cat);
	} else {
		return;
	}
	td_ratios(td->cat, td->ncat, td->permille);
	td->valid = td->slots > 0;
	if (!td->valid && !td->why[0])
		fmt_snprintf(td->why, sizeof(td->why), "SLOTS did not advance");
}
