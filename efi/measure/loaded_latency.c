/* SPDX-License-Identifier: BSD-2-Clause */
/* loaded_latency in the firmware (efi/measure/loaded_latency.h): the request from the config
 * and the selection, ll_measure (efi/measure/loaded_latency_run.c) with the firmware's ctx, the
 * record (efi/out/loaded_latency_out.c). */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/loaded_latency.h"
#include "efi/measure/loaded_latency_run.h"
#include "efi/measure/health_window.h"
#include "efi/measure/measure.h"
#include "efi/out/loaded_latency_out.h"
#include "efi/out/report.h"
#include "efi/pages.h"
#include "arch/arch.h"

int loaded_latency_plan(const struct efiperf_config *cfg)
{
	if (!cfg->loaded_latency)
		return 0;
	int n = cpus_count();
	if (n >= 2)
		return 0;
	rep_error("config", "%s: loaded_latency = on: one CPU chases while the others make traffic, so it needs two CPUs, "
		  "and cpus = '%s' (%s) selects %d", cfg->origin[CFG_LOADED_LATENCY], cfg->cpus, cfg->origin[CFG_CPUS], n);
	return -1;
}

/* The request: the selection with its memory, the delays (parsed here, once), the kernel.
 * Returns 0, or -1 when the selection or the delays do not allow the run (named by
 * loaded_latency_plan and the config parser before the first window). */
static int ll_request_build(const struct platform *p, const struct efiperf_config *cfg, struct ll_request *req)
{
	char msg[160];
	measure_cpu_sel(p, &req->sel);
	req->ndelays = cfg_loaded_delays(cfg->loaded_delays, strlena((CHAR8 *)cfg->loaded_delays), req->delay, msg,
					 sizeof(msg));
	req->size = cfg->loaded_size;
	req->emulated = p->cpu.virtual_machine;
	req->chase = kernel_best(arch_kernels, arch_nkernels, KERNEL_CHASE, arch_kernel_isa());
	if (!req->chase)
		req->chase = &kernel_ref_set[KERNEL_CHASE];
	return req->sel.n < 2 || req->ndelays < 0 ? -1 : 0;
}

int measure_loaded_latency(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->loaded_latency)
		return 0;
	struct ll_work {
		struct ll_request req;
		struct ll_result res;
		struct health_opts health;
	} *wk = measure_work(sizeof(*wk), "loaded_latency");
	if (!wk)
		return -1;
	int rc = -1;
	if (ll_request_build(p, cfg, &wk->req) == 0) {
		struct measure_ctx ctx;
		measure_ctx_efi(&ctx, hw, p->timer_hz);
		health_window_opts(hw, p, NULL, cfg->aer_clear, NULL, 0, &wk->health);
		wk->req.health = &wk->health;
		wk->req.hmat = p->acpi ? &p->acpi->hmat : NULL;
		rc = ll_measure(&ctx, &wk->req, &wk->res);
		ll_record(&wk->req, &wk->res);
		ll_result_free(&ctx, &wk->res);
	}
	pool_free(wk);
	return rc;
}
