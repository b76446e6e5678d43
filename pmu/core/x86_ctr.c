/* SPDX-License-Identifier: BSD-2-Clause */
#include "pmu/core/x86_ctr.h"
#include "arch/lib/fmt.h"

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

void x86_ctr_resume(struct x86_ctr *c, uint64_t raw)
{
	if (!c->reads) {
		x86_ctr_first(c, raw);
		return;
	}
	c->last = raw & c->width_mask;
	c->reads++;
}

hw_status x86_ctr_switch(const struct hw *hw, struct saveset *sv, struct x86_ctr *c, uint64_t sel, int in,
			 const char *sel_reg, const char *ctr_reg)
{
	uint64_t v;
	hw_status st = saveset_write(hw, sv, reg_msr(c->sel_msr), sel);
	if (st != HW_OK)
		x86_ctr_fault(c, sel_reg, st);
	else if ((st = hw_rdmsr(hw, c->ctr_msr, &v)) != HW_OK)
		x86_ctr_fault(c, ctr_reg, st);
	else if (in)
		x86_ctr_resume(c, v);
	else
		x86_ctr_update(c, v);
	return st;
}

void x86_ctr_finish(struct x86_ctr *c)
{
	if (!x86_ctr_live(c))
		return;
	c->state = c->acc ? CTR_COUNTED : CTR_NOT_ADVANCING;
	c->scaled = c->acc;
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
