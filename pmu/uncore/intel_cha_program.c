/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CHA request on the one uncore box sequence (pmu/uncore/box_program.c). Uncore MSRs
 * belong to a package, so each step runs on a CPU of that package through hw_run_on_cpu (PCM
 * src/cpucounters.cpp pins to one core of the socket for the same reason).
 */
#include "pmu/uncore/intel_cha_program.h"
#include "arch/lib/fmt.h"

#include <string.h>

void cha_sequence_init(const struct cha_request *req, struct cha_result *res)
{
	struct box_plan *pl = &res->plan;
	memset(pl, 0, sizeof(*pl));
	memset(pl->slot, -1, sizeof(pl->slot));
	pl->ngroups = req->ngroups;
	for (uint32_t i = 0; i < req->nevents; i++) {
		const struct cha_event_sel *e = &req->ev[i];
		pl->slot[e->group][e->counter] = (int8_t)i;
		pl->ctl[e->group][e->counter] = e->enc.ctl;
		for (unsigned f = 0; f < CHA_NFILTERS; f++)
			if (e->enc.uses & (1u << f)) {
				pl->filters[e->group] |= (uint8_t)(1u << f);
				pl->filter[e->group][f] = e->enc.filter[f];   /* a group's events agree */
			}
	}
	for (uint32_t s = 0; s < req->topo.nsockets; s++) {
		saveset_init(&res->save[s], res->saved[s], BOX_SAVE_CAP(CHA_MAX_BOXES));
		res->pkg[s] = (struct box_package){
			.type = &req->plat->box, .nboxes = req->topo.ncha[s], .box = res->box[s], .save = &res->save[s],
			.raw = res->sock[s].raw, .cpu = req->cpu[s], .socket = s,
		};
	}
}

int cha_step(const struct hw *hw, const struct cha_request *req, struct cha_result *res, uint32_t s,
	     enum box_step op, uint32_t group, uint32_t prev)
{
	struct box_package *pk = &res->pkg[s];
	uint32_t before = pk->accesses;
	hw_status st;
	int rc = box_step_on(hw, req->cpu[s], pk, &res->plan, op, group, prev, &st);
	res->accesses += pk->accesses - before;
	if (st != HW_OK) {
		if (!res->status)
			fmt_snprintf(res->why, sizeof(res->why), "run on CPU %u (socket %u): %s", req->cpu[s], s,
				     hw_status_name(st));
		res->status = -1;
		return -1;
	}
	if (rc && op != BOX_RESTORE) {
		if (!res->status)
			memcpy(res->why, pk->why, sizeof(res->why));
		res->status = -1;
	}
	return rc;
}
