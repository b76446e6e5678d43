/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading the uncore discovery table through the hardware interface (pmu/uncore/intel_discovery.h):
 * the PMON DVSEC in the function's extended capabilities (PCIe Base Specification 5.0 section
 * 7.9.6, Designated Vendor-Specific Extended Capability: header at the capability, DVSEC ID in
 * bits 15:0 of the dword at +0x8), the BAR its BIR names (Linux uncore_discovery.h
 * UNCORE_DISCOVERY_DVSEC2_OFFSET 0xC, BIR mask 0x7, UNCORE_DISCOVERY_BIR_BASE 0x10, step 4;
 * 64-bit BAR, low bits 3:0 flags), then the table, 64 bits at a time (MMIO reads with fault
 * fixups behind hw_mmio_read64).
 */
#include "pmu/uncore/intel_discovery.h"
#include "arch/lib/fmt.h"

#define EXT_CAP_START 0x100u             /* PCIe extended capabilities start at 0x100 */
#define EXT_CAP_END 0x1000u
#define EXT_CAP_ID_DVSEC 0x23u
#define EXT_CAP_NEXT_SHIFT 20            /* next capability offset [31:20] */
#define DVSEC_ID_OFF 0x8u
#define DVSEC_ID_PMON 0x1u
#define DVSEC_BIR_OFF 0xCu
#define DVSEC_BIR_MASK 0x7u
#define BAR0 0x10u
#define BAR_FLAGS 0xFull

/* Offset of the PMON DVSEC, or 0. */
static uint32_t find_dvsec(const struct hw *hw, struct hw_pci_addr a)
{
	uint32_t off = EXT_CAP_START;
	for (unsigned guard = 0; off >= EXT_CAP_START && off < EXT_CAP_END && guard < 1024; guard++) {
		uint32_t h, id;
		if (hw_pci_read32(hw, a, (uint16_t)off, &h) != HW_OK || !h || h == 0xFFFFFFFFu)
			return 0;
		if ((h & 0xFFFF) == EXT_CAP_ID_DVSEC && hw_pci_read32(hw, a, (uint16_t)(off + DVSEC_ID_OFF), &id) == HW_OK &&
		    (id & 0xFFFF) == DVSEC_ID_PMON)
			return off;
		uint32_t next = h >> EXT_CAP_NEXT_SHIFT;
		if (next <= off || next & 3)
			return 0;
		off = next;
	}
	return 0;
}

int disc_read(const struct hw *hw, struct hw_pci_addr a, uint8_t *buf, size_t max, size_t *len, uint64_t *base,
	      char *why, size_t n)
{
	uint32_t bir, lo, hi, off = find_dvsec(hw, a);
	*len = 0;
	*base = 0;
	if (!off) {
		fmt_snprintf(why, n, "%04x:%02x:%02x.%x: no PMON discovery DVSEC (extended capability 0x23, DVSEC ID 1)",
			     a.segment, a.bus, a.dev, a.func);
		return -1;
	}
	if (hw_pci_read32(hw, a, (uint16_t)(off + DVSEC_BIR_OFF), &bir) != HW_OK || (bir & ~DVSEC_BIR_MASK)) {
		fmt_snprintf(why, n, "%04x:%02x:%02x.%x: discovery DVSEC at 0x%x: BIR dword 0x%08x has reserved bits set",
			     a.segment, a.bus, a.dev, a.func, off, bir);
		return -1;
	}
	uint16_t bar = (uint16_t)(BAR0 + 4 * bir);
	if (hw_pci_read32(hw, a, bar, &lo) != HW_OK || hw_pci_read32(hw, a, (uint16_t)(bar + 4), &hi) != HW_OK ||
	    !(((uint64_t)hi << 32 | lo) & ~BAR_FLAGS)) {
		fmt_snprintf(why, n, "%04x:%02x:%02x.%x: discovery table BAR 0x%x is 0 or unreadable", a.segment, a.bus,
			     a.dev, a.func, bar);
		return -1;
	}
	*base = ((uint64_t)hi << 32 | lo) & ~BAR_FLAGS;
	size_t want = 0;
	for (size_t at = 0; at + 8 <= max; at += 8) {
		uint64_t v;
		hw_status st = hw_mmio_read64(hw, *base + at, &v);
		if (st != HW_OK) {
			fmt_snprintf(why, n, "discovery table at 0x%llx: read of 0x%llx: %s", (unsigned long long)*base,
				     (unsigned long long)(*base + at), hw_status_name(st));
			return at ? 0 : -1;
		}
		for (int b = 0; b < 8; b++)
			buf[at + b] = (uint8_t)(v >> (8 * b));
		*len = at + 8;
		if (at == 0) {
			want = disc_table_bytes(buf, 8);
			if (!want)             /* the whole global entry, for the parser to name */
				want = DISC_ENTRY_BYTES;
		}
		if (*len >= want)
			break;
	}
	return 0;
}
