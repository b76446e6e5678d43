/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CHA measurement as the run uses it: prepare a request (platform, topology, events,
 * groups), then program, run the window in slices, read, restore, scale and compute metrics.
 *
 * Multiplexing: a filter register is one per box, shared by its four counters (Linux uncore_snbep.c
 * num_shared_regs = 1), so events that need different FILTER values cannot count together.
 * Events are packed greedily into groups of at most four counters whose filter values agree;
 * events 0x11/0x36 take counter 0 (skx_uncore_chabox_constraints). Only when that yields more than one group are
 * groups rotated: slice k runs group k mod G, and every count is scaled by window time / time
 * its group ran (perf's enabled/running). One group: no rotation, counts exact.
 */
#include "pmu/uncore/intel_cha.h"
#include "pmu/uncore/intel_cha_program.h"
#include "arch/lib/fmt.h"

#include <string.h>

static int is_space(char c) { return c == ' ' || c == '\t'; }

/* An event the box type allows on counter 0 alone (the grouping below places it there). */
static int ctr0_only(const struct cha_platform *p, uint8_t event)
{
	return box_event_counters(&p->box, event) == 0x1;
}

static int add_event(struct cha_request *req, const char *s, size_t len, char *why, size_t n)
{
	const struct cha_platform *p = req->plat;
	if (req->nevents >= CHA_MAX_EVENTS) {
		fmt_snprintf(why, n, "more than %u CHA events", CHA_MAX_EVENTS);
		return -1;
	}
	struct cha_event_sel *ev = &req->ev[req->nevents];
	char spec[CHA_SPEC_MAX];
	const struct cha_event *named = NULL;
	if (len >= 4 && !memcmp(s, "cha/", 4)) {
		if (len >= sizeof(spec)) {
			fmt_snprintf(why, n, "event %.40s...: longer than %u bytes", s, CHA_SPEC_MAX - 1);
			return -1;
		}
		memcpy(spec, s, len);
		spec[len] = 0;
	} else {
		const struct cha_event *e = named = cha_event_find(p, s, len);
		if (!e) {
			fmt_snprintf(why, n, "%.*s: no such %s CHA event (and not cha/.../)", (int)(len > 60 ? 60 : len), s,
				     p->name);
			return -1;
		}
		cha_event_spec(p, e, spec, sizeof(spec));
		len = strlen(spec);
	}
	char err[120];
	if (cha_encode(p, spec, len, &ev->enc, err, sizeof(err))) {
		fmt_snprintf(why, n, "CHA event %u (%.60s): %s", req->nevents + 1, spec, err);
		return -1;
	}
	memcpy(ev->spec, spec, len + 1);
	if (named)
		ev->enc.named = named;   /* given by name: the spec is its field form */
	ev->name = ev->enc.named ? ev->enc.named->name : NULL;
	req->nevents++;
	return 0;
}

static int fits(const struct cha_request *req, uint32_t g, const struct cha_event_sel *e, unsigned *count,
		int *has_ctr0)
{
	if (count[g] >= req->plat->box.num_counters || (has_ctr0[g] && ctr0_only(req->plat, e->enc.event)))
		return 0;
	for (uint32_t i = 0; i < req->nevents && &req->ev[i] != e; i++) {
		const struct cha_event_sel *o = &req->ev[i];
		if (o->group != g)
			continue;
		for (unsigned f = 0; f < CHA_NFILTERS; f++)
			if ((o->enc.uses & e->enc.uses & (1u << f)) && o->enc.filter[f] != e->enc.filter[f])
				return 0;
	}
	return 1;
}

static void form_groups(struct cha_request *req)
{
	unsigned count[CHA_MAX_GROUPS] = { 0 };
	int has_ctr0[CHA_MAX_GROUPS] = { 0 };
	req->ngroups = 0;
	for (uint32_t i = 0; i < req->nevents; i++) {
		struct cha_event_sel *e = &req->ev[i];
		uint32_t g = 0;
		while (g < req->ngroups && !fits(req, g, e, count, has_ctr0))
			g++;
		if (g == req->ngroups)
			req->ngroups++;
		e->group = (uint8_t)g;
		count[g]++;
		if (ctr0_only(req->plat, e->enc.event))
			has_ctr0[g] = 1;
	}
	/* counters: a counter-0-only event first, the others in order after it */
	for (uint32_t g = 0; g < req->ngroups; g++) {
		uint8_t next = has_ctr0[g] ? 1 : 0;
		for (uint32_t i = 0; i < req->nevents; i++)
			if (req->ev[i].group == g)
				req->ev[i].counter = ctr0_only(req->plat, req->ev[i].enc.event) ? 0 : next++;
	}
}

int cha_request_events(struct cha_request *req, const char *events, char *why, size_t n)
{
	req->nevents = 0;
	if (!events || !*events) {
		for (uint8_t i = 0; i < req->plat->ndefault; i++) {
			const char *name = req->plat->default_events[i];
			if (add_event(req, name, strlen(name), why, n))
				return -1;
		}
	} else {
		const char *s = events;
		while (*s) {
			const char *e = s;
			while (*e && *e != ';')
				e++;
			const char *a = s, *b = e;
			while (a < b && is_space(*a))
				a++;
			while (b > a && is_space(b[-1]))
				b--;
			if (a == b) {
				fmt_snprintf(why, n, "empty entry in the CHA event list at byte %u", (unsigned)(s - events));
				return -1;
			}
			if (add_event(req, a, (size_t)(b - a), why, n))
				return -1;
			s = *e ? e + 1 : e;
		}
	}
	form_groups(req);
	return 0;
}

int cha_prepare(const struct hw *hw, uint32_t family, uint32_t model, const struct cha_pci_scope *scope,
		size_t nscope, uint32_t nsockets, const uint32_t *cpu, uint32_t cha_count,
		const char *events, uint32_t rounds, struct cha_request *req, char *why, size_t n)
{
	memset(req, 0, sizeof(*req));
	req->plat = cha_platform_for_cpu(family, model);
	if (!req->plat) {
		fmt_snprintf(why, n, "no CHA table for CPU family %u model 0x%x", family, model);
		return -1;
	}
	if (!nsockets || nsockets > CHA_MAX_SOCKETS) {
		fmt_snprintf(why, n, "%u sockets: outside 1..%u", nsockets, CHA_MAX_SOCKETS);
		return -1;
	}
	for (uint32_t s = 0; s < nsockets; s++)
		req->cpu[s] = cpu ? cpu[s] : 0;
	req->rounds = rounds ? rounds : 1;
	if (cha_request_events(req, events, why, n))
		return -1;
	if (cha_count)
		return cha_topology_from_count(req->plat, nsockets, cha_count, &req->topo, why, n);
	return cha_discover_on(hw, req->plat, scope, nscope, nsockets, req->cpu, &req->topo, why, n);
}

static uint64_t scale(uint64_t raw, uint64_t window, uint64_t ran, uint32_t ngroups)
{
	if (ngroups <= 1)
		return raw;               /* counted the whole window: exact */
	if (!ran)
		return 0;
	return (uint64_t)((unsigned __int128)raw * window / ran);
}

static void all_sockets(const struct hw *hw, const struct cha_request *req, struct cha_result *res,
			enum box_step op, uint32_t group, uint32_t prev)
{
	for (uint32_t s = 0; s < req->topo.nsockets && (op == BOX_RESTORE || !res->status); s++)
		cha_step(hw, req, res, s, op, group, prev);
}

/* The restore of every socket into res->restore; a register not put back fails the measurement
 * whatever failed before, with restore_why naming the registers. */
static void restore_report(struct cha_result *res)
{
	if (!box_restore_report(res->save, res->nsockets, "CHA", &res->restore, res->restore_why,
				sizeof(res->restore_why)))
		return;
	if (!res->status)
		memcpy(res->why, res->restore_why, sizeof(res->why));
	res->status = -1;
}

int cha_measure(const struct hw *hw, const struct cha_request *req, cha_window_fn window, void *arg,
		struct cha_result *res)
{
	memset(res, 0, sizeof(*res));
	res->plat = req->plat;
	res->nsockets = req->topo.nsockets;
	res->nevents = req->nevents;
	res->ngroups = req->ngroups;
	res->nslices = req->ngroups * (req->rounds ? req->rounds : 1);
	for (uint32_t s = 0; s < res->nsockets; s++)
		res->sock[s].cpu = req->cpu[s];
	cha_sequence_init(req, res);
	if (!req->nevents || !req->ngroups || !res->nsockets) {
		fmt_snprintf(res->why, sizeof(res->why), "nothing to measure (%u events, %u sockets)", req->nevents,
			     res->nsockets);
		res->status = -1;
		return -1;
	}
	all_sockets(hw, req, res, BOX_SETUP, 0, 0);
	uint32_t prev = 0;
	for (uint32_t k = 0; k < res->nslices && !res->status; k++) {
		uint32_t g = k % req->ngroups;
		if (g != prev)
			all_sockets(hw, req, res, BOX_SWITCH, g, prev);
		all_sockets(hw, req, res, BOX_RUN, g, prev);
		if (res->status)
			break;
		uint64_t ns = window(arg, k, res->nslices);
		all_sockets(hw, req, res, BOX_PAUSE, g, prev);
		res->group_ns[g] += ns;
		res->window_ns += ns;
		prev = g;
	}
	all_sockets(hw, req, res, BOX_RESTORE, 0, 0);
	restore_report(res);
	if (res->status)
		return -1;
	uint64_t total[CHA_MAX_EVENTS] = { 0 };
	for (uint32_t s = 0; s < res->nsockets; s++) {
		struct cha_socket_result *sr = &res->sock[s];
		for (uint32_t i = 0; i < req->nevents; i++) {
			sr->scaled[i] = scale(sr->raw[i], res->window_ns, res->group_ns[req->ev[i].group], req->ngroups);
			total[i] += sr->scaled[i];
		}
		cha_metrics(req->plat, req, sr->scaled, res->window_ns, &sr->m);
	}
	cha_metrics(req->plat, req, total, res->window_ns, &res->total);
	return 0;
}
