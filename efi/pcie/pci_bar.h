/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PCI Base Address Registers (PCI Local Bus 3.0 section 6.2.5.1; PCI Express Base 6.0 7.5.1.2.1):
 * decode a memory BAR's address, width and prefetchability, and size it the standard way
 * (memory decode off in the Command register, all ones written, the size read back, every
 * register put back). Pure, over the hardware interface: host-tested on the PCI model.
 */
#ifndef EFIPERF_PCI_BAR_H
#define EFIPERF_PCI_BAR_H

#include <stdint.h>
#include "arch/hw.h"

#define PCI_BAR_COUNT 6

struct pci_bar {
	uint64_t base;        /* physical address the firmware assigned */
	uint64_t size;        /* bytes the BAR decodes */
	int is64, prefetch;
};

/* Decode and size BAR `index` of function a. Returns 0, or -1 with why: "I/O BAR",
 * "no such BAR", "BAR not assigned", "index 5 cannot start a 64-bit BAR", "config read failed". */
int pci_bar_probe(const struct hw *hw, struct hw_pci_addr a, unsigned index, struct pci_bar *bar,
		  const char **why);

#endif
