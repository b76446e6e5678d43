/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CHA measurement as the run uses it: prepare a request (platform, topology, events,
 * groups), then program, run the window in slices, read, restore, scale and compute metrics.
 *
 * Multiplexing: a filter register is one per box, shared by its four counters (Linux uncore_snbep.c
 * num_shared_regs = 1), so events that need different FILTER values cannot count together.
 * Events are packed greedily into groups of at most four counters whose filter values agree and
 * whose counter masks (the box type's constraints: TOR_OCCUPANCY 0x36 on counter 0 alone) admit
 * a placement; the default set's TOR latency classes each get a group of their own, so a
 * class's occupancy, inserts and clock count over the same slices. Only when that yields more than one group are
 * groups rotated: slice k runs group k mod G, and every count is scaled by window time / time
 * its group ran (perf's enabled/running). One group: no rotation, counts exact.
 */
#include "pmu/uncore/intel_cha.h"
#include "pmu/uncore/intel_cha_program.h"
#include "pmu/events/gen_events.h"
#include "arch/lib/fmt.h"
#include "pmu/metrics.h"

#include <string.h>

static int is_space(char c) { return c == ' ' || c == '\t'; }

/* Counters (bit c) the box type lets an event count on (box constraints: the data table). */
static uint8_t allowed(const struct cha_platform *p, const struct cha_event_sel *e)
{
	return (uint8_t)(box_event_counters(&p->box, e->enc.event) & ((1u << p->box.num_counters) - 1));
}

static unsigned weight(uint8_t m)
{
	unsigned n = 0;
	for (; m; m &= (uint8_t)(m - 1))
		n++;
	return n;
}

/* Place the n events of ev[] on distinct allowed counters, fewest choices first (perf's
 * scheduling by constraint weight: exact for the nested masks of these boxes). ctr[i] gets
 * event i's counter. 0, or -1 when no placement exists. */
static int assign(const struct cha_platform *p, struct cha_event_sel *const *ev, unsigned n, uint8_t *ctr)
{
	uint8_t used = 0;
	for (unsigned w = 1; w <= p->box.num_counters; w++)
		for (unsigned i = 0; i < n; i++) {
			uint8_t may = allowed(p, ev[i]);
			if (weight(may) != w)
				continue;
			uint8_t free = (uint8_t)(may & ~used);
			if (!free)
				return -1;
			unsigned c = 0;
			while (!(free & (1u << c)))
				c++;
			used |= (uint8_t)(1u << c);
			ctr[i] = (uint8_t)c;
		}
	return 0;
}

/* The events of group g (plus extra, when not NULL) into ev[]; returns their number. */
static unsigned members(struct cha_request *req, uint32_t g, struct cha_event_sel *extra, struct cha_event_sel **ev)
{
	unsigned n = 0;
	for (uint32_t i = 0; i < req->nevents; i++)
		if (&req->ev[i] != extra && req->ev[i].group == g && n < BOX_MAX_COUNTERS)
			ev[n++] = &req->ev[i];
	if (extra && n < BOX_MAX_COUNTERS)
		ev[n++] = extra;
	return n;
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
		struct gen_row r;
		if (!e && len + 6 <= sizeof(spec) && gen_lookup("cha", p->name, s, len, &r)) {
			fmt_snprintf(spec, sizeof(spec), "cha/%.*s/", (int)len, s);   /* Intel's catalogue */
			len = strlen(spec);
		} else if (!e) {
			fmt_snprintf(why, n, "%.*s: no such %s CHA event (and not cha/.../)", (int)(len > 60 ? 60 : len), s,
				     p->name);
			cha_closest_names(p, s, len, why, n);
			return -1;
		} else {
			cha_event_spec(p, e, spec, sizeof(spec));
			len = strlen(spec);
		}
	}
	char err[120];
	if (cha_encode(p, spec, len, &ev->enc, err, sizeof(err))) {
		fmt_snprintf(why, n, "CHA event %u (%.60s): %s", req->nevents + 1, spec, err);
		return -1;
	}
	memcpy(ev->spec, spec, len + 1);
	ev->latency = 0;
	if (named)
		ev->enc.named = named;   /* given by name: the spec is its field form */
	ev->name = ev->enc.named ? ev->enc.named->name : NULL;
	req->nevents++;
	return 0;
}

#define UNPLACED 0xFF

/* e fits group g: a free counter it may use after the group's placement, and every filter
 * both program holds the same value. */
static int fits(struct cha_request *req, uint32_t g, struct cha_event_sel *e)
{
	struct cha_event_sel *ev[BOX_MAX_COUNTERS];
	uint8_t ctr[BOX_MAX_COUNTERS];
	unsigned n = members(req, g, e, ev);
	if (n > req->plat->box.num_counters || ev[n - 1] != e || assign(req->plat, ev, n, ctr))
		return 0;
	for (unsigned i = 0; i + 1 < n; i++)
		for (unsigned f = 0; f < CHA_NFILTERS; f++)
			if ((ev[i]->enc.uses & e->enc.uses & (1u << f)) && ev[i]->enc.filter[f] != e->enc.filter[f])
				return 0;
	return 1;
}

static int unplaceable(const struct cha_request *req, uint32_t i, const char *what, char *why, size_t n)
{
	const struct cha_event_sel *e = &req->ev[i];
	fmt_snprintf(why, n, "CHA event %u (%s): %s (event 0x%02x may count on counters 0x%x of %u)", i + 1,
		     e->name ? e->name : e->spec, what, e->enc.event, box_event_counters(&req->plat->box, e->enc.event),
		     req->plat->box.num_counters);
	return -1;
}

/* Greedy packing of the events without a latency class into groups whose counters can hold
 * them, then each latency class's events in a group of their own; counters by assign(). */
static int form_groups(struct cha_request *req, char *why, size_t n)
{
	req->ngroups = 0;
	for (uint32_t i = 0; i < req->nevents; i++)
		req->ev[i].group = UNPLACED;
	for (uint32_t i = 0; i < req->nevents; i++) {
		struct cha_event_sel *e = &req->ev[i];
		if (e->latency)
			continue;
		if (!allowed(req->plat, e))
			return unplaceable(req, i, "no counter of the CHA may count it", why, n);
		uint32_t g = 0;
		while (g < req->ngroups && !fits(req, g, e))
			g++;
		if (g >= CHA_MAX_GROUPS)
			return unplaceable(req, i, "more groups than the multiplexing limit", why, n);
		e->group = (uint8_t)g;
		if (g == req->ngroups)
			req->ngroups++;
	}
	uint32_t first = req->ngroups;
	for (uint32_t i = 0; i < req->nevents; i++) {
		struct cha_event_sel *e = &req->ev[i];
		if (!e->latency)
			continue;
		uint32_t g = first + e->latency - 1u;
		if (g >= CHA_MAX_GROUPS)
			return unplaceable(req, i, "more groups than the multiplexing limit", why, n);
		e->group = (uint8_t)g;
		if (g + 1 > req->ngroups)
			req->ngroups = g + 1;
	}
	for (uint32_t g = 0; g < req->ngroups; g++) {
		struct cha_event_sel *ev[BOX_MAX_COUNTERS];
		uint8_t ctr[BOX_MAX_COUNTERS];
		unsigned k = members(req, g, NULL, ev);
		if (k > req->plat->box.num_counters || assign(req->plat, ev, k, ctr))
			return unplaceable(req, (uint32_t)(ev[k - 1] - req->ev), "its group's counters cannot hold it", why, n);
		for (unsigned c = 0; c < k; c++)
			ev[c]->counter = ctr[c];
	}
	return 0;
}

/* The default latency set: per class TOR_OCCUPANCY, TOR_INSERTS and the clock, marked with
 * the class so form_groups gives them a group of their own. */
static int add_latency(struct cha_request *req, char *why, size_t n)
{
	const struct cha_platform *p = req->plat;
	for (uint8_t k = 0; k < p->nlatency && k < CHA_MAX_LATENCY; k++) {
		const char *names[] = { p->latency[k].occupancy, p->latency[k].inserts, p->clock_event };
		for (int i = 0; i < 3; i++) {
			if (add_event(req, names[i], strlen(names[i]), why, n))
				return -1;
			req->ev[req->nevents - 1].latency = (uint8_t)(k + 1);
		}
	}
	return 0;
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
		if (add_latency(req, why, n))
			return -1;
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
	return form_groups(req, why, n);
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
	return cha_discover_on(hw, req->plat, scope, nscope, nsockets, req->cpu, req->disc_ws, &req->topo, why, n);
}

static uint64_t scale(uint64_t raw, uint64_t window, uint64_t ran, uint32_t ngroups)
{
	return ngroups <= 1 ? raw : metric_mux_scale(raw, window, ran);   /* one group: exact */
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

int cha_begin(const struct hw *hw, const struct cha_request *req, struct cha_result *res)
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
	return 0;
}

int cha_slice_start(const struct hw *hw, const struct cha_request *req, struct cha_result *res, uint32_t k)
{
	uint32_t g = k % req->ngroups, prev = k ? (k - 1) % req->ngroups : 0;
	if (res->status)
		return -1;
	if (g != prev)
		all_sockets(hw, req, res, BOX_SWITCH, g, prev);
	all_sockets(hw, req, res, BOX_RUN, g, prev);
	return res->status ? -1 : 0;
}

void cha_slice_stop(const struct hw *hw, const struct cha_request *req, struct cha_result *res, uint32_t k,
		    uint64_t ns)
{
	uint32_t g = k % req->ngroups, prev = k ? (k - 1) % req->ngroups : 0;
	all_sockets(hw, req, res, BOX_PAUSE, g, prev);
	res->group_ns[g] += ns;
	res->window_ns += ns;
}

void cha_restore(const struct hw *hw, const struct cha_request *req, struct cha_result *res)
{
	all_sockets(hw, req, res, BOX_RESTORE, 0, 0);
	restore_report(res);
}

int cha_finish(const struct cha_request *req, struct cha_result *res)
{
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
		cha_tor_latency(req->plat, req, sr->scaled, res->window_ns, req->topo.ncha[s], &sr->latency);
	}
	cha_metrics(req->plat, req, total, res->window_ns, &res->total);
	uint32_t ncha = 0;
	for (uint32_t s = 0; s < res->nsockets; s++)
		ncha += req->topo.ncha[s];
	cha_tor_latency(req->plat, req, total, res->window_ns, ncha, &res->latency);
	return 0;
}

int cha_measure(const struct hw *hw, const struct cha_request *req, cha_window_fn window, void *arg,
		struct cha_result *res)
{
	if (cha_begin(hw, req, res))
		return -1;   /* nothing to measure: no register touched */
	for (uint32_t k = 0; k < res->nslices && !cha_slice_start(hw, req, res, k); k++)
		cha_slice_stop(hw, req, res, k, window(arg, k, res->nslices));
	cha_restore(hw, req, res);
	return cha_finish(req, res);
}
