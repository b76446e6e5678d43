/* SPDX-License-Identifier: BSD-2-Clause */
/* The DDIO sweep in the firmware (efi/measure/ddio_measure.h): the request from the config,
 * ddio_run (efi/measure/ddio_run.c) with the firmware's ctx and DMA window, the records
 * (efi/out/ddio_out.c). */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/ddio_measure.h"
#include "efi/measure/ddio_run.h"
#include "efi/measure/blockio_measure.h"
#include "efi/measure/measure.h"
#include "efi/out/ddio_out.h"
#include "efi/out/report.h"
#include "efi/pcie/pcie.h"
#include "efi/pages.h"

/* The request: the sizes (0 points: no sweep), the disk. Returns 0, or -1 with why. */
static int request(const struct efiperf_config *cfg, struct ddio_request *req, char *why, size_t n)
{
	uint64_t b = cfg->dma_blockio;
	if (ddio_parse_sizes(cfg->ddio_sweep, strlena((CHAR8 *)cfg->ddio_sweep), req->sizes, &req->n, why, n) != 0 ||
	    !req->n) {
		req->n = 0;
		return 0;   /* checked when read; none: no sweep */
	}
	req->bdf = (struct hw_pci_addr){ CFG_BDF_SEG(b), CFG_BDF_BUS(b), CFG_BDF_DEV(b), CFG_BDF_FN(b) };
	pcie_bdf_str(req->bdf, req->name, sizeof(req->name));
	req->dma_bytes = cfg->dma_bytes;
	return blockio_dev_find(b, &req->disk, why, n);
}

int measure_ddio(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
                 const struct dma_plan *dp)
{
	char why[160];
	struct ddio_request req = { 0 };
	int found = request(cfg, &req, why, sizeof(why));
	if (!req.n)
		return 0;
	struct ddio_result *res = measure_work(sizeof(*res), "ddio");
	if (!res)
		return -1;
	int rc;
	if (found != 0) {   /* the first point's read is refused: no window ran */
		*res = (struct ddio_result){ .stop = DDIO_NO_READ };
		fmt_snprintf(res->why, sizeof(res->why), "%s", why);
	} else {
		struct measure_ctx ctx;
		struct dma_ops_efi e;
		measure_ctx_efi(&ctx, hw, p->timer_hz);
		req.dma = dma_ops_efi(&e, hw, p, dp);
		ddio_run(&ctx, &req, res);
	}
	rc = ddio_record(&req, res);
	pool_free(res);
	return rc;
}
