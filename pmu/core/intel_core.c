/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel architectural perfmon unit (pmu/intel_core.h). Sequence (SDM Vol.3B 20.2.2; Linux
 * arch/x86/events/intel/core.c enable/disable order; Linux arch/x86/events/intel/core.c):
 *   start: save IA32_PERF_GLOBAL_CTRL and freeze our counters; save+write IA32_FIXED_CTR_CTRL
 *          (our 4-bit fields: OS|USR, AnyThread where asked, PMI 0); save+write each
 *          IA32_PERFEVTSELx = fields|USR|OS|EN; read first values; enable in GLOBAL_CTRL.
 *   stop:  GLOBAL_CTRL back to what it was (ours off), read last values.
 *   restore (caller, saveset_restore): every register written, last saved first.
 */
#include "pmu/core/intel_core.h"
#include "pmu/core/x86_mux.h"
#include "arch/regs/x86_msr.h"
#include "arch/lib/fmt.h"
#include <string.h>

#define PERFMON_V_FIXED 2u      /* fixed counters from version 2 (SDM 20.2.2) */
#define PERFMON_V_ANY 3u        /* AnyThread from version 3 (SDM 20.2.3) */
#define PERFMON_V_FIXED_BITMAP 5u

static const struct { uint32_t msr; const char *event; } fixed_desc[INTEL_MAX_FIXED] = {
	{ IA32_FIXED_CTR0, "INST_RETIRED.ANY" },
	{ IA32_FIXED_CTR1, "CPU_CLK_UNHALTED.THREAD" },
	{ IA32_FIXED_CTR2, "CPU_CLK_UNHALTED.REF_TSC" },
	{ IA32_FIXED_CTR3, "TOPDOWN.SLOTS" },
};

void intel_core_probe(const struct hw *hw, struct intel_core *ic)
{
	struct hw_cpuid r;
	memset(ic, 0, sizeof(*ic));
	ic->perf_cap_st = HW_UNSUPPORTED;
	if (hw_cpuid(hw, CPUID_VENDOR_MAXLEAF, 0, &r) != HW_OK)
		return;
	uint32_t max_leaf = r.eax;
	if (max_leaf >= CPUID_ARCH_PERFMON && hw_cpuid(hw, CPUID_ARCH_PERFMON, 0, &r) == HW_OK) {
		ic->version = r.eax & 0xFF;
		ic->ngp = (r.eax >> 8) & 0xFF;
		ic->gp_width = (r.eax >> 16) & 0xFF;
		ic->arch_len = r.eax >> 24;
		ic->arch_unavail = r.ebx;
		if (ic->version >= PERFMON_V_FIXED_BITMAP)
			ic->fixed_bitmap = r.ecx;
		if (ic->version >= PERFMON_V_FIXED) {
			ic->nfixed = r.edx & 0x1F;
			ic->fixed_width = (r.edx >> 5) & 0xFF;
		}
		ic->any_ok = ic->version >= PERFMON_V_ANY && !(r.edx & CPUID_0A_EDX_ANY_DEPRECATED);
	}
	if (ic->ngp > INTEL_MAX_GP)
		ic->ngp = INTEL_MAX_GP;
	if (hw_cpuid(hw, CPUID_SIGNATURE, 0, &r) == HW_OK && (r.ecx & CPUID_1_ECX_PDCM)) {
		ic->pdcm = 1;
		ic->perf_cap_st = hw_rdmsr(hw, IA32_PERF_CAPABILITIES, &ic->perf_cap);
		if (ic->perf_cap_st == HW_OK) {
			ic->full_width = !!(ic->perf_cap & PERF_CAP_FW_WRITE);
			ic->metrics_cap = !!(ic->perf_cap & PERF_CAP_PERF_METRICS);
		}
	}
}

int intel_core_fixed_present(const struct intel_core *ic, unsigned i)
{
	if (ic->version < PERFMON_V_FIXED || i >= INTEL_MAX_FIXED)
		return 0;
	return ((ic->fixed_bitmap >> i) & 1) || ic->nfixed > i;
}

void intel_core_plan_fixed(struct intel_core *ic, int with_slots, int any_fc1)
{
	ic->nfx = with_slots ? 4 : 3;
	for (int i = 0; i < ic->nfx; i++) {
		struct x86_ctr *c = &ic->fx[i];
		memset(c, 0, sizeof(*c));
		fmt_snprintf(c->event, sizeof(c->event), "%s", fixed_desc[i].event);
		c->ctr_msr = fixed_desc[i].msr;
		c->width_mask = x86_width_mask(ic->fixed_width);
		ic->fx_any[i] = (uint8_t)(i == 1 && any_fc1 && ic->any_ok);
		if (ic->fx_any[i])
			fmt_snprintf(c->event, sizeof(c->event), "CPU_CLK_UNHALTED.THREAD_ANY");
		if (ic->version < PERFMON_V_FIXED)
			fmt_snprintf(c->why, sizeof(c->why), "perfmon version %u < 2 (CPUID.0AH:EAX[7:0]): no fixed counters",
				     ic->version);
		else if (!intel_core_fixed_present(ic, (unsigned)i))
			fmt_snprintf(c->why, sizeof(c->why), "CPUID.0AH: %u fixed counters, bitmap 0x%x", ic->nfixed,
				     ic->fixed_bitmap);
		if (c->why[0])
			c->state = CTR_ABSENT;
	}
}

static int add_entry(struct intel_core *ic, const char *name, uint64_t config)
{
	if (ic->ngp_used >= X86_MAX_EVENTS)
		return -1;
	int i = ic->ngp_used++;
	struct x86_ctr *c = &ic->gp[i];
	memset(c, 0, sizeof(*c));
	fmt_snprintf(c->event, sizeof(c->event), "%s", name);
	c->config = config;
	c->width_mask = x86_width_mask(ic->gp_width);
	if (ic->version == 0)
		x86_ctr_absent(c, "no architectural perfmon: CPUID.0AH:EAX[7:0] version 0");
	return i;
}

static void place(struct intel_core *ic, struct x86_ctr *c, int slot)
{
	c->sel_msr = IA32_PERFEVTSEL0 + (uint32_t)slot;
	c->ctr_msr = (ic->full_width ? IA32_A_PMC0 : IA32_PMC0) + (uint32_t)slot;
	if (slot >= ic->nhw)
		ic->nhw = slot + 1;
}

int intel_core_add(struct intel_core *ic, const char *name, uint64_t config)
{
	int i = add_entry(ic, name, config);
	if (i < 0 || ic->gp[i].state == CTR_ABSENT)
		return i;
	if ((uint32_t)ic->nhw >= ic->ngp) {
		ic->gp[i].state = CTR_ABSENT;
		fmt_snprintf(ic->gp[i].why, sizeof(ic->gp[i].why), "no free general counter (%u, CPUID.0AH:EAX[15:8])", ic->ngp);
	} else {
		place(ic, &ic->gp[i], ic->nhw);
	}
	return i;
}

int intel_core_add_on(struct intel_core *ic, const char *name, uint64_t config, int slot, uint8_t group)
{
	int i = add_entry(ic, name, config);
	if (i < 0)
		return i;
	ic->gp[i].group = group;
	if (ic->gp[i].state != CTR_ABSENT)
		place(ic, &ic->gp[i], slot);
	return i;
}


/* Which general counters our_global_bits counts: every group's, the running group's and the
 * pinned ones, or the pinned ones alone. */
enum bits_of { BITS_ALL, BITS_RUNNING, BITS_PINNED };

/* GLOBAL_CTRL bits of our live counters (fixed counters and PERF_METRICS always). */
static uint64_t our_global_bits(const struct intel_core *ic, enum bits_of which)
{
	uint64_t b = 0;
	for (int i = 0; i < ic->ngp_used; i++) {
		const struct x86_ctr *c = &ic->gp[i];
		int in = which == BITS_ALL ? x86_ctr_live(c) : which == BITS_RUNNING ? x86_ctr_on(c, ic->cur)
					   : x86_ctr_live(c) && c->group == X86_PINNED;
		if (in)
			b |= 1ull << (c->sel_msr - IA32_PERFEVTSEL0);
	}
	for (int i = 0; i < ic->nfx; i++)
		if (x86_ctr_live(&ic->fx[i]))
			b |= 1ull << (PERF_GLOBAL_CTRL_FIXED_SHIFT + (unsigned)i);
	if (ic->metrics && ic->nfx > (int)FIXED_CTR_SLOTS && x86_ctr_live(&ic->fx[FIXED_CTR_SLOTS]))
		b |= 1ull << PERF_GLOBAL_CTRL_EN_PERF_METRICS;
	return b;
}

static void fault_live(struct intel_core *ic, const char *reg, hw_status st)
{
	for (int i = 0; i < ic->ngp_used; i++)
		if (x86_ctr_live(&ic->gp[i]))
			x86_ctr_fault(&ic->gp[i], reg, st);
	for (int i = 0; i < ic->nfx; i++)
		if (x86_ctr_live(&ic->fx[i]))
			x86_ctr_fault(&ic->fx[i], reg, st);
}

hw_status intel_core_start(const struct hw *hw, struct intel_core *ic, struct saveset *sv)
{
	uint64_t bits = our_global_bits(ic, BITS_ALL);
	if (!bits)
		return HW_OK;
	hw_status st = saveset_save(hw, sv, reg_msr(IA32_PERF_GLOBAL_CTRL), &ic->global_orig);
	if (st == HW_OK)
		st = saveset_write(hw, sv, reg_msr(IA32_PERF_GLOBAL_CTRL), ic->global_orig & ~bits);
	if (st != HW_OK) {
		fault_live(ic, "IA32_PERF_GLOBAL_CTRL", st);
		return st;
	}
	ic->programmed = 1;
	ic->global_ours = bits;
	uint64_t fcc_mask = 0, fcc_bits = 0, fcc = 0;
	for (int i = 0; i < ic->nfx; i++) {
		if (!x86_ctr_live(&ic->fx[i]))
			continue;
		unsigned sh = FIXED_CTR_CTRL_BITS * (unsigned)i;
		fcc_mask |= (uint64_t)FIXED_CTR_CTRL_FIELD_MASK << sh;
		fcc_bits |= (uint64_t)(FIXED_CTR_CTRL_EN_ALL | (ic->fx_any[i] ? FIXED_CTR_CTRL_ANY : 0)) << sh;
	}
	if (fcc_mask) {
		st = saveset_save(hw, sv, reg_msr(IA32_FIXED_CTR_CTRL), &fcc);
		if (st == HW_OK)
			st = saveset_write(hw, sv, reg_msr(IA32_FIXED_CTR_CTRL), (fcc & ~fcc_mask) | fcc_bits);
		if (st != HW_OK)
			for (int i = 0; i < ic->nfx; i++)
				if (x86_ctr_live(&ic->fx[i]))
					x86_ctr_fault(&ic->fx[i], "IA32_FIXED_CTR_CTRL", st);
	}
	for (int i = 0; i < ic->ngp_used; i++) {
		struct x86_ctr *c = &ic->gp[i];
		if (!x86_ctr_on(c, ic->cur))
			continue;
		st = saveset_write(hw, sv, reg_msr(c->sel_msr), c->config | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN);
		if (st != HW_OK)
			x86_ctr_fault(c, "IA32_PERFEVTSELx", st);
	}
	ic->global_ours = our_global_bits(ic, BITS_ALL);
	x86_mux_reset(ic->gp, ic->ngp_used);
	for (int i = 0; i < ic->nfx; i++)
		if (x86_ctr_live(&ic->fx[i]))
			ic->fx[i].reads = 0;
	intel_core_read(hw, ic);
	return HW_OK;
}

hw_status intel_core_freeze(const struct hw *hw, struct intel_core *ic)
{
	if (!ic->programmed)
		return HW_OK;
	return hw_wrmsr(hw, IA32_PERF_GLOBAL_CTRL, ic->global_orig & ~ic->global_ours);
}

hw_status intel_core_unfreeze(const struct hw *hw, struct intel_core *ic)
{
	if (!ic->programmed || !ic->global_ours)
		return HW_OK;
	return hw_wrmsr(hw, IA32_PERF_GLOBAL_CTRL, (ic->global_orig & ~ic->global_ours) | our_global_bits(ic, BITS_RUNNING));
}

#define PMC_NAME(ic) ((ic)->full_width ? "IA32_A_PMCx" : "IA32_PMCx")

static void read_one(const struct hw *hw, struct x86_ctr *c, const char *reg)
{
	uint64_t v;
	if (!x86_ctr_live(c))
		return;
	hw_status st = hw_rdmsr(hw, c->ctr_msr, &v);
	if (st != HW_OK)
		x86_ctr_fault(c, reg, st);
	else if (!c->reads)
		x86_ctr_first(c, v);
	else
		x86_ctr_update(c, v);
}

void intel_core_read(const struct hw *hw, struct intel_core *ic)
{
	for (int i = 0; i < ic->ngp_used; i++)
		if (x86_ctr_on(&ic->gp[i], ic->cur))
			read_one(hw, &ic->gp[i], PMC_NAME(ic));
	/* SLOTS (fixed counter 3) is read by the TopDown unit together with PERF_METRICS. */
	for (int i = 0; i < ic->nfx && i < (int)FIXED_CTR_SLOTS; i++)
		read_one(hw, &ic->fx[i], "IA32_FIXED_CTRx");
}

hw_status intel_core_rotate(const struct hw *hw, struct intel_core *ic, struct saveset *sv, uint8_t next)
{
	if (!ic->programmed) {
		ic->cur = next;
		return HW_OK;
	}
	uint64_t keep = ic->global_orig & ~ic->global_ours;
	hw_status st = hw_wrmsr(hw, IA32_PERF_GLOBAL_CTRL, keep | our_global_bits(ic, BITS_PINNED));
	if (st != HW_OK)
		return st;   /* nothing changed: the group keeps counting */
	for (int i = 0; i < ic->ngp_used; i++)
		if (x86_ctr_on(&ic->gp[i], ic->cur) && ic->gp[i].group != X86_PINNED)
			read_one(hw, &ic->gp[i], PMC_NAME(ic));
	ic->cur = next;
	for (int i = 0; i < ic->ngp_used; i++) {
		struct x86_ctr *c = &ic->gp[i];
		if (!x86_ctr_live(c) || c->group != next)
			continue;
		hw_status s2 = x86_ctr_switch(hw, sv, c, c->config | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN, 1,
					      "IA32_PERFEVTSELx", PMC_NAME(ic));
		st = st != HW_OK ? st : s2;
	}
	hw_status s3 = hw_wrmsr(hw, IA32_PERF_GLOBAL_CTRL, keep | our_global_bits(ic, BITS_RUNNING));
	if (s3 != HW_OK)
		for (int i = 0; i < ic->ngp_used; i++)
			if (x86_ctr_live(&ic->gp[i]) && ic->gp[i].group == next)
				x86_ctr_fault(&ic->gp[i], "IA32_PERF_GLOBAL_CTRL", s3);
	return st != HW_OK ? st : s3;
}

hw_status intel_core_stop(const struct hw *hw, struct intel_core *ic)
{
	if (!ic->programmed)
		return HW_OK;
	hw_status st = intel_core_freeze(hw, ic);
	intel_core_read(hw, ic);
	for (int i = 0; i < ic->ngp_used; i++)
		x86_ctr_finish(&ic->gp[i]);
	for (int i = 0; i < ic->nfx && i < (int)FIXED_CTR_SLOTS; i++)
		x86_ctr_finish(&ic->fx[i]);
	ic->programmed = 0;
	return st;
}
