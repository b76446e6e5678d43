/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pcie_cfg: the configuration-space readers, the defect list of a function and the BDF text
 * (efi/pcie/pcie.h) that the enumeration (pcie_enum.c), the capability walks (pcie_caps.c),
 * the link decoding (pcie_link.c) and the DVSEC decoding (pcie_dvsec.c) all use, kept in a
 * file of their own so that none of those depends on another for them.
 */
#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"
#include "arch/lib/fmt.h"

#include <stdarg.h>

hw_status pcie_cfg_read32(const struct hw *h, struct hw_pci_addr a, uint16_t off, uint32_t *v)
{
	*v = 0xffffffffu;
	if ((off & PCI_DWORD_MASK) || off >= PCI_CFG_SPACE_EXP_SIZE)
		return HW_BAD_ARG;
	return hw_pci_read32(h, a, off, v);
}

hw_status pcie_cfg_read16(const struct hw *h, struct hw_pci_addr a, uint16_t off, uint16_t *v)
{
	uint32_t d;
	hw_status st = pcie_cfg_read32(h, a, (uint16_t)(off & ~PCI_DWORD_MASK), &d);
	*v = (uint16_t)(d >> ((off & PCI_WORD_SELECT) * PCI_BYTE_BITS));
	return st;
}

hw_status pcie_cfg_read8(const struct hw *h, struct hw_pci_addr a, uint16_t off, uint8_t *v)
{
	uint32_t d;
	hw_status st = pcie_cfg_read32(h, a, (uint16_t)(off & ~PCI_DWORD_MASK), &d);
	*v = (uint8_t)(d >> ((off & PCI_DWORD_MASK) * PCI_BYTE_BITS));
	return st;
}

void pcie_defect(struct pcie_func *f, const char *fmt, ...)
{
	if (f->ndefects < PCIE_MAX_DEFECTS) {
		va_list ap;
		va_start(ap, fmt);
		fmt_vsnprintf(f->defects[f->ndefects], PCIE_DEFECT_LEN, fmt, ap);
		va_end(ap);
	}
	f->ndefects++;
}

void pcie_bdf_str(struct hw_pci_addr a, char *buf, size_t n)
{
	fmt_snprintf(buf, n, "%04x:%02x:%02x.%x", a.segment, a.bus, a.dev, a.func);
}
