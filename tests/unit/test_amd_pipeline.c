/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AMD pipeline utilization (pmu/core/amd_pipeline.h) against outside oracles:
 *   - the table against Linux perf's amdzen4/amdzen5 pipeline.json as
 *     tests/oracle/linux-perf/amd_pipeline.txt holds it: the dispatch width and cycles event of
 *     total_dispatch_slots, every PipelineL1 metric's numerator parsed from its expression text
 *     into coefficients, and each input's EventCode / UMask (PERF_CTL layout of AMD APM Vol.2
 *     section 13.2.1 "PerfEvtSeln" as tests/unit/amd_perfctl.h writes it out; USR bit 16, OS bit
 *     17, EN bit 22 here);
 *   - the models served: every Family 17h-1Bh model gets a row exactly when Linux's mapfile.csv
 *     gives it amdzen4 (Zen 4 row) or amdzen5 (Zen 5 row), except Family 19h models 30h-3Fh,
 *     which mapfile.csv gives amdzen4 but Linux arch/x86/kernel/cpu/amd.c (bsp_init_amd) and
 *     libpfm4 lib/pfmlib_amd64.c (amd64_get_revision) call Zen 3: no row, a why;
 *   - the arithmetic on counts whose percentages were worked out by hand;
 *   - a register-model window on a Zen 4 (Family 19h model 11h) and a Zen 5 (Family 1Ah model
 *     02h) signature: the PERF_CTL values written equal the JSON encodings, the result equals the
 *     hand-computed one, every register is back after restore; a Zen 3 gets a why.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/core/amd_pipeline.h"
#include "pmu/core/x86_corepmu.h"
#include "tests/model/hw_model.h"
#include "tests/unit/linux_mapfile.h"
#include "tests/unit/amd_pipeline_oracle.h"
#include "tests/unit/json_check.h"
#include "efi/out/pmu_json.h"

static int setup(void **state)
{
	(void)state;
	return load() > 0 && linux_mapfile_load() > 0 ? 0 : -1;
}

static int input_of(const struct amd_pipeline_gen *g, const char *event)
{
	for (int i = 0; i < APL_NINPUT; i++)
		if (!strcmp(g->event[i], event))
			return i;
	return -1;
}

/* "A - B + C" -> coefficients by input; -1 on a term that is not an input of g. */
static int parse_sum(const struct amd_pipeline_gen *g, const char *s, int coef[APL_NINPUT])
{
	memset(coef, 0, sizeof(int) * APL_NINPUT);
	int sign = 1;
	char tok[96];
	while (*s) {
		int n = 0;
		if (sscanf(s, "%95s%n", tok, &n) != 1)
			break;
		s += n;
		if (!strcmp(tok, "+") || !strcmp(tok, "-")) {
			sign = tok[0] == '-' ? -1 : 1;
			continue;
		}
		int i = input_of(g, tok);
		if (i < 0) {
			printf("%s: term '%s' is no input of the %s row\n", dir_of(g), tok, g->gen);
			return -1;
		}
		coef[i] += sign;
	}
	return 0;
}

static void test_table_equals_pipeline_json(void **state)
{
	(void)state;
	int metrics = 0;
	assert_int_equal(amd_pipeline_ngens, 2);
	for (unsigned r = 0; r < amd_pipeline_ngens; r++) {
		const struct amd_pipeline_gen *g = &amd_pipeline_gens[r];
		const char *dir = dir_of(g);
		/* total_dispatch_slots: "W * <cycles event>" */
		const struct line *t = find(dir, "metric", "total_dispatch_slots");
		assert_non_null(t);
		unsigned w = 0;
		char ev[64];
		assert_int_equal(sscanf(t->rest, "%u * %63s", &w, ev), 2);
		assert_int_equal(g->width, w);
		assert_string_equal(g->event[APL_CYCLES], ev);
		/* every PipelineL1 metric is a category with the JSON's numerator */
		int seen[APL_NCAT] = { 0 };
		for (int i = 0; i < nln; i++) {
			if (strcmp(ln[i].dir, dir) || strcmp(ln[i].kind, "metric") || strcmp(ln[i].group, "PipelineL1"))
				continue;
			int k = 0;
			while (k < APL_NCAT && strcmp(apl_cat_name[k], ln[i].name))
				k++;
			if (k == APL_NCAT)
				fail_msg("%s %s: a PipelineL1 metric the table lacks", dir, ln[i].name);
			const char *pre = "d_ratio(", *post = ", total_dispatch_slots)";
			size_t len = strlen(ln[i].rest);
			assert_true(!strncmp(ln[i].rest, pre, strlen(pre)) && len > strlen(pre) + strlen(post) &&
				    !strcmp(ln[i].rest + len - strlen(post), post));
			char num[160];
			snprintf(num, sizeof(num), "%.*s", (int)(len - strlen(pre) - strlen(post)), ln[i].rest + strlen(pre));
			int coef[APL_NINPUT];
			assert_int_equal(parse_sum(g, num, coef), 0);
			for (int in = 0; in < APL_NINPUT; in++)
				if (coef[in] != g->coef[k][in])
					fail_msg("%s %s: coefficient of %s: JSON %d, table %d", dir, ln[i].name, g->event[in], coef[in],
						 g->coef[k][in]);
			seen[k]++;
			metrics++;
		}
		for (int k = 0; k < APL_NCAT; k++)
			if (seen[k] != 1)
				fail_msg("%s: %s appears %d times as a PipelineL1 metric", dir, apl_cat_name[k], seen[k]);
	}
	printf("amd_pipeline.txt: %d PipelineL1 metrics compared coefficient by coefficient\n", metrics);
	assert_int_equal(metrics, 10);
}

static void test_inputs_encode_as_json(void **state)
{
	(void)state;
	int n = 0;
	for (unsigned r = 0; r < amd_pipeline_ngens; r++) {
		const struct amd_pipeline_gen *g = &amd_pipeline_gens[r];
		/* the generations a CPU of the row has, as probed: Family 19h model 11h, Family 1Ah model 02h */
		struct x86_event_caps caps = row_caps(g);
		assert_true(caps.gens & g->gens);
		for (int i = 0; i < APL_NINPUT; i++) {
			const struct line *l = find(dir_of(g), "event", g->event[i]);
			if (!l)
				fail_msg("%s: %s not in the extract", dir_of(g), g->event[i]);
			struct x86_event ev;
			char err[192];
			if (x86_event_parse(g->event[i], strlen(g->event[i]), &caps, &ev, err, sizeof(err)))
				fail_msg("%s on %s: %s", g->event[i], g->gen, err);
			assert_int_equal(ev.config, json_config(l));
			n++;
		}
	}
	/* the check can fail: a Zen 3 has no de_no_dispatch_per_slot */
	struct x86_event_caps zen3 = { .vendor = X86_EV_AMD, .gens = X86_GEN_ZEN };
	struct x86_event ev;
	char err[192];
	const char *s = "de_no_dispatch_per_slot.backend_stalls";
	assert_int_equal(x86_event_parse(s, strlen(s), &zen3, &ev, err, sizeof(err)), -1);
	/* and names the CPU as what it is: a Zen 4 carries X86_GEN_ZEN4 too, so this is Zen 2/3 */
	printf("Zen 3: %s\n", err);
	assert_non_null(strstr(err, "for this CPU, AMD Zen 2/3 (Family 17h 30h+, Family 19h models that are not Zen 4)"));
	assert_int_equal(n, 12);
}

static void test_rows_follow_mapfile(void **state)
{
	(void)state;
	static const unsigned fams[] = { 0x17, 0x19, 0x1A, 0x1B };
	int bad = 0, zen4 = 0, zen5 = 0;
	for (size_t f = 0; f < sizeof(fams) / sizeof(fams[0]); f++)
		for (unsigned m = 0; m <= 0xFF; m++) {
			const char *dir = linux_agreed_dir(fams[f], m);   /* 1Ah: the mapfile and amd.c agree */
			const struct amd_pipeline_gen *g = amd_pipeline_for(corepmu_x86_gens("AuthenticAMD", fams[f], m));
			/* the sources disagree on 19h 30h-3Fh (amd.c, libpfm4: Zen 3): no row there */
			int disputed = fams[f] == 0x19 && m >= 0x30 && m <= 0x3F;
			const char *want = !disputed && dir && (!strcmp(dir, "amdzen4") || !strcmp(dir, "amdzen5")) ? dir : NULL;
			if (disputed)
				assert_string_equal(dir, "amdzen4");   /* the disagreement is still there */
			const char *got = g ? dir_of(g) : NULL;
			if ((want == NULL) != (got == NULL) || (want && strcmp(want, got))) {
				if (bad++ < 8)
					printf("family 0x%x model 0x%02x: mapfile %s, pipeline row %s\n", fams[f], m, dir ? dir : "none",
					       got ? got : "none");
				continue;
			}
			zen4 += got && !strcmp(got, "amdzen4");
			zen5 += got && !strcmp(got, "amdzen5");
		}
	printf("mapfile: %d Zen 4 and %d Zen 5 family/models get the pipeline rows\n", zen4, zen5);
	assert_int_equal(bad, 0);
	assert_int_equal(zen4, 16 + 0xA0);   /* 19h 10h-1Fh, 60h-FFh */
	assert_int_equal(zen5, 0x60);   /* 1Ah 00h-2Fh, 40h-4Fh, 60h-7Fh */
	/* Zen 6 and the models Linux's two sources disagree on get no row */
	assert_null(amd_pipeline_for(corepmu_x86_gens("AuthenticAMD", 0x1A, 0x50)));
	assert_null(amd_pipeline_for(corepmu_x86_gens("AuthenticAMD", 0x1A, 0x30)));
	assert_null(amd_pipeline_for(X86_GEN_ZEN | X86_GEN_ZEN1));
}

/* ---- arithmetic: percentages worked out by hand ------------------------------------------ */
static const uint64_t hand[APL_NINPUT] = { 1000, 1200, 1500, 300, 2500, 2100 };
#define ALL ((1u << APL_NINPUT) - 1)

static void test_hand_computed(void **state)
{
	(void)state;
	struct amd_pipeline_out o;
	/* Zen 4: slots 6 x 1000 = 6000; 1200/6000 = 20 %, (2500-2100)/6000 = 6.6667 %, 1500/6000 =
	 * 25 %, 300/6000 = 5 %, 2100/6000 = 35 % */
	amd_pipeline(&amd_pipeline_gens[0], hand, ALL, NULL, &o);
	assert_true(o.valid);
	assert_int_equal(o.slots, 6000);
	const int64_t z4[APL_NCAT] = { 20000, 6667, 25000, 5000, 35000 };
	for (int k = 0; k < APL_NCAT; k++)
		assert_int_equal(o.milli_pct[k], z4[k]);
	/* Zen 5: slots 8000; 15 %, 5 %, 18.75 %, 3.75 %, 26.25 % */
	amd_pipeline(&amd_pipeline_gens[1], hand, ALL, NULL, &o);
	assert_int_equal(o.slots, 8000);
	const int64_t z5[APL_NCAT] = { 15000, 5000, 18750, 3750, 26250 };
	for (int k = 0; k < APL_NCAT; k++)
		assert_int_equal(o.milli_pct[k], z5[k]);
	/* more retired than dispatched: bad_speculation -30/6000 = -0.5 % */
	const uint64_t neg[APL_NINPUT] = { 1000, 0, 0, 0, 100, 130 };
	amd_pipeline(&amd_pipeline_gens[0], neg, ALL, NULL, &o);
	assert_int_equal(o.milli_pct[APL_BAD_SPEC], -500);
	/* rounding: 1/18 = 5.5556 %, -1/18 = -5.5556 % */
	const uint64_t tiny[APL_NINPUT] = { 3, 1, 0, 0, 0, 1 };
	amd_pipeline(&amd_pipeline_gens[0], tiny, ALL, NULL, &o);
	assert_int_equal(o.milli_pct[APL_FRONTEND], 5556);
	assert_int_equal(o.milli_pct[APL_BAD_SPEC], -5556);
	/* no cycles: no value, why */
	const uint64_t zero[APL_NINPUT] = { 0, 5, 5, 5, 5, 5 };
	amd_pipeline(&amd_pipeline_gens[1], zero, ALL, NULL, &o);
	assert_false(o.valid);
	assert_string_equal(o.why, "ls_not_halted_cyc counted 0: no cycles counted");
	/* an input not counted is named with its why */
	const char *whys[APL_NINPUT] = { [APL_OPS_DISP] = "PERF_CTL: #GP" };
	amd_pipeline(&amd_pipeline_gens[0], hand, ALL & ~(1u << APL_OPS_DISP), whys, &o);
	assert_false(o.valid);
	assert_string_equal(o.why, "de_src_op_disp.all: PERF_CTL: #GP");
}

/* ---- a window on the register model ------------------------------------------------------ */
static struct hw_model m, ref;
static struct hw h;
static struct corepmu cp;
#define GLOBAL_ORIG 0x40ull   /* someone else's enable bit, kept */
#define CTL_ORIG 0x4300C0ull  /* what firmware left in each PERF_CTL */

/* AMD signature (APM Vol.3 CPUID Fn0000_0001_EAX), PerfMonV2 with 6 counters (APM Vol.2 13.2:
 * PERF_CTL/PERF_CTR at C001_0200h/C001_0201h + 2i, PerfCntrGlobalCtl C000_0301h; CPUID
 * 8000_0001:ECX[23] PerfCtrExtCore, 8000_0022:EAX[0] PerfMonV2, EBX[3:0] counters); counter i steps
 * by step[i] per tick while its PERF_CTL.EN and global bit are set. */
static void model(unsigned family, unsigned model_no, const uint64_t step[6])
{
	hw_model_init(&m);
	h = hw_model_hw(&m);
	hw_model_cpuid(&m, 0, 0, 0x10, 0x68747541, 0x444d4163, 0x69746e65);   /* AuthenticAMD */
	hw_model_cpuid(&m, 1, 0, ((family - 0xF) << 20) | ((model_no >> 4) << 16) | (0xFu << 8) | ((model_no & 0xF) << 4),
		       0, 0, 0);
	hw_model_cpuid(&m, 0x80000000, 0, 0x80000022, 0, 0, 0);
	hw_model_cpuid(&m, 0x80000001, 0, 0, 0, 1u << 23, 0);                 /* PerfCtrExtCore */
	hw_model_cpuid(&m, 0x80000022, 0, 1, 6, 0, 0);                        /* PerfMonV2, 6 counters */
	hw_model_reg(&m, HWM_MSR, 0xC0000301, HWM_PLAIN, GLOBAL_ORIG);        /* PerfCntrGlobalCtl */
	for (uint32_t i = 0; i < 6; i++) {
		hw_model_reg(&m, HWM_MSR, 0xC0010200 + 2 * i, HWM_PLAIN, CTL_ORIG);
		struct hw_model_reg *r = hw_model_reg(&m, HWM_MSR, 0xC0010201 + 2 * i, HWM_COUNTER, 0);
		r->step = step[i];
		r->width_mask = (1ull << 48) - 1;
		r->en_id = 0xC0010200 + 2 * i;
		r->en_mask = 1ull << 22;
		r->en2_id = 0xC0000301;
		r->en2_mask = 1ull << i;
	}
	ref = m;
}

static void window(int topdown)
{
	struct corepmu_config cfg = { .topdown = topdown, .core_events = "" };
	char err[160];
	assert_int_equal(corepmu_probe(&h, &cp), 0);
	assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), 0);
	assert_int_equal(corepmu_start(&h, &cp, 0, 0), HW_OK);
	hw_model_tick(&m, 1);
	assert_int_equal(corepmu_stop(&h, &cp, 0), HW_OK);
	assert_int_equal(corepmu_restore(&h, &cp), HW_OK);
}

/* The first value written to PERF_CTL(i) in the log. */
static uint64_t first_ctl_write(uint32_t i)
{
	for (int k = 0; k < m.nlog; k++)
		if (m.log[k].space == HWM_MSR && m.log[k].id == 0xC0010200 + 2 * i)
			return m.log[k].value;
	return ~0ull;
}

static const char *record(void) { return topdown_record(&cp); }

static void check_window(unsigned family, unsigned model_no, const char *dir, const int64_t want[APL_NCAT])
{
	model(family, model_no, hand);
	window(1);
	assert_non_null(cp.apl_gen);
	assert_string_equal(dir_of(cp.apl_gen), dir);
	for (uint32_t i = 0; i < APL_NINPUT; i++) {
		const struct line *l = find(dir, "event", cp.apl_gen->event[i]);
		assert_non_null(l);
		uint64_t want_ctl = json_config(l) | (1ull << 16) | (1ull << 17) | (1ull << 22);
		if (first_ctl_write(i) != want_ctl)
			fail_msg("%s on %s: PERF_CTL%u written 0x%llx, JSON gives 0x%llx", l->name, dir, i,
				 (unsigned long long)first_ctl_write(i), (unsigned long long)want_ctl);
	}
	assert_true(cp.apl.valid);
	for (int k = 0; k < APL_NCAT; k++)
		assert_int_equal(cp.apl.milli_pct[k], want[k]);
	uint32_t id = 0;
	if (hw_model_plain_diff(&m, &ref, NULL, &id))
		fail_msg("%s: register 0x%x not restored", dir, id);
	assert_int_equal(cp.restore.nfailed, 0);
	assert_true(cp.restore.written >= 7);   /* 6 PERF_CTL + PerfCntrGlobalCtl */
}

static void test_window_zen4_zen5(void **state)
{
	(void)state;
	const int64_t z4[APL_NCAT] = { 20000, 6667, 25000, 5000, 35000 };
	const int64_t z5[APL_NCAT] = { 15000, 5000, 18750, 3750, 26250 };
	check_window(0x19, 0x11, "amdzen4", z4);
	const char *r = record();
	static const char *const z4_text[] = {
		"\"method\":\"amd-pipeline\",\"pmu\":\"amd_core\",\"valid\":true,\"level\":1,",
		"\"formula\":\"Zen 4\"", "\"dispatch_width\":6,\"slots\":6000,",
		"\"counts\":{\"ls_not_halted_cyc\":1000,\"de_no_dispatch_per_slot.no_ops_from_frontend\":1200,"
		"\"de_no_dispatch_per_slot.backend_stalls\":1500,\"de_no_dispatch_per_slot.smt_contention\":300,"
		"\"de_src_op_disp.all\":2500,\"ex_ret_ops\":2100}",
		"\"frontend_bound\":{\"milli_pct\":20000,\"pct\":20.000}", "\"bad_speculation\":{\"milli_pct\":6667,\"pct\":6.667}",
		"\"smt_contention\":{\"milli_pct\":5000,\"pct\":5.000}", "\"retiring\":{\"milli_pct\":35000,\"pct\":35.000}",
	};
	for (unsigned i = 0; i < sizeof(z4_text) / sizeof(z4_text[0]); i++)
		if (!strstr(r, z4_text[i]))
			fail_msg("record lacks %s: %s", z4_text[i], r);
	check_window(0x1A, 0x02, "amdzen5", z5);
	r = record();
	assert_non_null(strstr(r, "\"formula\":\"Zen 5\""));
	assert_non_null(strstr(r, "\"backend_bound\":{\"milli_pct\":18750,\"pct\":18.750}"));
}

/* A Zen 3 gets no row and says why; QEMU TCG's counters read 0: "no cycles counted". */
static void test_zen3_and_silent_counters(void **state)
{
	(void)state;
	model(0x19, 0x01, hand);
	window(1);
	assert_null(cp.apl_gen);
	assert_int_equal(cp.ac.nused, 0);
	assert_false(cp.apl.valid);
	assert_non_null(strstr(cp.apl.why, "Zen 4/5 only"));
	assert_non_null(strstr(cp.apl.why, "family 0x19 model 0x1"));
	const char *r = record();
	assert_non_null(strstr(r, "\"method\":null,\"pmu\":\"amd_core\",\"valid\":false,\"why\":\"AMD pipeline utilization: Zen 4/5 only"));
	assert_null(strstr(r, "retiring"));
	const uint64_t none[6] = { 0 };
	model(0x19, 0x11, none);
	window(1);
	assert_false(cp.apl.valid);
	assert_string_equal(cp.apl.why, "ls_not_halted_cyc counted 0: no cycles counted");
	r = record();
	assert_non_null(strstr(r, "\"slots\":null,\"slots_why\":\"ls_not_halted_cyc counted 0: no cycles counted\""));
	assert_non_null(strstr(r, "\"retiring\":{\"why\":\"ls_not_halted_cyc counted 0: no cycles counted\"}"));
	/* 4 legacy counters (QEMU TCG's EPYC: no PerfCtrExtCore, no PerfMonV2): none programmed, why */
	model(0x19, 0x11, hand);
	hw_model_cpuid(&m, 0x80000001, 0, 0, 0, 0, 0);
	hw_model_cpuid(&m, 0x80000022, 0, 0, 0, 0, 0);
	for (uint32_t i = 0; i < 4; i++) {
		hw_model_reg(&m, HWM_MSR, 0xC0010000 + i, HWM_PLAIN, 0);   /* PerfEvtSel0-3 */
		hw_model_reg(&m, HWM_MSR, 0xC0010004 + i, HWM_PLAIN, 0);   /* PerfCtr0-3 */
	}
	ref = m;
	window(1);
	assert_non_null(cp.apl_gen);
	assert_int_equal(cp.ac.nused, 0);
	assert_string_equal(cp.apl.why, "pipeline utilization needs 6 core counters at once, this CPU has 4 (legacy)");
	assert_int_equal(m.nlog, 0);
	/* topdown = off: nothing programmed for it */
	model(0x1A, 0x02, hand);
	window(0);
	assert_int_equal(cp.ac.nused, 0);
	assert_int_equal(m.nlog, 0);
}

/* core_events beyond X86_MAX_EVENTS (32 with topdown = on's inputs): with topdown = on the six
 * pipeline inputs hold six of them, and the error says so (the count it names is the user's own
 * events). Within the limit they are multiplexed (tests/unit/test_x86_mux.c checks how). */
static void test_core_events_limit_names_topdown(void **state)
{
	(void)state;
	char list[33 * 11 + 1] = "", err[192];
	for (int i = 0; i < 27; i++)
		strcat(list, "ex_ret_ops ");
	model(0x19, 0x11, hand);
	assert_int_equal(corepmu_probe(&h, &cp), 0);
	struct corepmu_config cfg = { .topdown = 1, .core_events = list, .multiplex = 1 };
	assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), -1);
	assert_string_equal(err, "core_events: 27 events beside topdown = on's inputs: efiperf lists at most 26 (X86_MAX_EVENTS)");
	list[26 * 11] = '\0';   /* 26: they fit, the inputs group 0 and five groups of six */
	assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), 0);
	assert_int_equal(cp.mux.ngroups, 6);
	cfg.multiplex = 0;      /* a window without ticks: no groups, the 26 find no free counter */
	assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), 0);
	assert_int_equal(cp.mux.ngroups, 1);
	assert_int_equal(cp.ac.c[APL_NINPUT].state, CTR_ABSENT);
	assert_string_equal(cp.ac.c[APL_NINPUT].why, "no free core counter (6, PerfMonV2)");
	for (int i = 0; i < 7; i++)   /* 33 without topdown: the plain message */
		strcat(list, "ex_ret_ops ");
	cfg.topdown = 0;
	assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), -1);
	assert_string_equal(err, "core_events: 33 events: efiperf lists at most 32 (X86_MAX_EVENTS)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_equals_pipeline_json),
		cmocka_unit_test(test_inputs_encode_as_json),
		cmocka_unit_test(test_rows_follow_mapfile),
		cmocka_unit_test(test_hand_computed),
		cmocka_unit_test(test_window_zen4_zen5),
		cmocka_unit_test(test_zen3_and_silent_counters),
		cmocka_unit_test(test_core_events_limit_names_topdown),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
