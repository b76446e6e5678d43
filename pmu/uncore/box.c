/* SPDX-License-Identifier: BSD-2-Clause */
/* Uncore box types: register addresses and bits from the type's data (pmu/uncore/box.h). */
#include "pmu/uncore/box.h"

static uint64_t unit_ctl(const struct uncore_box_type *t, unsigned n)
{
	return t->box_ctl_table ? t->box_ctl_table[n] : (uint64_t)t->box_ctl + (uint64_t)n * t->box_stride;
}

static struct reg_ref at(const struct uncore_box_type *t, const struct box_site *site, uint64_t addr, int ctr)
{
	switch (t->access) {
	case BOX_ACCESS_MMIO:
		addr += site ? site->mmio_base : 0;
		return t->mmio_ctl32 && !ctr ? reg_mmio32(addr) : reg_mmio64(addr);
	case BOX_ACCESS_PCI:
		return reg_pci32(site ? site->pci : (struct hw_pci_addr){ 0 }, (uint16_t)addr);
	default:
		return reg_msr((uint32_t)(addr + (site ? site->msr_base : 0)));
	}
}

int box_has(const struct uncore_box_type *t, enum box_reg r, unsigned i)
{
	switch (r) {
	case BOX_REG_UNIT_CTL:
		return t->unit_ctl != BOX_NO_REG;
	case BOX_REG_CTL:
	case BOX_REG_CTR:
		return i < t->num_counters;
	case BOX_REG_FILTER:
		return i < BOX_MAX_FILTERS && t->filter[i] != BOX_NO_REG;
	case BOX_REG_STATUS:
		return t->status != BOX_NO_REG;
	}
	return 0;
}

struct reg_ref box_reg(const struct uncore_box_type *t, const struct box_site *site, unsigned n, enum box_reg r,
		       unsigned i)
{
	uint64_t base = unit_ctl(t, n), step = t->reg_step ? t->reg_step : 1;
	uint64_t ctl_step = t->ctl_step ? t->ctl_step : step, ctr_step = t->ctr_step ? t->ctr_step : step;
	switch (r) {
	case BOX_REG_CTL:
		return at(t, site, base + (uint64_t)(int64_t)t->ctl0 * step + i * ctl_step, 0);
	case BOX_REG_CTR:
		return at(t, site, base + (uint64_t)(int64_t)t->ctr0 * step + i * ctr_step, 1);
	case BOX_REG_FILTER:
		return at(t, site, base + (uint64_t)(int64_t)t->filter[i] * step, 0);
	case BOX_REG_STATUS:
		return at(t, site, base + (uint64_t)(int64_t)t->status * step, 0);
	default:
		return at(t, site, base + (t->unit_ctl == BOX_NO_REG ? 0 : (uint64_t)(int64_t)t->unit_ctl * step), 0);
	}
}

int box_has_global(const struct uncore_box_type *t)
{
	return t->global_ctl != 0;
}

struct reg_ref box_global_reg(const struct uncore_box_type *t, const struct box_site *site)
{
	return at(t, site, t->global_ctl, 0);
}

uint8_t box_event_counters(const struct uncore_box_type *t, uint8_t event)
{
	for (unsigned i = 0; i < t->nconstraints; i++)
		if (t->constraints[i].event == event)
			return t->constraints[i].counters;
	return (uint8_t)((1u << t->num_counters) - 1);
}

uint64_t box_frozen(const struct uncore_box_type *t, uint64_t found)
{
	return (found & ~(t->box_rst_ctrl | t->box_rst_ctrs)) | t->box_frz;
}

uint64_t box_unfrozen(const struct uncore_box_type *t, uint64_t found)
{
	return found & ~(t->box_rst_ctrl | t->box_rst_ctrs | t->box_frz);
}

uint64_t box_ctr_mask(const struct uncore_box_type *t)
{
	return t->ctr_bits >= 64 ? ~0ull : (1ull << t->ctr_bits) - 1;
}
