/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Uncore request on the one box sequence (pmu/uncore/uncore.h). Multiplexing as perf does it
 * for uncore PMUs with fewer counters than events: groups rotate per slice and each count is
 * scaled by window time / time its group counted (perf's time_enabled / time_running); one
 * group is exact.
 */
#include "pmu/uncore/uncore.h"
#include "arch/lib/fmt.h"

#include <string.h>

int unc_form_groups(struct unc_request *req, char *why, size_t n)
{
	uint8_t used[BOX_MAX_GROUPS] = { 0 };
	uint8_t all = (uint8_t)((1u << req->type.num_counters) - 1);
	req->ngroups = 0;
	for (uint32_t i = 0; i < req->nevents; i++) {
		struct unc_event *e = &req->ev[i];
		uint8_t may = box_event_counters(&req->type, (uint8_t)e->ctl) & all;
		uint32_t g = 0;
		while (g < BOX_MAX_GROUPS && !(may & (uint8_t)~used[g]))
			g++;
		if (!may || g == BOX_MAX_GROUPS) {
			fmt_snprintf(why, n, "%s event %u (%s): %s", req->pmu, i + 1, e->spec,
				     may ? "more groups than the multiplexing limit" : "no counter of the box may count it");
			return -1;
		}
		unsigned c = 0;
		while (!((may & (uint8_t)~used[g]) & (1u << c)))
			c++;
		used[g] |= (uint8_t)(1u << c);
		e->group = (uint8_t)g;
		e->counter = (uint8_t)c;
		if (g + 1 > req->ngroups)
			req->ngroups = g + 1;
	}
	return 0;
}

static void plan_init(const struct unc_request *req, struct unc_result *res)
{
	struct box_plan *pl = &res->plan;
	memset(pl, 0, sizeof(*pl));
	memset(pl->slot, -1, sizeof(pl->slot));
	pl->ngroups = req->ngroups;
	for (uint32_t i = 0; i < req->nevents; i++) {
		pl->slot[req->ev[i].group][req->ev[i].counter] = (int8_t)i;
		pl->ctl[req->ev[i].group][req->ev[i].counter] = req->ev[i].ctl;
	}
	for (uint32_t p = 0; p < req->npkgs; p++) {
		saveset_init(&res->save[p], res->saved[p], BOX_SAVE_CAP(UNC_MAX_BOXES));
		res->pkg[p] = (struct box_package){
			.type = &req->type, .nboxes = req->nboxes[p], .first_box = req->first_box[p], .box = res->box[p], .save = &res->save[p],
			.site = req->sited ? &req->site[p] : NULL,
			.raw = res->raw[p], .cpu = req->cpu[p], .socket = req->socket[p],
		};
	}
}

static void step_all(const struct hw *hw, const struct unc_request *req, struct unc_result *res, enum box_step op,
		     uint32_t group, uint32_t prev)
{
	/* restore runs the packages last first: packages sharing a register (the package-wide
	 * control of one socket's IIO stacks or UMCs) put it back in the reverse order of their
	 * saves, so the value found before the first write is the one left */
	for (uint32_t i = 0; i < req->npkgs && (op == BOX_RESTORE || !res->status); i++) {
		uint32_t p = op == BOX_RESTORE ? req->npkgs - 1 - i : i;
		struct box_package *pk = &res->pkg[p];
		uint32_t before = pk->accesses;
		hw_status st;
		int rc = box_step_on(hw, req->cpu[p], pk, &res->plan, op, group, prev, &st);
		res->accesses += pk->accesses - before;
		if (st != HW_OK) {
			if (!res->status)
				fmt_snprintf(res->why, sizeof(res->why), "%s: run on CPU %u (%s %u): %s", req->pmu,
					     req->cpu[p], req->scope, p, hw_status_name(st));
			res->status = -1;
		} else if (rc && op != BOX_RESTORE) {
			if (!res->status)
				fmt_snprintf(res->why, sizeof(res->why), "%s: %s", req->pmu, pk->why);
			res->status = -1;
		}
	}
}

static void restore_report(const struct unc_request *req, struct unc_result *res)
{
	if (!box_restore_report(res->save, res->npkgs, req->pmu, &res->restore, res->restore_why,
				sizeof(res->restore_why)))
		return;
	if (!res->status)
		memcpy(res->why, res->restore_why, sizeof(res->why));
	res->status = -1;
}

int unc_begin(const struct hw *hw, const struct unc_request *req, struct unc_result *res)
{
	memset(res, 0, sizeof(*res));
	res->npkgs = req->npkgs;
	res->nevents = req->nevents;
	res->ngroups = req->ngroups;
	res->nslices = req->ngroups * (req->rounds ? req->rounds : 1);
	if (!req->nevents || !req->ngroups || !req->npkgs || req->npkgs > UNC_MAX_PKGS) {
		fmt_snprintf(res->why, sizeof(res->why), "%s: nothing to measure (%u events, %u %ss)", req->pmu,
			     req->nevents, req->npkgs, req->scope);
		res->status = -1;
		return -1;
	}
	for (uint32_t p = 0; p < req->npkgs; p++)
		if (!req->nboxes[p] || req->nboxes[p] > UNC_MAX_BOXES) {
			fmt_snprintf(res->why, sizeof(res->why), "%s: %u boxes in %s %u: outside 1..%u", req->pmu,
				     req->nboxes[p], req->scope, p, UNC_MAX_BOXES);
			res->status = -1;
			return -1;
		}
	plan_init(req, res);
	step_all(hw, req, res, BOX_SETUP, 0, 0);
	return 0;
}

int unc_slice_start(const struct hw *hw, const struct unc_request *req, struct unc_result *res, uint32_t k)
{
	uint32_t g = k % req->ngroups, prev = k ? (k - 1) % req->ngroups : 0;
	if (res->status)
		return -1;
	if (g != prev)
		step_all(hw, req, res, BOX_SWITCH, g, prev);
	step_all(hw, req, res, BOX_RUN, g, prev);
	return res->status ? -1 : 0;
}

void unc_slice_stop(const struct hw *hw, const struct unc_request *req, struct unc_result *res, uint32_t k,
		    uint64_t ns)
{
	uint32_t g = k % req->ngroups, prev = k ? (k - 1) % req->ngroups : 0;
	step_all(hw, req, res, BOX_PAUSE, g, prev);
	res->group_ns[g] += ns;
	res->window_ns += ns;
}

void unc_restore(const struct hw *hw, const struct unc_request *req, struct unc_result *res)
{
	step_all(hw, req, res, BOX_RESTORE, 0, 0);
	restore_report(req, res);
}

int unc_finish(const struct unc_request *req, struct unc_result *res)
{
	if (res->status)
		return -1;
	uint64_t total[UNC_MAX_EVENTS] = { 0 }, moved = 0;
	for (uint32_t p = 0; p < res->npkgs; p++) {
		for (uint32_t i = 0; i < req->nevents; i++) {
			uint64_t ran = res->group_ns[req->ev[i].group];
			res->scaled[p][i] = req->ngroups <= 1 ? res->raw[p][i]
					    : ran ? (uint64_t)((unsigned __int128)res->raw[p][i] * res->window_ns / ran) : 0;
			total[i] += res->scaled[p][i];
			moved |= res->raw[p][i];
		}
		unc_metrics(req, res->scaled[p], res->window_ns, 0, 0, &res->m[p]);
	}
	res->state = moved ? UNC_STATE_COUNTING : UNC_STATE_NOT_ADVANCING;
	unc_metrics(req, total, res->window_ns, req->known_read_bytes, req->known_write_bytes, &res->total);
	if (res->state == UNC_STATE_NOT_ADVANCING) {
		res->total.self_check_state = UNC_CHECK_ABSENT;
		fmt_snprintf(res->total.self_check_why, sizeof(res->total.self_check_why),
			     "no counter advanced in the window: counts are not traffic");
	}
	return 0;
}

int unc_measure(const struct hw *hw, const struct unc_request *req, unc_window_fn window, void *arg,
		struct unc_result *res)
{
	if (unc_begin(hw, req, res))
		return -1;   /* nothing to measure: no register touched */
	for (uint32_t k = 0; k < res->nslices && !unc_slice_start(hw, req, res, k); k++)
		unc_slice_stop(hw, req, res, k, window(arg, k, res->nslices));
	unc_restore(hw, req, res);
	return unc_finish(req, res);
}

static uint64_t milli_ratio(uint64_t a, uint64_t b)
{
	return b ? (uint64_t)(((unsigned __int128)a * 1000 + b / 2) / b) : 0;
}

void unc_metrics(const struct unc_request *req, const uint64_t *counts, uint64_t window_ns, uint64_t known_read,
		 uint64_t known_write, struct unc_metrics *m)
{
	memset(m, 0, sizeof(*m));
	int have_rw = 0;
	for (uint32_t i = 0; i < req->nevents; i++) {
		const struct unc_event *e = &req->ev[i];
		uint64_t b = counts[i] * e->bytes;
		switch (e->role) {
		case UNC_ROLE_DRAM_RW: m->dram_rw_bytes += b; have_rw = 1; break;
		case UNC_ROLE_DRAM_RD: m->dram_read_bytes += b; m->have_dram_rd = 1; break;
		case UNC_ROLE_DRAM_WR: m->dram_write_bytes += b; m->have_dram_wr = 1; break;
		case UNC_ROLE_IO_RD: m->io_read_bytes += b; m->have_io_rd = 1; break;
		case UNC_ROLE_IO_WR: m->io_write_bytes += b; m->have_io_wr = 1; break;
		case UNC_ROLE_OB_RD: m->ob_read_bytes += b; m->have_ob = 1; break;
		case UNC_ROLE_OB_WR: m->ob_write_bytes += b; m->have_ob = 1; break;
		case UNC_ROLE_LLC_ACCESS: m->llc_accesses += counts[i]; break;
		case UNC_ROLE_LLC_MISS: m->llc_misses += counts[i]; break;
		case UNC_ROLE_LLC_HIT: m->llc_hits += counts[i]; break;
		default: break;
		}
		int pk = e->role == UNC_ROLE_IO_RD ? 0 : e->role == UNC_ROLE_IO_WR ? 1 : e->role == UNC_ROLE_OB_RD ? 2
			 : e->role == UNC_ROLE_OB_WR ? 3 : -1;
		if (e->per_part && e->channel < UNC_MAX_PARTS && pk >= 0) {
			m->part_bytes[pk][e->channel] += b;
			if (e->channel + 1 > m->nparts)
				m->nparts = (uint8_t)(e->channel + 1);
		}
		if (e->role >= UNC_ROLE_DRAM_RW && e->role <= UNC_ROLE_DRAM_WR && e->channel < UNC_MAX_CHANNELS) {
			m->channel_bytes[e->channel] += b;
			if (e->channel + 1 > m->nchannels)
				m->nchannels = (uint8_t)(e->channel + 1);
		}
	}
	if (!have_rw && m->have_dram_rd && m->have_dram_wr)
		m->dram_rw_bytes = m->dram_read_bytes + m->dram_write_bytes;
	m->have_dram = (uint8_t)(have_rw || (m->have_dram_rd && m->have_dram_wr));
	if (m->have_dram && window_ns)
		m->dram_gbps_milli = milli_ratio(m->dram_rw_bytes, window_ns);
	if (window_ns) {
		m->io_read_gbps_milli = milli_ratio(m->io_read_bytes, window_ns);
		m->io_write_gbps_milli = milli_ratio(m->io_write_bytes, window_ns);
	}
	/* hits / accesses; without a hit event, 1 - misses / accesses */
	uint64_t acc = m->llc_accesses ? m->llc_accesses : m->llc_hits + m->llc_misses;
	uint64_t hits = m->llc_hits ? m->llc_hits : (m->llc_misses <= acc ? acc - m->llc_misses : 0);
	if (acc) {
		m->llc_hit_ratio_milli = milli_ratio(hits, acc);
		m->have_hit_ratio = 1;
	}
	m->self_check_state = UNC_CHECK_ABSENT;
	if (!m->have_dram && (m->have_io_rd || m->have_io_wr))
		fmt_snprintf(m->self_check_why, sizeof(m->self_check_why),
			     "%s counts PCIe bytes and the window's kernel moves none", req->pmu);
	else if (!m->have_dram)
		fmt_snprintf(m->self_check_why, sizeof(m->self_check_why), "%s counts no DRAM bytes", req->pmu);
	else if (!known_read && !known_write)
		fmt_snprintf(m->self_check_why, sizeof(m->self_check_why), "the window's kernel bytes are unknown");
	else {
		m->self_check_state = UNC_CHECK_OK;
		m->self_check_milli = milli_ratio(m->dram_rw_bytes, known_read + known_write);
	}
}
