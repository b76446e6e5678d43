/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86 core event strings -> event-select field bits (pmu/x86_event.h).
 * Field layouts: Intel IA32_PERFEVTSELx (SDM Vol.3B Figure 20-6; reference §5.1), AMD
 * PerfEvtSel/PERF_CTL (APM Vol.2 13.2.1; reference §1.3: EventSelect[11:8] in [35:32],
 * GuestOnly [40], HostOnly [41]; seed 004 "ADDITIONAL PER-EVENT FEATURES").
 */
#include "pmu/core/x86_event.h"
#include "arch/regs/x86_msr.h"
#include "arch/regs/x86_amd_msr.h"
#include "arch/lib/fmt.h"
#include "arch/lib/parse_num.h"
#include <stdarg.h>
#include <string.h>

enum field_need { NEED_NONE, NEED_ANY };

/* A field: lo_bits at lo_shift, and (AMD event) the value's higher bits at hi_shift. */
struct x86_field {
	const char *name;
	uint8_t lo_shift, lo_bits, hi_shift, hi_bits, need;
};

enum { F_EVENT, F_UMASK, F_CMASK, F_INV, F_EDGE, F_ANY_OR_GUEST, F_HOST, F_MAX };

static const struct x86_field intel_fields[F_MAX] = {
	[F_EVENT] = { "event", EVTSEL_EVENT_SHIFT, 8, 0, 0, NEED_NONE },
	[F_UMASK] = { "umask", EVTSEL_UMASK_SHIFT, 8, 0, 0, NEED_NONE },
	[F_CMASK] = { "cmask", EVTSEL_CMASK_SHIFT, 8, 0, 0, NEED_NONE },
	[F_INV] = { "inv", EVTSEL_INV_SHIFT, 1, 0, 0, NEED_NONE },
	[F_EDGE] = { "edge", EVTSEL_EDGE_SHIFT, 1, 0, 0, NEED_NONE },
	[F_ANY_OR_GUEST] = { "any", EVTSEL_ANY_SHIFT, 1, 0, 0, NEED_ANY },
	[F_HOST] = { NULL, 0, 0, 0, 0, NEED_NONE },
};

static const struct x86_field amd_fields[F_MAX] = {
	[F_EVENT] = { "event", EVTSEL_EVENT_SHIFT, 8, AMD_EVTSEL_EVENT_HI_SHIFT, 4, NEED_NONE },
	[F_UMASK] = { "umask", EVTSEL_UMASK_SHIFT, 8, 0, 0, NEED_NONE },
	[F_CMASK] = { "cmask", EVTSEL_CMASK_SHIFT, 8, 0, 0, NEED_NONE },
	[F_INV] = { "inv", EVTSEL_INV_SHIFT, 1, 0, 0, NEED_NONE },
	[F_EDGE] = { "edge", EVTSEL_EDGE_SHIFT, 1, 0, 0, NEED_NONE },
	[F_ANY_OR_GUEST] = { "guest", AMD_EVTSEL_GUESTONLY_SHIFT, 1, 0, 0, NEED_NONE },
	[F_HOST] = { "host", AMD_EVTSEL_HOSTONLY_SHIFT, 1, 0, 0, NEED_NONE },
};

static const struct x86_field *fields_of(uint8_t vendor)
{
	return vendor == X86_EV_AMD ? amd_fields : intel_fields;
}

static uint64_t field_max(const struct x86_field *f)
{
	return (1ull << (f->lo_bits + f->hi_bits)) - 1;
}

static uint64_t field_bits(const struct x86_field *f, uint64_t v)
{
	uint64_t lo = v & ((1ull << f->lo_bits) - 1);
	uint64_t hi = v >> f->lo_bits;
	return (lo << f->lo_shift) | (f->hi_bits ? hi << f->hi_shift : 0);
}

const struct x86_named_event *x86_named_lookup(uint8_t vendor, uint8_t gens, const char *name, size_t len)
{
	const struct x86_named_event *t = vendor == X86_EV_AMD ? amd_core_events : intel_core_events;
	unsigned n = vendor == X86_EV_AMD ? amd_core_nevents : intel_core_nevents;
	for (unsigned i = 0; i < n; i++)
		if ((t[i].gens & gens) && strlen(t[i].name) == len && !memcmp(t[i].name, name, len))
			return &t[i];
	return NULL;
}

static void named_values(uint8_t vendor, const struct x86_named_event *e, uint64_t v[F_MAX])
{
	v[F_EVENT] = e->event;
	v[F_UMASK] = e->umask;
	v[F_CMASK] = e->cmask;
	v[F_INV] = e->inv;
	v[F_EDGE] = e->edge;
	v[F_ANY_OR_GUEST] = vendor == X86_EV_INTEL ? e->any : 0;
	v[F_HOST] = 0;
}

uint64_t x86_named_config(uint8_t vendor, const struct x86_named_event *e)
{
	uint64_t v[F_MAX], cfg = 0;
	const struct x86_field *f = fields_of(vendor);
	named_values(vendor, e, v);
	for (int i = 0; i < F_MAX; i++)
		if (f[i].name)
			cfg |= field_bits(&f[i], v[i]);
	return cfg;
}

static int fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* memchr is not in the x86_64 app's string set (memcpy, memset, memmove, strlen, memcmp, ...). */
static const char *find(const char *s, size_t n, char c)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == c)
			return s + i;
	return NULL;
}

static const char *vendor_name(uint8_t v) { return v == X86_EV_AMD ? "AMD" : "Intel"; }

/* One "key=value" or bare-name term of the pmu/.../ form (or the whole plain-name form). */
static int term(const char *t, size_t n, const struct x86_event_caps *caps, uint64_t v[F_MAX],
		unsigned *given, int *have_name, char *err, size_t errlen)
{
	const struct x86_field *f = fields_of(caps->vendor);
	const char *eq = find(t, n, '=');
	if (!eq) {
		const struct x86_named_event *e = x86_named_lookup(caps->vendor, caps->gens, t, n);
		if (!e)
			return fail(err, errlen, "unknown event '%.*s' for this CPU", (int)n, t);
		if (*have_name || *given)
			return fail(err, errlen, "event name '%.*s' must come first, once", (int)n, t);
		if (e->arch_bit >= 0 && (uint8_t)e->arch_bit < caps->arch_len &&
		    (caps->arch_unavail >> e->arch_bit) & 1)
			return fail(err, errlen, "event '%.*s' not available: CPUID.0AH:EBX[%d] = 1", (int)n, t,
				    e->arch_bit);
		named_values(caps->vendor, e, v);
		*have_name = 1;
		return 0;
	}
	size_t kn = (size_t)(eq - t);
	int k = -1;
	for (int i = 0; i < F_MAX; i++)
		if (f[i].name && strlen(f[i].name) == kn && !memcmp(f[i].name, t, kn))
			k = i;
	if (k < 0) {
		return fail(err, errlen, "unknown field '%.*s' for %s core events", (int)kn, t,
			    vendor_name(caps->vendor));
	}
	if (*given & (1u << k))
		return fail(err, errlen, "field '%.*s' given twice", (int)kn, t);
	uint64_t x;
	/* at most 2^32-1: wider than any field */
	int r = num_parse_u64(eq + 1, n - kn - 1, UINT32_MAX, &x);
	if (r == NUM_NOT_A_NUMBER)
		return fail(err, errlen, "field '%.*s': not a number", (int)kn, t);
	if (r == NUM_TOO_LARGE || x > field_max(&f[k]))
		return fail(err, errlen, "field '%.*s' out of range (max 0x%llx)", (int)kn, t,
			    (unsigned long long)field_max(&f[k]));
	if (f[k].need == NEED_ANY && x && !caps->any_ok)
		return fail(err, errlen, "field '%.*s': AnyThread not supported (perfmon < 3 or CPUID.0AH:EDX[15] deprecated)",
			    (int)kn, t);
	v[k] = x;
	*given |= 1u << k;
	return 0;
}

int x86_event_parse(const char *s, size_t len, const struct x86_event_caps *caps,
		    struct x86_event *out, char *err, size_t errlen)
{
	uint64_t v[F_MAX] = { 0 };
	unsigned given = 0;
	int have_name = 0;
	memset(out, 0, sizeof(*out));
	fmt_snprintf(out->name, sizeof(out->name), "%.*s", (int)len, s);
	err[0] = 0;
	const char *slash = find(s, len, '/');
	if (!slash) {
		if (term(s, len, caps, v, &given, &have_name, err, errlen))
			return -1;
		if (!have_name)
			return fail(err, errlen, "'%.*s': a field needs the cpu/.../ form", (int)len, s);
	} else {
		size_t pn = (size_t)(slash - s);
		if (!((pn == 3 && !memcmp(s, "cpu", 3)) || (pn == 4 && !memcmp(s, "core", 4))))
			return fail(err, errlen, "unknown PMU '%.*s' (cpu or core)", (int)pn, s);
		if (s[len - 1] != '/' || len < pn + 2)
			return fail(err, errlen, "'%.*s': missing closing '/'", (int)len, s);
		const char *p = slash + 1, *end = s + len - 1;
		while (p < end) {
			const char *c = find(p, (size_t)(end - p), ',');
			size_t tn = (size_t)((c ? c : end) - p);
			if (!tn)
				return fail(err, errlen, "'%.*s': empty term", (int)len, s);
			if (term(p, tn, caps, v, &given, &have_name, err, errlen))
				return -1;
			p += tn + (c ? 1 : 0);
		}
		if (!have_name && !(given & (1u << F_EVENT)))
			return fail(err, errlen, "'%.*s': no event= field and no event name", (int)len, s);
	}
	const struct x86_field *f = fields_of(caps->vendor);
	for (int i = 0; i < F_MAX; i++)
		if (f[i].name)
			out->config |= field_bits(&f[i], v[i]);
	return 0;
}
