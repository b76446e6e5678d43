/* SPDX-License-Identifier: BSD-2-Clause */
#include "efi/pcie/pci_bar.h"
#include "efi/pcie/pcie_regs.h"

#define PCI_COMMAND_REG       0x04u
#define PCI_COMMAND_MEMORY    0x0002u   /* Memory Space Enable */
#define PCI_BAR0              0x10u
#define PCI_BAR_STRIDE        4u
#define PCI_BAR_SPACE_IO      0x1u      /* bit 0: I/O space indicator */
#define PCI_BAR_TYPE_MASK     0x6u      /* bits 2:1: 00 32-bit, 10 64-bit */
#define PCI_BAR_TYPE_64       0x4u
#define PCI_BAR_PREFETCH      0x8u
#define PCI_BAR_MEM_MASK      0xFFFFFFF0u
#define ALL_ONES              0xFFFFFFFFu

int pci_bar_probe(const struct hw *hw, struct hw_pci_addr a, unsigned index, struct pci_bar *bar,
		  const char **why)
{
	*bar = (struct pci_bar){ 0 };
	if (index >= PCI_BAR_COUNT) {
		*why = "no such BAR";
		return -1;
	}
	uint16_t off = (uint16_t)(PCI_BAR0 + PCI_BAR_STRIDE * index);
	uint32_t lo, hi = 0, cmd;
	if (hw_pci_read32(hw, a, off, &lo) != HW_OK || hw_pci_read32(hw, a, PCI_COMMAND_REG, &cmd) != HW_OK) {
		*why = "config read failed";
		return -1;
	}
	if (lo & PCI_BAR_SPACE_IO) {
		*why = "I/O BAR";
		return -1;
	}
	bar->is64 = (lo & PCI_BAR_TYPE_MASK) == PCI_BAR_TYPE_64;
	bar->prefetch = !!(lo & PCI_BAR_PREFETCH);
	if (bar->is64 && index + 1 >= PCI_BAR_COUNT) {
		*why = "index 5 cannot start a 64-bit BAR";
		return -1;
	}
	if (bar->is64 && hw_pci_read32(hw, a, (uint16_t)(off + PCI_BAR_STRIDE), &hi) != HW_OK) {
		*why = "config read failed";
		return -1;
	}
	bar->base = ((uint64_t)hi << 32) | (lo & PCI_BAR_MEM_MASK);

	/* Size: decode off, all ones, read back, restore (PCI 3.0 6.2.5.1). */
	uint32_t slo = 0, shi = ALL_ONES;
	hw_pci_write32(hw, a, PCI_COMMAND_REG, cmd & ~PCI_COMMAND_MEMORY);
	hw_pci_write32(hw, a, off, ALL_ONES);
	hw_pci_read32(hw, a, off, &slo);
	hw_pci_write32(hw, a, off, lo);
	if (bar->is64) {
		hw_pci_write32(hw, a, (uint16_t)(off + PCI_BAR_STRIDE), ALL_ONES);
		hw_pci_read32(hw, a, (uint16_t)(off + PCI_BAR_STRIDE), &shi);
		hw_pci_write32(hw, a, (uint16_t)(off + PCI_BAR_STRIDE), hi);
	}
	hw_pci_write32(hw, a, PCI_COMMAND_REG, cmd);
	uint64_t mask = ((uint64_t)(bar->is64 ? shi : ALL_ONES) << 32) | (slo & PCI_BAR_MEM_MASK);
	bar->size = mask ? ~mask + 1 : 0;
	if (!(slo & PCI_BAR_MEM_MASK)) {
		*why = "no such BAR";
		return -1;
	}
	if (!bar->base) {
		*why = "BAR not assigned";
		return -1;
	}
	return 0;
}
