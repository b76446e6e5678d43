/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Arm PMUv3 core counters of the boot CPU (Arm ARM chapter "The Performance Monitors
 * Extension"; registers in D23):
 *   c[0] CPU_CYCLES   on the cycle counter PMCCNTR_EL0, 64 bits (PMCR_EL0.LC = 1);
 *   c[1] INST_RETIRED (event 0x08) on event counter 0 (PMEVTYPER0_EL0 / PMEVCNTR0_EL0),
 *        64 bits with FEAT_PMUv3p5 (PMCR_EL0.LP = 1), else 32.
 *   c[2..] the event set of pmu/core/armv8_pmuv3_events.c (core_events, TopDown inputs, or the
 *        default set and fillers for the rest of the PMCR_EL0.N event counters) on event counters 1...;
 *        each c[i] on PMEVCNTR<c[i].ctr>_EL0. With more events than counters they are split into
 *        groups (pmu/core/core_mux.h) and start() programs only s->group's (plus c[0], c[1]).
 * arch/aarch64/known_loop.S relies on INST_RETIRED being on event counter 0.
 *
 * Exception-level filter (PMEVTYPER0_EL0 and PMCCFILTR_EL0, same bit positions), chosen from
 * CurrentEL: efiperf runs at EL1, or at EL2 under a firmware started at EL2 (Arm servers, QEMU
 * virt,virtualization=on). P = 0 and NSK = 0 (= P) count EL1. At EL2 only, NSH = 1 counts EL2
 * too, and MDCR_EL2 is read (never written) and recorded: HPMD = 1 prohibits event counting at
 * EL2, HCCD = 1 stops the cycle counter there, HPMN is how many counters EL1 may use; the
 * record's `els` says what was counted. At EL1, EL2 is left alone (NSH = 0, MDCR_EL2 not
 * touched: it is not accessible from EL1). Nothing runs at EL0 in UEFI: U = NSU = 1 leave it
 * out. M = 1 (!= P) leaves EL3 (secure monitor) out, and SH = 0 leaves Secure EL2 out.
 *
 * start() writes, in order: PMCR_EL0, PMCNTENCLR_EL0, PMCCFILTR_EL0, PMEVTYPER<n>_EL0 of each
 * event counter used, PMCNTENSET_EL0 — each through the save set (pmu/saveset.h). PMCNTENSET_EL0 and PMCNTENCLR_EL0
 * both read as the enable mask; the set restores it by writing the saved mask to
 * PMCNTENSET_EL0, and restore() first clears, through PMCNTENCLR_EL0, the enables this run set
 * that were clear (a failure there is named against PMCNTENCLR_EL0). It does not use PMSELR_EL0/PMXEV* (direct
 * PMEVTYPER0/PMEVCNTR0 access), does not reset counters (PMCR.P/C) and leaves overflow and
 * interrupt enables alone: deltas are taken modulo the counter width.
 */
#include "pmu/core/core_counters.h"
#include "arch/regs/arm_sysreg.h"
#include "arch/lib/fmt.h"

enum { PMUV3_CYCLES = ARMV8_C_CYCLES, PMUV3_INST = ARMV8_C_INST, PMUV3_NCTR = 2 };

#define PMUV3_FILTER_EL1 (PMEVTYPER_U | PMEVTYPER_NSU | PMEVTYPER_M)
#define PMUV3_FILTER_EL2 (PMUV3_FILTER_EL1 | PMEVTYPER_NSH)
#define PMUV3_EL2 2

static uint64_t filter(const struct core_set *s)
{
	return s->el == PMUV3_EL2 ? PMUV3_FILTER_EL2 : PMUV3_FILTER_EL1;
}

/* CurrentEL, and at EL2 MDCR_EL2; s->els says which levels the counters count. */
static void probe_el(const struct hw *hw, struct core_set *s)
{
	uint64_t cel = 0;
	hw_status st = hw_sysreg_read(hw, SYSREG_CurrentEL, &cel);
	s->el = st == HW_OK ? (uint8_t)((cel >> CurrentEL_EL_SHIFT) & CurrentEL_EL_MASK) : 0;
	if (s->el != PMUV3_EL2) {
		fmt_snprintf(s->els, sizeof(s->els), "EL1%s", st == HW_OK ? "" : " (CurrentEL unreadable: EL1 assumed)");
		return;
	}
	st = hw_sysreg_read(hw, SYSREG_MDCR_EL2, &s->mdcr_el2);
	s->mdcr_read = st == HW_OK;
	if (st != HW_OK)
		fmt_snprintf(s->els, sizeof(s->els), "EL1, EL2 (NSH; MDCR_EL2 read: %s)", hw_status_name(st));
	else if (s->mdcr_el2 & MDCR_EL2_HPMD)
		fmt_snprintf(s->els, sizeof(s->els), "EL1 (EL2 event counting prohibited by MDCR_EL2.HPMD%s)",
			     s->mdcr_el2 & MDCR_EL2_HCCD ? ", cycles by HCCD" : "");
	else if (s->mdcr_el2 & MDCR_EL2_HCCD)
		fmt_snprintf(s->els, sizeof(s->els), "EL1, EL2 (cycle counter not at EL2: MDCR_EL2.HCCD)");
	else
		fmt_snprintf(s->els, sizeof(s->els), "EL1, EL2");
}

static const char *pmuver_name(uint32_t v)
{
	switch (v) {
	case PMUVer_V3: return "PMUv3";
	case PMUVer_V3P1: return "PMUv3p1";
	case PMUVer_V3P4: return "PMUv3p4";
	case PMUVer_V3P5: return "PMUv3p5";
	case PMUVer_V3P7: return "PMUv3p7";
	case PMUVer_V3P8: return "PMUv3p8";
	case PMUVer_V3P9: return "PMUv3p9";
	}
	return "PMUv3 (later revision)";
}

static void absent(struct core_counter *c, const char *why)
{
	c->state = CTR_ABSENT;
	fmt_snprintf(c->why, sizeof(c->why), "%s", why);
}

static void absent_all(struct core_set *s, const char *why)
{
	for (int i = 0; i < s->n; i++)
		absent(&s->c[i], why);
	fmt_snprintf(s->probe, sizeof(s->probe), "%s", why);
}

static int armv8_probe(const struct hw *hw, struct core_set *s)
{
	uint64_t dfr0 = 0, pmcr = 0, ceid0 = 0;
	*s = (struct core_set){ .pmu = &pmu_armv8_pmuv3, .n = PMUV3_NCTR };
	s->c[PMUV3_CYCLES] = (struct core_counter){ .event = "CPU_CYCLES", .unit = "cycles",
						    .width_mask = ~0ull, .group = CORE_ALL_GROUPS };
	s->c[PMUV3_INST] = (struct core_counter){ .event = "INST_RETIRED",
						  .unit = "instructions",
						  .width_mask = 0xffffffffull,
						  .code = ARMV8_PMUV3_EVENT_INST_RETIRED,
						  .group = CORE_ALL_GROUPS, .ctr = 0 };
	s->ngroups = 1;

	/* ID_AA64DFR0_EL1 exists on every AArch64 CPU: unsupported (x86 backend) or faulting
	 * means this is not an AArch64 CPU, so PMUv3 does not apply. */
	hw_status st = hw_sysreg_read(hw, SYSREG_ID_AA64DFR0_EL1, &dfr0);
	if (st != HW_OK) {
		fmt_snprintf(s->probe, sizeof(s->probe), "ID_AA64DFR0_EL1: %s",
			     hw_status_name(st));
		return -1;
	}
	uint32_t ver = (dfr0 >> ID_AA64DFR0_EL1_PMUVer_SHIFT) & ID_AA64DFR0_EL1_PMUVer_MASK;
	s->version = ver;
	if (ver == PMUVer_NI) {
		absent_all(s, "ID_AA64DFR0_EL1.PMUVer=0x0: no Performance Monitors Extension");
		return 0;
	}
	if (ver == PMUVer_IMPDEF) {
		absent_all(s, "ID_AA64DFR0_EL1.PMUVer=0xF: IMPLEMENTATION DEFINED PMU, not PMUv3");
		return 0;
	}
	char why[80];
	probe_el(hw, s);
	uint64_t pmmir = 0, midr = 0;
	if (hw_sysreg_read(hw, SYSREG_MIDR_EL1, &midr) == HW_OK)
		s->midr = (uint32_t)midr;
	hw_status mst = hw_sysreg_read(hw, SYSREG_PMMIR_EL1, &pmmir);   /* FEAT_PMUv3p4 */
	s->slots = mst == HW_OK ? (uint32_t)(pmmir & PMMIR_EL1_SLOTS_MASK) : 0;
	if (mst != HW_OK)
		fmt_snprintf(s->slots_why, sizeof(s->slots_why), "PMMIR_EL1: %s", hw_status_name(mst));
	else if (!s->slots)
		fmt_snprintf(s->slots_why, sizeof(s->slots_why), "PMMIR_EL1.SLOTS 0");
	st = hw_sysreg_read(hw, SYSREG_PMCR_EL0, &pmcr);
	if (st != HW_OK) {
		fmt_snprintf(why, sizeof(why), "PMCR_EL0 read: %s", hw_status_name(st));
		absent_all(s, why);
		return 0;
	}
	s->ngp = (pmcr >> PMCR_EL0_N_SHIFT) & PMCR_EL0_N_MASK;
	st = hw_sysreg_read(hw, SYSREG_PMCEID0_EL0, &ceid0);
	if (st == HW_OK && hw_sysreg_read(hw, SYSREG_PMCEID1_EL0, &s->ceid[1]) != HW_OK)
		s->ceid[1] = 0;
	s->ceid[0] = st == HW_OK ? ceid0 : 0;
	for (int w = 0; w < 2; w++)
		s->nimpl += (uint32_t)__builtin_popcountll(s->ceid[w]);
	int inst_impl = st == HW_OK &&
		((ceid0 >> PMCEID0_EL0_BIT(ARMV8_PMUV3_EVENT_INST_RETIRED)) & 1);
	int cyc_impl = st == HW_OK &&
		((ceid0 >> PMCEID0_EL0_BIT(ARMV8_PMUV3_EVENT_CPU_CYCLES)) & 1);

	/* PMCCNTR_EL0 is part of every PMUv3 whatever PMCEID0 says about event 0x11 (which is
	 * about counting CPU_CYCLES on an event counter). */
	if (ver >= PMUVer_V3P5)
		s->c[PMUV3_INST].width_mask = ~0ull;
	if (st != HW_OK) {
		fmt_snprintf(why, sizeof(why), "PMCEID0_EL0 read: %s", hw_status_name(st));
		absent(&s->c[PMUV3_INST], why);
	} else if (s->ngp == 0) {
		absent(&s->c[PMUV3_INST], "PMCR_EL0.N=0: no event counters");
	} else if (!inst_impl) {
		absent(&s->c[PMUV3_INST], "PMCEID0_EL0[8]=0: INST_RETIRED (0x08) not implemented");
	}
	fmt_snprintf(s->probe, sizeof(s->probe),
		     "%s (PMUVer=0x%x), %u counters (PMCR_EL0.N), PMCEID0: INST_RETIRED %s, CPU_CYCLES %s; %u common events (PMCEID0/1)",
		     pmuver_name(ver), ver, s->ngp, inst_impl ? "yes" : "no", cyc_impl ? "yes" : "no", s->nimpl);
	return 0;
}

static uint64_t enable_mask(const struct core_set *s)
{
	uint64_t m = 0;
	if (s->c[PMUV3_CYCLES].state != CTR_ABSENT)
		m |= PMCNTEN_C;
	for (int i = PMUV3_INST; i < s->n; i++)
		if (s->c[i].state != CTR_ABSENT && core_in_group(s, i))
			m |= PMCNTEN_P(s->c[i].ctr);
	return m;
}

/* Counter i (an event counter) is programmed in this start(): present and of s->group. */
static int member(const struct core_set *s, int i, uint64_t en)
{
	return s->c[i].state != CTR_ABSENT && core_in_group(s, i) && (en & PMCNTEN_P(s->c[i].ctr));
}

static int saved_value(const struct core_set *s, uint32_t reg, uint64_t *v)
{
	return saveset_lookup(&s->sv, reg_sysreg(reg), v);
}

static void fault_all(struct core_set *s, const char *what, hw_status st)
{
	for (int i = 0; i < s->n; i++)
		if (s->c[i].state != CTR_ABSENT && core_in_group(s, i)) {
			s->c[i].state = CTR_FAULTED;
			s->c[i].fault = (uint8_t)st;
			fmt_snprintf(s->c[i].why, sizeof(s->c[i].why), "%s: %s", what,
				     hw_status_name(st));
		}
}

#define STEP(expr, what) \
	do { \
		hw_status st_ = (expr); \
		if (st_ != HW_OK) { \
			fault_all(s, what, st_); \
			return st_; \
		} \
	} while (0)

static hw_status armv8_start(const struct hw *hw, struct core_set *s)
{
	if (s->pmu != &pmu_armv8_pmuv3)
		return HW_BAD_ARG;
	uint64_t en = enable_mask(s), pmcr = 0;
	if (!en)
		return HW_OK;  /* nothing present: nothing to write */
	int cyc = (en & PMCNTEN_C) != 0;
	char what[40];

	core_saveset_begin(s);
	STEP(saveset_save(hw, &s->sv, reg_sysreg(SYSREG_PMCR_EL0), NULL), "save PMCR_EL0");
	STEP(saveset_save(hw, &s->sv, reg_sysreg(SYSREG_PMCNTENSET_EL0), NULL), "save PMCNTENSET_EL0");
	STEP(saveset_save(hw, &s->sv, reg_sysreg(SYSREG_PMCNTENCLR_EL0), NULL), "save PMCNTENCLR_EL0");
	if (cyc)
		STEP(saveset_save(hw, &s->sv, reg_sysreg(SYSREG_PMCCFILTR_EL0), NULL), "save PMCCFILTR_EL0");
	for (int i = PMUV3_INST; i < s->n; i++)
		if (member(s, i, en)) {
			fmt_snprintf(what, sizeof(what), "save PMEVTYPER%d_EL0", s->c[i].ctr);
			STEP(saveset_save(hw, &s->sv, reg_sysreg(SYSREG_PMEVTYPER_EL0(s->c[i].ctr)), NULL), what);
		}
	s->started = 1;
	saved_value(s, SYSREG_PMCR_EL0, &pmcr);

	/* E: count; LC: 64-bit cycle counter; LP (v3p5): 64-bit event counters; D = 0: count
	 * every cycle; P = C = 0: do not reset anything. */
	uint64_t npmcr = (pmcr & ~(uint64_t)(PMCR_EL0_D | PMCR_EL0_P | PMCR_EL0_C)) |
			 PMCR_EL0_E | PMCR_EL0_LC;
	if (s->version >= PMUVer_V3P5 && s->version != PMUVer_IMPDEF)
		npmcr |= PMCR_EL0_LP;
	STEP(saveset_write(hw, &s->sv, reg_sysreg(SYSREG_PMCR_EL0), npmcr), "write PMCR_EL0");
	/* The enables' restore is the PMCNTENSET_EL0 entry's: writing 0 to it changes nothing
	 * (write-1-to-set) and marks it for restore before PMCNTENCLR_EL0 changes anything. */
	STEP(saveset_write(hw, &s->sv, reg_sysreg(SYSREG_PMCNTENSET_EL0), 0), "write PMCNTENSET_EL0");
	STEP(hw_sysreg_write(hw, SYSREG_PMCNTENCLR_EL0, en), "write PMCNTENCLR_EL0");
	if (cyc)
		STEP(saveset_write(hw, &s->sv, reg_sysreg(SYSREG_PMCCFILTR_EL0), filter(s)), "write PMCCFILTR_EL0");
	for (int i = PMUV3_INST; i < s->n; i++)
		if (member(s, i, en)) {
			fmt_snprintf(what, sizeof(what), "write PMEVTYPER%d_EL0", s->c[i].ctr);
			STEP(saveset_write(hw, &s->sv, reg_sysreg(SYSREG_PMEVTYPER_EL0(s->c[i].ctr)),
					   filter(s) | s->c[i].code), what);
		}
	STEP(saveset_write(hw, &s->sv, reg_sysreg(SYSREG_PMCNTENSET_EL0), en), "write PMCNTENSET_EL0");

	/* Counting now; `before` is read after enabling so the window is read-to-read. */
	if (cyc)
		STEP(hw_sysreg_read(hw, SYSREG_PMCCNTR_EL0, &s->c[PMUV3_CYCLES].before),
		     "read PMCCNTR_EL0");
	for (int i = PMUV3_INST; i < s->n; i++)
		if (member(s, i, en)) {
			fmt_snprintf(what, sizeof(what), "read PMEVCNTR%d_EL0", s->c[i].ctr);
			STEP(hw_sysreg_read(hw, SYSREG_PMEVCNTR_EL0(s->c[i].ctr), &s->c[i].before), what);
		}
	return HW_OK;
}

static hw_status armv8_stop(const struct hw *hw, struct core_set *s)
{
	uint64_t en = enable_mask(s), was = 0;
	if (!s->started || !en)
		return HW_OK;
	if (ctr_state_live(s->c[PMUV3_CYCLES].state))
		STEP(hw_sysreg_read(hw, SYSREG_PMCCNTR_EL0, &s->c[PMUV3_CYCLES].after),
		     "read PMCCNTR_EL0");
	char what[40];
	for (int i = PMUV3_INST; i < s->n; i++)
		if (member(s, i, en) && s->c[i].state != CTR_FAULTED) {
			fmt_snprintf(what, sizeof(what), "read PMEVCNTR%d_EL0", s->c[i].ctr);
			STEP(hw_sysreg_read(hw, SYSREG_PMEVCNTR_EL0(s->c[i].ctr), &s->c[i].after), what);
		}
	for (int i = 0; i < s->n; i++)
		if (core_in_group(s, i))
			core_finish_counter(&s->c[i]);
	/* Stop the counters this run enabled; ones the firmware had enabled keep counting. */
	saved_value(s, SYSREG_PMCNTENSET_EL0, &was);
	if (en & ~was)
		return hw_sysreg_write(hw, SYSREG_PMCNTENCLR_EL0, en & ~was);
	return HW_OK;
}

static hw_status armv8_restore(const struct hw *hw, struct core_set *s)
{
	if (!s->started)
		return HW_OK;
	uint64_t en = enable_mask(s), v = 0;
	hw_status clr = HW_OK;
	/* PMCNTENSET_EL0 written back with the saved mask re-sets only the bits that were set
	 * (writing 1 to a set bit changes nothing): first clear what this run set and was clear. */
	if (saved_value(s, SYSREG_PMCNTENSET_EL0, &v) && (en & ~v))
		clr = hw_sysreg_write(hw, SYSREG_PMCNTENCLR_EL0, en & ~v);
	hw_status st = saveset_restore(hw, &s->sv);
	if (clr != HW_OK)
		saveset_mark_failed(&s->sv, reg_sysreg(SYSREG_PMCNTENCLR_EL0), clr);
	s->restore = (struct saveset_report){ 0 };
	saveset_report_add(&s->sv, &s->restore);
	s->started = 0;
	return st != HW_OK ? st : clr;
}

const struct core_pmu pmu_armv8_pmuv3 = {
	.name = "Arm PMUv3",
	.probe_name = "PMUv3",
	.probe = armv8_probe,
	.start = armv8_start,
	.stop = armv8_stop,
	.restore = armv8_restore,
};
