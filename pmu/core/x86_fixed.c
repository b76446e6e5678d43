/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel architectural fixed-function counters as a struct core_pmu: a thin adapter over
 * pmu/core/intel_core.c, which alone programs IA32_FIXED_CTR_CTRL, the fixed counters and
 * IA32_PERF_GLOBAL_CTRL (SDM Vol.3B 20.2.2 "Architectural Performance Monitoring Version 2"): IA32_FIXED_CTR0 INST_RETIRED.ANY, IA32_FIXED_CTR1
 * CPU_CLK_UNHALTED.THREAD, IA32_FIXED_CTR2 CPU_CLK_UNHALTED.REF_TSC, enabled per counter in
 * IA32_FIXED_CTR_CTRL (4 bits each) and globally in IA32_PERF_GLOBAL_CTRL[32+i].
 * CPUID.0AH: EAX[7:0] version (fixed counters exist from version 2), EDX[4:0] number of fixed
 * counters, EDX[12:5] their bit width.
 */
#include "pmu/core/core_counters.h"
#include "arch/regs/x86_msr.h"
#include "arch/lib/fmt.h"

#define PERFMON_VERSION_FIXED 2u  /* first version with fixed-function counters */

struct fixed_desc { const char *event, *unit; };
static const struct fixed_desc fixed_counters[] = {
	{ "INST_RETIRED.ANY", "instructions" },
	{ "CPU_CLK_UNHALTED.THREAD", "cycles" },
	{ "CPU_CLK_UNHALTED.REF_TSC", "ref-cycles" },
};
#define NFIXED_KNOWN (int)(sizeof(fixed_counters) / sizeof(fixed_counters[0]))

static int probe(const struct hw *hw, struct core_set *s)
{
	struct hw_cpuid r;
	/* Not x86 (no CPUID), or a backend with no CPUID leaves (all-zero vendor). */
	if (hw_cpuid(hw, CPUID_VENDOR_MAXLEAF, 0, &r) != HW_OK || !(r.ebx | r.ecx | r.edx))
		return -1;
	uint32_t max_leaf = r.eax, version = 0, nfixed = 0, width = 0;
	if (max_leaf >= CPUID_ARCH_PERFMON && hw_cpuid(hw, CPUID_ARCH_PERFMON, 0, &r) == HW_OK) {
		version = r.eax & 0xFF;
		s->ngp = (r.eax >> 8) & 0xFF;
		nfixed = r.edx & 0x1F;
		width = (r.edx >> 5) & 0xFF;
	}
	s->version = version;
	const char *why = NULL;
	if (max_leaf < CPUID_ARCH_PERFMON)
		why = "no architectural perfmon (CPUID max leaf < 0AH)";
	else if (version < PERFMON_VERSION_FIXED)
		why = "perfmon version < 2 (CPUID.0AH:EAX[7:0]): no fixed counters";
	s->n = NFIXED_KNOWN;
	for (int i = 0; i < NFIXED_KNOWN; i++) {
		struct core_counter *c = &s->c[i];
		c->event = fixed_counters[i].event;
		c->unit = fixed_counters[i].unit;
		c->width_mask = width >= 64 || !width ? ~0ull : (1ull << width) - 1;
		if (why) {
			c->state = CTR_ABSENT;
			fmt_snprintf(c->why, sizeof(c->why), "%s", why);
		} else if ((uint32_t)i >= nfixed) {
			c->state = CTR_ABSENT;
			fmt_snprintf(c->why, sizeof(c->why), "CPUID.0AH:EDX[4:0] = %u fixed counters", nfixed);
		}
	}
	fmt_snprintf(s->probe, sizeof(s->probe), "perfmon version %u, %u GP + %u fixed counters, %u bits",
		     version, s->ngp, nfixed, width);
	intel_core_probe(hw, &s->ic);
	return 0;
}

static int present(const struct core_set *s, int i) { return s->c[i].state != CTR_ABSENT; }

/* The counters' values and states as the driver left them (after intel_core_stop). */
void x86_fixed_from(struct core_set *s, const struct intel_core *ic)
{
	for (int i = 0; i < s->n && i < ic->nfx; i++) {
		struct core_counter *c = &s->c[i];
		const struct x86_ctr *x = &ic->fx[i];
		if (!present(s, i))
			continue;
		c->event = x->event;   /* CPU_CLK_UNHALTED.THREAD_ANY when TopDown asked AnyThread */
		c->before = x->first;
		c->after = x->last;
		c->delta = x->acc;
		c->state = x->state;
		c->fault = x->fault;
		if (x->state == CTR_FAULTED || x->state == CTR_ABSENT)
			fmt_snprintf(c->why, sizeof(c->why), "%s", x->why);
	}
}

static hw_status start(const struct hw *hw, struct core_set *s)
{
	core_saveset_begin(s);
	/* only the fixed counters 0-2, none the probe found absent */
	intel_core_plan_fixed(&s->ic, 0, 0);
	s->ic.ngp_used = s->ic.nhw = 0;
	s->ic.metrics = 0;
	for (int i = 0; i < s->n; i++)
		if (!present(s, i))
			x86_ctr_absent(&s->ic.fx[i], s->c[i].why);
	hw_status st = intel_core_start(hw, &s->ic, &s->sv);
	s->started = s->sv.n > 0;
	if (st == HW_OK)
		st = intel_core_unfreeze(hw, &s->ic);
	x86_fixed_from(s, &s->ic);
	return st;
}

static hw_status stop(const struct hw *hw, struct core_set *s)
{
	if (!s->started)
		return HW_OK;
	/* freeze first (our enable bits off, others as found), then read */
	hw_status st = intel_core_stop(hw, &s->ic);
	x86_fixed_from(s, &s->ic);
	return st;
}

static hw_status restore(const struct hw *hw, struct core_set *s)
{
	s->ic.programmed = 0;
	s->started = 0;
	return core_saveset_restore(hw, s);
}

const struct core_pmu pmu_x86_fixed = {
	.name = "x86 architectural fixed counters",
	.probe = probe,
	.start = start,
	.stop = stop,
	.restore = restore,
};
