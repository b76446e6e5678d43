/* SPDX-License-Identifier: BSD-2-Clause */
#include "pmu/core/x86_ctr.h"
#include "arch/lib/fmt.h"

hw_status x86_save(const struct hw *hw, struct x86_saveset *s, uint32_t msr, uint64_t *value)
{
	uint64_t v = 0;
	if (x86_saved(s, msr, &v)) {
		if (value)
			*value = v;
		return HW_OK;
	}
	if (s->n >= X86_SAVE_MAX)
		return HW_BAD_ARG;
	hw_status st = hw_rdmsr(hw, msr, &v);
	if (st != HW_OK)
		return st;
	s->e[s->n].msr = msr;
	s->e[s->n].value = v;
	s->n++;
	if (value)
		*value = v;
	return HW_OK;
}

hw_status x86_restore(const struct hw *hw, const struct x86_saveset *s)
{
	hw_status first = HW_OK;
	for (int i = s->n - 1; i >= 0; i--) {
		hw_status st = hw_wrmsr(hw, s->e[i].msr, s->e[i].value);
		if (st != HW_OK && first == HW_OK)
			first = st;
	}
	return first;
}

int x86_saved(const struct x86_saveset *s, uint32_t msr, uint64_t *value)
{
	for (int i = 0; i < s->n; i++)
		if (s->e[i].msr == msr) {
			*value = s->e[i].value;
			return 1;
		}
	return 0;
}

uint64_t x86_width_mask(uint32_t bits)
{
	return !bits || bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

void x86_ctr_first(struct x86_ctr *c, uint64_t raw)
{
	c->first = c->last = raw & c->width_mask;
	c->acc = 0;
	c->reads = 1;
}

void x86_ctr_update(struct x86_ctr *c, uint64_t raw)
{
	raw &= c->width_mask;
	c->acc += (raw - c->last) & c->width_mask;
	c->last = raw;
	c->reads++;
}

void x86_ctr_finish(struct x86_ctr *c)
{
	if (c->state == CTR_ABSENT || c->state == CTR_FAULTED)
		return;
	c->state = c->acc ? CTR_COUNTED : CTR_NOT_ADVANCING;
}

void x86_ctr_absent(struct x86_ctr *c, const char *why)
{
	c->state = CTR_ABSENT;
	fmt_snprintf(c->why, sizeof(c->why), "%s", why);
}

void x86_ctr_fault(struct x86_ctr *c, const char *reg, hw_status st)
{
	c->state = CTR_FAULTED;
	c->fault = (uint8_t)st;
	fmt_snprintf(c->why, sizeof(c->why), "%s: %s", reg, hw_status_name(st));
}
