/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AMD core counters (pmu/amd_core.h). Sequence (Linux arch/x86/events/amd/core.c):
 *   start: PerfMonV2: save PerfCntrGlobalCtl, write it with our enable bits off;
 *          save + write each CTL = fields|USR|OS|EN (INT 0); read first values;
 *          PerfMonV2: PerfCntrGlobalCtl = saved | ours ("always write it": its reset value is
 *          not documented, no manual gives its reset value).
 *   stop:  PerfMonV2: PerfCntrGlobalCtl back; else each CTL back to its saved value; read.
 * Counters are not written: deltas are taken modulo 2^48, so there is nothing to restore.
 */
#include "pmu/core/amd_core.h"
#include "pmu/core/x86_mux.h"
#include "arch/regs/x86_amd_msr.h"
#include "arch/regs/x86_msr.h"
#include "arch/lib/fmt.h"
#include <string.h>

enum amd_need { NEED_PERFMON_V2, NEED_PERFCTR_CORE, NEED_NOTHING };

static const struct amd_layout {
	const char *name;
	uint8_t need, n;          /* n 0: from CPUID 8000_0022:EBX[3:0] */
	uint32_t ctl, ctr, stride;
} amd_layouts[] = {
	{ "PerfMonV2", NEED_PERFMON_V2, 0, MSR_F15H_PERF_CTL, MSR_F15H_PERF_CTR, 2 },
	{ "PerfCtrExtCore", NEED_PERFCTR_CORE, AMD_EXT_CORE_COUNTERS, MSR_F15H_PERF_CTL, MSR_F15H_PERF_CTR, 2 },
	{ "legacy", NEED_NOTHING, AMD_LEGACY_COUNTERS, MSR_K7_EVNTSEL0, MSR_K7_PERFCTR0, 1 },
};

void amd_core_probe(const struct hw *hw, struct amd_core *ac)
{
	struct hw_cpuid r;
	uint32_t max_ext = 0, ncore_v2 = 0;
	memset(ac, 0, sizeof(*ac));
	if (hw_cpuid(hw, CPUID_EXT_MAXLEAF, 0, &r) == HW_OK)
		max_ext = r.eax;
	if (max_ext >= CPUID_AMD_EXT_FEATURES && hw_cpuid(hw, CPUID_AMD_EXT_FEATURES, 0, &r) == HW_OK)
		ac->perfctr_core = !!(r.ecx & AMD_EXT_ECX_PERFCTR_CORE);
	if (max_ext >= CPUID_AMD_PERFMON_V2 && hw_cpuid(hw, CPUID_AMD_PERFMON_V2, 0, &r) == HW_OK &&
	    (r.eax & AMD_PMV2_EAX_PERFMON_V2)) {
		ac->v2 = 1;
		ncore_v2 = r.ebx & AMD_PMV2_EBX_NUM_CORE_MASK;
	}
	const uint8_t have[] = { [NEED_PERFMON_V2] = ac->v2 && ncore_v2, [NEED_PERFCTR_CORE] = ac->perfctr_core,
				 [NEED_NOTHING] = 1 };
	for (unsigned i = 0; i < sizeof(amd_layouts) / sizeof(amd_layouts[0]); i++) {
		const struct amd_layout *l = &amd_layouts[i];
		if (!have[l->need])
			continue;
		ac->layout = l->name;
		ac->ncounters = (uint8_t)(l->n ? l->n : ncore_v2);
		ac->ctl_base = l->ctl;
		ac->ctr_base = l->ctr;
		ac->stride = l->stride;
		ac->v2 = l->need == NEED_PERFMON_V2;
		break;
	}
	if (ac->ncounters > AMD_MAX_COUNTERS)
		ac->ncounters = AMD_MAX_COUNTERS;
}

static void place(struct amd_core *ac, struct x86_ctr *c, int slot)
{
	c->sel_msr = ac->ctl_base + ac->stride * (uint32_t)slot;
	c->ctr_msr = ac->ctr_base + ac->stride * (uint32_t)slot;
	if (slot >= ac->nhw)
		ac->nhw = slot + 1;
}

static int add_entry(struct amd_core *ac, const char *name, uint64_t config, uint8_t group)
{
	if (ac->nused >= X86_MAX_EVENTS)
		return -1;
	int i = ac->nused++;
	struct x86_ctr *c = &ac->c[i];
	memset(c, 0, sizeof(*c));
	fmt_snprintf(c->event, sizeof(c->event), "%s", name);
	c->config = config;
	c->width_mask = x86_width_mask(AMD_COUNTER_WIDTH);
	c->group = group;
	return i;
}

int amd_core_add(struct amd_core *ac, const char *name, uint64_t config)
{
	int i = add_entry(ac, name, config, 0);
	if (i < 0)
		return i;
	struct x86_ctr *c = &ac->c[i];
	if (ac->nhw >= ac->ncounters) {
		c->state = CTR_ABSENT;
		fmt_snprintf(c->why, sizeof(c->why), "no free core counter (%u, %s)", ac->ncounters, ac->layout);
	} else {
		place(ac, c, ac->nhw);
	}
	return i;
}

int amd_core_add_on(struct amd_core *ac, const char *name, uint64_t config, int slot, uint8_t group)
{
	int i = add_entry(ac, name, config, group);
	if (i >= 0)
		place(ac, &ac->c[i], slot);
	return i;
}

static const char *ctl_name(const struct amd_core *ac) { return ac->stride == 1 ? "PerfEvtSel" : "PERF_CTL"; }
static const char *ctr_name(const struct amd_core *ac) { return ac->stride == 1 ? "PerfCtr" : "PERF_CTR"; }

hw_status amd_core_start(const struct hw *hw, struct amd_core *ac, struct saveset *sv)
{
	uint64_t ours = 0;
	for (int i = 0; i < ac->nused; i++)
		if (x86_ctr_live(&ac->c[i]))
			ours |= 1ull << ((ac->c[i].sel_msr - ac->ctl_base) / ac->stride);
	if (!ours)
		return HW_OK;
	hw_status st = HW_OK;
	if (ac->v2) {
		st = saveset_save(hw, sv, reg_msr(PerfCntrGlobalCtl), &ac->global_orig);
		if (st == HW_OK)
			st = saveset_write(hw, sv, reg_msr(PerfCntrGlobalCtl), ac->global_orig & ~ours);
		if (st != HW_OK) {
			for (int i = 0; i < ac->nused; i++)
				if (x86_ctr_live(&ac->c[i]))
					x86_ctr_fault(&ac->c[i], "PerfCntrGlobalCtl", st);
			return st;
		}
	}
	ac->programmed = 1;
	x86_mux_reset(ac->c, ac->nused);
	for (int i = 0; i < ac->nused; i++) {
		struct x86_ctr *c = &ac->c[i];
		if (!x86_ctr_on(c, ac->cur))
			continue;
		st = saveset_write(hw, sv, reg_msr(c->sel_msr), c->config | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN);
		if (st != HW_OK) {
			x86_ctr_fault(c, ctl_name(ac), st);
			ours &= ~(1ull << ((c->sel_msr - ac->ctl_base) / ac->stride));
		}
	}
	amd_core_read(hw, ac);
	ac->global_ours = ours;
	if (ac->v2 && ours)
		st = hw_wrmsr(hw, PerfCntrGlobalCtl, ac->global_orig | ours);
	return st;
}

void amd_core_read(const struct hw *hw, struct amd_core *ac)
{
	for (int i = 0; i < ac->nused; i++) {
		struct x86_ctr *c = &ac->c[i];
		uint64_t v;
		if (!x86_ctr_on(c, ac->cur))
			continue;
		hw_status st = hw_rdmsr(hw, c->ctr_msr, &v);
		if (st != HW_OK)
			x86_ctr_fault(c, ctr_name(ac), st);
		else if (!c->reads)
			x86_ctr_first(c, v);
		else
			x86_ctr_update(c, v);
	}
}

hw_status amd_core_rotate(const struct hw *hw, struct amd_core *ac, struct saveset *sv, uint8_t next)
{
	hw_status st = HW_OK;
	for (int pass = 0; pass < 2; pass++) {   /* 0: the running group out (EN off), 1: group next in */
		if (pass)
			ac->cur = next;
		for (int i = 0; ac->programmed && i < ac->nused; i++) {
			struct x86_ctr *c = &ac->c[i];
			if (!x86_ctr_on(c, ac->cur) || c->group == X86_PINNED)
				continue;
			uint64_t sel = c->config | EVTSEL_USR | EVTSEL_OS | (pass ? EVTSEL_EN : 0);
			hw_status s2 = x86_ctr_switch(hw, sv, c, sel, pass, ctl_name(ac), ctr_name(ac));
			st = st != HW_OK ? st : s2;
		}
	}
	return st;
}

hw_status amd_core_stop(const struct hw *hw, struct amd_core *ac, const struct saveset *sv)
{
	if (!ac->programmed)
		return HW_OK;
	hw_status st = HW_OK;
	if (ac->v2) {
		st = hw_wrmsr(hw, PerfCntrGlobalCtl, ac->global_orig & ~ac->global_ours);
	} else {
		for (int i = 0; i < ac->nused; i++) {
			uint64_t v;
			if (x86_ctr_on(&ac->c[i], ac->cur) && saveset_lookup(sv, reg_msr(ac->c[i].sel_msr), &v)) {
				hw_status s2 = hw_wrmsr(hw, ac->c[i].sel_msr, v);
				if (s2 != HW_OK && st == HW_OK)
					st = s2;
			}
		}
	}
	amd_core_read(hw, ac);
	for (int i = 0; i < ac->nused; i++)
		x86_ctr_finish(&ac->c[i]);
	ac->programmed = 0;
	return st;
}
