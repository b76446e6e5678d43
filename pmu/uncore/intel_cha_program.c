/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one CHA programming sequence, for every platform, against the hardware interface.
 * Uncore MSRs belong to a package, so each step runs on a CPU of that package through
 * hw_run_on_cpu (ref: "Every CHA MSR is package-scoped", PCM socketRefCore).
 *
 *   setup   per box: read BOX_CTL, write it frozen; read the CTLs and filters any group will
 *           write; program the first group; read its counters (the baseline). Then read the
 *           uncore global control and write its unfreeze value (ref 1.5 / 3.1).
 *   run     per box: BOX_CTL unfrozen.
 *   pause   per box: BOX_CTL frozen; read the group's counters; delta modulo 2^48.
 *   switch  per box (frozen): write the CTLs/filters that differ for the next group; read the
 *           baseline of a counter the previous group did not use (it may have moved).
 *   restore every register written, in reverse order, to the value read before the first
 *           write; also after a failed access midway.
 * Counters are never reset (no rst_ctrs): deltas come from baseline reads, so the counters
 * themselves are never written and need no restore, and 48-bit wrap is handled by the mask.
 * Freeze is per box (BOX_CTL frz, ref 1.2 / 3.2: what Linux and PCM both use); the global
 * control is only unfrozen, so a package left frozen by firmware still counts.
 */
#include "pmu/uncore/intel_cha_program.h"
#include "arch/lib/fmt.h"

#define SAVED_BOX 0x01u
#define SAVED_CTL(c) (0x02u << (c))
#define SAVED_FILTER(f) (0x20u << (f))

struct step {
	const struct hw *hw;
	const struct cha_request *req;
	struct cha_result *res;
	uint32_t s;
	enum cha_step op;
	uint32_t group, prev;
	int status;
};

static int access_fail(struct step *t, const char *op, uint32_t msr, const char *what, unsigned box, hw_status st)
{
	if (t->status == 0 && t->res->status == 0)
		fmt_snprintf(t->res->why, sizeof(t->res->why), "%s 0x%x (%s of CHA %u) on CPU %u, socket %u: %s", op,
			     msr, what, box, t->req->cpu[t->s], t->s, hw_status_name(st));
	t->status = -1;
	return -1;
}

static int rd(struct step *t, uint32_t msr, uint64_t *v, const char *what, unsigned box)
{
	t->res->accesses++;
	hw_status st = hw_rdmsr(t->hw, msr, v);
	return st == HW_OK ? 0 : access_fail(t, "rdmsr", msr, what, box, st);
}

static int wr(struct step *t, uint32_t msr, uint64_t v, const char *what, unsigned box)
{
	t->res->accesses++;
	hw_status st = hw_wrmsr(t->hw, msr, v);
	return st == HW_OK ? 0 : access_fail(t, "wrmsr", msr, what, box, st);
}

static const char *const ctl_name[CHA_NUM_COUNTERS] = { "CTL0", "CTL1", "CTL2", "CTL3" };
static const char *const ctr_name[CHA_NUM_COUNTERS] = { "CTR0", "CTR1", "CTR2", "CTR3" };
static const char *const filter_name[CHA_NFILTERS] = { "FILTER0", "FILTER1" };

/* Event of `group` on counter c, or -1. */
static int event_at(const struct cha_request *req, uint32_t group, unsigned c)
{
	for (uint32_t i = 0; i < req->nevents; i++)
		if (req->ev[i].group == group && req->ev[i].counter == c)
			return (int)i;
	return -1;
}

/* Filter value group needs for f, or 0 with *needed = 0. Events of a group agree (grouping). */
static uint64_t group_filter(const struct cha_request *req, uint32_t group, unsigned f, int *needed)
{
	for (uint32_t i = 0; i < req->nevents; i++)
		if (req->ev[i].group == group && (req->ev[i].enc.uses & (1u << f))) {
			*needed = 1;
			return req->ev[i].enc.filter[f];
		}
	*needed = 0;
	return 0;
}

uint8_t cha_counters_used(const struct cha_request *req)
{
	uint8_t m = 0;
	for (uint32_t i = 0; i < req->nevents; i++)
		m |= (uint8_t)(1u << req->ev[i].counter);
	return m;
}

uint8_t cha_filters_used(const struct cha_request *req)
{
	uint8_t m = 0;
	for (uint32_t i = 0; i < req->nevents; i++)
		m |= req->ev[i].enc.uses;
	return m;
}

static uint64_t frozen(const struct cha_platform *p, uint64_t box)
{
	return (box & ~(p->box_rst_ctrl | p->box_rst_ctrs)) | p->box_frz;
}

static uint64_t unfrozen(const struct cha_platform *p, uint64_t box)
{
	return box & ~(p->box_rst_ctrl | p->box_rst_ctrs | p->box_frz);
}

/* Program `group` into a frozen box: changed CTLs and filters; baselines of counters that
 * were not counting for `prev` (prev = group on setup: every counter of the group). */
static int program(struct step *t, unsigned b, struct cha_box_state *bs, uint32_t group, int fresh)
{
	const struct cha_platform *p = t->req->plat;
	for (unsigned f = 0; f < CHA_NFILTERS; f++) {
		int needed;
		uint64_t v = group_filter(t->req, group, f, &needed);
		if (!needed || v == bs->cur_filter[f])
			continue;
		if (wr(t, cha_filter_msr(p, b, f), v, filter_name[f], b))
			return -1;
		bs->written |= (uint8_t)SAVED_FILTER(f);
		bs->cur_filter[f] = v;
	}
	for (unsigned c = 0; c < CHA_NUM_COUNTERS; c++) {
		int e = event_at(t->req, group, c);
		if (e < 0)
			continue;
		uint64_t v = t->req->ev[e].enc.ctl;
		if (v != bs->cur_ctl[c]) {
			if (wr(t, cha_ctl_msr(p, b, c), v, ctl_name[c], b))
				return -1;
			bs->written |= (uint8_t)SAVED_CTL(c);
			bs->cur_ctl[c] = v;
		}
		if ((fresh || event_at(t->req, t->prev, c) < 0) &&
		    rd(t, cha_ctr_msr(p, b, c), &bs->last[c], ctr_name[c], b))
			return -1;
	}
	return 0;
}

static int setup_box(struct step *t, unsigned b, struct cha_box_state *bs)
{
	const struct cha_platform *p = t->req->plat;
	uint32_t box = cha_box_ctl(p, b);
	uint8_t ctrs = cha_counters_used(t->req), filters = cha_filters_used(t->req);
	*bs = (struct cha_box_state){ 0 };
	if (rd(t, box, &bs->saved_box, "BOX_CTL", b))
		return -1;
	bs->saved |= SAVED_BOX;
	if (wr(t, box, frozen(p, bs->saved_box), "BOX_CTL", b))
		return -1;
	bs->written |= SAVED_BOX;
	for (unsigned c = 0; c < CHA_NUM_COUNTERS; c++)
		if (ctrs & (1u << c)) {
			if (rd(t, cha_ctl_msr(p, b, c), &bs->saved_ctl[c], ctl_name[c], b))
				return -1;
			bs->saved |= (uint8_t)SAVED_CTL(c);
			bs->cur_ctl[c] = bs->saved_ctl[c];
		}
	for (unsigned f = 0; f < CHA_NFILTERS; f++)
		if (filters & (1u << f)) {
			if (rd(t, cha_filter_msr(p, b, f), &bs->saved_filter[f], filter_name[f], b))
				return -1;
			bs->saved |= (uint8_t)SAVED_FILTER(f);
			bs->cur_filter[f] = bs->saved_filter[f];
		}
	return program(t, b, bs, t->group, 1);
}

static void pause_box(struct step *t, unsigned b, struct cha_box_state *bs)
{
	const struct cha_platform *p = t->req->plat;
	if (wr(t, cha_box_ctl(p, b), frozen(p, bs->saved_box), "BOX_CTL", b))
		return;
	for (unsigned c = 0; c < CHA_NUM_COUNTERS; c++) {
		int e = event_at(t->req, t->group, c);
		uint64_t v;
		if (e < 0)
			continue;
		if (rd(t, cha_ctr_msr(p, b, c), &v, ctr_name[c], b))
			return;
		t->res->sock[t->s].raw[e] += (v - bs->last[c]) & CHA_CTR_MASK;
		bs->last[c] = v;
	}
}

static void restore_box(struct step *t, unsigned b, struct cha_box_state *bs)
{
	const struct cha_platform *p = t->req->plat;
	/* reverse of the write order: filters and CTLs while frozen, BOX_CTL last */
	for (int f = CHA_NFILTERS - 1; f >= 0; f--)
		if ((bs->written & SAVED_FILTER(f)) && wr(t, cha_filter_msr(p, b, (unsigned)f), bs->saved_filter[f],
							  filter_name[f], b) == 0)
			bs->written &= (uint8_t)~SAVED_FILTER(f);
	for (int c = CHA_NUM_COUNTERS - 1; c >= 0; c--)
		if ((bs->written & SAVED_CTL(c)) &&
		    wr(t, cha_ctl_msr(p, b, (unsigned)c), bs->saved_ctl[c], ctl_name[c], b) == 0)
			bs->written &= (uint8_t)~SAVED_CTL(c);
	if ((bs->written & SAVED_BOX) && wr(t, cha_box_ctl(p, b), bs->saved_box, "BOX_CTL", b) == 0)
		bs->written &= (uint8_t)~SAVED_BOX;
}

static void step_fn(void *arg)
{
	struct step *t = arg;
	const struct cha_platform *p = t->req->plat;
	struct cha_result *res = t->res;
	uint32_t s = t->s, n = t->req->topo.ncha[s];
	struct cha_box_state *box = res->box[s];
	switch (t->op) {
	case CHA_STEP_SETUP:
		for (unsigned b = 0; b < n && !t->status; b++)
			setup_box(t, b, &box[b]);
		if (!t->status && rd(t, p->global_ctl, &res->saved_global[s], "global control", 0) == 0) {
			res->global_saved[s] = 1;
			if (wr(t, p->global_ctl, p->global_unfreeze, "global control", 0) == 0)
				res->global_written[s] = 1;
		}
		break;
	case CHA_STEP_RUN:
		for (unsigned b = 0; b < n && !t->status; b++)
			wr(t, cha_box_ctl(p, b), unfrozen(p, box[b].saved_box), "BOX_CTL", b);
		break;
	case CHA_STEP_PAUSE:
		for (unsigned b = 0; b < n && !t->status; b++)
			pause_box(t, b, &box[b]);
		break;
	case CHA_STEP_SWITCH:
		for (unsigned b = 0; b < n && !t->status; b++)
			program(t, b, &box[b], t->group, 0);
		break;
	case CHA_STEP_RESTORE:
		for (unsigned b = n; b-- > 0;)
			restore_box(t, b, &box[b]);
		if (res->global_written[s] && wr(t, p->global_ctl, res->saved_global[s], "global control", 0) == 0)
			res->global_written[s] = 0;
		if (t->status)
			res->restore_failed = 1;
		break;
	}
}

int cha_step(const struct hw *hw, const struct cha_request *req, struct cha_result *res, uint32_t s,
	     enum cha_step op, uint32_t group, uint32_t prev)
{
	struct step t = { hw, req, res, s, op, group, prev, 0 };
	hw_status st = hw_run_on_cpu(hw, req->cpu[s], step_fn, &t);
	if (st != HW_OK) {
		if (!res->status)
			fmt_snprintf(res->why, sizeof(res->why), "run on CPU %u (socket %u): %s", req->cpu[s], s,
				     hw_status_name(st));
		res->status = -1;
		if (op == CHA_STEP_RESTORE)
			res->restore_failed = 1;
		return -1;
	}
	if (t.status)
		res->status = -1;
	return t.status;
}
