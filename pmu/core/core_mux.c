/* SPDX-License-Identifier: BSD-2-Clause */
/* Arm PMUv3 multiplexing arithmetic (pmu/core/core_mux.h). */
#include "pmu/core/core_mux.h"
#include "pmu/metrics.h"
#include <string.h>

void core_mux_pack(struct core_set *s)
{
	uint32_t k = s->ngp > 1 ? s->ngp - 1 : 0, e = 0;
	uint64_t tdmask = 0;
	s->ngroups = 1;
	s->td_groups = 0;
	if (!k)
		return;
	for (int pass = 1; pass >= 0; pass--)   /* TopDown inputs first, then the rest */
		for (int i = ARMV8_C_INST + 1; i < s->n; i++) {
			struct core_counter *c = &s->c[i];
			if ((c->topdown != 0) != pass)
				continue;
			c->group = (uint8_t)(e / k);
			c->ctr = (uint8_t)(1 + e % k);
			s->ngroups = e / k + 1;
			if (c->topdown)
				tdmask |= 1ull << c->group;
			e++;
		}
	s->td_groups = (uint32_t)__builtin_popcountll(tdmask);
}

void core_mux_keep_group(struct core_set *s, uint32_t g)
{
	int n = ARMV8_C_INST + 1;
	for (int i = n; i < s->n; i++)
		if (s->c[i].group == g) {
			s->c[n] = s->c[i];
			s->c[n++].group = 0;
		}
	s->n = n < s->n ? n : s->n;
	s->ngroups = 1;
	s->group = 0;
	s->td_groups = s->td_groups ? 1 : 0;
}

void core_mux_begin(struct core_set *acc, uint32_t rounds)
{
	acc->rounds = rounds ? rounds : 1;
	acc->nslices = 0;
	acc->window_ns = 0;
	memset(acc->group_ns, 0, sizeof(acc->group_ns));
	acc->restore = (struct saveset_report){ 0 };
	for (int i = 0; i < acc->n; i++)
		acc->c[i].raw = 0;
}

uint32_t core_mux_slice_group(const struct core_set *acc, uint32_t k)
{
	return acc->ngroups > 1 ? k % acc->ngroups : 0;
}

void core_mux_add(struct core_set *acc, const struct core_set *slice, uint64_t ns)
{
	for (int i = 0; i < acc->n && i < slice->n; i++) {
		const struct core_counter *c = &slice->c[i];
		struct core_counter *a = &acc->c[i];
		if (!core_in_group(slice, i) || c->state == CTR_ABSENT || a->state == CTR_FAULTED)
			continue;
		if (c->state == CTR_FAULTED) {
			a->state = CTR_FAULTED;
			a->fault = c->fault;
			memcpy(a->why, c->why, sizeof(a->why));
			continue;
		}
		a->raw += c->delta;
	}
	if (slice->group < CORE_MAX_GROUPS)
		acc->group_ns[slice->group] += ns;
	acc->window_ns += ns;
	acc->nslices++;
	if (slice->sv.e)
		saveset_report_add(&slice->sv, &acc->restore);
}

uint64_t core_mux_running_ns(const struct core_set *s, int i)
{
	uint8_t g = s->c[i].group;
	return g == CORE_ALL_GROUPS ? s->window_ns : g < CORE_MAX_GROUPS ? s->group_ns[g] : 0;
}

void core_mux_finish(struct core_set *acc)
{
	for (int i = 0; i < acc->n; i++) {
		struct core_counter *a = &acc->c[i];
		if (!ctr_state_live(a->state))
			continue;
		a->delta = metric_mux_scale(a->raw, acc->window_ns, core_mux_running_ns(acc, i));
		a->state = a->raw ? CTR_COUNTED : CTR_NOT_ADVANCING;
	}
}

static int same(const char *a, const char *b)
{
	while (a && b && *a && *a == *b)
		a++, b++;
	return a && b && !*a && !*b;
}

uint32_t core_mux_topdown_in(const struct core_set *s, struct arm_td_in *in)
{
	uint64_t groups = 0;
	for (int i = 0; i < s->n; i++) {
		const struct core_counter *c = &s->c[i];
		for (int k = 0; k < ATD_NINPUT; k++)
			if (c->state == CTR_COUNTED && !(in->have & (1u << k)) && same(arm_td_input_name[k], c->event)) {
				in->have |= 1u << k;
				in->count[k] = c->delta;
				if (c->group < CORE_MAX_GROUPS)
					groups |= 1ull << c->group;
			}
	}
	return (uint32_t)__builtin_popcountll(groups);
}
