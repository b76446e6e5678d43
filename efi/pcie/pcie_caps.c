/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Capability lists (efi/pcie.h): the PCI capabilities list (PCI 3.0 section 6.7, PCIe 6.0
 * 7.5.1.1.11) and the PCI Express extended capabilities (PCIe 6.0 7.6.3), both walked with a
 * bitmap of visited dwords so that every walk ends: a revisited offset, a pointer into the
 * header, a zero or all-ones extended header mid-chain or a failed read ends the walk with a
 * defect. Reserved pointer bits [1:0] are masked as both specifications require ("software must
 * mask these bits"), and reported, because hardware that sets them is not compliant.
 * Names from the PCI Code and ID Assignment Specification 1.16, sections 2 and 3.
 */
#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"

#include <string.h>

/* PCI Code and ID Assignment 1.16, section 2 "Capability IDs" (0x01..0x15). */
static const char *const cap_names[] = {
	[0x01] = "PM",          /* PCI Power Management Interface */
	[0x02] = "AGP",         /* Accelerated Graphics Port */
	[0x03] = "VPD",         /* Vital Product Data */
	[0x04] = "SlotID",      /* Slot Identification */
	[0x05] = "MSI",         /* Message Signaled Interrupts */
	[0x06] = "HotSwap",     /* CompactPCI Hot Swap */
	[0x07] = "PCI-X",
	[0x08] = "HyperTransport",
	[0x09] = "Vendor",      /* Vendor Specific */
	[0x0a] = "Debug",       /* Debug port */
	[0x0b] = "CPCI-CRC",    /* CompactPCI central resource control */
	[0x0c] = "HotPlug",     /* PCI Hot-Plug */
	[0x0d] = "SSVID",       /* PCI Bridge Subsystem Vendor ID */
	[0x0e] = "AGP8x",
	[0x0f] = "Secure",      /* Secure Device */
	[0x10] = "PCIe",        /* PCI Express */
	[0x11] = "MSI-X",
	[0x12] = "SATA",        /* Serial ATA Data/Index Configuration */
	[0x13] = "AF",          /* Advanced Features */
	[0x14] = "EA",          /* Enhanced Allocation */
	[0x15] = "FPB",         /* Flattening Portal Bridge */
};

/* PCI Code and ID Assignment 1.16, section 3 "Extended Capability IDs" (0x0001..0x0034). */
static const char *const ext_cap_names[] = {
	[0x01] = "AER",         /* Advanced Error Reporting */
	[0x02] = "VC",          /* Virtual Channel (no MFVC) */
	[0x03] = "DSN",         /* Device Serial Number */
	[0x04] = "PwrBudget",   /* Power Budgeting */
	[0x05] = "RCLD",        /* Root Complex Link Declaration */
	[0x06] = "RCILC",       /* Root Complex Internal Link Control */
	[0x07] = "RCEC-EA",     /* Root Complex Event Collector Endpoint Association */
	[0x08] = "MFVC",        /* Multi-Function Virtual Channel */
	[0x09] = "VC9",         /* Virtual Channel (with MFVC) */
	[0x0a] = "RCRB",        /* RCRB Header */
	[0x0b] = "VSEC",        /* Vendor-Specific Extended Capability */
	[0x0c] = "CAC",         /* Configuration Access Correlation */
	[0x0d] = "ACS",         /* Access Control Services */
	[0x0e] = "ARI",         /* Alternative Routing-ID Interpretation */
	[0x0f] = "ATS",         /* Address Translation Services */
	[0x10] = "SR-IOV",
	[0x11] = "MR-IOV",
	[0x12] = "Multicast",
	[0x13] = "PRI",         /* Page Request Interface */
	[0x14] = "AMD",         /* reserved for AMD */
	[0x15] = "ReBAR",       /* Resizable BAR */
	[0x16] = "DPA",         /* Dynamic Power Allocation */
	[0x17] = "TPH",         /* TPH Requester */
	[0x18] = "LTR",         /* Latency Tolerance Reporting */
	[0x19] = "SecPCIe",     /* Secondary PCI Express */
	[0x1a] = "PMUX",        /* Protocol Multiplexing */
	[0x1b] = "PASID",
	[0x1c] = "LNR",         /* LN Requester */
	[0x1d] = "DPC",         /* Downstream Port Containment */
	[0x1e] = "L1SS",        /* L1 PM Substates */
	[0x1f] = "PTM",         /* Precision Time Measurement */
	[0x20] = "M-PCIe",
	[0x21] = "FRS",         /* FRS Queueing */
	[0x22] = "RTR",         /* Readiness Time Reporting */
	[0x23] = "DVSEC",       /* Designated Vendor-Specific Extended Capability */
	[0x24] = "VF-ReBAR",
	[0x25] = "DLF",         /* Data Link Feature */
	[0x26] = "PL16",        /* Physical Layer 16.0 GT/s */
	[0x27] = "LMR",         /* Lane Margining at the Receiver */
	[0x28] = "HierID",      /* Hierarchy ID */
	[0x29] = "NPEM",        /* Native PCIe Enclosure Management */
	[0x2a] = "PL32",        /* Physical Layer 32.0 GT/s */
	[0x2b] = "AltProt",     /* Alternate Protocol */
	[0x2c] = "SFI",         /* System Firmware Intermediary */
	[0x2d] = "Shadow",      /* Shadow Functions */
	[0x2e] = "DOE",         /* Data Object Exchange */
	[0x2f] = "Dev3",        /* Device 3 */
	[0x30] = "IDE",         /* Integrity and Data Encryption */
	[0x31] = "PL64",        /* Physical Layer 64.0 GT/s */
	[0x32] = "FlitLog",     /* Flit Logging */
	[0x33] = "FlitPerf",    /* Flit Performance Measurement */
	[0x34] = "FlitErrInj",  /* Flit Error Injection */
};

#define NAMES(t) (sizeof(t) / sizeof((t)[0]))

const char *pcie_cap_name(uint16_t id)
{
	return id < NAMES(cap_names) ? cap_names[id] : NULL;
}

const char *pcie_ext_cap_name(uint16_t id)
{
	return id < NAMES(ext_cap_names) ? ext_cap_names[id] : NULL;
}

static const struct pcie_cap *find(const struct pcie_cap *c, int n, uint16_t id)
{
	for (int i = 0; i < n; i++)
		if (c[i].id == id)
			return &c[i];
	return NULL;
}

const struct pcie_cap *pcie_find_cap(const struct pcie_func *f, uint16_t id)
{
	return find(f->caps, f->ncaps, id);
}

const struct pcie_cap *pcie_find_ext_cap(const struct pcie_func *f, uint16_t id)
{
	return find(f->ext, f->next, id);
}

/* One bit per dword of configuration space. */
struct visited { uint8_t bit[PCI_CFG_SPACE_EXP_SIZE / PCI_DWORD / PCI_BYTE_BITS]; };

static int seen(struct visited *v, uint16_t off)
{
	unsigned dw = off / PCI_DWORD;
	int was = (v->bit[dw / PCI_BYTE_BITS] >> (dw % PCI_BYTE_BITS)) & 1;
	v->bit[dw / PCI_BYTE_BITS] |= (uint8_t)(1u << (dw % PCI_BYTE_BITS));
	return was;
}

void pcie_walk_caps(const struct hw *h, struct pcie_func *f)
{
	uint32_t cmd_status, hdr;
	uint8_t p;
	struct visited v;

	if (pcie_cfg_read32(h, f->addr, PCI_COMMAND, &cmd_status) != HW_OK) {
		pcie_defect(f, "status register read failed");
		return;
	}
	if (!((cmd_status >> PCI_STATUS_SHIFT) & PCI_STATUS_CAP_LIST))
		return;
	uint16_t from = (f->header_type & PCI_HEADER_TYPE_LAYOUT) == PCI_HEADER_TYPE_CARDBUS ?
			PCI_CB_CAPABILITY_LIST : PCI_CAPABILITY_LIST;
	if (pcie_cfg_read8(h, f->addr, from, &p) != HW_OK) {
		pcie_defect(f, "capabilities pointer read failed");
		return;
	}
	memset(&v, 0, sizeof(v));
	while (p) {
		if (p & PCI_CAP_PTR_RESERVED) {
			pcie_defect(f, "capability pointer 0x%02x at 0x%02x has reserved bits [1:0] set", p, from);
			p &= (uint8_t)~PCI_CAP_PTR_RESERVED;
		}
		if (p < PCI_CAP_MIN_OFFSET) {
			pcie_defect(f, "capability pointer 0x%02x at 0x%02x points into the header", p, from);
			return;
		}
		if (seen(&v, p)) {
			pcie_defect(f, "capability loop at 0x%02x", p);
			return;
		}
		if (pcie_cfg_read32(h, f->addr, p, &hdr) != HW_OK) {
			pcie_defect(f, "capability read failed at 0x%02x", p);
			return;
		}
		if (f->ncaps < PCIE_MAX_CAPS)
			f->caps[f->ncaps++] = (struct pcie_cap){ .id = (uint8_t)hdr, .offset = p };
		else if (f->ncaps++ == PCIE_MAX_CAPS)
			pcie_defect(f, "more than %d capabilities; the rest are not recorded", PCIE_MAX_CAPS);
		from = (uint16_t)(p + PCI_CAP_LIST_NEXT);
		p = (uint8_t)(hdr >> (PCI_CAP_LIST_NEXT * PCI_BYTE_BITS));
	}
	if (f->ncaps > PCIE_MAX_CAPS)
		f->ncaps = PCIE_MAX_CAPS;
}

void pcie_walk_ext_caps(const struct hw *h, struct pcie_func *f)
{
	uint16_t off = PCI_EXT_CAP_START;
	int total = 0;
	struct visited v;

	memset(&v, 0, sizeof(v));
	for (;;) {
		uint32_t hdr;
		if (pcie_cfg_read32(h, f->addr, off, &hdr) != HW_OK) {
			pcie_defect(f, "extended capability read failed at 0x%03x", off);
			return;
		}
		/* PCIe 6.0 7.6.3: no extended capabilities = a header of all zeros at 0x100. */
		if (hdr == 0) {
			if (off != PCI_EXT_CAP_START)
				pcie_defect(f, "zero extended capability header at 0x%03x", off);
			return;
		}
		if (hdr == PCI_EXT_CAP_HEADER_NONE) {
			if (off == PCI_EXT_CAP_START)
				pcie_defect(f, "extended config space not reachable (0x100 reads all ones)");
			else
				pcie_defect(f, "extended capability header at 0x%03x reads all ones", off);
			return;
		}
		seen(&v, off);
		uint16_t id = (uint16_t)(hdr & PCI_EXT_CAP_ID_MASK);
		if (f->next < PCIE_MAX_EXT_CAPS)
			f->ext[f->next++] = (struct pcie_cap){
				.id = id, .offset = off,
				.version = (uint8_t)((hdr >> PCI_EXT_CAP_VER_SHIFT) & PCI_EXT_CAP_VER_MASK) };
		else if (total == PCIE_MAX_EXT_CAPS)
			pcie_defect(f, "more than %d extended capabilities; the rest are not recorded",
				    PCIE_MAX_EXT_CAPS);
		total++;
		if (id == PCI_EXT_CAP_ID_DVSEC)
			pcie_decode_dvsec(h, f, off);
		uint16_t next = (uint16_t)((hdr >> PCI_EXT_CAP_NEXT_SHIFT) & PCI_EXT_CAP_NEXT_MASK);
		if (next == 0)
			return;
		if (next & PCI_CAP_PTR_RESERVED) {
			pcie_defect(f, "extended capability pointer 0x%03x at 0x%03x has reserved bits [1:0] set",
				    next, off);
			next &= (uint16_t)~PCI_CAP_PTR_RESERVED;
		}
		if (next < PCI_EXT_CAP_START) {
			pcie_defect(f, "extended capability pointer 0x%03x at 0x%03x is below 0x100", next, off);
			return;
		}
		if (next >= PCI_CFG_SPACE_EXP_SIZE) { /* unreachable with 12 bits; kept for clarity */
			pcie_defect(f, "extended capability pointer 0x%x at 0x%03x is past 4 KiB", next, off);
			return;
		}
		if (seen(&v, next)) {
			pcie_defect(f, "extended capability loop at 0x%03x", next);
			return;
		}
		off = next;
	}
}
