/* SPDX-License-Identifier: BSD-2-Clause */
#include "pmu/core/core_counters.h"

const char *ctr_state_name(uint8_t st)
{
	switch (st) {
	case CTR_COUNTED: return "counted";
	case CTR_ABSENT: return "absent";
	case CTR_NOT_ADVANCING: return "not-advancing";
	case CTR_FAULTED: return "faulted";
	case CTR_NOT_COUNTED: return "not-counted";
	}
	return "unknown";
}

void core_saveset_begin(struct core_set *s)
{
	saveset_init(&s->sv, s->sv_e, CORE_MAX_SAVED);
	s->restore = (struct saveset_report){ 0 };
}

hw_status core_saveset_restore(const struct hw *hw, struct core_set *s)
{
	hw_status st = s->sv.e ? saveset_restore(hw, &s->sv) : HW_OK;
	s->restore = (struct saveset_report){ 0 };
	if (s->sv.e)
		saveset_report_add(&s->sv, &s->restore);
	return st;
}

void core_finish_counter(struct core_counter *c)
{
	if (!ctr_state_live(c->state))
		return;
	uint64_t mask = c->width_mask ? c->width_mask : ~0ull;
	c->delta = (c->after - c->before) & mask;
	c->state = c->delta ? CTR_COUNTED : CTR_NOT_ADVANCING;
}
