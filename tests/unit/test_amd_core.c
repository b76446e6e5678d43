/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AMD core counters on the register model: the layout table (legacy 4, PerfCtrExtCore 6,
 * PerfMonV2 N with PerfCntrGlobalCtl) chosen from CPUID, every per-event feature of libpfm4 docs/man3/libpfm_amd64.3
 * (cmask, inv, edge, host, guest) and EventSelect[11:8] landing in its PERF_CTL bits, range
 * errors naming the field, counting only while CTL.EN (and the global enable) are set, 48-bit
 * wrap, restore, and an EPYC as QEMU TCG shows it (no IBS, no PerfCtrExtCore) reported cleanly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/hw_model.h"
#include "pmu/core/x86_corepmu.h"
#include "arch/regs/x86_amd_msr.h"
#include "arch/regs/x86_msr.h"

static struct hw_model m;
static struct hw h;
static struct corepmu cp;

#define ORIG_CTL 0x5555ull   /* what firmware left in the control registers */
#define GLOBAL_ORIG 0x20ull  /* counter 5 enabled by someone else (PerfMonV2) */

static uint64_t msr(uint32_t id) { return hw_model_find(&m, HWM_MSR, id)->value; }

/* family 0x19 model 0x01 (Milan); ext: PerfCtrExtCore; v2: PerfMonV2 with n counters */
static void amd_model(int ext, int v2, unsigned n, int ibs)
{
	hw_model_init(&m);
	h = hw_model_hw(&m);
	hw_model_cpuid(&m, 0, 0, 0x10, 0x68747541, 0x444d4163, 0x69746e65);  /* AuthenticAMD */
	hw_model_cpuid(&m, CPUID_SIGNATURE, 0, 0x00A00F11, 0, 0, 0);
	hw_model_cpuid(&m, CPUID_EXT_MAXLEAF, 0, 0x80000022, 0, 0, 0);
	hw_model_cpuid(&m, CPUID_AMD_EXT_FEATURES, 0, 0, 0, (ext ? AMD_EXT_ECX_PERFCTR_CORE : 0) |
		       (ibs ? AMD_EXT_ECX_IBS : 0), 0);
	hw_model_cpuid(&m, CPUID_AMD_PERFMON_V2, 0, v2 ? AMD_PMV2_EAX_PERFMON_V2 : 0, v2 ? n : 0, 0, 0);
	if (v2)
		hw_model_reg(&m, HWM_MSR, PerfCntrGlobalCtl, HWM_PLAIN, GLOBAL_ORIG);
	unsigned cnt = v2 ? n : ext ? 6 : 4;
	uint32_t ctl = ext || v2 ? MSR_F15H_PERF_CTL : MSR_K7_EVNTSEL0;
	uint32_t ctr = ext || v2 ? MSR_F15H_PERF_CTR : MSR_K7_PERFCTR0;
	uint32_t stride = ext || v2 ? 2 : 1;
	for (unsigned i = 0; i < cnt; i++) {
		hw_model_reg(&m, HWM_MSR, ctl + stride * i, HWM_PLAIN, ORIG_CTL);
		struct hw_model_reg *r = hw_model_reg(&m, HWM_MSR, ctr + stride * i, HWM_COUNTER, 1000 * i);
		r->step = 10 + i;
		r->width_mask = (1ull << 48) - 1;
		r->en_id = ctl + stride * i;
		r->en_mask = EVTSEL_EN;
		if (v2) {
			r->en2_id = PerfCntrGlobalCtl;
			r->en2_mask = 1ull << i;
		}
	}
}

static int configure(const char *events)
{
	struct corepmu_config cfg = { .core_events = events };
	char err[160];
	return corepmu_configure(&cp, &cfg, err, sizeof(err));
}

static void test_layouts_from_cpuid(void **state)
{
	(void)state;
	static const struct { int ext, v2; unsigned n; const char *layout; unsigned want; uint32_t ctl1; } rows[] = {
		{ 0, 0, 0, "legacy", 4, MSR_K7_EVNTSEL0 + 1 },
		{ 1, 0, 0, "PerfCtrExtCore", 6, MSR_F15H_PERF_CTL + 2 },
		{ 1, 1, 6, "PerfMonV2", 6, MSR_F15H_PERF_CTL + 2 },
	};
	for (unsigned i = 0; i < 3; i++) {
		amd_model(rows[i].ext, rows[i].v2, rows[i].n, 1);
		assert_int_equal(corepmu_probe(&h, &cp), 0);
		assert_string_equal(cp.backend_name, "amd-core");
		assert_string_equal(cp.ac.layout, rows[i].layout);
		assert_int_equal(cp.ac.ncounters, rows[i].want);
		assert_int_equal(configure("ex_ret_instr ls_not_halted_cyc"), 0);
		assert_int_equal(cp.ac.c[1].sel_msr, rows[i].ctl1);
	}
}

/* Every feature bit of libpfm4 docs/man3/libpfm_amd64.3 reaches its PERF_CTL bit (AMD APM Vol.2 section 13.2.1). */
static void test_every_feature_bit(void **state)
{
	(void)state;
	amd_model(1, 0, 0, 1);
	corepmu_probe(&h, &cp);
	assert_int_equal(configure("core/event=0x1CF,umask=0x1,cmask=1,inv=1,edge=1,host=1/ "
				   "core/event=0xC0,guest=1/ cpu/ex_ret_brn_misp,cmask=255/ ex_ret_fused_instr "
				   "core/event=0xC0,umask=0x0,host=1/"), 0);   /* the last: the README's example */
	assert_int_equal(corepmu_start(&h, &cp, 0, 0), HW_OK);
	uint64_t want0 = 0xCF | (0x1ull << 32) | (0x1 << 8) | (1u << 24) | (1u << 23) | (1u << 18) | (1ull << 41) |
			 0x430000;   /* USR 16, OS 17, EN 22 (APM Vol. 2 13.2.1) */
	assert_int_equal(msr(MSR_F15H_PERF_CTL), want0);
	assert_int_equal(msr(MSR_F15H_PERF_CTL + 2), 0xC0 | (1ull << 40) | 0x430000);
	assert_int_equal(msr(MSR_F15H_PERF_CTL + 4), 0xC3 | (0xFFull << 24) | 0x430000);
	assert_int_equal(msr(MSR_F15H_PERF_CTL + 6), 0xD0 | (1ull << 32) | 0x430000);
	assert_int_equal(msr(MSR_F15H_PERF_CTL + 8), 0xC0 | (1ull << 41) | 0x430000);   /* HostOnly, bit 41 */
	for (int i = 0; i < 4; i++)   /* INT (APIC interrupt, bit 20) never set: polled */
		assert_int_equal(msr(MSR_F15H_PERF_CTL + 2 * (uint32_t)i) & (1ull << 20), 0);
	corepmu_stop(&h, &cp, 0);
	corepmu_restore(&h, &cp);
	static const struct { const char *s, *word; } bad[] = {
		{ "core/event=0x1000/", "event" }, { "core/event=0xC0,umask=256/", "umask" },
		{ "core/event=0xC0,cmask=0x100/", "cmask" }, { "core/event=0xC0,host=2/", "host" },
		{ "core/event=0xC0,guest=2/", "guest" }, { "core/event=0xC0,any=1/", "any" },
		{ "core/event=0xC0,inv=3/", "inv" }, { "core/event=0xC0,edge=9/", "edge" },
		{ "INST_RETIRED.ANY_P", "unknown event" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct corepmu_config cfg = { .core_events = bad[i].s };
		char err[160];
		assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].word) || !strstr(err, "core_events"))
			fail_msg("%s: error '%s' does not name '%s'", bad[i].s, err, bad[i].word);
	}
}

static void test_perfmon_v2_counts_and_restores(void **state)
{
	(void)state;
	amd_model(1, 1, 6, 1);
	hw_model_find(&m, HWM_MSR, MSR_F15H_PERF_CTR)->value = (1ull << 48) - 25;  /* wraps */
	corepmu_probe(&h, &cp);
	assert_int_equal(configure("ex_ret_instr ex_ret_ops ls_not_halted_cyc"), 0);
	hw_model_tick(&m, 3);   /* not counting yet: EN clear */
	assert_int_equal(corepmu_start(&h, &cp, 0, 0), HW_OK);
	assert_int_equal(msr(PerfCntrGlobalCtl), GLOBAL_ORIG | 0x7);
	for (int i = 0; i < 4; i++) {
		hw_model_tick(&m, 5);
		corepmu_tick(&h, &cp, (uint64_t)i);
	}
	corepmu_stop(&h, &cp, 9);
	assert_int_equal(msr(PerfCntrGlobalCtl), GLOBAL_ORIG);   /* our counters off */
	assert_int_equal(cp.ac.c[0].acc, 20 * 10);
	assert_int_equal(cp.ac.c[1].acc, 20 * 11);
	assert_int_equal(cp.ac.c[2].acc, 20 * 12);
	assert_int_equal(cp.ac.c[0].state, CTR_COUNTED);
	/* writes: global off first, global on last at start (Linux arch/x86/events/amd/core.c) */
	assert_int_equal(m.log[0].id, PerfCntrGlobalCtl);
	assert_int_equal(m.log[0].value, GLOBAL_ORIG);
	assert_int_equal(corepmu_restore(&h, &cp), HW_OK);
	for (uint32_t i = 0; i < 3; i++)
		assert_int_equal(msr(MSR_F15H_PERF_CTL + 2 * i), ORIG_CTL);
	assert_int_equal(msr(PerfCntrGlobalCtl), GLOBAL_ORIG);
}

/* Legacy layout with more events than counters, and a counter that did not move. */
static void test_legacy_oversubscribed(void **state)
{
	(void)state;
	amd_model(0, 0, 0, 0);
	hw_model_find(&m, HWM_MSR, MSR_K7_PERFCTR0 + 1)->step = 0;
	corepmu_probe(&h, &cp);
	assert_int_equal(configure("ex_ret_instr ex_ret_brn ex_ret_brn_misp ex_ret_cond ex_div_busy"), 0);
	assert_int_equal(cp.ac.c[4].state, CTR_ABSENT);
	assert_non_null(strstr(cp.ac.c[4].why, "legacy"));
	corepmu_start(&h, &cp, 0, 0);
	hw_model_tick(&m, 4);
	corepmu_stop(&h, &cp, 1);
	assert_int_equal(cp.ac.c[0].acc, 40);
	assert_int_equal(cp.ac.c[1].state, CTR_NOT_ADVANCING);
	assert_int_equal(msr(MSR_K7_EVNTSEL0), ORIG_CTL);   /* stop put the CTL back */
	corepmu_restore(&h, &cp);
}

/* EPYC-Rome/Milan under QEMU TCG: no IBS, maybe no PerfCtrExtCore, no PerfMonV2. */
static void test_epyc_tcg_lacks(void **state)
{
	(void)state;
	amd_model(0, 0, 0, 0);
	assert_int_equal(corepmu_probe(&h, &cp), 0);
	assert_int_equal(cp.nlacks, 3);
	assert_non_null(strstr(cp.lacks[0], "PerfCtrExtCore"));
	assert_non_null(strstr(cp.lacks[1], "PerfMonV2"));
	assert_non_null(strstr(cp.lacks[2], "no IBS"));
	struct corepmu_config cfg = { .core_events = "", .topdown = 1, .ibs = IBS_MODE_OP, .ibs_period = 0x10000 };
	char err[160];
	assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), 0);
	assert_int_equal(corepmu_start(&h, &cp, 0, 0), HW_OK);
	corepmu_tick(&h, &cp, 1);
	corepmu_stop(&h, &cp, 2);
	corepmu_restore(&h, &cp);
	assert_int_equal(m.nlog, 0);
	assert_non_null(strstr(cp.ibs.why, "8000_0001:ECX[10]"));
	assert_non_null(strstr(cp.apl.why, "Zen 4/5 only"));   /* a Zen 3: no pipeline utilization */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts_from_cpuid),
		cmocka_unit_test(test_every_feature_bit),
		cmocka_unit_test(test_perfmon_v2_counts_and_restores),
		cmocka_unit_test(test_legacy_oversubscribed),
		cmocka_unit_test(test_epyc_tcg_lacks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
