/* SPDX-License-Identifier: BSD-2-Clause */
#include "pmu/saveset.h"
#include "arch/lib/fmt.h"

hw_status reg_read(const struct hw *hw, struct reg_ref r, uint64_t *value)
{
	uint32_t v32 = 0;
	hw_status st;
	switch (r.space) {
	case REG_MSR:
		return hw_rdmsr(hw, (uint32_t)r.addr, value);
	case REG_SYSREG:
		return hw_sysreg_read(hw, (uint32_t)r.addr, value);
	case REG_MMIO64:
		return hw_mmio_read64(hw, r.addr, value);
	case REG_MMIO32:
		st = hw_mmio_read32(hw, r.addr, &v32);
		break;
	case REG_PCI32:
		st = r.addr > 0xFFC ? HW_BAD_ARG : hw_pci_read32(hw, r.pci, (uint16_t)r.addr, &v32);
		break;
	default:
		return HW_BAD_ARG;
	}
	*value = v32;
	return st;
}

hw_status reg_write(const struct hw *hw, struct reg_ref r, uint64_t value)
{
	switch (r.space) {
	case REG_MSR:
		return hw_wrmsr(hw, (uint32_t)r.addr, value);
	case REG_SYSREG:
		return hw_sysreg_write(hw, (uint32_t)r.addr, value);
	case REG_MMIO64:
		return hw_mmio_write64(hw, r.addr, value);
	case REG_MMIO32:
		return value >> 32 ? HW_BAD_ARG : hw_mmio_write32(hw, r.addr, (uint32_t)value);
	case REG_PCI32:
		if (r.addr > 0xFFC || value >> 32)
			return HW_BAD_ARG;
		return hw_pci_write32(hw, r.pci, (uint16_t)r.addr, (uint32_t)value);
	}
	return HW_BAD_ARG;
}

int reg_same(struct reg_ref a, struct reg_ref b)
{
	if (a.space != b.space || a.addr != b.addr)
		return 0;
	return a.space != REG_PCI32 || (a.pci.segment == b.pci.segment && a.pci.bus == b.pci.bus &&
					a.pci.dev == b.pci.dev && a.pci.func == b.pci.func);
}

size_t reg_name(struct reg_ref r, char *buf, size_t n)
{
	static const char *const space[] = { [REG_MSR] = "MSR", [REG_SYSREG] = "sysreg",
					     [REG_MMIO32] = "MMIO", [REG_MMIO64] = "MMIO" };
	if (r.space == REG_PCI32)
		return fmt_snprintf(buf, n, "PCI %04x:%02x:%02x.%x+0x%llx", r.pci.segment, r.pci.bus, r.pci.dev,
				    r.pci.func, (unsigned long long)r.addr);
	return fmt_snprintf(buf, n, "%s 0x%llx", r.space < REG_PCI32 ? space[r.space] : "?",
			    (unsigned long long)r.addr);
}

void saveset_init(struct saveset *s, struct saved_reg *storage, uint32_t cap)
{
	*s = (struct saveset){ .e = storage, .cap = cap };
}

static struct saved_reg *find(const struct saveset *s, struct reg_ref r)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (reg_same(s->e[i].r, r))
			return &s->e[i];
	return NULL;
}

int saveset_lookup(const struct saveset *s, struct reg_ref r, uint64_t *value)
{
	const struct saved_reg *e = find(s, r);
	if (e && value)
		*value = e->value;
	return e != NULL;
}

int saveset_mark_failed(struct saveset *s, struct reg_ref r, hw_status st)
{
	struct saved_reg *e = find(s, r);
	if (!e)
		return -1;
	e->written = e->touched = 1;
	e->restore_st = (uint8_t)st;
	return 0;
}

hw_status saveset_save(const struct hw *hw, struct saveset *s, struct reg_ref r, uint64_t *value)
{
	struct saved_reg *e = find(s, r);
	if (!e) {
		if (s->n >= s->cap) {
			s->dropped++;
			return HW_BAD_ARG;
		}
		uint64_t v = 0;
		hw_status st = reg_read(hw, r, &v);
		if (st != HW_OK)
			return st;
		e = &s->e[s->n++];
		*e = (struct saved_reg){ .r = r, .value = v };
	}
	if (value)
		*value = e->value;
	return HW_OK;
}

hw_status saveset_write(const struct hw *hw, struct saveset *s, struct reg_ref r, uint64_t value)
{
	hw_status st = saveset_save(hw, s, r, NULL);
	if (st != HW_OK)
		return st;
	struct saved_reg *e = find(s, r);
	e->written = e->touched = 1;
	return reg_write(hw, r, value);
}

hw_status saveset_restore(const struct hw *hw, struct saveset *s)
{
	hw_status first = HW_OK;
	for (uint32_t i = s->n; i-- > 0;) {
		struct saved_reg *e = &s->e[i];
		if (!e->written)
			continue;
		hw_status st = reg_write(hw, e->r, e->value);
		e->restore_st = (uint8_t)st;
		if (st == HW_OK)
			e->written = 0;
		else if (first == HW_OK)
			first = st;
	}
	return first;
}

void saveset_report_add(const struct saveset *s, struct saveset_report *r)
{
	r->registers += s->n;
	r->dropped += s->dropped;
	for (uint32_t i = 0; i < s->n; i++) {
		const struct saved_reg *e = &s->e[i];
		r->written += e->touched;
		if (!e->written)
			continue;
		/* still marked written: its write-back failed, or restore never ran */
		hw_status st = e->restore_st != HW_OK ? (hw_status)e->restore_st : HW_ERROR;
		if (r->status == HW_OK)
			r->status = st;
		if (r->nfailed < SAVESET_REPORT_FAILED) {
			r->failed[r->nfailed] = e->r;
			r->failed_st[r->nfailed] = (uint8_t)st;
		}
		r->nfailed++;
	}
}
