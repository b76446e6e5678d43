/* SPDX-License-Identifier: BSD-2-Clause */
/* uncore_events' bare names against the CPU's uncore tables (pmu/uncore/uncore_names.h). */
#include "pmu/uncore/uncore_names.h"
#include "pmu/uncore/intel_uncore.h"
#include "pmu/uncore/amd_uncore.h"
#include "pmu/events/gen_events.h"
#include "pmu/event_string.h"
#include "arch/lib/fmt.h"

#include <string.h>

struct tables {
	const struct intel_uncore_platform *ip;
	const struct amd_uncore_family *af;
	/* name_at's walk of the Intel catalogue after the hand tables: box gen_box's names,
	 * numbered from gen_base */
	struct gen_names gen;
	int gen_box;
	size_t gen_base;
};

/* Every box's names in turn (the grammar's name_at over all of them). */
/* Name i of the Intel catalogue of every box in turn (i counted from the first box's first). */
static const char *gen_name_at(struct tables *t, size_t i)
{
	if (t->gen_box < 0 || i < t->gen_base) {    /* start (again) at the first box */
		t->gen_box = 0;
		t->gen_base = 0;
		t->gen.u = NULL;
	}
	for (; t->gen_box < INTEL_NBOX; t->gen_box++) {
		if (!t->gen.u) {
			const char *unit = "", *plat = "";
			intel_uncore_gen_unit(&t->ip->box[t->gen_box], &unit, &plat);
			gen_names_start(&t->gen, unit, plat);
			if (!t->gen.u)
				t->gen.u = &gen_intel_units[0], t->gen.plat = -1;   /* none: an empty box */
		}
		const char *name = gen_names_at(&t->gen, i - t->gen_base);
		if (name)
			return name;
		t->gen_base += t->gen.next == (size_t)-1 ? 0 : t->gen.next;
		t->gen.u = NULL;
	}
	return NULL;
}

static const char *name_at(const struct ev_grammar *g, size_t i)
{
	struct tables *t = (struct tables *)(uintptr_t)g->ctx;   /* uncore_names_check's, on its stack */
	for (int b = 0; t->ip && b < INTEL_NBOX; b++) {
		if (i < t->ip->box[b].nevents)
			return t->ip->box[b].events[i].name;
		i -= t->ip->box[b].nevents;
	}
	for (int b = 0; t->af && b < AMD_NBOX; b++) {
		if (!t->af->box[b].pmu)
			continue;
		if (i < t->af->box[b].nevents)
			return t->af->box[b].events[i].name;
		i -= t->af->box[b].nevents;
	}
	return t->ip ? gen_name_at(t, i) : NULL;
}

static int known(const struct tables *t, const char *s, size_t len)
{
	struct gen_row r;
	for (int b = 0; t->ip && b < INTEL_NBOX; b++)
		if (intel_uncore_event_find(&t->ip->box[b], s, len) || intel_uncore_gen_find(&t->ip->box[b], s, len, &r))
			return 1;
	for (int b = 0; t->af && b < AMD_NBOX; b++)
		if (t->af->box[b].pmu && amd_uncore_event_find(&t->af->box[b], s, len))
			return 1;
	return 0;
}

int uncore_names_check(const char *vendor, uint32_t family, uint32_t model, const char *events, char *why,
		       size_t n)
{
	struct tables t = { .gen_box = -1 };
	if (!strcmp(vendor, "GenuineIntel"))
		t.ip = intel_uncore_platform_for(family, model);
	else if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine"))
		t.af = amd_uncore_family_for(family, model);
	if (!t.ip && !t.af)
		return 0;
	const char *s = events, *tok;
	size_t len;
	while ((len = ev_next_token(&s, &tok)) != 0) {
		int has_pmu = 0;
		for (size_t i = 0; i < len; i++)
			has_pmu |= tok[i] == '/';
		if (has_pmu || known(&t, tok, len))
			continue;
		struct ev_grammar g = { .what = "uncore", .ctx = &t, .name_at = name_at };
		fmt_snprintf(why, n, "'%.*s': no uncore event of %s by that name", (int)(len > 60 ? 60 : len), tok,
			     t.ip ? t.ip->name : t.af->name);
		ev_closest_names(&g, tok, len, why, n);
		return -1;
	}
	return 0;
}
