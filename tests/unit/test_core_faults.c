/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fault injection over every step of the core-PMU sequences: Intel architectural perfmon with
 * TopDown (PERF_METRICS and general-counter variants), AMD core counters (PerfMonV2) with IBS
 * op sampling, AMD pipeline utilization (topdown = on; l2 with two groups of inputs and one of events) on Zen 4 and Zen 5, and Arm PMUv3. A clean run of probe, start, two ticks, stop and restore is
 * counted in register accesses (tests/model/hw_model.h numbers every MSR, system-register and
 * RDPMC access); then the run is repeated with access k failing, for every k, once and from k
 * on (sticky: restore fails too). After each run every plain register is either back as found
 * or still marked written in the driver's save set and counted in its restore report: nothing
 * changed goes unnamed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/test_intel_model.h"
#include "pmu/core/x86_corepmu.h"
#include "pmu/core/core_counters.h"
#include "arch/regs/x86_amd_msr.h"
#include "arch/regs/arm_sysreg.h"
#include "tests/model/pmuv3_model.h"

static struct hw_model *M;        /* the model of the scenario */
static struct hw_model ref;       /* as initialised: what "as found" means */
static struct corepmu cp;
static struct core_set cs;

struct scenario {
	const char *name;
	void (*init)(void);
	void (*run)(void);
	const struct saveset *(*set)(void);
	const struct saveset_report *(*report)(void);
};

/* ---- Intel ------------------------------------------------------------------------------ */
static const struct tm_cpu icl = { .model = 0x7E, .version = 5, .ngp = 8, .nfixed = 4, .pdcm = 1, .metrics_bit = 1 };
static const struct tm_cpu skl = { .model = 0x5E, .version = 4, .ngp = 4, .nfixed = 3, .pdcm = 1, .smt = 1 };
static const struct tm_cpu skl8 = { .model = 0x5E, .version = 4, .ngp = 8, .nfixed = 3, .pdcm = 1, .smt = 1 };
static const struct tm_cpu *intel_cpu;

static void intel_init(void)
{
	static const uint64_t fx[4] = { 7, 11, 13, 40 }, gp[8] = { 3, 5, 7, 9, 2, 2, 2, 2 };
	tm_init(intel_cpu, fx, gp);
	M = &tm;
}

static int multiplex;   /* the multiplexed scenarios: events beyond the counters rotate at each tick */

static void corepmu_run(const struct hw *h, const char *events, int topdown, enum ibs_mode ibs)
{
	char err[224];
	if (corepmu_probe(h, &cp))
		return;
	struct corepmu_config cfg = { .core_events = events, .topdown = topdown, .ibs = ibs, .ibs_period = 0x1000,
				      .multiplex = multiplex };
	if (corepmu_configure(&cp, &cfg, err, sizeof(err)))
		return;
	corepmu_start(h, &cp, 0, 0);
	hw_model_tick(M, 3);
	corepmu_tick(h, &cp, 0);
	hw_model_tick(M, 3);
	corepmu_tick(h, &cp, 0);
	corepmu_stop(h, &cp, 0);
	corepmu_restore(h, &cp);
}

static void intel_run(void) { corepmu_run(&tmh, "INST_RETIRED.ANY_P cpu/event=0x3c,umask=0x0,cmask=1/", 1, IBS_MODE_OFF); }
static const struct saveset *cp_set(void) { return &cp.sv; }
static const struct saveset_report *cp_report(void) { return &cp.restore; }

/* ---- AMD core + IBS ------------------------------------------------------------------------ */
static struct hw_model am;
static struct hw amh;
static uint32_t amd_sig = 0x00A10F11;   /* CPUID.1:EAX of the AMD model: family 19h model 11h */

static void amd_init(void)
{
	hw_model_init(&am);
	amh = hw_model_hw(&am);
	M = &am;
	hw_model_cpuid(&am, 0, 0, 0x10, 0x68747541, 0x444d4163, 0x69746e65);  /* AuthenticAMD */
	hw_model_cpuid(&am, CPUID_SIGNATURE, 0, amd_sig, 0, 0, 0);
	hw_model_cpuid(&am, CPUID_EXT_MAXLEAF, 0, 0x80000022, 0, 0, 0);
	hw_model_cpuid(&am, CPUID_AMD_EXT_FEATURES, 0, 0, 0, AMD_EXT_ECX_IBS | AMD_EXT_ECX_PERFCTR_CORE, 0);
	hw_model_cpuid(&am, CPUID_AMD_IBS, 0, 0x1FF, 0, 0, 0);
	hw_model_cpuid(&am, CPUID_AMD_PERFMON_V2, 0, 1, 6, 0, 0);
	hw_model_reg(&am, HWM_MSR, PerfCntrGlobalCtl, HWM_PLAIN, 0x20);
	for (uint32_t i = 0; i < 6; i++) {
		hw_model_reg(&am, HWM_MSR, MSR_F15H_PERF_CTL + 2 * i, HWM_PLAIN, i == 5 ? 0x430076 : 0);
		struct hw_model_reg *r = hw_model_reg(&am, HWM_MSR, MSR_F15H_PERF_CTR + 2 * i, HWM_COUNTER, 0);
		r->step = 100 + i;
		r->en_id = MSR_F15H_PERF_CTL + 2 * i;
		r->en_mask = EVTSEL_EN;
	}
	static const uint32_t ibs[] = { IbsFetchCtl, IbsFetchLinAd, IbsFetchPhysAd, IbsOpCtl, IbsOpRip, IbsOpData,
					IbsOpData2, IbsOpData3, IbsCtl };
	for (unsigned i = 0; i < sizeof(ibs) / sizeof(ibs[0]); i++)
		hw_model_reg(&am, HWM_MSR, ibs[i], HWM_PLAIN, 0x11 * i);
}

static void amd_run(void) { corepmu_run(&amh, "ex_ret_instr ls_not_halted_cyc core/event=0x1CF,umask=0x1/", 0, IBS_MODE_OP); }
/* topdown = on: the six pipeline-utilization inputs fill the six counters (pmu/core/amd_pipeline.h) */
static void amd_td_run(void) { corepmu_run(&amh, "", 1, IBS_MODE_OFF); }

/* Multiplexed (pmu/core/x86_mux.h; timer_hz 0: each of the two ticks rotates): Intel, ten events
 * on eight counters (two groups; with Skylake's general-counter TopDown pinned on four, six events
 * in two groups on the other four); AMD Zen 4, topdown = on with two events (the six inputs are
 * group 0), and eight events on six counters with IBS op. */
#define EV8 "cpu/event=0xc0,umask=0x0/ cpu/event=0x3c,umask=0x0/ cpu/event=0xc4,umask=0x0/ cpu/event=0xc5,umask=0x0/ "
static void intel_mux_run(void)
{
	multiplex = 1;
	corepmu_run(&tmh, intel_cpu == &skl8 ? EV8 EV8 : EV8 EV8 EV8, 1, IBS_MODE_OFF);
	multiplex = 0;
	assert_true(cp.mux.ngroups >= 2);
}
#define AEV4 "core/event=0xC0/ core/event=0x76/ core/event=0xC2/ core/event=0xC3/ "
static void amd_mux_td_run(void)
{
	multiplex = 1;
	corepmu_run(&amh, "core/event=0xC0/ core/event=0x76/", 1, IBS_MODE_OFF);
	multiplex = 0;
	assert_int_equal(cp.mux.ngroups, 2);
}
/* topdown = l2: level 1's inputs group 0, level 2's group 1 on the same six counters, two events
 * group 2 (each tick rotates) */
static void amd_l2_run(void)
{
	multiplex = 1;
	corepmu_run(&amh, "core/event=0xC0/ core/event=0x76/", 2, IBS_MODE_OFF);
	multiplex = 0;
	assert_int_equal(cp.mux.ngroups, 3);
	assert_int_equal(cp.ac.nused, APL_NIN2 + 2);
}
static void amd_mux_ibs_run(void)
{
	multiplex = 1;
	corepmu_run(&amh, AEV4 AEV4, 0, IBS_MODE_OP);
	multiplex = 0;
	assert_int_equal(cp.mux.ngroups, 2);
}

/* ---- Arm PMUv3 ------------------------------------------------------------------------------ */
static struct hw_model arm;
static struct hw armh;
#define ARM_CNTEN_ORIG 0x4ull   /* event counter 2 enabled by someone else */

static void arm_init(void)
{
	hw_model_init(&arm);
	armh = hw_model_hw(&arm);
	M = &arm;
	arm.on_write = pmuv3_model_enables;
	hw_model_reg(&arm, HWM_SYSREG, SYSREG_ID_AA64DFR0_EL1, HWM_READONLY,
		     (uint64_t)PMUVer_V3P5 << ID_AA64DFR0_EL1_PMUVer_SHIFT);
	hw_model_reg(&arm, HWM_SYSREG, SYSREG_PMCR_EL0, HWM_PLAIN, 6ull << PMCR_EL0_N_SHIFT);
	hw_model_reg(&arm, HWM_SYSREG, SYSREG_PMCEID0_EL0, HWM_READONLY, ~0ull);
	hw_model_reg(&arm, HWM_SYSREG, SYSREG_PMCNTENSET_EL0, HWM_PLAIN, ARM_CNTEN_ORIG);
	hw_model_reg(&arm, HWM_SYSREG, SYSREG_PMCNTENCLR_EL0, HWM_PLAIN, ARM_CNTEN_ORIG);
	hw_model_reg(&arm, HWM_SYSREG, SYSREG_PMCCFILTR_EL0, HWM_PLAIN, 0x12);
	hw_model_reg(&arm, HWM_SYSREG, SYSREG_PMEVTYPER0_EL0, HWM_PLAIN, 0x34);
	struct hw_model_reg *r = hw_model_reg(&arm, HWM_SYSREG, SYSREG_PMCCNTR_EL0, HWM_COUNTER, 0);
	r->step = 10;
	r = hw_model_reg(&arm, HWM_SYSREG, SYSREG_PMEVCNTR0_EL0, HWM_COUNTER, 0);
	r->step = 3;
}

static void core_set_run(const struct hw *h)
{
	memset(&cs, 0, sizeof(cs));
	if (core_probe(h, &cs) || !cs.pmu)
		return;
	cs.pmu->start(h, &cs);
	hw_model_tick(M, 3);
	cs.pmu->stop(h, &cs);
	cs.pmu->restore(h, &cs);
}

static void arm_run(void) { core_set_run(&armh); }
static const struct saveset *cs_set(void) { return &cs.sv; }
static const struct saveset_report *cs_report(void) { return &cs.restore; }

/* x86 fixed counters through the core_set adapter (the known loop's path). */
static void fixed_init(void) { intel_cpu = &icl; intel_init(); }
static void fixed_run(void) { core_set_run(&tmh); }

/* ---- the sweep ---------------------------------------------------------------------------- */
/* The register both halves of a set/clear pair name. */
static uint32_t alias(uint8_t space, uint32_t id)
{
	return space == HWM_SYSREG && id == SYSREG_PMCNTENCLR_EL0 ? SYSREG_PMCNTENSET_EL0 : id;
}

static int named(const struct saveset *s, uint8_t space, uint32_t id)
{
	for (uint32_t i = 0; s->e && i < s->n; i++) {
		const struct saved_reg *e = &s->e[i];
		uint8_t sp = e->r.space == REG_MSR ? HWM_MSR : HWM_SYSREG;
		if (e->written && sp == space && alias(space, (uint32_t)e->r.addr) == alias(space, id))
			return 1;
	}
	return 0;
}

static void check(const struct scenario *sc, uint32_t k, int sticky)
{
	const struct saveset *s = sc->set();
	uint32_t still = 0;
	for (uint32_t i = 0; s->e && i < s->n; i++)
		still += s->e[i].written;
	assert_int_equal(sc->report()->nfailed, still);
	for (int i = 0; i < M->nregs; i++) {
		const struct hw_model_reg *r = &M->regs[i];
		if (r->kind == HWM_COUNTER || r->value == ref.regs[i].value)
			continue;
		if (!named(s, r->space, r->id))
			fail_msg("%s: access %u failing%s: register 0x%x changed (0x%llx -> 0x%llx) and not named", sc->name,
				 k, sticky ? " from then on" : "", r->id, (unsigned long long)ref.regs[i].value,
				 (unsigned long long)r->value);
	}
	if (!sticky)   /* a one-off fault leaves at most the one write-back it hit undone */
		assert_true(still <= 1);
}

static void sweep(const struct scenario *sc)
{
	sc->init();
	ref = *M;
	sc->run();
	uint32_t n = M->naccess, id = 0;
	if (hw_model_plain_diff(M, &ref, NULL, &id))
		fail_msg("%s: clean run leaves register 0x%x changed", sc->name, id);
	assert_true(sc->set()->n > 0);   /* the clean run wrote registers */
	unsigned runs = 0;
	for (int sticky = 0; sticky <= 1; sticky++)
		for (uint32_t k = 1; k <= n; k++) {
			sc->init();
			ref = *M;
			M->fail_at = k;
			M->fail_sticky = (uint8_t)sticky;
			sc->run();
			assert_true(M->nfailed > 0);
			check(sc, k, sticky);
			runs++;
		}
	print_message("%s: %u accesses in a clean run, %u faulted runs, every changed register named\n", sc->name, n,
		      runs);
}

static void test_intel_perf_metrics(void **state)
{
	(void)state;
	intel_cpu = &icl;
	sweep(&(struct scenario){ "Intel Ice Lake, PERF_METRICS TopDown + 2 events", intel_init, intel_run, cp_set, cp_report });
}

static void test_intel_gp_topdown(void **state)
{
	(void)state;
	intel_cpu = &skl;
	sweep(&(struct scenario){ "Intel Skylake, general-counter TopDown + 2 events", intel_init, intel_run, cp_set, cp_report });
}

static void test_amd_core_ibs(void **state)
{
	(void)state;
	sweep(&(struct scenario){ "AMD Zen 4 PerfMonV2 + IBS op", amd_init, amd_run, cp_set, cp_report });
}

static void test_amd_pipeline(void **state)
{
	(void)state;
	amd_sig = 0x00A10F11;   /* Zen 4: family 19h model 11h */
	sweep(&(struct scenario){ "AMD Zen 4 pipeline utilization", amd_init, amd_td_run, cp_set, cp_report });
	assert_non_null(cp.apl_gen);
	assert_int_equal(cp.ac.nused, APL_NINPUT);
	amd_sig = 0x00B00F20;   /* Zen 5: family 1Ah model 02h */
	sweep(&(struct scenario){ "AMD Zen 5 pipeline utilization", amd_init, amd_td_run, cp_set, cp_report });
	assert_non_null(cp.apl_gen);
	sweep(&(struct scenario){ "AMD Zen 5 pipeline utilization level 2 + 2 events, 3 groups", amd_init, amd_l2_run,
				  cp_set, cp_report });
	assert_true(cp.apl_l2);
	assert_int_equal(cp.mux.rotations, 2);
	amd_sig = 0x00A10F11;
	sweep(&(struct scenario){ "AMD Zen 4 pipeline utilization level 2 + 2 events, 3 groups", amd_init, amd_l2_run,
				  cp_set, cp_report });
	assert_true(cp.apl_l2);
}

static void test_multiplexed(void **state)
{
	(void)state;
	intel_cpu = &icl;
	sweep(&(struct scenario){ "Intel Ice Lake, PERF_METRICS TopDown + 12 events on 8 counters, multiplexed", intel_init,
				  intel_mux_run, cp_set, cp_report });
	assert_int_equal(cp.mux.rotations, 2);
	intel_cpu = &skl8;
	sweep(&(struct scenario){ "Intel Skylake 8 counters, general-counter TopDown pinned + 8 events, multiplexed",
				  intel_init, intel_mux_run, cp_set, cp_report });
	intel_cpu = &skl;
	amd_sig = 0x00A10F11;
	sweep(&(struct scenario){ "AMD Zen 4 pipeline inputs as group 0 + 2 events, multiplexed", amd_init, amd_mux_td_run,
				  cp_set, cp_report });
	sweep(&(struct scenario){ "AMD Zen 4 8 events on 6 counters + IBS op, multiplexed", amd_init, amd_mux_ibs_run, cp_set,
				  cp_report });
	assert_int_equal(cp.mux.rotations, 2);
}

static void test_arm_pmuv3(void **state)
{
	(void)state;
	sweep(&(struct scenario){ "Arm PMUv3", arm_init, arm_run, cs_set, cs_report });
}

static void test_x86_fixed_adapter(void **state)
{
	(void)state;
	sweep(&(struct scenario){ "x86 fixed counters (core_set adapter)", fixed_init, fixed_run, cs_set, cs_report });
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intel_perf_metrics),
		cmocka_unit_test(test_intel_gp_topdown),
		cmocka_unit_test(test_amd_core_ibs),
		cmocka_unit_test(test_amd_pipeline),
		cmocka_unit_test(test_multiplexed),
		cmocka_unit_test(test_arm_pmuv3),
		cmocka_unit_test(test_x86_fixed_adapter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
