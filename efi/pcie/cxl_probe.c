/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CXL config-space DVSECs and the Register Locator's blocks (CXL 3.1 8.1.3, 8.1.8, 8.1.9); see
 * efi/pcie/cxl.h. The blocks are then read by cxl_component.c and cxl_mailbox.c.
 */
#include <string.h>

#include "efi/pcie/cxl.h"
#include "efi/pcie/cxl_internal.h"
#include "efi/pcie/pci_bar.h"
#include "efi/pcie/pcie_regs.h"
#include "arch/lib/fmt.h"

int cxl_is_cxl(const struct pcie_func *f)
{
	for (int i = 0; i < f->ndvsec && i < PCIE_MAX_DVSEC; i++)
		if (f->dvsec[i].vendor == PCI_VENDOR_ID_CXL)
			return 1;
	return 0;
}

static hw_status cfg16(const struct hw *h, struct hw_pci_addr a, uint16_t off, uint16_t *v)
{
	return pcie_cfg_read16(h, a, off, v);
}

static void read_device_dvsec(const struct cxl_env *env, struct cxl_func *c, uint16_t off, uint16_t len)
{
	const struct hw *h = env->hw;
	if (len < CXL_DVSEC_DEV_LEN) {
		cxl_defect(c, "DVSEC for CXL Devices at 0x%03x: length 0x%x < 0x%x", off, len, CXL_DVSEC_DEV_LEN);
		return;
	}
	if (cfg16(h, c->addr, (uint16_t)(off + CXL_DVSEC_DEV_CAP), &c->dev.cap) != HW_OK ||
	    cfg16(h, c->addr, (uint16_t)(off + CXL_DVSEC_DEV_CTRL), &c->dev.ctrl) != HW_OK ||
	    cfg16(h, c->addr, (uint16_t)(off + CXL_DVSEC_DEV_STATUS), &c->dev.status) != HW_OK) {
		cxl_defect(c, "DVSEC for CXL Devices at 0x%03x: config read failed", off);
		return;
	}
	c->dev.present = 1;
	c->dev.offset = off;
	c->dev.mem_capable = !!(c->dev.cap & CXL_DEV_CAP_MEM_CAPABLE);
	c->dev.hdm_count = (uint8_t)((c->dev.cap >> CXL_DEV_CAP_HDM_COUNT_SHIFT) & CXL_DEV_CAP_HDM_COUNT_MASK);
	for (int i = 0; i < CXL_DVSEC_NRANGES; i++) {
		uint32_t shi, slo, bhi, blo;
		if (pcie_cfg_read32(h, c->addr, (uint16_t)(off + CXL_DVSEC_RANGE_SIZE_HI(i)), &shi) != HW_OK ||
		    pcie_cfg_read32(h, c->addr, (uint16_t)(off + CXL_DVSEC_RANGE_SIZE_LO(i)), &slo) != HW_OK ||
		    pcie_cfg_read32(h, c->addr, (uint16_t)(off + CXL_DVSEC_RANGE_BASE_HI(i)), &bhi) != HW_OK ||
		    pcie_cfg_read32(h, c->addr, (uint16_t)(off + CXL_DVSEC_RANGE_BASE_LO(i)), &blo) != HW_OK) {
			cxl_defect(c, "DVSEC range %d: config read failed", i + 1);
			return;
		}
		c->dev.range[i].size = (uint64_t)shi << 32 | (slo & CXL_RANGE_LO_ADDR_MASK);
		c->dev.range[i].base = (uint64_t)bhi << 32 | (blo & CXL_RANGE_LO_ADDR_MASK);
		c->dev.range[i].size_lo = slo;
		c->dev.range[i].valid = !!(slo & CXL_RANGE_LO_MEM_INFO_VALID);
		c->dev.range[i].active = !!(slo & CXL_RANGE_LO_MEM_ACTIVE);
	}
}

static void read_flexbus(const struct cxl_env *env, struct cxl_func *c, uint16_t off, uint16_t len)
{
	if (len < CXL_DVSEC_FLEXBUS_LEN) {
		cxl_defect(c, "Flex Bus Port DVSEC at 0x%03x: length 0x%x < 0x%x", off, len, CXL_DVSEC_FLEXBUS_LEN);
		return;
	}
	if (cfg16(env->hw, c->addr, (uint16_t)(off + CXL_DVSEC_FLEXBUS_CAP), &c->flexbus.cap) != HW_OK ||
	    cfg16(env->hw, c->addr, (uint16_t)(off + CXL_DVSEC_FLEXBUS_CTRL), &c->flexbus.ctrl) != HW_OK ||
	    cfg16(env->hw, c->addr, (uint16_t)(off + CXL_DVSEC_FLEXBUS_STATUS), &c->flexbus.status) != HW_OK) {
		cxl_defect(c, "Flex Bus Port DVSEC at 0x%03x: config read failed", off);
		return;
	}
	c->flexbus.present = 1;
}

/* Length of the register block a Register Block Identifier names, for the BAR check:
 * component registers 64 KiB (8.2.3); others at least their first 4 KiB page. */
#define CXL_BLOCK_MIN_LEN 0x1000

static void read_regloc(const struct cxl_env *env, struct cxl_func *c, uint16_t off, uint16_t len)
{
	struct pci_bar bars[PCI_BAR_COUNT];
	int sized[PCI_BAR_COUNT] = { 0 };
	const char *bar_why[PCI_BAR_COUNT] = { 0 };
	if (len < CXL_DVSEC_REGLOC_FIRST) {
		cxl_defect(c, "Register Locator at 0x%03x: length 0x%x < 0x%x", off, len, CXL_DVSEC_REGLOC_FIRST);
		return;
	}
	uint32_t n = (uint32_t)(len - CXL_DVSEC_REGLOC_FIRST) / CXL_REGLOC_ENTRY_LEN;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t lo, hi;
		uint16_t e = (uint16_t)(off + CXL_DVSEC_REGLOC_FIRST + k * CXL_REGLOC_ENTRY_LEN);
		if (pcie_cfg_read32(env->hw, c->addr, e, &lo) != HW_OK ||
		    pcie_cfg_read32(env->hw, c->addr, (uint16_t)(e + 4), &hi) != HW_OK) {
			cxl_defect(c, "Register Locator entry %u: config read failed", k);
			return;
		}
		if (c->nblocks >= CXL_MAX_REGBLOCKS) {
			cxl_defect(c, "more than %d register blocks: the rest are not read", CXL_MAX_REGBLOCKS);
			return;
		}
		struct cxl_regblock *b = &c->block[c->nblocks++];
		memset(b, 0, sizeof(*b));
		b->bir = (uint8_t)(lo & CXL_REGLOC_BIR_MASK);
		b->id = (uint8_t)((lo >> CXL_REGLOC_BLOCK_ID_SHIFT) & CXL_REGLOC_BLOCK_ID_MASK);
		b->offset = (uint64_t)hi << 32 | (lo & CXL_REGLOC_OFF_LO_MASK);
		if (b->id == CXL_RBI_EMPTY)
			continue;
		if (b->bir >= PCI_BAR_COUNT) {
			fmt_snprintf(b->defect, sizeof(b->defect), "BIR %u names no BAR", b->bir);
			continue;
		}
		if (!sized[b->bir]) {
			sized[b->bir] = pci_bar_probe(env->hw, c->addr, b->bir, &bars[b->bir], &bar_why[b->bir]) == 0 ? 1 : -1;
		}
		if (sized[b->bir] < 0) {
			fmt_snprintf(b->defect, sizeof(b->defect), "BAR %u: %s", b->bir, bar_why[b->bir]);
			continue;
		}
		b->bar_base = bars[b->bir].base;
		b->bar_size = bars[b->bir].size;
		uint64_t need = b->id == CXL_RBI_COMPONENT ? CXL_COMPONENT_BLOCK_LEN : CXL_BLOCK_MIN_LEN;
		if (b->offset > b->bar_size || need > b->bar_size - b->offset) {
			fmt_snprintf(b->defect, sizeof(b->defect), "offset 0x%llx + 0x%llx runs past BAR %u (0x%llx bytes)",
				     (unsigned long long)b->offset, (unsigned long long)need, b->bir,
				     (unsigned long long)b->bar_size);
			continue;
		}
		if (!cxl_window_ok(env, b->bar_base + b->offset, need, b->bar_base, b->bar_base + b->bar_size,
				   b->defect, sizeof(b->defect)))
			continue;
		b->addr = b->bar_base + b->offset;
	}
}

void cxl_probe(const struct cxl_env *env, const struct pcie_func *f, struct cxl_func *c)
{
	memset(c, 0, sizeof(*c));
	c->addr = f->addr;
	c->port_type = f->exp.present ? f->exp.port_type : 0xFF;
	c->parent = f->parent;
	for (int i = 0; i < f->ndvsec && i < PCIE_MAX_DVSEC; i++) {
		const struct pcie_dvsec *d = &f->dvsec[i];
		if (d->vendor != PCI_VENDOR_ID_CXL)
			continue;
		if (d->id == CXL_DVSEC_ID_DEVICE)
			read_device_dvsec(env, c, d->offset, d->length);
		else if (d->id == CXL_DVSEC_ID_FLEXBUS)
			read_flexbus(env, c, d->offset, d->length);
		else if (d->id == CXL_DVSEC_ID_REGLOC)
			read_regloc(env, c, d->offset, d->length);
	}
	for (int k = 0; k < c->nblocks; k++) {
		const struct cxl_regblock *b = &c->block[k];
		if (!b->addr)
			continue;
		if (b->id == CXL_RBI_COMPONENT && !c->comp.present) {
			char why[CXL_DEFECT_LEN] = "";
			cxl_read_component(env, b->addr, CXL_COMPONENT_BLOCK_LEN, &c->comp, why, sizeof(why));
			if (why[0])
				cxl_defect(c, "component registers: %s", why);
		} else if (b->id == CXL_RBI_MEMDEV && !c->devregs.present) {
			cxl_read_devregs(env, c, b->addr, b->bar_base + b->bar_size - b->addr);
		} else if (b->id == CXL_RBI_CPMU && c->ncpmu < CXL_MAX_CPMU) {
			int k = c->ncpmu++;
			c->cpmu[k].ok = cxl_cpmu_probe(env->hw, b->addr, &c->cpmu[k].pmu) == 0;
		}
	}
	/* A committed device decoder over system RAM: named on the decoder and the function. */
	for (uint32_t n = 0; c->comp.hdm.present && n < c->comp.hdm.count && n < CXL_HDM_MAX_DECODERS; n++)
		if (c->comp.hdm.dec[n].overlap[0])
			cxl_defect(c, "HDM decoder %u: %s", n, c->comp.hdm.dec[n].overlap);
}

const char *cxl_block_name(uint8_t id)
{
	static const char *const names[] = {
		[CXL_RBI_EMPTY] = "empty", [CXL_RBI_COMPONENT] = "component",
		[CXL_RBI_BAR_VIRT] = "bar_virtualization", [CXL_RBI_MEMDEV] = "memdev", [CXL_RBI_CPMU] = "cpmu",
	};
	return id < sizeof(names) / sizeof(names[0]) ? names[id] : NULL;
}
