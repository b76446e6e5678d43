/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel architectural perfmon unit and the backend chooser on the register model
 * (tests/unit/test_intel_model.h): event syntax errors that name the field, the CPUs QEMU
 * emulates (perfmon version 0, no PDCM) reported cleanly, general + fixed counters counting
 * through IA32_A_PMCx, counter wrap, over-subscription, restore without stop, and the records.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/out/pmu_json.h"
#include "tests/unit/test_intel_model.h"
#include "tests/unit/json_check.h"
#include "pmu/core/x86_corepmu.h"
#include "efi/out/jsonl.h"

static struct corepmu cp;

static int parse(const struct x86_event_caps *caps, const char *s, uint64_t *cfg, char *err)
{
	struct x86_event ev;
	int r = x86_event_parse(s, strlen(s), caps, &ev, err, 160);
	*cfg = ev.config;
	return r;
}

static void test_event_syntax(void **state)
{
	(void)state;
	struct x86_event_caps c = { .vendor = X86_EV_INTEL, .gens = X86_GEN_ARCH | X86_GEN_SKL, .any_ok = 1 };
	uint64_t v;
	char err[160];
	assert_int_equal(parse(&c, "cpu/event=0xC0,umask=0x0,cmask=1,inv=1,edge=1,any=1/", &v, err), 0);
	assert_int_equal(v, 0x01A400C0ull);   /* cmask 1<<24 | inv 1<<23 | any 1<<21 | edge 1<<18 */
	assert_int_equal(parse(&c, "INST_RETIRED.ANY_P", &v, err), 0);
	assert_int_equal(v, 0xC0);
	assert_int_equal(parse(&c, "core/UOPS_ISSUED.ANY,cmask=4,inv=1/", &v, err), 0);
	assert_int_equal(v, 0x0480010Eull);
	static const struct { const char *s, *word; } bad[] = {
		{ "cpu/event=0x100/", "event" },             /* Intel event is 8 bits */
		{ "cpu/event=0xC0,umask=0x100/", "umask" },
		{ "cpu/event=0xC0,cmask=256/", "cmask" },
		{ "cpu/event=0xC0,inv=2/", "inv" },
		{ "cpu/event=0xC0,edge=2/", "edge" },
		{ "cpu/event=0xC0,host=1/", "host" },         /* AMD only */
		{ "cpu/event=0xC0,event=0xC4/", "twice" },
		{ "cpu/event=0xZZ/", "not a number" },
		{ "cpu/umask=1/", "no event" },
		{ "cpu/event=0xC0", "closing" },
		{ "uncore/event=1/", "not a PMU" },
		{ "NO_SUCH.EVENT", "unknown event" },
		{ "INT_MISC.UOP_DROPPING", "unknown event" },  /* Ice Lake event on a Skylake */
		{ "cpu/event=1,,umask=1/", "empty term" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(parse(&c, bad[i].s, &v, err), -1);
		if (!strstr(err, bad[i].word))
			fail_msg("%s: error '%s' does not say '%s'", bad[i].s, err, bad[i].word);
	}
	c.any_ok = 0;  /* CPUID.0AH:EDX[15]: AnyThread deprecated */
	assert_int_equal(parse(&c, "cpu/event=0x3C,any=1/", &v, err), -1);
	assert_non_null(strstr(err, "any"));
	c.arch_len = 7;
	c.arch_unavail = 1u << 6;  /* branch mispredicts retired not available */
	assert_int_equal(parse(&c, "BR_MISP_RETIRED.ALL_BRANCHES", &v, err), -1);
	assert_non_null(strstr(err, "EBX[6]"));
}

/* QEMU TCG Skylake-Server / Icelake-Server: CPUID.0AH version 0, no PDCM. */
static void test_qemu_like_cpus_reported_cleanly(void **state)
{
	(void)state;
	static const uint32_t models[] = { 0x55, 0x6A };
	for (unsigned i = 0; i < 2; i++) {
		struct tm_cpu c = { .model = models[i] };
		tm_init(&c, (const uint64_t[4]){ 0 }, NULL);
		hw_model_rdpmc(&tm, 0);
		assert_int_equal(corepmu_probe(&tmh, &cp), 0);
		assert_string_equal(cp.backend_name, "intel-arch-perfmon");
		assert_non_null(strstr(cp.lacks[0], "version 0"));
		assert_non_null(strstr(cp.lacks[1], "PDCM"));
		/* Skylake-SP is a general-counter TopDown model; Ice Lake-SP needs PERF_METRICS */
		assert_int_equal(cp.td_kind, i == 0 ? TD_GP_SKL : TD_NONE);
		struct corepmu_config cfg = { .core_events = "INST_RETIRED.ANY_P", .topdown = 1, .ibs = IBS_MODE_OP };
		char err[160];
		assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), 0);
		assert_int_equal(corepmu_start(&tmh, &cp, 0, 0), HW_OK);
		corepmu_tick(&tmh, &cp, 1);
		corepmu_stop(&tmh, &cp, 2);
		assert_int_equal(corepmu_restore(&tmh, &cp), HW_OK);
		assert_int_equal(tm.nlog, 0);                 /* nothing to program, nothing written */
		assert_false(cp.td.valid);
		assert_non_null(strstr(cp.td.why, i == 0 ? "version 0" : "PERF_CAPABILITIES"));
		assert_int_equal(cp.ic.gp[cp.ic.ngp_used - 1].state, CTR_ABSENT);
		assert_non_null(strstr(cp.ibs.why, "AMD only"));
	}
}

static const struct tm_cpu icx = { .model = 0x6A, .version = 5, .ngp = 2, .nfixed = 4, .pdcm = 1,
				   .metrics_bit = 1, .fw_write = 1, .anythread_deprecated = 1 };

static void test_counts_full_width_and_restores(void **state)
{
	(void)state;
	const uint64_t fx[4] = { 7, 11, 13, 255 };
	const uint64_t gp[2] = { 3, 5 };
	tm_init(&icx, fx, gp);
	/* counter 0 starts 20 below 2^48: it wraps inside the window */
	hw_model_find(&tm, HWM_MSR, IA32_A_PMC0)->value = (1ull << TM_WIDTH) - 20;
	assert_int_equal(corepmu_probe(&tmh, &cp), 0);
	struct corepmu_config cfg = { .core_events = "INST_RETIRED.ANY_P cpu/event=0x3c,umask=0/ UOPS_ISSUED.ANY",
				      .topdown = 0 };
	char err[160];
	assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), 0);
	assert_int_equal(cp.ic.gp[0].ctr_msr, IA32_A_PMC0);   /* FW_WRITE: full-width alias */
	assert_int_equal(cp.ic.gp[2].state, CTR_ABSENT);        /* only 2 general counters */
	assert_non_null(strstr(cp.ic.gp[2].why, "no free general counter"));
	assert_int_equal(corepmu_start(&tmh, &cp, 0, 1000), HW_OK);
	assert_int_equal(tm_msr(IA32_PERFEVTSEL0), 0x4300C0);
	assert_int_equal(tm_msr(IA32_PERF_GLOBAL_CTRL), TM_GLOBAL_ORIG | 0x3ull | (0x7ull << 32));
	assert_int_equal(tm_msr(IA32_FIXED_CTR_CTRL), 0x333);  /* PMI bit of FC2 cleared in our field */
	for (int i = 0; i < 5; i++) {
		tm_tick(10);
		corepmu_tick(&tmh, &cp, 300 * (uint64_t)(i + 1));
	}
	corepmu_stop(&tmh, &cp, 2000);
	uint64_t frozen = tm_msr(IA32_FIXED_CTR0);
	tm_tick(5);
	assert_int_equal(tm_msr(IA32_FIXED_CTR0), frozen);      /* stopped */
	assert_int_equal(cp.ic.gp[0].acc, 150);
	assert_int_equal(cp.ic.gp[0].state, CTR_COUNTED);
	assert_int_equal(cp.ic.gp[1].acc, 250);
	assert_int_equal(cp.ic.fx[0].acc, 350);
	assert_int_equal(cp.ic.fx[2].acc, 650);
	assert_int_equal(cp.ticks, 5);
	assert_int_equal(corepmu_restore(&tmh, &cp), HW_OK);
	assert_int_equal(tm_msr(IA32_PERF_GLOBAL_CTRL), TM_GLOBAL_ORIG);
	assert_int_equal(tm_msr(IA32_FIXED_CTR_CTRL), TM_FIXED_CTRL_ORIG);
	assert_int_equal(tm_msr(IA32_PERFEVTSEL0), 0);
	assert_int_equal(tm_msr(IA32_PERFEVTSEL0 + 1), 0);

	/* the core_counters record: counted ones carry a delta, the absent one a why */
	char buf[4096];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	json_str(&j, "type", "core_counters");
	corepmu_json_counters(&j, &cp);
	json_end(&j);
	assert_false(sb.overflow);
	assert_true(json_check_object(buf, strlen(buf)));
	assert_non_null(strstr(buf, "\"event\":\"INST_RETIRED.ANY_P\",\"config\":\"0xc0\",\"state\":\"counted\""));
	assert_non_null(strstr(buf, "\"delta\":150"));
	assert_non_null(strstr(buf, "\"state\":\"absent\",\"why\":\"no free general counter"));
}

/* A run that stops between start and stop (error path): restore alone puts everything back. */
static void test_restore_without_stop(void **state)
{
	(void)state;
	tm_init(&icx, (const uint64_t[4]){ 1, 1, 1, 255 }, (const uint64_t[2]){ 1, 1 });
	hw_model_rdpmc(&tm, 1);
	corepmu_probe(&tmh, &cp);
	struct corepmu_config cfg = { .core_events = "INST_RETIRED.ANY_P", .topdown = 1 };
	char err[160];
	corepmu_configure(&cp, &cfg, err, sizeof(err));
	corepmu_start(&tmh, &cp, 0, 0);
	tm_tick(3);
	assert_int_equal(corepmu_restore(&tmh, &cp), HW_OK);
	assert_int_equal(corepmu_restore(&tmh, &cp), HW_OK);   /* twice is harmless */
	assert_int_equal(tm_msr(IA32_PERF_GLOBAL_CTRL), TM_GLOBAL_ORIG);
	assert_int_equal(tm_msr(IA32_PERF_METRICS), TM_METRICS_ORIG);
	assert_int_equal(tm_msr(IA32_FIXED_CTR3), 3005);
	assert_int_equal(tm_msr(IA32_PERFEVTSEL0), 0);
	assert_int_equal(tm_msr(IA32_FIXED_CTR_CTRL), TM_FIXED_CTRL_ORIG);
}

/* Hybrid Alder Lake: P-core gets PERF_METRICS without the capability bit, E-core does not. */
static void test_chooser_hybrid_and_spr(void **state)
{
	(void)state;
	struct tm_cpu adl = { .model = 0x97, .version = 5, .ngp = 8, .nfixed = 4, .pdcm = 1, .hybrid = 1, .pcore = 1 };
	tm_init(&adl, (const uint64_t[4]){ 0 }, NULL);
	corepmu_probe(&tmh, &cp);
	assert_int_equal(cp.td_kind, TD_METRICS);
	assert_int_equal(cp.td_level2, 1);
	adl.pcore = 0;
	tm_init(&adl, (const uint64_t[4]){ 0 }, NULL);
	corepmu_probe(&tmh, &cp);
	assert_null(cp.td_rule);
	assert_non_null(strstr(cp.td_why, "TopDown"));
	assert_int_equal(cp.caps.gens, X86_GEN_ARCH);   /* the E-core is not a Golden Cove */
	struct tm_cpu spr = { .model = 0x8F, .version = 5, .ngp = 8, .nfixed = 4, .pdcm = 1, .metrics_bit = 1 };
	tm_init(&spr, (const uint64_t[4]){ 0 }, NULL);
	corepmu_probe(&tmh, &cp);
	assert_int_equal(cp.td_level2, 1);
	/* Golden Cove table, not Ice Lake's: UOPS_ISSUED.ANY is event 0xAE umask 0x01 and
	 * CYCLE_ACTIVITY.STALLS_MEM_ANY does not exist (sapphirerapids_core.json v1.39) */
	assert_int_equal(cp.caps.gens, X86_GEN_ARCH | X86_GEN_GLC);
	struct x86_event ev;
	char err[160];
	assert_int_equal(x86_event_parse("UOPS_ISSUED.ANY", 15, &cp.caps, &ev, err, sizeof(err)), 0);
	assert_int_equal(ev.config, 0x01AE);
	assert_int_equal(x86_event_parse("CYCLE_ACTIVITY.STALLS_MEM_ANY", 29, &cp.caps, &ev, err, sizeof(err)), -1);
	/* probe record */
	char buf[2048];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	corepmu_json_probe(&j, &cp);
	json_end(&j);
	assert_true(json_check_object(buf, strlen(buf)));
	assert_non_null(strstr(buf, "\"method\":\"perf-metrics\",\"level\":2"));
	/* a non-x86 backend (no CPUID) is not a crash: -1 and a reason */
	struct hw_model empty;
	hw_model_init(&empty);
	struct hw eh = hw_model_hw(&empty);
	assert_int_equal(corepmu_probe(&eh, &cp), -1);
	assert_int_equal(cp.nlacks, 1);
}

/* Sierra Forest (Crestmont) and Clearwater Forest (Darkmont): their own core tables, encodings
 * as Intel's SRF 1.18 / CWF 1.04 core files give them (written out here), and no PERF_METRICS
 * TopDown: the record says which E-core method applies instead. */
static void test_ecore_servers(void **state)
{
	(void)state;
	static const struct { uint32_t model; uint16_t gen; uint64_t be_bound; const char *td; } cpus[] = {
		{ 0xAF, X86_GEN_CMT, 0x0074, "Crestmont" },   /* TOPDOWN_BE_BOUND.ALL 0x74/0x00 */
		{ 0xDD, X86_GEN_DKT, 0x02A4, "Darkmont" },    /* TOPDOWN_BE_BOUND.ALL 0xA4/0x02 */
	};
	for (unsigned i = 0; i < 2; i++) {
		struct tm_cpu c = { .model = cpus[i].model, .version = 5, .ngp = 8, .nfixed = 3, .pdcm = 1 };
		tm_init(&c, (const uint64_t[4]){ 0 }, NULL);
		assert_int_equal(corepmu_probe(&tmh, &cp), 0);
		assert_int_equal(cp.caps.gens, X86_GEN_ARCH | cpus[i].gen);
		assert_null(cp.td_rule);
		assert_int_equal(cp.td_kind, TD_NONE);
		assert_non_null(strstr(cp.td_why, cpus[i].td));
		assert_non_null(strstr(cp.td_why, "no PERF_METRICS"));
		struct x86_event ev;
		char err[200];
		assert_int_equal(x86_event_parse("TOPDOWN_BE_BOUND.ALL", 20, &cp.caps, &ev, err, sizeof(err)), 0);
		assert_int_equal(ev.config, cpus[i].be_bound);
		/* a Golden Cove event is not one of these cores' */
		assert_int_equal(x86_event_parse("UOPS_ISSUED.ANY", 15, &cp.caps, &ev, err, sizeof(err)), -1);
		assert_non_null(strstr(err, cpus[i].td));
	}
	/* the model is the table's key: Crestmont's encoding is not Darkmont's */
	struct x86_event_caps cmt = { .vendor = X86_EV_INTEL, .gens = X86_GEN_ARCH | X86_GEN_CMT };
	struct x86_event ev;
	char err[200];
	assert_int_equal(x86_event_parse("TOPDOWN_FE_BOUND.ALL_P", 22, &cmt, &ev, err, sizeof(err)), 0);
	assert_int_equal(ev.config, 0x0071);
	assert_int_equal(corepmu_intel_gens(0xDD, 0), X86_GEN_DKT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_syntax),
		cmocka_unit_test(test_qemu_like_cpus_reported_cleanly),
		cmocka_unit_test(test_counts_full_width_and_restores),
		cmocka_unit_test(test_restore_without_stop),
		cmocka_unit_test(test_chooser_hybrid_and_spr),
		cmocka_unit_test(test_ecore_servers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
