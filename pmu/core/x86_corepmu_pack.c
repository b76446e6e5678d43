/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `core_events` on the x86 core counters (corepmu_add_events, pmu/core/x86_corepmu.h): parsed,
 * then placed on the general counters topdown = on's inputs left free, and, when they need
 * more, packed into multiplexed groups (pmu/core/x86_mux.h) in the order given.
 *
 * Rule: N general counters (CPUID.0AH:EAX[15:8] on Intel, the AMD layout's count), P of them
 * taken by TopDown's general-counter inputs (Intel before Ice Lake) or AMD's pipeline inputs,
 * F = N - P free. Events that fit in F are one group (not multiplexed). More: groups of F, the
 * inputs pinned (every group, so the TopDown ratios stay exact). When the inputs take every
 * counter (F = 0): AMD's six pipeline inputs on six counters become group 0, all together (their
 * ratios stay exact), and the events groups 1.. of N; Intel's TopDown inputs stay pinned and
 * the events are absent with why (their cycles come from fixed counter 1, which runs all along:
 * mixing it with inputs of one group would make the ratios estimates). With topdown = l2 on
 * Zen 4/5 the pipeline inputs are groups 0 and 1 (level 1's, level 2's: apl_plan in
 * pmu/core/x86_corepmu_run.c) and the events groups 2...
 */
#include "pmu/core/x86_corepmu.h"
#include "arch/lib/fmt.h"

/* The next space-separated event of *p, its length in *len (0 at the end). */
static const char *next_event(const char **p, size_t *len)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t')
		s++;
	const char *q = s;
	while (*q && *q != ' ' && *q != '\t')
		q++;
	*len = (size_t)(q - s);
	*p = q;
	return s;
}

/* Parse every event of list (the first error stops); their number, or -1. */
static int parse_all(const struct corepmu *cp, const char *list, char *err, size_t errlen)
{
	const char *p = list, *s;
	size_t len;
	int n = 0;
	while ((s = next_event(&p, &len)), len) {
		struct x86_event ev;
		char e2[288];   /* the error and its closest-names list */
		n++;
		if (x86_event_parse(s, len, &cp->caps, &ev, e2, sizeof(e2))) {
			fmt_snprintf(err, errlen, "core_events: event %d: %s", n, e2);
			return -1;
		}
	}
	return n;
}

static int add(struct corepmu *cp, const struct x86_event *ev, int slot, uint8_t group)
{
	int amd = cp->backend == CP_AMD_CORE;
	if (slot < 0)
		return amd ? amd_core_add(&cp->ac, ev->name, ev->config) : intel_core_add(&cp->ic, ev->name, ev->config);
	return amd ? amd_core_add_on(&cp->ac, ev->name, ev->config, slot, group)
		   : intel_core_add_on(&cp->ic, ev->name, ev->config, slot, group);
}

/* Mark the inputs already listed (entries 0..n-1) pinned, or group 0 (0). */
static void inputs_group(struct corepmu *cp, uint8_t group)
{
	struct x86_ctr *c = cp->backend == CP_AMD_CORE ? cp->ac.c : cp->ic.gp;
	int n = cp->backend == CP_AMD_CORE ? cp->ac.nused : cp->ic.ngp_used;
	for (int i = 0; i < n; i++)
		c[i].group = group;
}

int corepmu_add_events(struct corepmu *cp, const char *list, int multiplex, char *err, size_t errlen)
{
	int amd = cp->backend == CP_AMD_CORE;
	int nin = amd ? cp->ac.nused : cp->ic.ngp_used;   /* topdown = on's inputs, listed first */
	int ncnt = amd ? cp->ac.ncounters : (int)cp->ic.ngp;
	int pinned = amd ? cp->ac.nhw : cp->ic.nhw, nfree = ncnt - pinned;
	int u = parse_all(cp, list ? list : "", err, errlen);
	uint8_t ngin = amd && cp->apl_l2 ? 2 : 1;   /* groups the inputs already fill */
	cp->mux.ngroups = ngin;
	if (u <= 0)
		return u;
	if (nin + u > X86_MAX_EVENTS) {
		fmt_snprintf(err, errlen, "core_events: %d events%s: efiperf lists at most %d (X86_MAX_EVENTS)", u,
			     nin ? (ngin > 1 ? " beside topdown = l2's inputs" : " beside topdown = on's inputs") : "", X86_MAX_EVENTS - nin);
		return -1;
	}
	uint8_t base = 0;
	int group0 = multiplex && amd && nfree <= 0 && nin && cp->topdown_on;   /* the inputs are group 0 */
	if (group0) {
		base = ngin;
		pinned = 0;
		nfree = ncnt;
	}
	int mux = multiplex && nfree > 0 && (u > nfree || group0);
	if (mux) {
		int ng = base + (u + nfree - 1) / nfree;
		if (ng > X86_MUX_MAX_GROUPS) {
			fmt_snprintf(err, errlen, "core_events: %d events in groups of %d counters%s need %d groups: efiperf "
				     "rotates at most %d (X86_MUX_MAX_GROUPS)", u, nfree,
				     base ? (ngin > 1 ? " after topdown = l2's inputs' 2 groups" : " after topdown = on's inputs' group") : "", ng, X86_MUX_MAX_GROUPS);
			return -1;
		}
		cp->mux.ngroups = (uint8_t)ng;
		if (ngin == 1)
			inputs_group(cp, base ? 0 : X86_PINNED);
	}
	const char *p = list, *s;
	size_t len;
	for (int e = 0; (s = next_event(&p, &len)), len; e++) {
		struct x86_event ev;
		char e2[8];
		x86_event_parse(s, len, &cp->caps, &ev, e2, sizeof(e2));   /* parsed above */
		add(cp, &ev, mux ? pinned + e % nfree : -1, (uint8_t)(base + (mux ? e / nfree : 0)));
	}
	return 0;
}
