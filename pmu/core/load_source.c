/* SPDX-License-Identifier: BSD-2-Clause */
/* Load source arithmetic and the AMD generation lookup (pmu/core/load_source.h). */
#include "pmu/core/load_source.h"
#include "pmu/core/ctr_state.h"
#include <string.h>

static const char *const level_names[LS_NLEVELS] = {
	[LS_L1] = "L1", [LS_L2] = "L2", [LS_L3] = "L3", [LS_L3_OR_NEAR] = "L3_or_near_cache",
	[LS_NEAR_CACHE] = "near_cache", [LS_DRAM_LOCAL] = "dram_local", [LS_FAR] = "far",
	[LS_FAR_OR_EXT] = "far_or_ext_memory", [LS_FAR_CACHE] = "far_cache", [LS_DRAM_REMOTE] = "dram_remote",
	[LS_MEMORY] = "memory",
};

const char *load_source_level_name(uint8_t level)
{
	return level < LS_NLEVELS ? level_names[level] : "unknown";
}

const struct ls_table *load_source_amd(uint32_t family, uint32_t model)
{
	for (unsigned i = 0; i < ls_amd_ngens; i++)
		if (ls_amd_gens[i].family == family && model >= ls_amd_gens[i].mod_lo && model <= ls_amd_gens[i].mod_hi)
			return ls_amd_gens[i].t;
	return NULL;
}

/* The value of event i: 1 with *v when counted, or not advancing while the table was alive. */
static int value(const struct ls_count *c, int alive, uint64_t *v)
{
	if (c->state == CTR_COUNTED) {
		*v = c->count;
		return 1;
	}
	*v = 0;
	return c->state == CTR_NOT_ADVANCING && alive;
}

static const char *unknown_why(const struct ls_count *c)
{
	switch (c->state) {
	case CTR_ABSENT: return "an event of this level is absent";
	case CTR_FAULTED: return "an event of this level faulted";
	case CTR_NOT_COUNTED: return "an event of this level was not counted (its multiplexed group never ran)";
	default: return "no event of the table advanced: the PMU did not count (emulated?)";
	}
}

static struct ls_level_out *level_slot(struct ls_result *r, uint8_t level)
{
	for (int i = 0; i < r->nlevels; i++)
		if (r->lv[i].level == level)
			return &r->lv[i];
	struct ls_level_out *o = &r->lv[r->nlevels++];
	memset(o, 0, sizeof(*o));
	o->level = level;
	o->known = 1;
	return o;
}

static void unknown(struct ls_level_out *o, const char *why)
{
	if (o->known || !o->why)
		o->why = why;
	o->known = 0;
	o->count = 0;
}

/* Served rows: each adds its count to its level. */
static void served(const struct ls_table *t, const struct ls_count *c, int alive, struct ls_result *r)
{
	for (int i = 0; i < t->n; i++) {
		if (t->ev[i].kind != LS_SERVED)
			continue;
		struct ls_level_out *o = level_slot(r, t->ev[i].level);
		uint64_t v;
		if (!value(&c[i], alive, &v))
			unknown(o, unknown_why(&c[i]));
		else if (o->known)
			o->count += v;
	}
}

/* Cumulative misses (rows in level order): a level served (missed below) - (missed here); the
 * last level's misses went to memory. */
static void missed(const struct ls_table *t, const struct ls_count *c, int alive, int have_denom, uint64_t denom,
		   struct ls_result *r)
{
	int prev_ok = have_denom, any = 0;
	uint64_t prev = denom;
	const char *prev_why = "no denominator counted";
	for (int i = 0; i < t->n; i++) {
		if (t->ev[i].kind != LS_MISSED)
			continue;
		any = 1;
		struct ls_level_out *o = level_slot(r, t->ev[i].level);
		o->derived = 1;
		uint64_t v;
		int ok = value(&c[i], alive, &v);
		if (!prev_ok)
			unknown(o, prev_why);
		else if (!ok)
			unknown(o, unknown_why(&c[i]));
		else if (v > prev)
			unknown(o, "more refills than accesses below this level (prefetch, write or instruction refills)");
		else
			o->count = prev - v;
		prev_ok = ok;
		prev = v;
		prev_why = ok ? NULL : unknown_why(&c[i]);
	}
	if (!any)
		return;
	struct ls_level_out *m = level_slot(r, LS_MEMORY);
	if (prev_ok)
		m->count = prev;
	else
		unknown(m, prev_why);
}

void load_source_compute(const struct ls_table *t, const struct ls_count *c, uint64_t loads, struct ls_result *r)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < t->n; i++)
		r->alive |= c[i].state == CTR_COUNTED;
	/* the denominator: the first counted LS_ACCESSES row */
	for (int i = 0; i < t->n && !r->denominator_from; i++)
		if (t->ev[i].kind == LS_ACCESSES && c[i].state == CTR_COUNTED) {
			r->denominator = c[i].count;
			r->denominator_from = t->ev[i].name;
		}
	served(t, c, r->alive, r);
	if (t->flags & LS_DENOM_SUM) {
		int all = r->nlevels > 0;
		uint64_t sum = 0;
		for (int i = 0; i < r->nlevels; i++) {
			all &= r->lv[i].known;
			sum += r->lv[i].count;
		}
		if (all && sum) {
			r->denominator = sum;
			r->denominator_from = "sum of the served events";
		}
	}
	if (!r->denominator_from && loads) {
		r->denominator = loads;
		r->denominator_from = "the kernel's loads";
	}
	if (t->flags & LS_L1_REST) {
		/* L1 first in the output; it served what no fill served */
		struct ls_level_out keep[LS_NLEVELS];
		int n = r->nlevels;
		memcpy(keep, r->lv, sizeof(keep));
		r->nlevels = 0;
		struct ls_level_out *l1 = level_slot(r, LS_L1);
		memcpy(&r->lv[1], keep, (size_t)n * sizeof(keep[0]));
		r->nlevels = n + 1;
		l1->derived = 1;
		uint64_t fills = 0;
		int all = 1;
		for (int i = 1; i < r->nlevels; i++) {
			all &= r->lv[i].known;
			fills += r->lv[i].count;
		}
		if (!r->denominator_from)
			unknown(l1, "no denominator: the loads are not known");
		else if (!all)
			unknown(l1, "a fill source is not known: L1 = loads - fills cannot be formed");
		else if (fills > r->denominator)
			unknown(l1, "more fills than loads (prefetch or other loads in the window)");
		else
			l1->count = r->denominator - fills;
	}
	missed(t, c, r->alive, r->denominator_from != NULL, r->denominator, r);
	r->valid = r->denominator_from != NULL && r->nlevels > 0;
	if (!r->denominator_from)
		r->why = "no denominator: no access event counted and the kernel's loads are not known";
	for (int i = 0; i < r->nlevels; i++) {
		struct ls_level_out *o = &r->lv[i];
		if (!o->known) {
			if (r->valid)
				r->why = o->why;
			r->valid = 0;
			continue;
		}
		r->attributed += o->count;
		if (r->denominator) {
			o->milli = (uint32_t)((o->count * 1000 + r->denominator / 2) / r->denominator);
			o->has_milli = 1;
		}
	}
	if (!r->alive) {
		r->valid = 0;
		r->why = "no event of the table advanced: the PMU did not count (emulated?)";
	}
}
