/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PCI enumeration over the hardware interface (efi/pcie.h).
 *
 * Every bus of every given range is scanned by brute force (PCIe 6.0 7.5.1: a function exists
 * when its Vendor ID does not read as all ones; 0x0000 is not a valid vendor either): this finds
 * devices behind bridges whatever the firmware programmed into the bridges, and on a hierarchy
 * it programmed the bridges' Secondary Bus Numbers tell which bridge leads to each bus.
 * Functions 1..7 are probed only when function 0's Header Type bit 7 (Multi-Function Device,
 * PCIe 6.0 7.5.1.1.9) is set: single-function devices may decode only the Device Number and
 * answer for every function.
 */
#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"
#include "arch/lib/fmt.h"

#include <string.h>

void pcie_scan_init(struct pcie_scan *s, struct pcie_func *storage, int cap)
{
	memset(s, 0, sizeof(*s));
	s->funcs = storage;
	s->cap = cap > 0 ? cap : 0;
	s->first_error = HW_OK;
}

/* Header (PCIe 6.0 7.5.1.1): IDs, class, revision, header type; Type 1 bus numbers. */
static hw_status read_header(const struct hw *h, struct pcie_func *f)
{
	uint32_t id, cr, bus;
	uint8_t ht;
	hw_status st = pcie_cfg_read32(h, f->addr, PCI_VENDOR_ID, &id);
	f->vendor = (uint16_t)id;
	f->device = (uint16_t)(id >> PCI_DEVICE_ID_SHIFT);
	if (st != HW_OK || f->vendor == PCI_VENDOR_ID_NONE || f->vendor == PCI_VENDOR_ID_ZERO)
		return st;
	if (pcie_cfg_read32(h, f->addr, PCI_CLASS_REVISION, &cr) != HW_OK)
		pcie_defect(f, "class code read failed");
	f->class_code = cr >> PCI_CLASS_SHIFT;
	f->revision = (uint8_t)(cr & PCI_REVISION_MASK);
	if (pcie_cfg_read8(h, f->addr, PCI_HEADER_TYPE, &ht) != HW_OK)
		pcie_defect(f, "header type read failed");
	f->header_type = ht;
	if ((ht & PCI_HEADER_TYPE_LAYOUT) == PCI_HEADER_TYPE_BRIDGE) {
		if (pcie_cfg_read32(h, f->addr, PCI_PRIMARY_BUS, &bus) != HW_OK)
			pcie_defect(f, "bus number read failed");
		f->primary = (uint8_t)(bus & PCI_BUS_MASK);
		f->secondary = (uint8_t)((bus >> PCI_SECONDARY_BUS_SHIFT) & PCI_BUS_MASK);
		f->subordinate = (uint8_t)((bus >> PCI_SUBORDINATE_BUS_SHIFT) & PCI_BUS_MASK);
	}
	return HW_OK;
}

hw_status pcie_probe_func(const struct hw *h, struct hw_pci_addr a, struct pcie_func *f)
{
	memset(f, 0, sizeof(*f));
	f->addr = a;
	f->parent = -1;
	hw_status st = read_header(h, f);
	if (st != HW_OK || f->vendor == PCI_VENDOR_ID_NONE || f->vendor == PCI_VENDOR_ID_ZERO)
		return st;
	pcie_walk_caps(h, f);
	pcie_decode_exp(h, f);
	/* Extended configuration space exists only for PCI Express functions (PCIe 6.0 7.2.2:
	 * the PCI-compatible region is the first 256 bytes; 7.6: extended capabilities from 0x100). */
	if (f->exp.present)
		pcie_walk_ext_caps(h, f);
	return HW_OK;
}

static int absent(const struct pcie_func *f)
{
	return f->vendor == PCI_VENDOR_ID_NONE || f->vendor == PCI_VENDOR_ID_ZERO;
}

/* Probes one function into the next free slot (or a scratch slot once the array is full, so
 * the multi-function bit is still known). Returns 1 when a function is present. */
static int probe_into(const struct hw *h, struct pcie_scan *s, struct hw_pci_addr a,
		      struct pcie_func *scratch, uint8_t *header_type)
{
	struct pcie_func *f = s->n < s->cap ? &s->funcs[s->n] : scratch;
	hw_status st = pcie_probe_func(h, a, f);
	if (st != HW_OK) {
		if (s->read_errors++ == 0)
			s->first_error = st;
		return 0;
	}
	if (absent(f))
		return 0;
	*header_type = f->header_type;
	if (f == scratch)
		s->overflow++;
	else
		s->n++;
	return 1;
}

/* Each function's parent: the Type 1 function of the same segment whose Secondary Bus Number
 * is the function's bus (PCIe 6.0 7.5.1.3.4). A bridge whose secondary bus is not above its own
 * bus is not configured (reset value 0) and leads nowhere. */
static void link_parents(struct pcie_scan *s)
{
	for (int i = 0; i < s->n; i++) {
		struct pcie_func *f = &s->funcs[i];
		for (int k = 0; k < s->n; k++) {
			const struct pcie_func *b = &s->funcs[k];
			if (k == i || b->addr.segment != f->addr.segment ||
			    (b->header_type & PCI_HEADER_TYPE_LAYOUT) != PCI_HEADER_TYPE_BRIDGE ||
			    b->secondary != f->addr.bus || b->secondary <= b->addr.bus)
				continue;
			f->parent = k;
			f->parent_addr = b->addr;
			break;
		}
	}
}

int pcie_enumerate(const struct hw *h, struct pcie_scan *s, const struct pcie_bus_range *ranges, int nranges)
{
	static struct pcie_func scratch; /* only used once the caller's array is full */

	for (int r = 0; r < nranges; r++) {
		const struct pcie_bus_range *rg = &ranges[r];
		for (unsigned bus = rg->bus_start; bus <= rg->bus_end; bus++) {
			for (unsigned dev = 0; dev < PCI_MAX_DEVICES; dev++) {
				struct hw_pci_addr a = { rg->segment, (uint8_t)bus, (uint8_t)dev, 0 };
				uint8_t ht = 0;
				if (!probe_into(h, s, a, &scratch, &ht) || !(ht & PCI_HEADER_TYPE_MFD))
					continue;
				for (unsigned fn = 1; fn < PCI_MAX_FUNCTIONS; fn++) {
					uint8_t ht_fn;
					a.func = (uint8_t)fn;
					probe_into(h, s, a, &scratch, &ht_fn);
				}
			}
		}
	}
	link_parents(s);
	pcie_link_partners(s);
	return s->n;
}
