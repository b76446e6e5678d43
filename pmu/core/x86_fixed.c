/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel architectural fixed-function counters (SDM Vol.3B 20.2.2 "Architectural Performance
 * Monitoring Version 2"): IA32_FIXED_CTR0 INST_RETIRED.ANY, IA32_FIXED_CTR1
 * CPU_CLK_UNHALTED.THREAD, IA32_FIXED_CTR2 CPU_CLK_UNHALTED.REF_TSC, enabled per counter in
 * IA32_FIXED_CTR_CTRL (4 bits each) and globally in IA32_PERF_GLOBAL_CTRL[32+i].
 * CPUID.0AH: EAX[7:0] version (fixed counters exist from version 2), EDX[4:0] number of fixed
 * counters, EDX[12:5] their bit width.
 */
#include "pmu/core/core_counters.h"
#include "arch/regs/x86_msr.h"
#include "arch/lib/fmt.h"

#define PERFMON_VERSION_FIXED 2u  /* first version with fixed-function counters */

struct fixed_desc { uint32_t msr; const char *event, *unit; };
static const struct fixed_desc fixed_counters[] = {
	{ IA32_FIXED_CTR0, "INST_RETIRED.ANY", "instructions" },
	{ IA32_FIXED_CTR1, "CPU_CLK_UNHALTED.THREAD", "cycles" },
	{ IA32_FIXED_CTR2, "CPU_CLK_UNHALTED.REF_TSC", "ref-cycles" },
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
	return 0;
}

static int present(const struct core_set *s, int i) { return s->c[i].state != CTR_ABSENT; }

static void fault_all(struct core_set *s, const char *reg, hw_status st)
{
	for (int i = 0; i < s->n; i++)
		if (present(s, i)) {
			s->c[i].state = CTR_FAULTED;
			s->c[i].fault = (uint8_t)st;
			fmt_snprintf(s->c[i].why, sizeof(s->c[i].why), "%s: %s", reg, hw_status_name(st));
		}
}

static hw_status start(const struct hw *hw, struct core_set *s)
{
	uint64_t ctrl_mask = 0, ctrl_bits = 0, global_bits = 0;
	for (int i = 0; i < s->n; i++) {
		if (!present(s, i))
			continue;
		ctrl_mask |= (uint64_t)FIXED_CTR_CTRL_FIELD_MASK << (FIXED_CTR_CTRL_BITS * i);
		ctrl_bits |= (uint64_t)FIXED_CTR_CTRL_EN_ALL << (FIXED_CTR_CTRL_BITS * i);
		global_bits |= 1ull << (PERF_GLOBAL_CTRL_FIXED_SHIFT + i);
	}
	if (!global_bits)
		return HW_OK;
	static const uint32_t written[] = { IA32_PERF_GLOBAL_CTRL, IA32_FIXED_CTR_CTRL };
	for (unsigned k = 0; k < sizeof(written) / sizeof(written[0]); k++) {
		hw_status st = core_save_msr(hw, s, written[k]);
		if (st != HW_OK) {
			fault_all(s, written[k] == IA32_PERF_GLOBAL_CTRL ? "IA32_PERF_GLOBAL_CTRL" :
				  "IA32_FIXED_CTR_CTRL", st);
			return st;
		}
	}
	s->started = 1;
	uint64_t ctrl = s->saved[1].value, global = s->saved[0].value;
	hw_status st = hw_wrmsr(hw, IA32_FIXED_CTR_CTRL, (ctrl & ~ctrl_mask) | ctrl_bits);
	for (int i = 0; st == HW_OK && i < s->n; i++)
		if (present(s, i))
			st = hw_rdmsr(hw, fixed_counters[i].msr, &s->c[i].before);
	if (st == HW_OK)
		st = hw_wrmsr(hw, IA32_PERF_GLOBAL_CTRL, global | global_bits);
	if (st != HW_OK)
		fault_all(s, "fixed counter programming", st);
	return st;
}

static hw_status stop(const struct hw *hw, struct core_set *s)
{
	if (!s->started)
		return HW_OK;
	/* Freeze first (our enable bits off, others as found), then read. */
	hw_status st = hw_wrmsr(hw, IA32_PERF_GLOBAL_CTRL, s->saved[0].value);
	for (int i = 0; i < s->n; i++) {
		if (!present(s, i) || s->c[i].state == CTR_FAULTED)
			continue;
		hw_status r = hw_rdmsr(hw, fixed_counters[i].msr, &s->c[i].after);
		if (r != HW_OK) {
			s->c[i].state = CTR_FAULTED;
			s->c[i].fault = (uint8_t)r;
			fmt_snprintf(s->c[i].why, sizeof(s->c[i].why), "IA32_FIXED_CTR%d: %s", i, hw_status_name(r));
			continue;
		}
		core_finish_counter(&s->c[i]);
	}
	return st;
}

static hw_status restore(const struct hw *hw, struct core_set *s)
{
	hw_status first = HW_OK;
	for (int i = s->nsaved - 1; i >= 0; i--) {
		hw_status st = hw_wrmsr(hw, s->saved[i].reg, s->saved[i].value);
		if (st != HW_OK && first == HW_OK)
			first = st;
	}
	s->started = 0;
	return first;
}

const struct core_pmu pmu_x86_fixed = {
	.name = "x86 architectural fixed counters",
	.probe = probe,
	.start = start,
	.stop = stop,
	.restore = restore,
};
