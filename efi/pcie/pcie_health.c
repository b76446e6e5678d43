/* SPDX-License-Identifier: BSD-2-Clause */
/* A function's Device Status, Link Status and AER status snapshot and delta (pcie_health.h). */
#include "efi/pcie/pcie_health.h"
#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"

/* Bit positions from PCIe 6.0; the names are lspci's (pciutils ls-caps.c, ls-ecaps.c). A
 * table ends with a NULL name. */
const struct pcie_bit_name pcie_devsta_names[] = {   /* 7.5.3.5 Device Status */
	{ 0, "CorrErr" }, { 1, "NonFatalErr" }, { 2, "FatalErr" }, { 3, "UnsupReq" }, { 0, NULL } };
const struct pcie_bit_name pcie_lnksta_names[] = {   /* 7.5.3.8 Link Status */
	{ 14, "LBMS" }, { 15, "LABS" }, { 0, NULL } };
const struct pcie_bit_name pcie_cor_names[] = {      /* 7.8.4.5 Correctable Error Status */
	{ 0, "RxErr" }, { 6, "BadTLP" }, { 7, "BadDLLP" }, { 8, "Rollover" }, { 12, "Timeout" },
	{ 13, "AdvNonFatalErr" }, { 14, "CorrIntErr" }, { 15, "HeaderOF" }, { 0, NULL } };
const struct pcie_bit_name pcie_uncor_names[] = {    /* 7.8.4.2 Uncorrectable Error Status */
	{ 4, "DLP" }, { 5, "SDES" }, { 12, "TLP" }, { 13, "FCP" }, { 14, "CmpltTO" }, { 15, "CmpltAbrt" },
	{ 16, "UnxCmplt" }, { 17, "RxOF" }, { 18, "MalfTLP" }, { 19, "ECRC" }, { 20, "UnsupReq" }, { 21, "ACSViol" },
	{ 22, "UncorrIntErr" }, { 23, "BlockedTLP" }, { 24, "AtomicOpBlocked" }, { 25, "TLPBlockedErr" },
	{ 26, "PoisonTLPBlocked" }, { 27, "DMWrReqBlocked" }, { 28, "IDECheck" }, { 29, "MisIDETLP" },
	{ 30, "PCRC_CHECK" }, { 31, "TLPXlatBlocked" }, { 0, NULL } };

static uint32_t mask_of(const struct pcie_bit_name *t)
{
	uint32_t m = 0;
	for (; t->name; t++)
		m |= 1u << t->bit;
	return m;
}

const char *pcie_bit_name(const struct pcie_bit_name *t, uint32_t bits, int k)
{
	for (; t->name; t++)
		if ((bits & (1u << t->bit)) && k-- == 0)
			return t->name;
	return NULL;
}

int pcie_bit_count(const struct pcie_bit_name *t, uint32_t bits)
{
	int n = 0;
	while (pcie_bit_name(t, bits, n))
		n++;
	return n;
}

int pcie_health_read(const struct hw *h, struct pcie_health_snap *s)
{
	uint32_t dev = 0, lnk = 0;
	if (!s->exp)
		return -1;
	if (pcie_cfg_read32(h, s->addr, (uint16_t)(s->exp + PCI_EXP_DEVCTL), &dev) != HW_OK ||
	    pcie_cfg_read32(h, s->addr, (uint16_t)(s->exp + PCI_EXP_LNKCTL), &lnk) != HW_OK ||
	    (s->aer && (pcie_cfg_read32(h, s->addr, (uint16_t)(s->aer + PCI_ERR_UNCOR_STATUS), &s->uncor) != HW_OK ||
			pcie_cfg_read32(h, s->addr, (uint16_t)(s->aer + PCI_ERR_COR_STATUS), &s->cor) != HW_OK))) {
		s->why = "a configuration read failed";
		return -1;
	}
	if (dev == PCI_CFG_ALL_ONES) {
		s->why = "the function reads all ones (gone)";
		return -1;
	}
	s->devsta = (uint16_t)(dev >> PCI_STATUS_SHIFT);
	s->lnksta = (uint16_t)(lnk >> PCI_EXP_LNKSTA_SHIFT);
	s->why = NULL;
	return 0;
}

void pcie_health_locate(const struct hw *h, struct hw_pci_addr a, struct pcie_health_snap *s)
{
	struct pcie_func f;
	*s = (struct pcie_health_snap){ .addr = a };
	if (pcie_probe_func(h, a, &f) != HW_OK || f.vendor == PCI_VENDOR_ID_NONE || f.vendor == PCI_VENDOR_ID_ZERO) {
		s->why = "no function there";
		return;
	}
	if (!f.exp.present) {
		s->why = "no PCI Express capability";
		return;
	}
	s->exp = f.exp.offset;
	const struct pcie_cap *aer = pcie_find_ext_cap(&f, PCI_EXT_CAP_ID_AER);
	s->aer = aer ? aer->offset : 0;
	pcie_health_read(h, s);
}

static uint8_t speed_of(uint16_t lnksta)
{
	return (uint8_t)(lnksta & PCI_EXP_LNKSTA_CLS);
}

static uint8_t width_of(uint16_t lnksta)
{
	return (uint8_t)((lnksta >> PCI_EXP_LNKSTA_NLW_SHIFT) & PCI_EXP_LNK_WIDTH_MASK);
}

void pcie_health_delta(const struct pcie_health_snap *a, const struct pcie_health_snap *b, struct pcie_health_delta *d)
{
	*d = (struct pcie_health_delta){ 0 };
	uint32_t cm = mask_of(pcie_cor_names), um = mask_of(pcie_uncor_names);
	d->devsta_new = (uint16_t)(b->devsta & ~a->devsta & PCI_EXP_DEVSTA_ERR_MASK);
	d->lnksta_new = (uint16_t)(b->lnksta & ~a->lnksta & (PCI_EXP_LNKSTA_LBMS | PCI_EXP_LNKSTA_LABS));
	d->cor_new = b->cor & ~a->cor & cm;
	d->uncor_new = b->uncor & ~a->uncor & um;
	d->cor_before = a->cor & cm;
	d->uncor_before = a->uncor & um;
	d->speed_before = speed_of(a->lnksta);
	d->speed_after = speed_of(b->lnksta);
	d->width_before = width_of(a->lnksta);
	d->width_after = width_of(b->lnksta);
	d->correctable = (uint32_t)pcie_bit_count(pcie_cor_names, d->cor_new);
	d->uncorrectable = (uint32_t)pcie_bit_count(pcie_uncor_names, d->uncor_new);
	d->link_events = (uint32_t)pcie_bit_count(pcie_lnksta_names, d->lnksta_new) +
			 (d->speed_before != d->speed_after || d->width_before != d->width_after);
}

int pcie_health_clear(const struct hw *h, const struct pcie_health_snap *s)
{
	uint32_t v;
	int rc = 0;
	if (!s->exp || s->why)
		return 0;
	if (s->devsta & PCI_EXP_DEVSTA_ERR_MASK) {   /* Device Control kept: the dword's low half */
		rc |= pcie_cfg_read32(h, s->addr, (uint16_t)(s->exp + PCI_EXP_DEVCTL), &v) != HW_OK ||
		      hw_pci_write32(h, s->addr, (uint16_t)(s->exp + PCI_EXP_DEVCTL),
				     (v & PCI_CFG_LOW_HALF) | (uint32_t)(s->devsta & PCI_EXP_DEVSTA_ERR_MASK) << PCI_STATUS_SHIFT) != HW_OK;
	}
	uint16_t lk = s->lnksta & (PCI_EXP_LNKSTA_LBMS | PCI_EXP_LNKSTA_LABS);
	if (lk)
		rc |= pcie_cfg_read32(h, s->addr, (uint16_t)(s->exp + PCI_EXP_LNKCTL), &v) != HW_OK ||
		      hw_pci_write32(h, s->addr, (uint16_t)(s->exp + PCI_EXP_LNKCTL),
				     (v & PCI_CFG_LOW_HALF) | (uint32_t)lk << PCI_EXP_LNKSTA_SHIFT) != HW_OK;
	if (s->aer && (s->uncor & mask_of(pcie_uncor_names)))
		rc |= hw_pci_write32(h, s->addr, (uint16_t)(s->aer + PCI_ERR_UNCOR_STATUS), s->uncor & mask_of(pcie_uncor_names)) != HW_OK;
	if (s->aer && (s->cor & mask_of(pcie_cor_names)))
		rc |= hw_pci_write32(h, s->addr, (uint16_t)(s->aer + PCI_ERR_COR_STATUS), s->cor & mask_of(pcie_cor_names)) != HW_OK;
	return rc ? -1 : 0;
}
