/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Arm PMUv3 event sets on event counters 1..N-1 (counter 0 keeps INST_RETIRED, the cycle counter
 * CPU_CYCLES; pmu/core/armv8_pmuv3.c programs them): `core_events` in the armv8_pmuv3 grammar,
 * the Neoverse TopDown L1 inputs, and the default set. Whether the CPU implements a common event
 * is PMCEID0_EL0 / PMCEID1_EL0 (Arm ARM D23 PMCEID0_EL0: bit n = event n for 0x0000-0x001F,
 * bit 32 + n = event 0x4000 + n; PMCEID1_EL0 the same for 0x0020-0x003F and 0x4020-0x403F).
 * Events outside those two ranges (STALL_FRONTEND_FLUSH 0x8162) have no PMCEID bit (Linux's
 * armv8pmu_event_attr_is_visible() shows none of them either): TopDown programs one only on a
 * core whose telemetry specification uses it (pmu/core/arm_topdown.h), saying so in its why.
 * More core_events, TopDown inputs or events of the default list than the N - 1 event counters
 * besides INST_RETIRED's go to further groups, counted in turn (pmu/core/core_mux.h); only the
 * fillers after the default list (other implemented common events) open no group: they take the
 * last group's free counters. A wanted event that is not programmed (not implemented, no PMCEID
 * bit and no core that uses it, wider than evtCount, or no event counter at all) is listed in
 * s->left[] with why: never dropped silently.
 */
#include "pmu/core/core_counters.h"
#include "arch/regs/arm_sysreg.h"
#include "arch/lib/fmt.h"
#include "pmu/event_string.h"
#include "pmu/events/arm_common_events.h"
#include "pmu/core/arm_topdown.h"

/* Event counters a group has for events: PMCR_EL0.N less counter 0 (INST_RETIRED). */
static uint32_t per_group(const struct core_set *s)
{
	return s->ngp > 1 ? s->ngp - 1 : 0;
}

/* Another event can be counted: c[] has room and the event counters are not 0 (it may open a
 * new multiplexed group). */
static int room(const struct core_set *s)
{
	return s->n < CORE_MAX_COUNTERS && per_group(s) > 0;
}

/* The fillers' room: a free event counter in the last group (fillers open no group). */
static int room_in_last_group(const struct core_set *s)
{
	uint32_t e = (uint32_t)(s->n - ARMV8_C_INST - 1);
	return room(s) && (e == 0 || e % per_group(s) != 0);
}

/* c[s->n] takes the next free event counter, in order: group e / (N - 1), counter 1 + e % (N - 1). */
static struct core_counter *add(struct core_set *s, const char *event, uint16_t code)
{
	uint32_t e = (uint32_t)(s->n - ARMV8_C_INST - 1), k = per_group(s);
	struct core_counter *c = &s->c[s->n++];
	*c = (struct core_counter){ .event = event, .unit = "events", .width_mask = s->c[ARMV8_C_INST].width_mask,
				    .code = code, .group = (uint8_t)(e / k), .ctr = (uint8_t)(1 + e % k) };
	s->ngroups = e / k + 1;
	return c;
}

/* ---- core_events: the armv8_pmuv3 grammar (pmu/event_string.h) ------------------------- */

/* Linux's PMU format for the Arm PMUv3 (drivers/perf/arm_pmuv3.c, format attribute "event" =
 * config:0-15): evtCount [15:0] of PMEVTYPER<n>_EL0 (16 bits from FEAT_PMUv3p1, 10 before). */
static const struct ev_field pmuv3_fields[] = {
	{ .name = "event", .reg = 0, .shift = 0, .bits = 16 },
};

static const void *pmuv3_lookup(const struct ev_grammar *g, const char *name, size_t len, struct ev_terms *t,
				char *err, size_t n)
{
	const struct arm_common_event *e = arm_common_event_find(name, len);
	if (!e) {
		fmt_snprintf(err, n, "'%.*s' is not an Arm PMUv3 common event", (int)len, name);
		return NULL;
	}
	return ev_set_named(g, t, "event", e->code, err, n) == 0 ? e : NULL;
}

static const char *pmuv3_name_at(const struct ev_grammar *g, size_t i)
{
	(void)g;
	return i < arm_ncommon_events ? arm_common_events[i].name : NULL;
}

static const struct ev_grammar pmuv3_grammar = {
	.pmu = { "armv8_pmuv3", "armv8_pmuv3_0", NULL },
	.fields = pmuv3_fields,
	.nfields = 1,
	.bare_name = 1,
	.what = "Arm PMUv3",
	.lookup = pmuv3_lookup,
	.name_at = pmuv3_name_at,
};

/* PMCEID0/1_EL0 say whether common event `code` is implemented; -1: not a common event. */
static int implemented(const struct core_set *s, uint32_t code)
{
	uint32_t base = code >= PMCEID_EXT_BASE ? PMCEID_EXT_BASE : 0, k = code - base;
	if (k >= PMCEID_EVENTS)
		return -1;
	uint32_t bit = (k % 32) + (base ? 32 : 0);
	return (int)((s->ceid[k / 32] >> bit) & 1);
}

int armv8_pmuv3_configure(struct core_set *s, const char *events, char *err, size_t n)
{
	const char *p = events;
	while (*p) {
		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		const char *e = p;
		int slashes = 0;
		while (*e && !(*e == ',' && slashes % 2 == 0))   /* a ',' inside pmu/.../ is a term separator */
			slashes += *e++ == '/';
		size_t len = (size_t)(e - p);
		while (len && p[len - 1] == ' ')
			len--;
		struct ev_terms t;
		char why[96];
		if (ev_parse(&pmuv3_grammar, p, len, 0, &t, why, sizeof(why)) != 0) {
			fmt_snprintf(err, n, "core_events: '%.*s': %s", (int)len, p, why);
			return -1;
		}
		uint32_t code = (uint32_t)t.v[0];
		uint32_t evmask = s->version >= PMUVer_V3P1 ? PMEVTYPER_EVTCOUNT_MASK_V3P1 : PMEVTYPER_EVTCOUNT_MASK_V3;
		const struct arm_common_event *ce = arm_common_event_by_code((uint16_t)code);
		int impl = implemented(s, code);
		if (code & ~evmask) {
			fmt_snprintf(err, n, "core_events: '%.*s': event 0x%x wider than evtCount (%s)", (int)len, p, code,
				     s->version >= PMUVer_V3P1 ? "16 bits" : "10 bits before PMUv3p1");
			return -1;
		}
		if (impl == 0) {
			fmt_snprintf(err, n, "core_events: '%.*s': %s (0x%x) is not implemented by this CPU (PMCEID%d_EL0)",
				     (int)len, p, ce ? ce->name : "event", code, (code % PMCEID_EXT_BASE) >= 32);
			return -1;
		}
		if (!room(s)) {
			if (per_group(s))
				fmt_snprintf(err, n, "core_events: '%.*s': more than %d events (efiperf multiplexes at most that many)",
					     (int)len, p, CORE_MAX_COUNTERS - ARMV8_C_INST - 1);
			else
				fmt_snprintf(err, n, "core_events: '%.*s': no event counter left (PMCR_EL0.N = %u, counter 0 holds INST_RETIRED)",
					     (int)len, p, s->ngp);
			return -1;
		}
		struct core_counter *c = add(s, ce ? ce->name : "IMPLEMENTATION DEFINED", (uint16_t)code);
		if (impl < 0)
			fmt_snprintf(c->why, sizeof(c->why), "0x%x: %s, PMCEID0/1_EL0 cannot say", code,
				     ce ? "no PMCEID0/1_EL0 bit" : "IMPLEMENTATION DEFINED");
		p = e;
	}
	return 0;
}

static void left_out(struct core_set *s, const char *event, const char *why)
{
	for (uint32_t i = 0; i < s->nleft && i < CORE_MAX_LEFT_OUT; i++)
		if (s->left[i].event == event)   /* wanted twice (TopDown and the defaults): listed once */
			return;
	if (s->nleft < CORE_MAX_LEFT_OUT)
		s->left[s->nleft] = (struct core_left_out){ event, why };
	s->nleft++;
}

/* Add common event e unless it is there already; else list it as left out. An event with no
 * PMCEID0/1_EL0 bit is programmed only when `user` names the core whose published event list
 * has it (its counter's why says so), else left out. td: a TopDown input (marked), else an event
 * of the default set; either opens a new multiplexed group when the last one is full. */
static void want(struct core_set *s, const struct arm_common_event *e, const char *user, int td)
{
	for (int k = ARMV8_C_INST + 1; k < s->n; k++)
		if (s->c[k].code == e->code) {
			s->c[k].topdown |= (uint8_t)td;
			return;
		}
	if (s->c[ARMV8_C_INST].code == e->code && s->c[ARMV8_C_INST].state != CTR_ABSENT)
		return;   /* INST_RETIRED on counter 0 in every group */
	int impl = implemented(s, e->code);
	uint32_t evmask = s->version >= PMUVer_V3P1 ? PMEVTYPER_EVTCOUNT_MASK_V3P1 : PMEVTYPER_EVTCOUNT_MASK_V3;
	if (impl == 0)
		left_out(s, e->name, "not implemented (PMCEID0/1_EL0)");
	else if (impl < 0 && !user)
		left_out(s, e->name, "no PMCEID0/1_EL0 bit and no TopDown formula of this core uses it");
	else if (e->code & ~evmask)
		left_out(s, e->name, "wider than evtCount (10 bits before PMUv3p1)");
	else if (!room(s))
		left_out(s, e->name, "no event counter left (PMCR_EL0.N < 2, or more events than efiperf multiplexes)");
	else {
		struct core_counter *c = add(s, e->name, e->code);
		c->topdown = (uint8_t)td;
		if (impl < 0)
			fmt_snprintf(c->why, sizeof(c->why), "0x%x: no PMCEID0/1_EL0 bit; %s TopDown uses it", e->code, user);
	}
}

static void want_named(struct core_set *s, const char *name, const char *user, int td)
{
	size_t len = 0;
	while (name[len])
		len++;
	const struct arm_common_event *e = arm_common_event_find(name, len);
	if (e)
		want(s, e, user, td);
}

void armv8_pmuv3_add_topdown(struct core_set *s)
{
	const struct arm_td_formula *f = arm_td_formula_for(s->midr);
	uint32_t in = arm_td_inputs(f);
	for (int i = 0; i < ATD_NINPUT; i++)
		if (i != ATD_CPU_CYCLES && (in & (1u << i)))   /* CPU_CYCLES: PMCCNTR_EL0, always there */
			want_named(s, arm_td_input_name[i], f->core, 1);
}

/* The default set, in priority order: what the copy, stream and latency windows move through
 * first (cache refills at each level and the last-level read misses), then why the core waited
 * (frontend and backend stalls, mispredicts), then accesses and the rest. */
static const char *const defaults[] = {
	"L1D_CACHE_REFILL", "L2D_CACHE_REFILL", "LL_CACHE_MISS_RD", "STALL_FRONTEND", "STALL_BACKEND",
	"BR_MIS_PRED", "MEM_ACCESS", "L1D_CACHE", "L2D_CACHE", "BUS_ACCESS", "L1D_TLB_REFILL", "INST_SPEC",
	"L1I_CACHE_REFILL", "BR_RETIRED", "LL_CACHE_RD", "L3D_CACHE_REFILL",
};
const char *const *const armv8_pmuv3_default_events = defaults;
const unsigned armv8_pmuv3_ndefault_events = sizeof(defaults) / sizeof(defaults[0]);

/* Fillers for the counters the list leaves free in its last group (they open no group of their
 * own, so they add no multiplexed window): neither SW_INCR (counts only software writes) nor
 * CHAIN (pairs an odd counter with the even one below it). */
#define EV_SW_INCR 0x0000
#define EV_CHAIN   0x001E

void armv8_pmuv3_add_defaults(struct core_set *s)
{
	for (unsigned i = 0; i < armv8_pmuv3_ndefault_events; i++)
		want_named(s, defaults[i], NULL, 0);
	for (unsigned i = 0; i < arm_ncommon_events && room_in_last_group(s); i++) {
		const struct arm_common_event *e = &arm_common_events[i];
		if (e->code != EV_SW_INCR && e->code != EV_CHAIN && implemented(s, e->code) == 1)
			want(s, e, NULL, 0);
	}
}
