/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/run_plan.h"
#include "efi/measure/plan_check.h"
#include "efi/measure/blockio_measure.h"
#include "efi/measure/c2c.h"
#include "efi/measure/cha_run.h"
#include "efi/measure/dma_cpu.h"
#include "efi/measure/loaded_latency.h"
#include "efi/measure/nvme_measure.h"
#include "efi/cpus.h"
#include "efi/pages.h"
#include "efi/out/report.h"
#include "pmu/uncore/uncore_names.h"

/* Step 3: the keys that name hardware, checked against it. 0, or -1 after config errors. */
static int hardware_checks(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, void *image)
{
	struct plan_errors *e = pool_zalloc(sizeof(*e));
	if (!e) {
		rep_error("config", "no memory for the run plan's checks");
		return -1;
	}
	plan_check_pci(hw, cfg, e);
	blockio_plan_check(cfg, image, e);
	dma_cpu_plan_check(cfg, p->mp.bsp, e);
	char why[200];
	if (cfg->uncore && cfg->uncore_events[0] &&
	    uncore_names_check(p->cpu.vendor, p->cpu.family, p->cpu.model, cfg->uncore_events, why, sizeof(why)))
		plan_error_add(e, CFG_UNCORE_EVENTS, "%s", why);
	for (int i = 0; i < e->n && i < PLAN_MAX_ERRORS; i++)
		rep_error("config", "%s: %s: %s", cfg->origin[e->e[i].key], cfg_key_name((enum cfg_key_id)e->e[i].key), e->e[i].msg);
	if (e->n > PLAN_MAX_ERRORS)
		rep_error("config", "%d more errors in the run plan not shown", e->n - PLAN_MAX_ERRORS);
	int n = e->n;
	pool_free(e);
	return n ? -1 : 0;
}

int plan_build(struct run_plan *plan, const struct hw *hw, struct platform *p, const struct discovery *d,
	       const struct efiperf_config *cfg, void *image, void (*between)(void))
{
	*plan = (struct run_plan){ .hw = hw, .p = p, .cfg = cfg, .image = image, .checks = cfg->checks,
				   .nchecks = cfg->nchecks };
	plan->cpus = pool_zalloc(sizeof(struct window_cpu) * WINDOW_MAX_CPUS);
	plan->uncore = pool_zalloc(sizeof(*plan->uncore));
	plan->dma = pool_zalloc(sizeof(*plan->dma));
	if (!plan->cpus || !plan->uncore || !plan->dma) {
		rep_error("config", "no memory for the run plan's %u CPUs", WINDOW_MAX_CPUS);
		return -1;
	}
	plan->ncpus = cpus_selected(plan->cpus);
	dma_window_ranges(plan->dma, d, cfg->aer_clear);
	plan->dma->cs.cfg = cfg->uncore ? cfg : NULL;   /* the CoreSight PMUs of DMA windows */
	if (cha_run_plan(hw, p, d, cfg, &plan->dma->cha) != 0 || c2c_plan(p, cfg) != 0 || loaded_latency_plan(cfg) != 0)
		return -1;
	if (between)
		between();
	/* the controllers' own limits, once the PCI checks know them to be NVMe controllers */
	if (hardware_checks(hw, p, cfg, image) != 0 || nvme_plan(hw, p, cfg, image, &plan->nvme) != 0)
		return -1;
	if (between)
		between();
	return 0;
}
