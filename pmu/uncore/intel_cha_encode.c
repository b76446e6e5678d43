/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Perf-style CHA event strings -> register values on the one event-string parser
 * (pmu/event_string.h): the platform's field table (pmu/uncore/intel_cha_platforms.c, named as
 * Linux's sysfs format/ files name them: event, umask, umask_ext, filter_opc, filter_nc,
 * filter_state ...) is its grammar, its named events the lookup. `cha/event=0x35,umask=0x4,
 * umask_ext=0xC8F3FE/`, `cha/event=0x35,umask=0x34,filter_opc=0x21e/`,
 * `cha/TOR_INSERTS.IO_MISS_PCIRDCUR/`, `cha/TOR_INSERTS.IO,umask=0x14/` (a field after a named
 * event overrides it, as perf does).
 */
#include "pmu/uncore/intel_cha.h"
#include "pmu/event_string.h"
#include "pmu/events/gen_events.h"
#include "arch/lib/fmt.h"

#include <string.h>

/* The platform's grammar: its field table as event_string fields (sysfs format/ names), on the
 * registers CTL (0), FILTER0 (1), FILTER1 (2). */
struct cha_grammar {
	struct ev_grammar g;      /* first: name_at gets back to the rest from it */
	struct ev_field f[EV_MAX_FIELDS];
	char what[24];
	size_t nhand;             /* names of the hand table, then the catalogue's */
	struct gen_names gen;
};

static const void *lookup(const struct ev_grammar *g, const char *name, size_t len, struct ev_terms *t, char *err,
			  size_t n)
{
	const struct cha_platform *p = g->ctx;
	const struct cha_event *e = cha_event_find(p, name, len);
	static const char *const names[] = { "event", "umask", "umask_ext", "filter_opc", "filter_nc", "filter_state" };
	if (!e) {
		/* not in the hand table: Intel's catalogue (pmu/events/gen_events.h) */
		struct gen_row r;
		if (!gen_lookup("cha", p->name, name, len, &r))
			return NULL;
		if (r.filter) {   /* SKX: perfmon FILTER_VALUE, a FILTER1 value efiperf does not split */
			fmt_snprintf(err, n, "%.*s needs CHA FILTER1 = 0x%x: give it as cha/event=0x%x,umask=0x%x,"
				     "filter_opc=.../", (int)(len > 48 ? 48 : len), name, r.filter, r.event, r.umask);
			return NULL;
		}
		const uint64_t gv[] = { r.event, r.umask, r.umask_ext };
		for (size_t i = 0; i < sizeof(gv) / sizeof(gv[0]); i++)
			if ((i < 2 || gv[i]) && ev_set_named(g, t, names[i], gv[i], err, n))
				return NULL;
		return &gen_named_marker;
	}
	const uint64_t v[] = { e->event, e->umask, e->umask_ext, e->opc, e->nc, e->state };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if ((i < 2 || v[i]) && ev_set_named(g, t, names[i], v[i], err, n))
			return NULL;
	return e;
}

static const char *name_at(const struct ev_grammar *g, size_t i)
{
	const struct cha_platform *p = g->ctx;
	struct cha_grammar *cg = (struct cha_grammar *)(uintptr_t)g;   /* g is cg->g, on the caller's stack */
	if (i < cg->nhand)
		return p->events[i].name;
	return gen_names_at(&cg->gen, i - cg->nhand);
}

static void grammar(const struct cha_platform *p, struct cha_grammar *cg)
{
	unsigned nf = p->nfields < EV_MAX_FIELDS ? p->nfields : EV_MAX_FIELDS;
	for (unsigned i = 0; i < nf; i++) {
		const struct cha_field *c = &p->fields[i];
		cg->f[i] = (struct ev_field){ .name = c->name, .reg = c->target, .shift = c->shift, .bits = c->width,
					      .clears = c->clears };
	}
	fmt_snprintf(cg->what, sizeof(cg->what), "CHA on %s", p->name);
	cg->nhand = 0;
	for (const struct cha_event *e = p->events; e && e->name; e++)
		cg->nhand++;
	gen_names_start(&cg->gen, "cha", p->name);
	cg->g = (struct ev_grammar){ .pmu = { "cha" }, .fields = cg->f, .nfields = (uint8_t)nf, .what = cg->what,
				     .lookup = lookup, .ctx = p, .name_at = name_at };
}

void cha_closest_names(const struct cha_platform *p, const char *s, size_t len, char *why, size_t n)
{
	struct cha_grammar cg;
	grammar(p, &cg);
	ev_closest_names(&cg.g, s, len, why, n);
}

int cha_encode(const struct cha_platform *p, const char *spec, size_t len, struct cha_encoding *out,
	       char *why, size_t n)
{
	struct cha_grammar cg;
	struct ev_terms t;
	*out = (struct cha_encoding){ 0 };
	grammar(p, &cg);
	if (ev_parse(&cg.g, spec, len, 0, &t, why, n))
		return -1;
	uint64_t reg[EV_MAX_REGS] = { p->box.ctl_en, p->filter_default[CHA_FILTER0], p->filter_default[CHA_FILTER1] };
	ev_encode(&cg.g, &t, reg);
	out->ctl = reg[CHA_T_CTL];
	out->filter[CHA_FILTER0] = reg[CHA_T_FILTER0];
	out->filter[CHA_FILTER1] = reg[CHA_T_FILTER1];
	out->event = (uint8_t)out->ctl;
	out->named = t.named == &gen_named_marker ? NULL : t.named;
	for (int i = 0; i < cg.g.nfields; i++)
		if ((t.set & (1u << i)) && cg.f[i].reg != CHA_T_CTL)
			out->uses |= (uint8_t)(1u << (cg.f[i].reg - CHA_T_FILTER0));
	for (int i = 0; i < p->nfilter_uses; i++)
		if (p->filter_uses[i].event == out->event)
			out->uses |= (uint8_t)(1u << p->filter_uses[i].filter);
	return 0;
}

size_t cha_event_spec(const struct cha_platform *p, const struct cha_event *e, char *buf, size_t n)
{
	(void)p;
	size_t k = fmt_snprintf(buf, n, "cha/event=0x%x,umask=0x%x", e->event, e->umask);
	if (e->umask_ext)
		k += fmt_snprintf(buf + (k < n ? k : n), k < n ? n - k : 0, ",umask_ext=0x%x", e->umask_ext);
	if (e->opc)
		k += fmt_snprintf(buf + (k < n ? k : n), k < n ? n - k : 0, ",filter_opc=0x%x", e->opc);
	if (e->nc)
		k += fmt_snprintf(buf + (k < n ? k : n), k < n ? n - k : 0, ",filter_nc=%u", e->nc);
	if (e->state)
		k += fmt_snprintf(buf + (k < n ? k : n), k < n ? n - k : 0, ",filter_state=0x%x", e->state);
	k += fmt_snprintf(buf + (k < n ? k : n), k < n ? n - k : 0, "/");
	return k;
}
