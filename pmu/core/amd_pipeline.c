/* SPDX-License-Identifier: BSD-2-Clause */
/* AMD pipeline utilization levels 1 and 2 (pmu/core/amd_pipeline.h for the formulas and sources). */
#include "pmu/core/amd_pipeline.h"
#include "pmu/core/x86_event.h"
#include "arch/lib/fmt.h"

const char *const apl_cat_name[APL_NCAT] = {
	"frontend_bound", "bad_speculation", "backend_bound", "smt_contention", "retiring",
};

/* Inputs in enum apl_input order, the EventNames of amdzen4/{core,other}.json and
 * amdzen5/{load-store,decode,execution}.json (the same six names on both). */
#define APL_EVENTS { "ls_not_halted_cyc", "de_no_dispatch_per_slot.no_ops_from_frontend", \
		     "de_no_dispatch_per_slot.backend_stalls", "de_no_dispatch_per_slot.smt_contention", \
		     "de_src_op_disp.all", "ex_ret_ops" }

/* PipelineL1 numerators, category (row) x input (column: cycles, fe_no_ops, be_stalls, smt,
 * ops_disp, ret_ops); the denominator is W x ls_not_halted_cyc. The two generations' JSON have
 * the same five expressions; only W differs. */
#define APL_L1 { \
	/* frontend_bound  */ { 0, 1, 0, 0, 0, 0 }, \
	/* bad_speculation */ { 0, 0, 0, 0, 1, -1 }, \
	/* backend_bound   */ { 0, 0, 1, 0, 0, 0 }, \
	/* smt_contention  */ { 0, 0, 0, 1, 0, 0 }, \
	/* retiring        */ { 0, 0, 0, 0, 0, 1 } }

/* Level 2's inputs (enum apl2_input order): amdzen4/{core,branch,other}.json; amdzen5/
 * {execution,branch-prediction}.json. The cmask form is pipeline.json's
 * cpu@de_no_dispatch_per_slot.no_ops_from_frontend,cmask=W@ (PERF_CTL CntMask [31:24], AMD APM
 * Vol.2 section 13.2.1): cycles in which at least W = all slots had no op from the frontend. */
#define APL2_EVENTS(CMASK, RESYNC) { "cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=" CMASK "/", \
				     "ex_ret_brn_misp", RESYNC, "ex_no_retire.load_not_complete", \
				     "ex_no_retire.not_complete", "ex_ret_ucode_ops" }

/* PipelineL2 of pipeline.json as parent x num / den (pmu/core/amd_pipeline.h), W the width; the
 * names differ between generations (amdzen5 adds _by_ / _from_), the expressions do not. */
#define APL_L2(W, FE_LAT, FE_BW, MISP, RESTARTS, MEM, CPU, FAST, UCODE) { \
	{ FE_LAT, -1, { [APL2_FE_LATENCY] = W }, { [APL_CYCLES] = W } }, \
	{ FE_BW, -1, { [APL_FE_NO_OPS] = 1, [APL2_FE_LATENCY] = -W }, { [APL_CYCLES] = W } }, \
	{ MISP, APL_BAD_SPEC, { [APL2_BRN_MISP] = 1 }, { [APL2_BRN_MISP] = 1, [APL2_RESYNC] = 1 } }, \
	{ RESTARTS, APL_BAD_SPEC, { [APL2_RESYNC] = 1 }, { [APL2_BRN_MISP] = 1, [APL2_RESYNC] = 1 } }, \
	{ MEM, APL_BACKEND, { [APL2_LOAD_NC] = 1 }, { [APL2_NOT_COMPLETE] = 1 } }, \
	{ CPU, APL_BACKEND, { [APL2_NOT_COMPLETE] = 1, [APL2_LOAD_NC] = -1 }, { [APL2_NOT_COMPLETE] = 1 } }, \
	{ FAST, APL_RETIRING, { [APL_RET_OPS] = 1, [APL2_UCODE_OPS] = -1 }, { [APL_RET_OPS] = 1 } }, \
	{ UCODE, APL_RETIRING, { [APL2_UCODE_OPS] = 1 }, { [APL_RET_OPS] = 1 } } }

const struct amd_pipeline_gen amd_pipeline_gens[] = {
	{ "Zen 4", X86_GEN_ZEN4, 6, APL_EVENTS, APL_L1,
	  "Linux tools/perf/pmu-events/arch/x86/amdzen4/pipeline.json PipelineL1 (total_dispatch_slots = 6 * ls_not_halted_cyc)",
	  APL2_EVENTS("0x6", "resyncs_or_nc_redirects"),
	  APL_L2(6, "frontend_bound_latency", "frontend_bound_bandwidth", "bad_speculation_mispredicts",
		 "bad_speculation_pipeline_restarts", "backend_bound_memory", "backend_bound_cpu", "retiring_fastpath",
		 "retiring_microcode") },
	{ "Zen 5", X86_GEN_ZEN5, 8, APL_EVENTS, APL_L1,
	  "Linux tools/perf/pmu-events/arch/x86/amdzen5/pipeline.json PipelineL1 (total_dispatch_slots = 8 * ls_not_halted_cyc)",
	  APL2_EVENTS("0x8", "bp_redirects.resync"),
	  APL_L2(8, "frontend_bound_by_latency", "frontend_bound_by_bandwidth", "bad_speculation_from_mispredicts",
		 "bad_speculation_from_pipeline_restarts", "backend_bound_by_memory", "backend_bound_by_cpu",
		 "retiring_from_fastpath", "retiring_from_microcode") },
};
const unsigned amd_pipeline_ngens = sizeof(amd_pipeline_gens) / sizeof(amd_pipeline_gens[0]);

const char amd_pipeline_no_row[] =
	"AMD pipeline utilization: Zen 4/5 only (Linux amdzen1-3 JSON have no PMCx1A0 de_no_dispatch_per_slot)";

const struct amd_pipeline_gen *amd_pipeline_for(uint16_t gens)
{
	for (unsigned i = 0; i < amd_pipeline_ngens; i++)
		if (gens & amd_pipeline_gens[i].gens)
			return &amd_pipeline_gens[i];
	return 0;
}

#define MILLI_PCT 100000   /* 100 % in 1/1000 % */

typedef __int128 i128;

/* q / d rounded to nearest, halves away from 0 (d > 0): a ratio in 1/1000 %. */
static int64_t div_round(i128 q, i128 d)
{
	return (int64_t)((q >= 0 ? q + d / 2 : q - d / 2) / d);
}

/* Why input i has no count: the counter's own why, or "not counted". */
static void input_why(const struct amd_pipeline_gen *g, int i, const char *const *whys, char *why, size_t n)
{
	fmt_snprintf(why, n, "%s: %s", apl_input_name(g, i), whys && whys[i] && whys[i][0] ? whys[i] : "not counted");
}

static void no_cycles(const struct amd_pipeline_gen *g, char *why, size_t n)
{
	fmt_snprintf(why, n, "%s counted 0: no cycles counted", g->event[APL_CYCLES]);
}

void amd_pipeline(const struct amd_pipeline_gen *g, const uint64_t count[APL_NINPUT], uint32_t have,
		  const char *const whys[APL_NINPUT], struct amd_pipeline_out *out)
{
	*out = (struct amd_pipeline_out){ 0 };
	for (int i = 0; i < APL_NINPUT; i++)
		if (!(have & (1u << i))) {
			input_why(g, i, whys, out->why, sizeof(out->why));
			return;
		}
	if (!count[APL_CYCLES]) {
		no_cycles(g, out->why, sizeof(out->why));
		return;
	}
	i128 slots = (i128)g->width * count[APL_CYCLES];
	out->slots = (uint64_t)slots;   /* W <= 8 and 48-bit counts: fits */
	for (int k = 0; k < APL_NCAT; k++) {
		i128 num = 0;
		for (int i = 0; i < APL_NINPUT; i++)
			num += (i128)g->coef[k][i] * count[i];
		out->milli_pct[k] = div_round(num * MILLI_PCT, slots);
	}
	out->valid = 1;
}

const char *apl_input_name(const struct amd_pipeline_gen *g, int i)
{
	return i < APL_NINPUT ? g->event[i] : g->event2[i - APL_NINPUT];
}

int apl2_mixed(const struct amd_pipeline_l2 *m)
{
	int groups = 0;
	for (int i = 0; i < APL_NIN2; i++)
		if (m->num[i] || m->den[i])
			groups |= 1 << apl_input_group(i);
	return groups == 3;
}

/* The first input term of coef[] not in have, or -1. */
static int missing(const int8_t *coef, uint32_t have)
{
	for (int i = 0; i < APL_NIN2; i++)
		if (coef[i] && !(have & (1u << i)))
			return i;
	return -1;
}

static i128 dot(const int8_t *coef, const uint64_t *count)
{
	i128 s = 0;
	for (int i = 0; i < APL_NIN2; i++)
		s += (i128)coef[i] * count[i];
	return s;
}

/* One metric: 0 with *milli, or -1 with why. */
static int l2_one(const struct amd_pipeline_gen *g, const struct amd_pipeline_l2 *m, const uint64_t *count,
		  uint32_t have, const char *const *whys, int64_t *milli, char *why, size_t n)
{
	/* the parent's level-1 numerator row (APL_NINPUT wide) widened to APL_NIN2, so missing()
	 * and dot() read only its own coefficients; all 0 without a parent */
	int8_t cyc[APL_NIN2] = { [APL_CYCLES] = 1 }, pc[APL_NIN2] = { 0 };
	for (int i = 0; m->parent >= 0 && i < APL_NINPUT; i++)
		pc[i] = g->coef[m->parent][i];
	const int8_t *need[] = { m->num, m->den, pc, cyc };
	for (unsigned k = 0; k < sizeof(need) / sizeof(need[0]); k++) {
		int i = missing(need[k], have);
		if (i >= 0) {
			input_why(g, i, whys, why, n);
			return -1;
		}
	}
	i128 pn = 1, pd = 1, num = dot(m->num, count), den = dot(m->den, count);
	if (m->parent >= 0) {   /* the parent's numerator over W x cycles */
		pn = dot(pc, count);
		pd = (i128)g->width * count[APL_CYCLES];
		if (!pd) {
			no_cycles(g, why, n);
			return -1;
		}
	}
	if (den <= 0) {
		size_t o = 0;
		for (int i = 0; i < APL_NIN2; i++)
			if (m->den[i])
				o += (size_t)fmt_snprintf(why + o, n - o, "%s%s", o ? " + " : "", apl_input_name(g, i));
		fmt_snprintf(why + o, n - o, " counted 0: d_ratio's denominator is 0");
		return -1;
	}
	*milli = div_round(pn * num * MILLI_PCT, pd * den);
	return 0;
}

void amd_pipeline_l2(const struct amd_pipeline_gen *g, const uint64_t count[APL_NIN2], uint32_t have,
		     const char *const whys[APL_NIN2], struct amd_pipeline_l2_out *out)
{
	*out = (struct amd_pipeline_l2_out){ 0 };
	for (int k = 0; k < APL2_NMETRIC; k++)
		out->valid[k] = !l2_one(g, &g->l2[k], count, have, whys, &out->milli_pct[k], out->why[k], sizeof(out->why[k]));
}
