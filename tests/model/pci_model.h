/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Synthetic PCI configuration space for host tests and fuzzing: a struct hw whose pci_read32 /
 * pci_write32 read and write the 4 KiB configuration spaces of the functions a test adds.
 * Functions not added read as all ones (no function: PCIe 6.0 7.5.1.1 / 2.3.1, unsupported
 * request completes with 0xffffffff on a configuration read). Optionally an MMIO window emulates
 * ECAM for one segment (base = ECAM address of bus 0), so arch/hw_ecam.c can be tested: its
 * MMIO reads land in the same spaces. Counters tell tests which path each access took.
 *
 * Builders lay out capability chains the way hardware does (header, capability ID, next
 * pointer), so tests describe config spaces at the level of the specification:
 *
 *   struct pci_model_func *f = pci_model_add(&m, 0, 0, 1, 0, 0x8086, 0x29c0, 0x060400, 1);
 *   pci_model_add_exp(f, 0x40, PCI_EXP_TYPE_ROOT_PORT, 4, 8, 3, 4, 0x0f);
 *   pci_model_add_ext_cap(f, 0x100, PCI_EXT_CAP_ID_AER, 2);
 *   pci_model_add_dvsec(f, 0x140, 0x10de, 1, 0x14, 0x4);
 */
#ifndef EFIPERF_PCI_MODEL_H
#define EFIPERF_PCI_MODEL_H

#include "arch/hw.h"

#define PCI_MODEL_MAX_FUNCS 64
#define PCI_MODEL_CFG_SIZE 4096

#define PCI_MODEL_BARS 6

struct pci_model_func {
	struct hw_pci_addr addr;
	uint8_t cfg[PCI_MODEL_CFG_SIZE];
	/* BAR register i keeps its read-only bits (type, size) as hardware does: a write stores
	 * (value & bar_wmask[i]) | (current & ~bar_wmask[i]). 0 = plain register (no BAR). */
	uint32_t bar_wmask[PCI_MODEL_BARS];
};

struct pci_model {
	struct pci_model_func f[PCI_MODEL_MAX_FUNCS];
	int n;
	/* ECAM window (ecam_size 0 = none): MMIO in [ecam_base, ecam_base + ecam_size) maps to
	 * segment ecam_segment, bus = (addr - ecam_base) >> 20, ... (PCIe 6.0 Table 7-1). */
	uint64_t ecam_base, ecam_size;
	uint16_t ecam_segment;
	uint64_t last_mmio;          /* address of the last MMIO access */
	unsigned pci_reads, pci_writes, mmio_reads, mmio_writes;
};

void pci_model_init(struct pci_model *m);
struct hw pci_model_hw(struct pci_model *m);
void pci_model_ecam(struct pci_model *m, uint64_t base, uint64_t size, uint16_t segment);

/* Adds a function with Vendor/Device ID, 24-bit class code and header type (layout | 0x80 for
 * multi-function); the rest of its space is zero. NULL when full or already present. */
struct pci_model_func *pci_model_add(struct pci_model *m, uint16_t seg, uint8_t bus, uint8_t dev,
				     uint8_t func, uint16_t vendor, uint16_t device, uint32_t class_code,
				     uint8_t header_type);
struct pci_model_func *pci_model_find(struct pci_model *m, struct hw_pci_addr a);

/* Raw little-endian stores into a function's space (bounds-checked: out of range is ignored). */
void pci_model_w8(struct pci_model_func *f, unsigned off, uint8_t v);
void pci_model_w16(struct pci_model_func *f, unsigned off, uint16_t v);
void pci_model_w32(struct pci_model_func *f, unsigned off, uint32_t v);
uint32_t pci_model_r32(const struct pci_model_func *f, unsigned off);

/* Type 1 header bus numbers. */
void pci_model_set_bridge(struct pci_model_func *f, uint8_t primary, uint8_t secondary, uint8_t subordinate);

/* Appends a standard capability at off to the end of the chain (sets Status.Capabilities List,
 * the Capabilities Pointer or the previous entry's next pointer). */
void pci_model_add_cap(struct pci_model_func *f, uint8_t off, uint8_t id);

/* A PCI Express capability (version 2) at off: Device/Port Type, LnkCap speed/width,
 * LnkSta speed/width, LnkCap2 Supported Link Speeds Vector (bit 0 = 2.5 GT/s). */
void pci_model_add_exp(struct pci_model_func *f, uint8_t off, uint8_t type, uint8_t max_speed,
		       uint8_t max_width, uint8_t speed, uint8_t width, uint8_t speeds_vector);

/* Appends an extended capability header (id, version) at off to the extended chain. */
void pci_model_add_ext_cap(struct pci_model_func *f, uint16_t off, uint16_t id, uint8_t version);

/* A DVSEC at off (extended capability 0x23, version 1): both headers. */
void pci_model_add_dvsec(struct pci_model_func *f, uint16_t off, uint16_t vendor, uint8_t rev,
			 uint16_t length, uint16_t dvsec_id);

/* A memory BAR at index i: base (aligned to size), size a power of two >= 16, flags = the
 * low type bits (0x4 64-bit, 0x8 prefetchable). A 64-bit BAR also claims index i + 1. */
void pci_model_set_bar(struct pci_model_func *f, unsigned i, uint64_t base, uint64_t size, uint32_t flags);

#endif
