/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/mmio_measure.h"
#include "efi/measure/mmio_run.h"
#include "efi/measure/measure.h"
#include "efi/out/mmio_out.h"
#include "efi/pcie/pci_bar.h"
#include "efi/pcie/pcie.h"
#include "efi/out/report.h"
#include "efi/pages.h"

#define PCI_ID_NONE 0xFFFFu   /* vendor ID read from an absent function (PCIe Base 7.5.1.1.1) */

struct mmio_dma { const struct hw *hw; const struct platform *p; const struct dma_plan *dp; };

static int dma_run(void *ctx, const struct dma_window *w, struct dma_window_result *r)
{
	const struct mmio_dma *d = ctx;
	return dma_window_run(d->hw, d->p, d->dp, w, r);
}

/* The request from mmio_bdf, mmio_bar, mmio_bytes and mmio_write: the function must answer and
 * the BAR be an assigned memory BAR. Returns 0, or -1 after an error record naming them. */
static int mmio_request_build(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
			      struct mmio_dma *dma, struct mmio_request *req)
{
	struct hw_pci_addr a = { CFG_BDF_SEG(cfg->mmio_bdf), CFG_BDF_BUS(cfg->mmio_bdf), CFG_BDF_DEV(cfg->mmio_bdf),
				 CFG_BDF_FN(cfg->mmio_bdf) };
	*req = (struct mmio_request){ .cpu = p->mp.bsp, .writes = cfg->mmio_write, .dev = a, .dma_run = dma_run,
				      .dma_ctx = dma, .bar = cfg->mmio_bar, .timer_hz = p->timer_hz };
	pcie_bdf_str(a, req->bdf, sizeof(req->bdf));
	if (hw_pci_read32(hw, a, 0, &req->id) != HW_OK || (req->id & 0xFFFF) == PCI_ID_NONE) {
		rep_error("mmio", "mmio_bdf %s: no PCI function there", req->bdf);
		return -1;
	}
	struct pci_bar bar;
	const char *why = NULL;
	if (pci_bar_probe(hw, a, cfg->mmio_bar, &bar, &why) != 0) {
		rep_error("mmio", "mmio_bdf %s BAR%u: %s", req->bdf, cfg->mmio_bar, why);
		return -1;
	}
	req->base = (uintptr_t)bar.base;
	req->bytes = cfg->mmio_bytes < bar.size ? cfg->mmio_bytes : bar.size;
	req->addr64 = bar.base + bar.size > (1ull << 32);
	req->bar_base = bar.base;
	req->bar_size = bar.size;
	req->is64 = bar.is64;
	req->prefetch = bar.prefetch;
	return 0;
}

int measure_mmio(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		 const struct dma_plan *dp)
{
	if (cfg->mmio_bdf == CFG_BDF_NONE)
		return 0;
	struct mmio_dma dma = { hw, p, dp };
	struct mmio_request req;
	if (mmio_request_build(hw, p, cfg, &dma, &req) != 0)
		return -1;
	struct mmio_result *res = measure_work(sizeof(*res), "mmio");
	if (!res)
		return -1;
	struct measure_ctx ctx;
	measure_ctx_efi(&ctx, hw, p->timer_hz);
	int rc = mmio_measure(&ctx, &req, res);
	mmio_record(&req, res);
	pool_free(res);
	return rc;
}
