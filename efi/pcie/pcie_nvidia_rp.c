/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The NVIDIA root-port lookup for the PCIE / PCIE-TGT PMUs' root-port filter: probe the function
 * (efi/pcie/pcie_enum.c) and take its NVIDIA RC-map DVSEC (vendor 0x10de, DVSEC ID 0x4; decoded
 * in efi/pcie/pcie_dvsec.c, Linux Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst
 * "Mapping the RC# to lspci segment number"). A file of its own because it sits above both: the
 * enumeration walks capabilities, which decode DVSECs, so the DVSEC decoder cannot call back into
 * the enumeration.
 */
#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"
#include "arch/lib/fmt.h"

int pcie_nvidia_rp_lookup(const struct hw *h, struct hw_pci_addr a, struct pcie_func *f, struct pcie_nvidia_map *m,
			  char *why, size_t n)
{
	char bdf[16];
	pcie_bdf_str(a, bdf, sizeof(bdf));
	if (pcie_probe_func(h, a, f) != HW_OK || f->vendor == PCI_VENDOR_ID_NONE || f->vendor == PCI_VENDOR_ID_ZERO) {
		fmt_snprintf(why, n, "%s: no PCI function there", bdf);
		return -1;
	}
	if (!f->exp.present || f->exp.port_type != PCI_EXP_TYPE_ROOT_PORT) {
		fmt_snprintf(why, n, "%s (%04x:%04x) is not a PCI Express Root Port", bdf, f->vendor, f->device);
		return -1;
	}
	for (int i = 0; i < f->ndvsec && i < PCIE_MAX_DVSEC; i++) {
		const struct pcie_dvsec *d = &f->dvsec[i];
		if (!d->has_nvidia)
			continue;
		if (d->nv.segment != (uint8_t)a.segment || d->nv.bus != a.bus) {
			fmt_snprintf(why, n, "%s: its NVIDIA RC map says segment %02x bus %02x: the map does not describe it",
				     bdf, d->nv.segment, d->nv.bus);
			return -1;
		}
		*m = d->nv;
		return 0;
	}
	fmt_snprintf(why, n, "%s (%04x:%04x) is not an NVIDIA root port: no DVSEC vendor 0x10de ID 0x4 (RC map)", bdf,
		     f->vendor, f->device);
	return -1;
}
