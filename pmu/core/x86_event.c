/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86 core event strings -> event-select field bits (pmu/core/x86_event.h), on the one
 * perf-style parser pmu/event_string with a grammar per vendor. Field layouts: Intel
 * IA32_PERFEVTSELx (SDM Vol.3B, figure "Layout of IA32_PERFEVTSELx MSRs"), AMD PerfEvtSel /
 * PERF_CTL (AMD APM Vol.2 section 13.2.1: EventSelect[11:8] in [35:32], GuestOnly [40],
 * HostOnly [41]; libpfm4 docs/man3/libpfm_amd64.3 for the same layout).
 */
#include "pmu/core/x86_event.h"
#include "pmu/event_string.h"
#include "arch/regs/x86_msr.h"
#include "arch/regs/x86_amd_msr.h"
#include "arch/lib/fmt.h"
#include <string.h>

#define CAP_ANY 0x1u   /* Intel AnyThread: perfmon v3+ and not deprecated (CPUID.0AH:EDX[15]) */

/* Fields as Linux's sysfs format/ files name them (cpu: event, umask, edge, any, inv, cmask;
 * AMD core adds the event's bits [11:8] at [35:32], guest, host). */
static const struct ev_field intel_fields[] = {
	{ .name = "event", .shift = EVTSEL_EVENT_SHIFT, .bits = 8 },
	{ .name = "umask", .shift = EVTSEL_UMASK_SHIFT, .bits = 8 },
	{ .name = "edge", .shift = EVTSEL_EDGE_SHIFT, .bits = 1 },
	{ .name = "any", .shift = EVTSEL_ANY_SHIFT, .bits = 1, .need = CAP_ANY,
	  .need_why = "AnyThread not supported (perfmon < 3 or CPUID.0AH:EDX[15] deprecated)" },
	{ .name = "inv", .shift = EVTSEL_INV_SHIFT, .bits = 1 },
	{ .name = "cmask", .shift = EVTSEL_CMASK_SHIFT, .bits = 8 },
};

static const struct ev_field amd_fields[] = {
	{ .name = "event", .shift = EVTSEL_EVENT_SHIFT, .bits = 8, .hi_shift = AMD_EVTSEL_EVENT_HI_SHIFT, .hi_bits = 4 },
	{ .name = "umask", .shift = EVTSEL_UMASK_SHIFT, .bits = 8 },
	{ .name = "edge", .shift = EVTSEL_EDGE_SHIFT, .bits = 1 },
	{ .name = "inv", .shift = EVTSEL_INV_SHIFT, .bits = 1 },
	{ .name = "cmask", .shift = EVTSEL_CMASK_SHIFT, .bits = 8 },
	{ .name = "guest", .shift = AMD_EVTSEL_GUESTONLY_SHIFT, .bits = 1 },
	{ .name = "host", .shift = AMD_EVTSEL_HOSTONLY_SHIFT, .bits = 1 },
};

/* The CPUs of each generation bit, as the model map rows give them (pmu/core/x86_corepmu.c). */
static const struct { uint16_t gen; const char *name; } gen_names[] = {
	{ X86_GEN_SNB, "Intel Sandy Bridge..Broadwell" },
	{ X86_GEN_SKL, "Intel Skylake..Comet Lake" },
	{ X86_GEN_ICL, "Intel Ice/Tiger/Rocket Lake" },
	{ X86_GEN_GLC, "Intel Golden/Raptor/Redwood Cove P-core" },
	{ X86_GEN_CMT, "Intel Crestmont E-core (Sierra Forest)" },
	{ X86_GEN_DKT, "Intel Darkmont E-core (Clearwater Forest)" },
	{ X86_GEN_ARCH, "Intel, architectural events only" },
	{ X86_GEN_ZEN1, "AMD Zen/Zen+ (Family 17h 00h-2Fh, Hygon 18h)" },
	{ X86_GEN_ZEN4, "AMD Zen 4 (Family 19h, amdzen4 models)" },
	{ X86_GEN_ZEN, "AMD Zen 2/3 (Family 17h 30h+, Family 19h models that are not Zen 4)" },
	{ X86_GEN_ZEN5, "AMD Zen 5 (Family 1Ah, amdzen5 models)" },
};

const char *x86_gen_name(uint16_t gens)
{
	for (unsigned i = 0; i < sizeof(gen_names) / sizeof(gen_names[0]); i++)
		if (gens & gen_names[i].gen)
			return gen_names[i].name;
	return "no named-event table";
}

const struct x86_named_event *x86_named_lookup(uint8_t vendor, uint16_t gens, const char *name, size_t len)
{
	const struct x86_named_event *t = vendor == X86_EV_AMD ? amd_core_events : intel_core_events;
	unsigned n = vendor == X86_EV_AMD ? amd_core_nevents : intel_core_nevents;
	for (unsigned i = 0; i < n; i++)
		if ((t[i].gens & gens) && strlen(t[i].name) == len && !memcmp(t[i].name, name, len))
			return &t[i];
	return NULL;
}

/* A named event's fields into t. */
static int named_terms(const struct ev_grammar *g, const struct x86_named_event *e, struct ev_terms *t, char *err,
		       size_t n)
{
	const struct { const char *field; uint64_t v; } f[] = {
		{ "event", e->event }, { "umask", e->umask }, { "cmask", e->cmask }, { "inv", e->inv },
		{ "edge", e->edge }, { "any", e->any },
	};
	for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if ((f[i].v || i < 2) && ev_set_named(g, t, f[i].field, f[i].v, err, n))
			return -1;
	return 0;
}

static const void *lookup(const struct ev_grammar *g, const char *name, size_t len, struct ev_terms *t, char *err,
			  size_t n)
{
	const struct x86_event_caps *caps = g->ctx;
	const struct x86_named_event *e = x86_named_lookup(caps->vendor, caps->gens, name, len);
	if (!e) {
		/* An event of other generations only: the event list of this CPU's generation lacks it */
		const struct x86_named_event *other = x86_named_lookup(caps->vendor, X86_GEN_ALL, name, len);
		fmt_snprintf(err, n, "unknown event '%.*s' for this CPU, %s: %s (or %s/event=..../)", (int)len, name,
			     x86_gen_name(caps->gens), other ? "not an event of its generation" : "not a named event",
			     g->pmu[0]);
		return NULL;
	}
	if (e->arch_bit >= 0 && (uint8_t)e->arch_bit < caps->arch_len && (caps->arch_unavail >> e->arch_bit) & 1) {
		fmt_snprintf(err, n, "event '%.*s' not available: CPUID.0AH:EBX[%d] = 1", (int)len, name, e->arch_bit);
		return NULL;
	}
	return named_terms(g, e, t, err, n) ? NULL : e;
}

/* The i-th named event of the CPU's generations. */
static const char *name_at(const struct ev_grammar *g, size_t i)
{
	const struct x86_event_caps *caps = g->ctx;
	const struct x86_named_event *t = caps->vendor == X86_EV_AMD ? amd_core_events : intel_core_events;
	unsigned n = caps->vendor == X86_EV_AMD ? amd_core_nevents : intel_core_nevents;
	for (unsigned k = 0; k < n; k++)
		if ((t[k].gens & caps->gens) && !i--)
			return t[k].name;
	return NULL;
}

static struct ev_grammar grammar(const struct x86_event_caps *caps)
{
	int amd = caps->vendor == X86_EV_AMD;
	return (struct ev_grammar){
		.pmu = { "cpu", "core", NULL },
		.fields = amd ? amd_fields : intel_fields,
		.nfields = (uint8_t)(amd ? sizeof(amd_fields) / sizeof(amd_fields[0]) : sizeof(intel_fields) / sizeof(intel_fields[0])),
		.bare_name = 1,
		.what = amd ? "AMD core" : "Intel core",
		.lookup = lookup,
		.name_at = name_at,
		.ctx = caps,
	};
}

uint64_t x86_named_config(uint8_t vendor, const struct x86_named_event *e)
{
	struct x86_event_caps caps = { .vendor = vendor };
	struct ev_grammar g = grammar(&caps);
	struct ev_terms t = { 0 };
	char err[8];
	uint64_t regs[EV_MAX_REGS] = { 0 };
	if (named_terms(&g, e, &t, err, sizeof(err)))
		return 0;
	ev_encode(&g, &t, regs);
	return regs[0];
}

int x86_event_parse(const char *s, size_t len, const struct x86_event_caps *caps,
		    struct x86_event *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	fmt_snprintf(out->name, sizeof(out->name), "%.*s", (int)len, s);
	struct ev_grammar g = grammar(caps);
	struct ev_terms t;
	if (ev_parse(&g, s, len, caps->any_ok ? CAP_ANY : 0, &t, err, errlen))
		return -1;
	uint64_t regs[EV_MAX_REGS] = { 0 };
	ev_encode(&g, &t, regs);
	out->config = regs[0];
	return 0;
}
