/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/dma_engine.h"
#include "efi/pcie/pci_bar.h"
#include "efi/pcie/pcie.h"
#include "efi/measure/dma_engine_run.h"
#include "efi/measure/dma_ops.h"
#include "efi/measure/measure.h"
#include "efi/out/dma_engine_out.h"
#include "efi/out/report.h"
#include "efi/pages.h"

static uint64_t below(uint64_t bytes, uint64_t max_addr)
{
	EFI_PHYSICAL_ADDRESS a = max_addr;
	return BS->AllocatePages(AllocateMaxAddress, EfiLoaderData, EFI_SIZE_TO_PAGES(bytes), &a) == EFI_SUCCESS ? a : 0;
}

static void below_free(uint64_t addr, uint64_t bytes)
{
	BS->FreePages(addr, EFI_SIZE_TO_PAGES(bytes));
}

static const struct dma_engine_mem efi_mem = { below, below_free };

/* The request: the engine the device's IDs name, its register BAR. Returns 0, or -1 after an
 * error record. */
static int request(const struct hw *hw, uint64_t bdf, struct dma_engine_request *req)
{
	uint32_t id = 0xFFFFFFFF;
	req->bdf = (struct hw_pci_addr){ CFG_BDF_SEG(bdf), CFG_BDF_BUS(bdf), CFG_BDF_DEV(bdf), CFG_BDF_FN(bdf) };
	pcie_bdf_str(req->bdf, req->name, sizeof(req->name));
	hw_pci_read32(hw, req->bdf, 0, &id);   /* Vendor ID, Device ID (PCI Local Bus 3.0 6.2.1) */
	req->e = dma_engine_find(id & 0xFFFF, id >> 16);
	if (!req->e) {
		rep_error("dma_engine", "dma_engine %s is %04x:%04x, not a DMA engine efiperf knows", req->name, id & 0xFFFF,
			  id >> 16);
		return -1;
	}
	struct pci_bar bar;
	const char *why = NULL;
	if (pci_bar_probe(hw, req->bdf, req->e->regs_bar, &bar, &why) != 0) {
		rep_error("dma_engine", "%s %s BAR%u: %s", req->e->name, req->name, req->e->regs_bar, why);
		return -1;
	}
	req->regs = bar.base;
	req->mem = &efi_mem;
	return 0;
}

int measure_dma_engine(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
                       const struct dma_plan *dp)
{
	if (cfg->dma_engine == CFG_BDF_NONE)
		return 0;
	struct dma_engine_request req;
	if (request(hw, cfg->dma_engine, &req) != 0)
		return -1;
	struct dma_engine_result *res = pool_zalloc(sizeof(*res));
	if (!res) {
		rep_error("dma_engine", "cannot allocate %llu bytes of working state", (unsigned long long)sizeof(*res));
		return -1;
	}
	struct measure_ctx ctx;
	struct dma_ops_efi e;
	measure_ctx_efi(&ctx, hw, p->timer_hz);
	req.dma = dma_ops_efi(&e, hw, p, dp);
	dma_engine_run(&ctx, &req, res);
	int rc = dma_engine_record(&req, res);
	pool_free(res);
	return rc;
}
