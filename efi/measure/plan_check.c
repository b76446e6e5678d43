/* SPDX-License-Identifier: BSD-2-Clause */
/* The run plan's PCI checks (efi/measure/plan_check.h). Pure. */
#include "efi/measure/plan_check.h"
#include "efi/measure/dma_engine.h"
#include "efi/measure/ddio.h"
#include "efi/nvme/nvme_params.h"
#include "efi/config/blockio_target.h"
#include "efi/pcie/pci_bar.h"
#include "efi/pcie/pcie.h"
#include "arch/lib/fmt.h"

#include <stdarg.h>
#include <string.h>

#define PCI_ID_REG 0x00u
#define PCI_CLASS_REG 0x08u              /* Class Code in bits 31:8 (PCIe Base 6.0 7.5.1.1.6) */
#define PCI_CLASS_SHIFT 8u
#define PCI_VENDOR_NONE 0xFFFFu          /* no function answers: all ones */
#define PCI_CLASS_NVME 0x010802u         /* mass storage / NVM / NVM Express */

void plan_error_add(struct plan_errors *out, enum cfg_key_id key, const char *fmt, ...)
{
	if (out->n < PLAN_MAX_ERRORS) {
		struct plan_error *e = &out->e[out->n];
		va_list ap;
		va_start(ap, fmt);
		e->key = (uint8_t)key;
		fmt_vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	out->n++;
}

static struct hw_pci_addr addr_of(uint64_t bdf)
{
	return (struct hw_pci_addr){ CFG_BDF_SEG(bdf), CFG_BDF_BUS(bdf), CFG_BDF_DEV(bdf), CFG_BDF_FN(bdf) };
}

/* Vendor and Device ID of the function, or -1 when nothing answers there. */
static int present(const struct hw *hw, struct hw_pci_addr a, uint32_t *id)
{
	*id = 0xFFFFFFFFu;
	return hw_pci_read32(hw, a, PCI_ID_REG, id) == HW_OK && (*id & 0xFFFFu) != PCI_VENDOR_NONE ? 0 : -1;
}

/* The function a key names (CFG_BDF() packing in v): 0 with its address, name and IDs; -1 when
 * the key is none, or (an error added) nothing answers there. */
static int named_function(const struct hw *hw, uint64_t v, enum cfg_key_id key, struct hw_pci_addr *a, char *bdf,
			  uint32_t *id, struct plan_errors *out)
{
	if (v == CFG_BDF_NONE)
		return -1;
	*a = addr_of(v);
	pcie_bdf_str(*a, bdf, 16);
	if (present(hw, *a, id) == 0)
		return 0;
	plan_error_add(out, key, "%s: no PCI function there", bdf);
	return -1;
}

static void check_engine(const struct hw *hw, const struct efiperf_config *cfg, struct plan_errors *out)
{
	struct hw_pci_addr a;
	char bdf[16];
	uint32_t id;
	if (named_function(hw, cfg->dma_engine, CFG_DMA_ENGINE, &a, bdf, &id, out) != 0)
		return;
	const struct dma_engine *e = dma_engine_find(id & 0xFFFFu, id >> 16);
	if (!e) {
		plan_error_add(out, CFG_DMA_ENGINE, "%s is %04x:%04x, not a DMA engine efiperf knows", bdf, id & 0xFFFFu,
			       id >> 16);
		return;
	}
	struct pci_bar bar;
	const char *why = "";
	if (pci_bar_probe(hw, a, e->regs_bar, &bar, &why) != 0)
		plan_error_add(out, CFG_DMA_ENGINE, "%s %s: register BAR%u: %s", e->name, bdf, e->regs_bar, why);
}

static void check_mmio(const struct hw *hw, const struct efiperf_config *cfg, struct plan_errors *out)
{
	struct hw_pci_addr a;
	char bdf[16];
	uint32_t id;
	if (named_function(hw, cfg->mmio_bdf, CFG_MMIO_BDF, &a, bdf, &id, out) != 0)
		return;
	struct pci_bar bar;
	const char *why = "";
	if (pci_bar_probe(hw, a, cfg->mmio_bar, &bar, &why) != 0)
		plan_error_add(out, CFG_MMIO_BAR, "%s BAR%u (mmio_bdf %s): %s", bdf, cfg->mmio_bar, bdf, why);
}

static void check_nvme(const struct hw *hw, const struct efiperf_config *cfg, struct plan_errors *out)
{
	struct nvme_ctrl_list l;
	struct blockio_target wt;
	char msg[160];
	if (nvme_parse_ctrls(cfg->nvme, strlen(cfg->nvme), &l, msg, sizeof(msg)) != 0 || (!l.all && !l.count))
		return;   /* the parser reported its own errors; none: nothing to check */
	if (cfg->nvme_rw == CFG_RW_WRITE &&
	    (blockio_target_parse(cfg->nvme_write_lba, strlen(cfg->nvme_write_lba), &wt, msg, sizeof(msg)) != 0 || !wt.set))
		plan_error_add(out, CFG_NVME_RW, "write needs nvme_write_lba (a controller and its block range): nothing written");
	for (int i = 0; i < l.count; i++) {
		struct hw_pci_addr a = addr_of(l.bdf[i]);
		char bdf[16];
		uint32_t id, cc = 0;
		pcie_bdf_str(a, bdf, sizeof(bdf));
		if (present(hw, a, &id) != 0) {
			plan_error_add(out, CFG_NVME, "%s: no PCI function there", bdf);
			continue;
		}
		hw_pci_read32(hw, a, PCI_CLASS_REG, &cc);
		cc >>= PCI_CLASS_SHIFT;
		if (cc != PCI_CLASS_NVME)
			plan_error_add(out, CFG_NVME, "%s is not an NVMe controller (class code %06x, NVMe is %06x)", bdf, cc,
				       PCI_CLASS_NVME);
	}
}

/* pcie_pmu_rp: an NVIDIA root port its DVSEC RC map describes (efi/pcie/pcie.h
 * pcie_nvidia_rp_lookup); the PMU filter is derived from that map when the PMUs run. */
static void check_pcie_pmu_rp(const struct hw *hw, const struct efiperf_config *cfg, struct plan_errors *out)
{
	struct pcie_nvidia_map m;
	char why[160];
	if (cfg->pcie_pmu_rp == CFG_BDF_NONE)
		return;
	if (pcie_nvidia_rp_lookup(hw, addr_of(cfg->pcie_pmu_rp), &out->rp_probe, &m, why, sizeof(why)))
		plan_error_add(out, CFG_PCIE_PMU_RP, "%s", why);
}

int plan_check_pci(const struct hw *hw, const struct efiperf_config *cfg, struct plan_errors *out)
{
	int before = out->n;
	check_engine(hw, cfg, out);
	check_mmio(hw, cfg, out);
	check_nvme(hw, cfg, out);
	check_pcie_pmu_rp(hw, cfg, out);
	uint32_t sizes[DDIO_MAX_POINTS];
	int nsizes = 0;
	char msg[160];
	if (ddio_parse_sizes(cfg->ddio_sweep, strlen(cfg->ddio_sweep), sizes, &nsizes, msg, sizeof(msg)) == 0 && nsizes &&
	    cfg->dma_blockio == CFG_BDF_NONE)
		plan_error_add(out, CFG_DDIO_SWEEP, "the sweep reads the dma_blockio disk: set dma_blockio");
	if (cfg->dma_cpu_traffic != CFG_DMA_CPU_NONE && cfg->dma_blockio == CFG_BDF_NONE)
		plan_error_add(out, CFG_DMA_CPU_TRAFFIC, "the DMA beside the STREAM kernel reads the dma_blockio disk: set dma_blockio");
	return out->n - before;
}
