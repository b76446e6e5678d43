/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/run_plan.h"
#include "efi/measure/plan_check.h"
#include "efi/measure/blockio_measure.h"
#include "efi/measure/dma_cpu.h"
#include "efi/measure/nvme_measure.h"
#include "efi/out/report.h"
#include "pmu/uncore/uncore_names.h"

int run_plan_check(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, void *image)
{
	static struct plan_errors e;
	e.n = 0;
	plan_check_pci(hw, cfg, &e);
	blockio_plan_check(cfg, image, &e);
	dma_cpu_plan_check(cfg, p->mp.bsp, &e);
	char why[200];
	if (cfg->uncore && cfg->uncore_events[0] &&
	    uncore_names_check(p->cpu.vendor, p->cpu.family, p->cpu.model, cfg->uncore_events, why, sizeof(why)))
		plan_error_add(&e, CFG_UNCORE_EVENTS, "%s", why);
	for (int i = 0; i < e.n && i < PLAN_MAX_ERRORS; i++)
		rep_error("config", "%s: %s: %s", cfg->origin[e.e[i].key], cfg_key_name((enum cfg_key_id)e.e[i].key), e.e[i].msg);
	if (e.n > PLAN_MAX_ERRORS)
		rep_error("config", "%d more errors in the run plan not shown", e.n - PLAN_MAX_ERRORS);
	if (e.n)
		return -1;
	/* the controllers' own limits, once they are known to be NVMe controllers */
	return nvme_plan_check(hw, p, cfg, image) ? -1 : 0;
}
