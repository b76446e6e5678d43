/* SPDX-License-Identifier: BSD-2-Clause */
/* The latency curve in the firmware (measure_latency, efi/measure/stream_measure.h): the
 * request from the config and the platform, the load-source evidence as an attachment
 * (efi/measure/ldsrc_run.h), latency_measure (efi/measure/latency_run.c) with the firmware's
 * ctx, the record (efi/out/latency_out.c). */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/stream_measure.h"
#include "efi/measure/latency_run.h"
#include "efi/measure/health_window.h"
#include "efi/measure/ldsrc_run.h"
#include "efi/measure/measure.h"
#include "efi/out/latency_out.h"
#include "efi/pages.h"
#include "arch/arch.h"
#include "arch/lib/fmt.h"

static void latency_request_build(const struct platform *p, const struct efiperf_config *cfg,
				  struct latency_request *req)
{
	*req = (struct latency_request){ .cpu = p->mp.bsp, .max_bytes = cfg->latency_max, .ci = &p->cpu };
	req->nsizes = kernel_chase_sizes(cfg->latency_max, req->size, LAT_MAX_SIZES);
	req->chase = kernel_best(arch_kernels, arch_nkernels, KERNEL_CHASE, arch_kernel_isa());
	if (!req->chase)
		req->chase = &kernel_ref_set[KERNEL_CHASE];
	measure_cxl(&req->cxl);
}

/* The evidence's working state: the attachment, its per-point counts and loads. */
struct lat_work {
	struct latency_request req;
	struct latency_result res;
	struct ldsrc_attach att;
	struct attachment a;
	struct attach_list list;
	uint64_t loads[LAT_MAX_SIZES];
	char why[256], events[LS_MAX_EVENTS * 64];
	struct health_opts health;
};

/* The load-source evidence riding on every point (the core counters of the level that served
 * the loads); absent with wk->why when this CPU has none or its points cannot be had. */
static void evidence_setup(const struct hw *hw, const struct platform *p, struct lat_work *wk)
{
	struct ldsrc *ls = NULL;
	ldsrc_setup(hw, p, &ls, wk->events, sizeof(wk->events), wk->why, sizeof(wk->why));
	if (!ls)
		return;
	struct ldsrc_point *pt = pool_zalloc(sizeof(*pt) * (wk->req.nsizes ? wk->req.nsizes : 1));
	if (!pt) {
		ldsrc_free(ls);
		fmt_snprintf(wk->why, sizeof(wk->why), "cannot allocate the evidence's per-point state");
		return;
	}
	for (uint32_t i = 0; i < wk->req.nsizes; i++)
		wk->loads[i] = wk->req.size[i] / LAT_LINE_BYTES * LAT_PASSES;
	wk->att = (struct ldsrc_attach){ .ls = ls, .cpu = p->mp.bsp, .loads = wk->loads, .npoints = (int)wk->req.nsizes,
					 .pt = pt };
	wk->a = (struct attachment){ .ops = &ldsrc_attach_ops, .self = &wk->att };
	wk->list = (struct attach_list){ .a = &wk->a, .n = 1, .hw = hw };
	wk->req.evidence = &wk->list;
}

int measure_latency(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->latency)
		return 0;
	struct lat_work *wk = measure_work(sizeof(*wk), "latency");
	if (!wk)
		return -1;
	latency_request_build(p, cfg, &wk->req);
	evidence_setup(hw, p, wk);
	health_window_opts(hw, p, NULL, cfg->aer_clear, NULL, 0, &wk->health);
	wk->req.health = &wk->health;
	struct measure_ctx ctx;
	measure_ctx_efi(&ctx, hw, p->timer_hz);
	int rc = latency_measure(&ctx, &wk->req, &wk->res);
	struct latency_evidence ev = { wk->events, wk->att.ls ? ldsrc_table(wk->att.ls)->name : NULL, wk->why,
				       wk->att.ls ? &wk->att : NULL };
	latency_record(&wk->req, &wk->res, &ev);
	for (int i = 0; i < LAT_MAX_SIZES; i++)
		ctx.free(wk->res.pt[i].health);
	pool_free(wk->att.pt);
	ldsrc_free(wk->att.ls);
	pool_free(wk);
	return rc;
}
