/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CHA TOR latency by Little's law (pmu/uncore/intel_cha.h cha_tor_latency): pure arithmetic
 * over the scaled counts of TOR_OCCUPANCY, TOR_INSERTS and CLOCKTICKS of each latency class the
 * platform table lists (pmu/uncore/intel_cha_platforms.c). Occupancy adds, every CHA cycle, the
 * number of requests of the class in the TOR, so occupancy / inserts is the mean residency in
 * CHA cycles (Intel Xeon Processor Scalable Family Uncore Performance Monitoring Reference
 * Manual (2017), CHA TOR_OCCUPANCY; PCM src/pcm-latency.cpp computes the same ratio).
 */
#include "pmu/uncore/intel_cha.h"
#include "arch/lib/fmt.h"

#include <string.h>

#define NO_EVENT (-1)

/* The request's event named `name`, preferring group g (g < 0: any). */
static int find(const struct cha_request *req, const char *name, int g)
{
	int any = NO_EVENT;
	for (uint32_t i = 0; i < req->nevents; i++) {
		const struct cha_event_sel *e = &req->ev[i];
		if (!e->name || strcmp(e->name, name))
			continue;
		if (g < 0 || e->group == g)
			return (int)i;
		if (any == NO_EVENT)
			any = (int)i;
	}
	return any;
}

static uint64_t div_round(unsigned __int128 num, unsigned __int128 den)
{
	return (uint64_t)((num + den / 2) / den);
}

static void one(const struct cha_platform *p, const struct cha_latency_class *cls, const struct cha_request *req,
		const uint64_t *counts, uint64_t window_ns, uint32_t ncha, struct cha_latency_value *v)
{
	memset(v, 0, sizeof(*v));
	v->name = cls->name;
	int io = find(req, cls->occupancy, -1);
	int ii = io == NO_EVENT ? NO_EVENT : find(req, cls->inserts, req->ev[io].group);
	int ic = io == NO_EVENT ? NO_EVENT : find(req, p->clock_event, req->ev[io].group);
	if (io == NO_EVENT || ii == NO_EVENT || ic == NO_EVENT) {
		fmt_snprintf(v->why, sizeof(v->why), "not counted: needs %s, %s and %s", cls->occupancy, cls->inserts,
			     p->clock_event);
		return;
	}
	v->counted = 1;
	v->occupancy = counts[io];
	v->inserts = counts[ii];
	v->clockticks = counts[ic];
	if (!v->occupancy && !v->inserts && !v->clockticks) {
		fmt_snprintf(v->why, sizeof(v->why), "counts not advancing: %s, %s and %s all 0", p->clock_event,
			     cls->inserts, cls->occupancy);
		return;
	}
	if (!v->inserts) {
		fmt_snprintf(v->why, sizeof(v->why), "no %s request in the window (%s 0)", cls->name, cls->inserts);
		return;
	}
	if (!v->clockticks || !window_ns || !ncha) {
		fmt_snprintf(v->why, sizeof(v->why), "no CHA clock: %s %llu over %llu ns and %u CHAs", p->clock_event,
			     (unsigned long long)v->clockticks, (unsigned long long)window_ns, ncha);
		return;
	}
	v->cycles_milli = div_round((unsigned __int128)v->occupancy * 1000, v->inserts);
	v->ns_milli = div_round((unsigned __int128)v->occupancy * window_ns * ncha * 1000,
				(unsigned __int128)v->inserts * v->clockticks);
	v->have = 1;
}

void cha_tor_latency(const struct cha_platform *p, const struct cha_request *req, const uint64_t *counts,
		     uint64_t window_ns, uint32_t ncha, struct cha_tor_latency *out)
{
	memset(out, 0, sizeof(*out));
	for (uint8_t k = 0; k < p->nlatency && k < CHA_MAX_LATENCY; k++)
		one(p, &p->latency[k], req, counts, window_ns, ncha, &out->c[out->nclass++]);
}
