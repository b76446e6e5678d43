/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * DVSEC: Designated Vendor-Specific Extended Capability (PCIe 6.0 7.9.6, extended capability ID
 * 0x0023). Header 1 at +0x4: DVSEC Vendor ID [15:0], Revision [19:16], Length [31:20] (bytes,
 * including both headers); header 2 at +0x8: DVSEC ID [15:0].
 *
 * NVIDIA (vendor 0x10de, DVSEC ID 0x4) on Tegra410 root ports maps each root port to its root
 * complex and socket: bytes Bus# +0xc, Segment# +0xd, RP# +0xe, RC# +0xf, Socket# +0x10
 * (Linux Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst "Mapping the RC# to lspci
 * segment number"). Bytes are read as dwords through hw_pci_read32 and
 * shifted: config access is dword-granular on every backend.
 *
 * CXL (vendor 0x1e98) DVSEC IDs: CXL 3.1 section 8.1, Table 8-2 "CXL DVSEC ID Assignment"
 * (checked against QEMU include/hw/cxl/cxl_pci.h, which cites that table, and Linux
 * drivers/cxl/cxlpci.h, which give the sections below; ID 0xA, the compliance-test DVSEC, is in
 * Table 8-2 only and appears in Intel's CXL IP as dvsec_id 0x000a with vendor 0x1e98).
 */
#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"
#include "arch/lib/fmt.h"

static const char *const cxl_dvsec_names[] = {
	[0x0] = "CXL PCIe DVSEC for CXL Devices",      /* CXL 3.1 8.1.3 */
	[0x2] = "CXL Non-CXL Function Map",            /* 8.1.4 (CXL 2.0) */
	[0x3] = "CXL Extensions DVSEC for Ports",      /* 8.1.5 */
	[0x4] = "CXL GPF DVSEC for CXL Ports",         /* 8.1.6 */
	[0x5] = "CXL GPF DVSEC for CXL Devices",       /* 8.1.7 */
	[0x7] = "CXL PCIe DVSEC for Flex Bus Port",    /* 8.1.8 */
	[0x8] = "CXL Register Locator",                /* 8.1.9 */
	[0x9] = "CXL MLD DVSEC",                       /* 8.1.10 (CXL 2.0) */
	[0xa] = "CXL PCIe DVSEC for Test Capability",  /* Table 8-2 */
};

const char *pcie_dvsec_name(uint16_t vendor, uint16_t id)
{
	if (vendor == PCI_VENDOR_ID_CXL)
		return id < sizeof(cxl_dvsec_names) / sizeof(cxl_dvsec_names[0]) ? cxl_dvsec_names[id] : NULL;
	if (vendor == PCI_VENDOR_ID_NVIDIA && id == NV_DVSEC_ID_RC_MAP)
		return "NVIDIA RC map";
	return NULL;
}

static void decode_nvidia(const struct hw *h, struct pcie_func *f, uint16_t off, struct pcie_dvsec *d)
{
	struct pcie_nvidia_map *m = &d->nv;
	if (off + NV_DVSEC_MIN_LEN > PCI_CFG_SPACE_EXP_SIZE) {
		pcie_defect(f, "NVIDIA DVSEC at 0x%03x runs past 4 KiB", off);
		return;
	}
	if (d->length < NV_DVSEC_MIN_LEN)
		pcie_defect(f, "NVIDIA DVSEC at 0x%03x: length 0x%x is short of 0x%x", off, d->length,
			    NV_DVSEC_MIN_LEN);
	if (pcie_cfg_read8(h, f->addr, (uint16_t)(off + NV_DVSEC_BUS), &m->bus) != HW_OK ||
	    pcie_cfg_read8(h, f->addr, (uint16_t)(off + NV_DVSEC_SEGMENT), &m->segment) != HW_OK ||
	    pcie_cfg_read8(h, f->addr, (uint16_t)(off + NV_DVSEC_RP), &m->rp) != HW_OK ||
	    pcie_cfg_read8(h, f->addr, (uint16_t)(off + NV_DVSEC_RC), &m->rc) != HW_OK ||
	    pcie_cfg_read8(h, f->addr, (uint16_t)(off + NV_DVSEC_SOCKET), &m->socket) != HW_OK) {
		pcie_defect(f, "NVIDIA DVSEC read failed at 0x%03x", off);
		return;
	}
	d->has_nvidia = 1;
}

void pcie_decode_dvsec(const struct hw *h, struct pcie_func *f, uint16_t off)
{
	uint32_t h1, h2;
	if (off + PCI_DVSEC_MIN_LEN > PCI_CFG_SPACE_EXP_SIZE) {
		pcie_defect(f, "DVSEC at 0x%03x runs past 4 KiB", off);
		return;
	}
	if (pcie_cfg_read32(h, f->addr, (uint16_t)(off + PCI_DVSEC_HEADER1), &h1) != HW_OK ||
	    pcie_cfg_read32(h, f->addr, (uint16_t)(off + PCI_DVSEC_HEADER2), &h2) != HW_OK) {
		pcie_defect(f, "DVSEC header read failed at 0x%03x", off);
		return;
	}
	if (f->ndvsec >= PCIE_MAX_DVSEC) {
		if (f->ndvsec++ == PCIE_MAX_DVSEC)
			pcie_defect(f, "more than %d DVSECs; the rest are not recorded", PCIE_MAX_DVSEC);
		f->ndvsec = PCIE_MAX_DVSEC;
		return;
	}
	struct pcie_dvsec *d = &f->dvsec[f->ndvsec++];
	*d = (struct pcie_dvsec){
		.offset = off,
		.vendor = (uint16_t)h1,
		.rev = (uint8_t)((h1 >> PCI_DVSEC_HEADER1_REV_SHIFT) & PCI_DVSEC_HEADER1_REV_MASK),
		.length = (uint16_t)((h1 >> PCI_DVSEC_HEADER1_LEN_SHIFT) & PCI_DVSEC_HEADER1_LEN_MASK),
		.id = (uint16_t)(h2 & PCI_DVSEC_ID_MASK),
	};
	if (off + d->length > PCI_CFG_SPACE_EXP_SIZE)
		pcie_defect(f, "DVSEC at 0x%03x: length 0x%x runs past 4 KiB", off, d->length);
	if (d->vendor == PCI_VENDOR_ID_NVIDIA && d->id == NV_DVSEC_ID_RC_MAP)
		decode_nvidia(h, f, off, d);
}

int pcie_nvidia_map_line(const struct pcie_func *f, char *buf, size_t n)
{
	for (int i = 0; i < f->ndvsec && i < PCIE_MAX_DVSEC; i++) {
		const struct pcie_dvsec *d = &f->dvsec[i];
		if (!d->has_nvidia)
			continue;
		char bdf[16];
		pcie_bdf_str(f->addr, bdf, sizeof(bdf));
		fmt_snprintf(buf, n, "%s: Bus=%02x, Segment=%02x, RP=%02x, RC=%02x, Socket=%02x", bdf,
			     d->nv.bus, d->nv.segment, d->nv.rp, d->nv.rc, d->nv.socket);
		return 1;
	}
	if (n)
		buf[0] = '\0';
	return 0;
}
