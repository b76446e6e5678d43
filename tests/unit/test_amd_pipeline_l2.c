/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AMD pipeline utilization level 2 (topdown = l2, pmu/core/amd_pipeline.h) against outside
 * oracles:
 *   - the table against Linux perf's amdzen4/amdzen5 pipeline.json as
 *     tests/oracle/linux-perf/amd_pipeline.txt holds it: every PipelineL2 metric's expression
 *     text parsed here into parent x (num coefficients) / (den coefficients), total_dispatch_slots
 *     expanded from its own line, compared coefficient by coefficient (16 metrics);
 *   - each level-2 input's PERF_CTL encoding: EventCode / UMask of the extract's event lines, and
 *     for the cmask form CntMask at [31:24] (AMD APM Vol.2 section 13.2.1 "PerfEvtSeln") with the
 *     value the expression names;
 *   - the arithmetic on counts whose percentages were worked out by hand;
 *   - a rotation on a register model whose counters count by the event PERF_CTL selects (the
 *     extract's encodings, a rate per event): group 0 then 1 then 0, counts scaled by
 *     time_enabled / time_running, the values and the record's figures computed by hand.
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
#include "tests/unit/amd_pipeline_oracle.h"
#include "tests/unit/json_check.h"
#include "efi/out/pmu_json.h"

static int setup(void **state)
{
	(void)state;
	return load() > 0 ? 0 : -1;
}

/* ---- the expression parser: linear sums of events, `N * term`, parentheses -------------------- */
struct lin { long c[APL_NIN2]; };
static const struct amd_pipeline_gen *pg;
static unsigned pw;             /* W of total_dispatch_slots, from its own line */
static char pcyc[64];           /* its cycles event */
static const char *ps;          /* parse position */
static int perr;

/* Linux's cpu@EVENT\,cmask\=0xN@ as perf's cpu/EVENT,cmask=0xN/ */
static void cpu_at_to_slash(const char *tok, char *out, size_t n)
{
	size_t o = snprintf(out, n, "cpu/");
	for (const char *p = tok + 4; *p && *p != '@' && o + 2 < n; p++)
		if (*p != '\\')
			out[o++] = *p;
	out[o++] = '/';
	out[o] = 0;
}

static int symbol(const char *tok, struct lin *v)
{
	memset(v, 0, sizeof(*v));
	char name[128];
	if (!strncmp(tok, "cpu@", 4))
		cpu_at_to_slash(tok, name, sizeof(name));
	else
		snprintf(name, sizeof(name), "%s", tok);
	if (!strcmp(name, "total_dispatch_slots")) {
		for (int i = 0; i < APL_NIN2; i++)
			if (!strcmp(apl_input_name(pg, i), pcyc))
				v->c[i] = pw;
		return 0;
	}
	for (int i = 0; i < APL_NIN2; i++)
		if (!strcmp(apl_input_name(pg, i), name)) {
			v->c[i] = 1;
			return 0;
		}
	printf("%s: '%s' is no input of the %s row\n", dir_of(pg), name, pg->gen);
	return -1;
}

static void skip_ws(void) { while (*ps == ' ') ps++; }

static void expr(struct lin *v);
/* factor := NUMBER | SYMBOL | '(' expr ')' ; term := factor ('*' factor)* (one side a number) */
static void factor(struct lin *v, long *num, int *is_num)
{
	skip_ws();
	*is_num = 0;
	if (*ps == '(') {
		ps++;
		expr(v);
		skip_ws();
		perr |= *ps++ != ')';
		return;
	}
	if (*ps >= '0' && *ps <= '9') {
		*num = strtol(ps, (char **)&ps, 0);
		*is_num = 1;
		return;
	}
	char tok[128];
	size_t n = 0;
	if (!strncmp(ps, "cpu@", 4)) {
		const char *e = strchr(ps + 4, '@');
		n = e ? (size_t)(e - ps) + 1 : strlen(ps);
	} else {
		while (ps[n] && strchr(" (),+-*", ps[n]) == NULL)
			n++;
	}
	snprintf(tok, sizeof(tok), "%.*s", (int)n, ps);
	ps += n;
	perr |= !n || symbol(tok, v);
}

static void term(struct lin *v)
{
	long k = 1, num;
	int is_num, have = 0;
	struct lin f;
	memset(v, 0, sizeof(*v));
	for (;;) {
		factor(&f, &num, &is_num);
		if (is_num)
			k *= num;
		else {
			perr |= have++;   /* a product of two events is not linear */
			*v = f;
		}
		skip_ws();
		if (*ps != '*')
			break;
		ps++;
	}
	for (int i = 0; i < APL_NIN2; i++)
		v->c[i] *= k;
}

static void expr(struct lin *v)
{
	int sign = 1;
	memset(v, 0, sizeof(*v));
	for (;;) {
		struct lin t;
		term(&t);
		for (int i = 0; i < APL_NIN2; i++)
			v->c[i] += sign * t.c[i];
		skip_ws();
		if (*ps != '+' && *ps != '-')
			return;
		sign = *ps++ == '-' ? -1 : 1;
	}
}

static int parent_of(const char *s, size_t n)
{
	for (int k = 0; k < APL_NCAT; k++)
		if (strlen(apl_cat_name[k]) == n && !strncmp(apl_cat_name[k], s, n))
			return k;
	return -1;
}

/* "CAT * " at s: the category, s advanced past it; else -1. */
static int take_parent(const char **s)
{
	const char *star = strstr(*s, " * ");
	int k = star ? parent_of(*s, (size_t)(star - *s)) : -1;
	if (k >= 0)
		*s = star + 3;
	return k;
}

/* A PipelineL2 expression as parent x num / den: the three shapes pipeline.json uses,
 *   [CAT *] d_ratio([CAT *] A, B)   CAT * (1 - d_ratio(A, B)) = CAT * (B - A) / B */
static int parse_metric(const char *text, int *parent, struct lin *num, struct lin *den)
{
	const char *s = text;
	perr = 0;
	*parent = take_parent(&s);
	int one_minus = !strncmp(s, "(1 - ", 5);
	s += one_minus ? 5 : 0;
	if (strncmp(s, "d_ratio(", 8))
		return -1;
	s += 8;
	int inner = take_parent(&s);
	if (inner >= 0) {
		if (*parent >= 0)
			return -1;
		*parent = inner;
	}
	ps = s;
	expr(num);
	skip_ws();
	if (*ps++ != ',')
		return -1;
	expr(den);
	skip_ws();
	perr |= *ps++ != ')';
	if (one_minus) {
		skip_ws();
		perr |= *ps++ != ')';
		for (int i = 0; i < APL_NIN2; i++)
			num->c[i] = den->c[i] - num->c[i];
	}
	skip_ws();
	return perr || *ps ? -1 : 0;
}

static void test_l2_table_equals_pipeline_json(void **state)
{
	(void)state;
	int metrics = 0;
	for (unsigned r = 0; r < amd_pipeline_ngens; r++) {
		pg = &amd_pipeline_gens[r];
		const char *dir = dir_of(pg);
		const struct line *t = find(dir, "metric", "total_dispatch_slots");
		assert_non_null(t);
		assert_int_equal(sscanf(t->rest, "%u * %63s", &pw, pcyc), 2);
		int seen[APL2_NMETRIC] = { 0 };
		for (int i = 0; i < nln; i++) {
			if (strcmp(ln[i].dir, dir) || strcmp(ln[i].kind, "metric") || strncmp(ln[i].group, "PipelineL2", 10))
				continue;
			int k = 0;
			while (k < APL2_NMETRIC && strcmp(pg->l2[k].name, ln[i].name))
				k++;
			if (k == APL2_NMETRIC)
				fail_msg("%s %s: a PipelineL2 metric the table lacks", dir, ln[i].name);
			int parent;
			struct lin num, den;
			if (parse_metric(ln[i].rest, &parent, &num, &den))
				fail_msg("%s %s: cannot parse '%s'", dir, ln[i].name, ln[i].rest);
			const struct amd_pipeline_l2 *m = &pg->l2[k];
			if (parent != m->parent)
				fail_msg("%s %s: parent JSON %d, table %d", dir, ln[i].name, parent, m->parent);
			for (int in = 0; in < APL_NIN2; in++)
				if (num.c[in] != m->num[in] || den.c[in] != m->den[in])
					fail_msg("%s %s: %s: JSON num %ld den %ld, table num %d den %d", dir, ln[i].name,
						 apl_input_name(pg, in), num.c[in], den.c[in], m->num[in], m->den[in]);
			seen[k]++;
			metrics++;
		}
		for (int k = 0; k < APL2_NMETRIC; k++)
			if (seen[k] != 1)
				fail_msg("%s: %s appears %d times as a PipelineL2 metric", dir, pg->l2[k].name, seen[k]);
	}
	printf("amd_pipeline.txt: %d PipelineL2 metrics compared coefficient by coefficient\n", metrics);
	assert_int_equal(metrics, 16);
	/* the parser can fail: a changed coefficient or an unknown term */
	pg = &amd_pipeline_gens[0];
	int parent;
	struct lin num, den;
	assert_int_equal(parse_metric("retiring * (1 - d_ratio(ex_ret_ucode_ops, ex_ret_ops))", &parent, &num, &den), 0);
	assert_int_equal(parent, APL_RETIRING);
	assert_int_equal(num.c[APL_RET_OPS], 1);
	assert_int_equal(num.c[APL2_UCODE_OPS], -1);
	assert_int_equal(parse_metric("d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend - (5 * "
				      "cpu@de_no_dispatch_per_slot.no_ops_from_frontend\\,cmask\\=0x6@), total_dispatch_slots)",
				      &parent, &num, &den), 0);
	assert_int_equal(num.c[APL2_FE_LATENCY], -5);
	assert_int_not_equal(num.c[APL2_FE_LATENCY], pg->l2[1].num[APL2_FE_LATENCY]);
	assert_int_equal(parse_metric("d_ratio(ex_ret_brn_misp, ex_ret_brn_misp + bp_redirects.resync)", &parent, &num,
				      &den), -1);   /* Zen 5's event on the Zen 4 row */
}

/* PERF_CTL field bits of an oracle event (tests/unit/amd_perfctl.h); CntMask [31:24] from the
 * expression's cmask (APM Vol.2 13.2.1). */
static uint64_t oracle_config(const char *dir, const char *event, uint64_t cmask)
{
	const struct line *l = find(dir, "event", event);
	if (!l)
		fail_msg("%s: %s not in the extract", dir, event);
	return json_config(l) | cmask << 24;
}

/* The oracle encoding of level-2 input i of gen g: the cmask form's base event and cmask are read
 * from the frontend_bound latency expression's cpu@...@ text. */
static uint64_t input_oracle(const struct amd_pipeline_gen *g, int i)
{
	const char *dir = dir_of(g);
	if (i != APL2_FE_LATENCY)
		return oracle_config(dir, apl_input_name(g, i), 0);
	for (int k = 0; k < nln; k++) {
		const char *at = strstr(ln[k].rest, "cpu@");
		if (strcmp(ln[k].dir, dir) || !at)
			continue;
		char base[80];
		unsigned cm = 0;
		assert_int_equal(sscanf(at, "cpu@%79[^\\]\\,cmask\\=%x@", base, &cm), 2);
		return oracle_config(dir, base, cm);
	}
	fail_msg("%s: no cpu@...,cmask@ form", dir);
	return 0;
}

static void test_l2_inputs_encode_as_json(void **state)
{
	(void)state;
	int n = 0;
	for (unsigned r = 0; r < amd_pipeline_ngens; r++) {
		const struct amd_pipeline_gen *g = &amd_pipeline_gens[r];
		struct x86_event_caps caps = row_caps(g);
		for (int i = APL_NINPUT; i < APL_NIN2; i++) {
			const char *name = apl_input_name(g, i);
			struct x86_event ev;
			char err[192];
			if (x86_event_parse(name, strlen(name), &caps, &ev, err, sizeof(err)))
				fail_msg("%s on %s: %s", name, g->gen, err);
			if (ev.config != input_oracle(g, i))
				fail_msg("%s on %s: 0x%llx, the extract gives 0x%llx", name, g->gen, (unsigned long long)ev.config,
					 (unsigned long long)input_oracle(g, i));
			n++;
		}
	}
	assert_int_equal(n, 12);
	/* literal from the manual: Zen 4's cmask form is EventSelect 1A0h (0xA0 at [7:0], 1 at [35:32]), UnitMask 01h, CntMask 6 */
	assert_int_equal(input_oracle(&amd_pipeline_gens[0], APL2_FE_LATENCY), 0x1060001A0ull);
	assert_int_equal(input_oracle(&amd_pipeline_gens[1], APL2_FE_LATENCY), 0x1080001A0ull);
}

/* ---- arithmetic: percentages worked out by hand ------------------------------------------ */
/* cycles, fe, be, smt, disp, ret | fe_latency, misp, resync, load_nc, not_complete, ucode */
static const uint64_t hand[APL_NIN2] = { 1000, 1200, 1500, 300, 2500, 2100, 150, 30, 10, 400, 1000, 210 };
#define ALL ((1u << APL_NIN2) - 1)

static void test_l2_hand_computed(void **state)
{
	(void)state;
	struct amd_pipeline_l2_out o;
	/* Zen 4 (slots 6000): 6x150/6000 = 15 %; (1200-900)/6000 = 5 %; bad_speculation 400/6000 x
	 * 30/40 = 5 %, x 10/40 = 1.6667 %; backend 25 % x 400/1000 = 10 %, x 600/1000 = 15 %;
	 * retiring 35 % x 1890/2100 = 31.5 %, x 210/2100 = 3.5 % */
	const int64_t z4[APL2_NMETRIC] = { 15000, 5000, 5000, 1667, 10000, 15000, 31500, 3500 };
	amd_pipeline_l2(&amd_pipeline_gens[0], hand, ALL, NULL, &o);
	for (int k = 0; k < APL2_NMETRIC; k++) {
		assert_true(o.valid[k]);
		assert_int_equal(o.milli_pct[k], z4[k]);
	}
	/* Zen 5 (slots 8000): 15 %; (1200-1200)/8000 = 0; 5 % x 3/4 = 3.75 %, x 1/4 = 1.25 %; 18.75 % x
	 * 0.4 = 7.5 %, x 0.6 = 11.25 %; 26.25 % x 0.9 = 23.625 %, x 0.1 = 2.625 % */
	const int64_t z5[APL2_NMETRIC] = { 15000, 0, 3750, 1250, 7500, 11250, 23625, 2625 };
	amd_pipeline_l2(&amd_pipeline_gens[1], hand, ALL, NULL, &o);
	for (int k = 0; k < APL2_NMETRIC; k++)
		assert_int_equal(o.milli_pct[k], z5[k]);
	/* below 0: latency cycles beyond the frontend's empty slots, (1200-1500)/6000 = -5 %; more
	 * retired than dispatched, bad_speculation -30/6000 = -0.5 % x 3/4 = -0.375 % */
	uint64_t c[APL_NIN2];
	memcpy(c, hand, sizeof(c));
	c[APL2_FE_LATENCY] = 250;
	c[APL_OPS_DISP] = 100;
	c[APL_RET_OPS] = 130;
	amd_pipeline_l2(&amd_pipeline_gens[0], c, ALL, NULL, &o);
	assert_int_equal(o.milli_pct[1], -5000);
	assert_int_equal(o.milli_pct[2], -375);
	/* zero denominators and a missing input: why, naming them; the rest still computed */
	memcpy(c, hand, sizeof(c));
	c[APL2_NOT_COMPLETE] = 0;
	c[APL2_BRN_MISP] = c[APL2_RESYNC] = 0;
	const char *whys[APL_NIN2] = { [APL2_UCODE_OPS] = "PERF_CTL: #GP" };
	amd_pipeline_l2(&amd_pipeline_gens[0], c, ALL & ~(1u << APL2_UCODE_OPS), whys, &o);
	assert_false(o.valid[2]);
	assert_string_equal(o.why[2], "ex_ret_brn_misp + resyncs_or_nc_redirects counted 0: d_ratio's denominator is 0");
	assert_false(o.valid[4]);
	assert_string_equal(o.why[4], "ex_no_retire.not_complete counted 0: d_ratio's denominator is 0");
	assert_false(o.valid[7]);
	assert_string_equal(o.why[7], "ex_ret_ucode_ops: PERF_CTL: #GP");
	assert_true(o.valid[0] && o.valid[1]);
	assert_int_equal(o.milli_pct[0], 15000);
	/* no cycles: every metric says so */
	c[APL_CYCLES] = 0;
	amd_pipeline_l2(&amd_pipeline_gens[1], c, ALL, NULL, &o);
	assert_string_equal(o.why[0], "ls_not_halted_cyc counted 0: d_ratio's denominator is 0");
	assert_string_equal(o.why[5], "ls_not_halted_cyc counted 0: no cycles counted");
	/* which metrics take a ratio across the two groups: frontend (cmask form against cycles) and
	 * retiring's split (ex_ret_ucode_ops against ex_ret_ops) */
	static const char *const mixed4[] = { "frontend_bound_latency", "frontend_bound_bandwidth", "retiring_fastpath",
					      "retiring_microcode" };
	int nm = 0;
	for (int k = 0; k < APL2_NMETRIC; k++)
		if (apl2_mixed(&amd_pipeline_gens[0].l2[k]))
			assert_string_equal(amd_pipeline_gens[0].l2[k].name, mixed4[nm++]);
	assert_int_equal(nm, 4);
}

/* ---- a rotation on the register model --------------------------------------------------- */
static struct hw_model m, ref;
static struct hw h;
static struct corepmu cp;
#define CTL_EN_BITS ((1ull << 16) | (1ull << 17) | (1ull << 22))   /* USR, OS, EN (APM Vol.2 13.2.1) */
#define GLOBAL_CTL 0xC0000301u   /* PerfCntrGlobalCtl (APM Vol.2 13.2.2) */
#define PERF_CTL(i) (0xC0010200u + 2 * (i))
#define PERF_CTR(i) (0xC0010201u + 2 * (i))
/* events per model tick of each input (enum apl_input, apl2_input order) */
static const uint64_t rate[APL_NIN2] = { 100, 120, 150, 30, 250, 210, 15, 3, 1, 40, 100, 21 };
static uint64_t rate_config[APL_NIN2];   /* the extract's encoding of each */

/* A counter counts the event its PERF_CTL selects (by the extract's encoding) while EN and its
 * PerfCntrGlobalCtl bit are set. */
static void count_by_event(struct hw_model *hm, unsigned n, void *arg)
{
	(void)arg;
	uint64_t global = hw_model_find(hm, HWM_MSR, GLOBAL_CTL)->value;
	for (uint32_t i = 0; i < 6; i++) {
		uint64_t ctl = hw_model_find(hm, HWM_MSR, PERF_CTL(i))->value;
		if (!(ctl & (1ull << 22)) || !(global & (1ull << i)))
			continue;
		for (int e = 0; e < APL_NIN2; e++)
			if ((ctl & ~CTL_EN_BITS) == rate_config[e]) {
				struct hw_model_reg *r = hw_model_find(hm, HWM_MSR, PERF_CTR(i));
				r->value = (r->value + n * rate[e]) & ((1ull << 48) - 1);
			}
	}
}

static void model(unsigned family, unsigned model_no, unsigned ncounters)
{
	const struct amd_pipeline_gen *g = amd_pipeline_for(corepmu_x86_gens("AuthenticAMD", family, model_no));
	for (int e = 0; g && e < APL_NIN2; e++)
		rate_config[e] = input_oracle(g, e);
	hw_model_init(&m);
	h = hw_model_hw(&m);
	hw_model_cpuid(&m, 0, 0, 0x10, 0x68747541, 0x444d4163, 0x69746e65);   /* AuthenticAMD */
	hw_model_cpuid(&m, 1, 0, ((family - 0xF) << 20) | ((model_no >> 4) << 16) | (0xFu << 8) | ((model_no & 0xF) << 4),
		       0, 0, 0);
	hw_model_cpuid(&m, 0x80000000, 0, 0x80000022, 0, 0, 0);
	hw_model_cpuid(&m, 0x80000001, 0, 0, 0, 1u << 23, 0);                 /* PerfCtrExtCore */
	hw_model_cpuid(&m, 0x80000022, 0, 1, ncounters, 0, 0);                /* PerfMonV2 */
	hw_model_reg(&m, HWM_MSR, GLOBAL_CTL, HWM_PLAIN, 0x40);
	for (uint32_t i = 0; i < 6; i++) {
		hw_model_reg(&m, HWM_MSR, PERF_CTL(i), HWM_PLAIN, 0x4300C0);
		hw_model_reg(&m, HWM_MSR, PERF_CTR(i), HWM_COUNTER, 0x1000 * i);   /* step 0: count_by_event counts */
	}
	m.tick_hook = count_by_event;
	ref = m;
}

static void configure(int topdown, int multiplex, const char *events)
{
	struct corepmu_config cfg = { .topdown = topdown, .core_events = events, .multiplex = multiplex };
	char err[160];
	assert_int_equal(corepmu_probe(&h, &cp), 0);
	assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), 0);
}

/* timer 1 MHz, slice 100 ticks: group 0 runs 0-100 (4 model ticks), group 1 100-200 (2 + 2; the
 * call at 150 is within the slice), group 0 200-300 (4). Group 0: 8 ticks in 200 of 300, scaled
 * x 3/2 = 12 x rate; group 1: 4 ticks in 100 of 300, x 3 = 12 x rate. */
static void window(void)
{
	assert_int_equal(corepmu_start(&h, &cp, 0, 1000000), HW_OK);
	hw_model_tick(&m, 4);
	assert_int_equal(corepmu_tick(&h, &cp, 100), HW_OK);
	hw_model_tick(&m, 2);
	assert_int_equal(corepmu_tick(&h, &cp, 150), HW_OK);
	hw_model_tick(&m, 2);
	assert_int_equal(corepmu_tick(&h, &cp, 200), HW_OK);
	hw_model_tick(&m, 4);
	assert_int_equal(corepmu_stop(&h, &cp, 300), HW_OK);
	assert_int_equal(corepmu_restore(&h, &cp), HW_OK);
	uint32_t id = 0;
	if (hw_model_plain_diff(&m, &ref, NULL, &id))
		fail_msg("register 0x%x not restored", id);
}

static const char *record(void) { return topdown_record(&cp); }

static void expect_text(const char *r, const char *const *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strstr(r, want[i]))
			fail_msg("record lacks %s: %s", want[i], r);
}

/* PERF_CTL(i) was written with value (USR|OS|EN set) at some point. */
static int ctl_written(uint32_t i, uint64_t value)
{
	for (int k = 0; k < m.nlog; k++)
		if (m.log[k].space == HWM_MSR && m.log[k].id == PERF_CTL(i) && m.log[k].value == value)
			return 1;
	return 0;
}

static void test_l2_window_rotates(void **state)
{
	(void)state;
	model(0x19, 0x11, 6);
	configure(2, 1, "");
	assert_true(cp.apl_l2);
	assert_int_equal(cp.mux.ngroups, 2);
	window();
	assert_int_equal(cp.mux.rotations, 2);
	for (uint32_t i = 0; i < 6; i++) {   /* slot i: level 1's input i, then level 2's */
		assert_true(ctl_written(i, rate_config[i] | CTL_EN_BITS));
		assert_true(ctl_written(i, rate_config[APL_NINPUT + i] | CTL_EN_BITS));
	}
	for (int i = 0; i < APL_NIN2; i++)
		assert_int_equal(corepmu_apl_read(&cp, i)->scaled, 12 * rate[i]);
	/* the hand values of test_l2_hand_computed: scaled counts 1.2 x those */
	const int64_t l1[APL_NCAT] = { 20000, 6667, 25000, 5000, 35000 };
	const int64_t z4[APL2_NMETRIC] = { 15000, 5000, 5000, 1667, 10000, 15000, 31500, 3500 };
	assert_true(cp.apl.valid);
	for (int k = 0; k < APL_NCAT; k++)
		assert_int_equal(cp.apl.milli_pct[k], l1[k]);
	for (int k = 0; k < APL2_NMETRIC; k++)
		assert_int_equal(cp.apl2.milli_pct[k], z4[k]);
	static const char *const text[] = {
		"\"valid\":true,\"level\":2,\"formula\":\"Zen 4\"", "\"slots\":7200,",
		"\"inputs_multiplexed\":true,\"inputs_time_enabled\":300000,\"inputs_time_running\":200000,",
		"\"counts\":{\"ls_not_halted_cyc\":1200,",
		"\"level2_time_running\":100000,\"level2_counts\":{\"cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/\":180,"
		"\"ex_ret_brn_misp\":36,\"resyncs_or_nc_redirects\":12,\"ex_no_retire.load_not_complete\":480,"
		"\"ex_no_retire.not_complete\":1200,\"ex_ret_ucode_ops\":252}",
		"\"level2_mixed_groups\":[\"frontend_bound_latency\",\"frontend_bound_bandwidth\",\"retiring_fastpath\","
		"\"retiring_microcode\"]",
		"\"level2\":{\"frontend_bound_latency\":{\"milli_pct\":15000,\"pct\":15.000},"
		"\"frontend_bound_bandwidth\":{\"milli_pct\":5000,\"pct\":5.000},"
		"\"bad_speculation_mispredicts\":{\"milli_pct\":5000,\"pct\":5.000},"
		"\"bad_speculation_pipeline_restarts\":{\"milli_pct\":1667,\"pct\":1.667},"
		"\"backend_bound_memory\":{\"milli_pct\":10000,\"pct\":10.000},\"backend_bound_cpu\":{\"milli_pct\":15000,\"pct\":15.000},"
		"\"retiring_fastpath\":{\"milli_pct\":31500,\"pct\":31.500},\"retiring_microcode\":{\"milli_pct\":3500,\"pct\":3.500}}",
	};
	const char *r = record();
	expect_text(r, text, sizeof(text) / sizeof(text[0]));
	assert_null(strstr(r, "level2_why"));
	/* Zen 5 with one event: group 2 (never run in this window: 2 rotations, 0 -> 1 -> 2), so
	 * groups 0 and 1 ran 100 each: x 3 */
	model(0x1A, 0x02, 6);
	configure(2, 1, "ex_ret_instr");
	assert_int_equal(cp.mux.ngroups, 3);
	assert_int_equal(cp.ac.c[APL_NIN2].group, 2);
	window();
	assert_int_equal(corepmu_apl_read(&cp, APL_CYCLES)->scaled, 3 * 4 * rate[APL_CYCLES]);
	assert_int_equal(corepmu_apl_read(&cp, APL2_RESYNC)->scaled, 3 * 4 * rate[APL2_RESYNC]);
	const int64_t z5[APL2_NMETRIC] = { 15000, 0, 3750, 1250, 7500, 11250, 23625, 2625 };
	for (int k = 0; k < APL2_NMETRIC; k++)
		assert_int_equal(cp.apl2.milli_pct[k], z5[k]);
	r = record();
	assert_non_null(strstr(r, "\"bp_redirects.resync\":12,"));
	assert_non_null(strstr(r, "\"retiring_from_microcode\":{\"milli_pct\":2625,\"pct\":2.625}"));
}

/* Where level 2 cannot run: level 1 with level2_why. */
static void test_l2_fallbacks(void **state)
{
	(void)state;
	model(0x19, 0x11, 6);
	configure(2, 0, "");   /* no ticks: no groups */
	assert_false(cp.apl_l2);
	assert_int_equal(cp.ac.nused, APL_NINPUT);
	window();
	assert_true(cp.apl.valid);
	assert_non_null(strstr(record(), "\"level\":1,\"level2_why\":\"level 2 needs multiplexing (a window with ticks): "
					 "level 1 only\""));
	model(0x19, 0x11, 6);
	configure(1, 1, "");   /* topdown = on: level 1 all the window */
	assert_int_equal(cp.mux.ngroups, 1);
	window();
	assert_int_equal(corepmu_apl_read(&cp, APL_CYCLES)->scaled, 12 * rate[APL_CYCLES]);
	assert_non_null(strstr(record(), "\"level\":1,\"level2_why\":\"topdown = on: level 1 only; topdown = l2 adds "));
	/* with level 2's six inputs, 20 core_events at most */
	char list[21 * 11 + 1] = "", err[192];
	for (int i = 0; i < 21; i++)
		strcat(list, "ex_ret_ops ");
	assert_int_equal(corepmu_probe(&h, &cp), 0);
	struct corepmu_config cfg = { .topdown = 2, .core_events = list, .multiplex = 1 };
	assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), -1);
	assert_string_equal(err, "core_events: 21 events beside topdown = l2's inputs: efiperf lists at most 20 (X86_MAX_EVENTS)");
	list[20 * 11] = '\0';   /* 20 fit: groups 0 and 1 the inputs, 2-5 the events (6, 6, 6, 2) */
	assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), 0);
	assert_int_equal(cp.mux.ngroups, 6);
	assert_int_equal(cp.ac.c[cp.ac.nused - 1].group, 5);
	/* 4 counters (QEMU's EPYC models): neither level, nothing programmed */
	model(0x19, 0x11, 4);
	configure(2, 1, "");
	assert_int_equal(cp.ac.nused, 0);
	assert_int_equal(cp.mux.ngroups, 1);
	const char *r = record();
	assert_non_null(strstr(r, "\"why\":\"pipeline utilization needs 6 core counters at once, this CPU has 4 (PerfMonV2)\""));
	assert_non_null(strstr(r, "\"level2_why\":\"level 2 needs level 1's 6 counters too\""));
	/* Zen 3: no row */
	model(0x19, 0x01, 6);
	configure(2, 1, "");
	assert_null(cp.apl_gen);
	assert_int_equal(cp.ac.nused, 0);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_l2_table_equals_pipeline_json),
		cmocka_unit_test(test_l2_inputs_encode_as_json),
		cmocka_unit_test(test_l2_hand_computed),
		cmocka_unit_test(test_l2_window_rotates),
		cmocka_unit_test(test_l2_fallbacks),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
