/* SPDX-License-Identifier: BSD-2-Clause */
/* The uncore box programming sequence (pmu/uncore/box_program.h). */
#include "pmu/uncore/box_program.h"
#include "arch/lib/fmt.h"

static const char *const reg_kind[] = {
	[BOX_REG_UNIT_CTL] = "BOX_CTL", [BOX_REG_CTL] = "CTL", [BOX_REG_CTR] = "CTR",
	[BOX_REG_FILTER] = "FILTER", [BOX_REG_STATUS] = "STATUS",
};

/* A register of a box, or the package control (global), with what names it in messages. */
struct reg_at {
	struct reg_ref r;
	enum box_reg kind;
	unsigned box, i;
	int global;
};

struct step {
	const struct hw *hw;
	struct box_package *pk;
	const struct box_plan *pl;
};

static struct reg_at box_at(const struct step *t, unsigned b, enum box_reg kind, unsigned i)
{
	unsigned n = t->pk->first_box + b;
	return (struct reg_at){ box_reg(t->pk->type, t->pk->site, n, kind, i), kind, n, i, 0 };
}

static int fail(struct step *t, const char *op, struct reg_at a, hw_status st)
{
	struct box_package *pk = t->pk;
	if (!pk->status) {
		char reg[48], what[40];
		reg_name(a.r, reg, sizeof(reg));
		if (a.global)
			fmt_snprintf(what, sizeof(what), "uncore global control");
		else if (a.kind == BOX_REG_UNIT_CTL || a.kind == BOX_REG_STATUS)
			fmt_snprintf(what, sizeof(what), "%s of %s %u", reg_kind[a.kind], pk->type->name, a.box);
		else
			fmt_snprintf(what, sizeof(what), "%s%u of %s %u", reg_kind[a.kind], a.i, pk->type->name, a.box);
		fmt_snprintf(pk->why, sizeof(pk->why), "%s %s (%s) on CPU %u, socket %u: %s", op, reg, what, pk->cpu,
			     pk->socket, hw_status_name(st));
	}
	pk->status = -1;
	return -1;
}

/* Read a counter (never saved: counters are not written); a counter of a type with
 * ctr_split32 is two 32-bit reads, low then high, taken while the box is stopped. */
static int rd(struct step *t, struct reg_at a, uint64_t *v)
{
	t->pk->accesses++;
	hw_status st = reg_read(t->hw, a.r, v);
	if (st == HW_OK && a.kind == BOX_REG_CTR && t->pk->type->ctr_split32) {
		struct reg_at hi = a;
		uint64_t h = 0;
		hi.r.addr += 4;
		t->pk->accesses++;
		st = reg_read(t->hw, hi.r, &h);
		if (st != HW_OK)
			return fail(t, "read", hi, st);
		*v = (*v & 0xFFFFFFFFull) | h << 32;
	}
	return st == HW_OK ? 0 : fail(t, "read", a, st);
}

/* A type without a unit control starts and stops each counter with its CTL enable bit. */
static int per_counter(const struct step *t)
{
	return !box_has(t->pk->type, BOX_REG_UNIT_CTL, 0);
}

/* The CTL value while the box is stopped: as planned, or with the enable bit clear where the
 * enable bit is what stops the counter. */
static uint64_t ctl_stopped(const struct step *t, uint64_t v)
{
	return per_counter(t) ? v & ~t->pk->type->ctl_en : v;
}

/* Save (read and remember) a register that a later step writes. *v: the value found. */
static int save(struct step *t, struct reg_at a, uint64_t *v)
{
	if (!saveset_lookup(t->pk->save, a.r, NULL))
		t->pk->accesses++;
	hw_status st = saveset_save(t->hw, t->pk->save, a.r, v);
	return st == HW_OK ? 0 : fail(t, "read", a, st);
}

/* Write a register, saving it first if it is not yet saved. */
static int wr(struct step *t, struct reg_at a, uint64_t v)
{
	t->pk->accesses += saveset_lookup(t->pk->save, a.r, NULL) ? 1 : 2;
	hw_status st = saveset_write(t->hw, t->pk->save, a.r, v);
	return st == HW_OK ? 0 : fail(t, "write", a, st);
}

uint8_t box_plan_counters(const struct box_plan *pl)
{
	uint8_t m = 0;
	for (uint32_t g = 0; g < pl->ngroups; g++)
		for (unsigned c = 0; c < BOX_MAX_COUNTERS; c++)
			if (pl->slot[g][c] >= 0)
				m |= (uint8_t)(1u << c);
	return m;
}

uint8_t box_plan_filters(const struct box_plan *pl)
{
	uint8_t m = 0;
	for (uint32_t g = 0; g < pl->ngroups; g++)
		m |= pl->filters[g];
	return m;
}

static uint64_t found(const struct step *t, unsigned b)
{
	uint64_t v = 0;
	saveset_lookup(t->pk->save, box_at(t, b, BOX_REG_UNIT_CTL, 0).r, &v);
	return v;
}

/* Program `group` into a frozen box: the filters and event selects that differ; baselines of
 * counters that were not counting in `prev` (every counter of the group when fresh). */
static int program(struct step *t, unsigned b, uint32_t group, uint32_t prev, int fresh)
{
	const struct box_plan *pl = t->pl;
	struct box_state *bs = &t->pk->box[b];
	for (unsigned f = 0; f < BOX_MAX_FILTERS; f++) {
		uint64_t v = pl->filter[group][f];
		if (!(pl->filters[group] & (1u << f)) || v == bs->cur_filter[f])
			continue;
		if (wr(t, box_at(t, b, BOX_REG_FILTER, f), v))
			return -1;
		bs->cur_filter[f] = v;
	}
	for (unsigned c = 0; c < t->pk->type->num_counters; c++) {
		if (pl->slot[group][c] < 0)
			continue;
		uint64_t v = ctl_stopped(t, pl->ctl[group][c]);
		if (v != bs->cur_ctl[c]) {
			if (wr(t, box_at(t, b, BOX_REG_CTL, c), v))
				return -1;
			bs->cur_ctl[c] = v;
		}
		if ((fresh || pl->slot[prev][c] < 0) && rd(t, box_at(t, b, BOX_REG_CTR, c), &bs->last[c]))
			return -1;
	}
	return 0;
}

static int setup_box(struct step *t, unsigned b)
{
	const struct uncore_box_type *ty = t->pk->type;
	struct box_state *bs = &t->pk->box[b];
	uint8_t ctrs = box_plan_counters(t->pl), filters = box_plan_filters(t->pl);
	uint64_t box;
	*bs = (struct box_state){ 0 };
	if (!per_counter(t) && (save(t, box_at(t, b, BOX_REG_UNIT_CTL, 0), &box) ||
				wr(t, box_at(t, b, BOX_REG_UNIT_CTL, 0), box_frozen(ty, box))))
		return -1;
	for (unsigned c = 0; c < ty->num_counters; c++)
		if ((ctrs & (1u << c)) && save(t, box_at(t, b, BOX_REG_CTL, c), &bs->cur_ctl[c]))
			return -1;
	for (unsigned f = 0; f < BOX_MAX_FILTERS; f++)
		if ((filters & (1u << f)) && save(t, box_at(t, b, BOX_REG_FILTER, f), &bs->cur_filter[f]))
			return -1;
	return program(t, b, 0, 0, 1);
}

/* Start (on) or stop the counters of `group` through their enable bits (per_counter types). */
static int enable_counters(struct step *t, unsigned b, uint32_t group, int on)
{
	struct box_state *bs = &t->pk->box[b];
	for (unsigned c = 0; c < t->pk->type->num_counters; c++) {
		if (t->pl->slot[group][c] < 0)
			continue;
		uint64_t v = on ? bs->cur_ctl[c] | t->pk->type->ctl_en : ctl_stopped(t, bs->cur_ctl[c]);
		if (wr(t, box_at(t, b, BOX_REG_CTL, c), v))
			return -1;
		bs->cur_ctl[c] = v;
	}
	return 0;
}

static void pause_box(struct step *t, unsigned b, uint32_t group)
{
	const struct uncore_box_type *ty = t->pk->type;
	struct box_state *bs = &t->pk->box[b];
	if (per_counter(t) ? enable_counters(t, b, group, 0)
			   : wr(t, box_at(t, b, BOX_REG_UNIT_CTL, 0), box_frozen(ty, found(t, b))))
		return;
	for (unsigned c = 0; c < ty->num_counters; c++) {
		int slot = t->pl->slot[group][c];
		uint64_t v;
		if (slot < 0)
			continue;
		if (rd(t, box_at(t, b, BOX_REG_CTR, c), &v))
			return;
		t->pk->raw[slot] += (v - bs->last[c]) & box_ctr_mask(ty);
		bs->last[c] = v;
	}
}

static uint32_t written(const struct saveset *s)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < s->n; i++)
		n += s->e[i].written;
	return n;
}

int box_step(const struct hw *hw, struct box_package *pk, const struct box_plan *pl, enum box_step op,
	     uint32_t group, uint32_t prev)
{
	struct step t = { hw, pk, pl };
	const struct uncore_box_type *ty = pk->type;
	if (op != BOX_RESTORE && pk->status)
		return -1;
	switch (op) {
	case BOX_SETUP:
		for (unsigned b = 0; b < pk->nboxes && !pk->status; b++)
			setup_box(&t, b);
		if (!pk->status && box_has_global(ty)) {
			struct reg_at g = { box_global_reg(ty, pk->site), BOX_REG_UNIT_CTL, 0, 0, 1 };
			if (!save(&t, g, NULL))
				wr(&t, g, ty->global_unfreeze);
		}
		break;
	case BOX_RUN:
		for (unsigned b = 0; b < pk->nboxes && !pk->status; b++) {
			if (per_counter(&t))
				enable_counters(&t, b, group, 1);
			else
				wr(&t, box_at(&t, b, BOX_REG_UNIT_CTL, 0), box_unfrozen(ty, found(&t, b)));
		}
		break;
	case BOX_PAUSE:
		for (unsigned b = 0; b < pk->nboxes && !pk->status; b++)
			pause_box(&t, b, group);
		break;
	case BOX_SWITCH:
		for (unsigned b = 0; b < pk->nboxes && !pk->status; b++)
			program(&t, b, group, prev, 0);
		break;
	case BOX_RESTORE: {
		pk->accesses += written(pk->save);
		return saveset_restore(hw, pk->save) == HW_OK ? 0 : -1;
	}
	}
	return pk->status;
}

struct on_cpu {
	const struct hw *hw;
	struct box_package *pk;
	const struct box_plan *pl;
	enum box_step op;
	uint32_t group, prev;
	int rc;
};

static void on_cpu(void *arg)
{
	struct on_cpu *a = arg;
	a->rc = box_step(a->hw, a->pk, a->pl, a->op, a->group, a->prev);
}

int box_step_on(const struct hw *hw, uint32_t cpu, struct box_package *pk, const struct box_plan *pl,
		enum box_step op, uint32_t group, uint32_t prev, hw_status *run_st)
{
	struct on_cpu a = { hw, pk, pl, op, group, prev, -1 };
	*run_st = hw_run_on_cpu(hw, cpu, on_cpu, &a);
	return *run_st == HW_OK ? a.rc : -1;
}

int box_restore_report(const struct saveset *sets, uint32_t nsets, const char *what, struct saveset_report *r,
		       char *why, size_t n)
{
	for (uint32_t s = 0; s < nsets; s++)
		saveset_report_add(&sets[s], r);
	if (!r->nfailed && !r->dropped)
		return 0;
	size_t k = fmt_snprintf(why, n, "%u %s register(s) not restored:", r->nfailed + r->dropped, what);
	for (uint32_t i = 0; i < r->nfailed && i < SAVESET_REPORT_FAILED && k < n; i++) {
		char name[48];
		reg_name(r->failed[i], name, sizeof(name));
		k += fmt_snprintf(why + k, n - k, "%s %s (%s)", i ? "," : "", name, hw_status_name((hw_status)r->failed_st[i]));
	}
	return 1;
}
