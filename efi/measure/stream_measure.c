/* SPDX-License-Identifier: BSD-2-Clause */
/* STREAM in the firmware (efi/measure/stream_measure.h): the request from the config and the
 * platform, the vector state as an attachment, stream_measure (efi/measure/stream_run.c) with
 * the firmware's ctx and CPU ops, the record (efi/out/stream_out.c). */
#include <efi.h>
#include <efilib.h>
#include <string.h>
#include "efi/measure/stream_measure.h"
#include "efi/measure/stream_run.h"
#include "efi/measure/measure.h"
#include "efi/measure/tune_run.h"
#include "efi/measure/vec_run.h"
#include "efi/measure/health_window.h"
#include "efi/out/stream_out.h"
#include "efi/pages.h"
#include "arch/arch.h"
#include "arch/kernel.h"
#include "arch/kernel_tune.h"

static void class_entry(void *arg)
{
	*(uint32_t *)arg = arch_cpu_class();
}

static uint32_t class_on(const struct hw *hw, uint32_t cpu)
{
	uint32_t id = 0;
	hw_run_on_cpu(hw, cpu, class_entry, &id);
	return id;
}

static const struct stream_ops efi_stream_ops = { .isa = arch_kernel_isa, .cpu_class = class_on, .tune = tune_run_on };

/* STREAM's working state: pool memory for the run of measure_stream, not .bss. */
struct stream_work {
	struct stream_request req;
	struct stream_result res;
	struct vec_attach vec;
	struct health_opts health;
	struct attachment a;
	struct attach_list list;
	struct window_cpu cpus[WINDOW_MAX_CPUS];
	struct window_cpu boot;
};

/* The request: the selection with its memory, the sizes, `kernel` resolved against the kernel
 * library (its ISA or kernel name, once), the budget, the LLC; the vector state on every CPU
 * of the run, or with the PSCI backend on the boot CPU alone (the other CPUs start from the
 * boot CPU's system registers for every job, efi/mp.h). */
static void stream_request_build(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
				 struct stream_work *wk)
{
	struct stream_request *req = &wk->req;
	measure_cpu_sel(p, &req->sel);
	req->size = cfg->stream_size;
	req->passes = cfg->stream_passes;
	req->table = arch_kernels;
	req->ntable = arch_nkernels;
	req->kernel = cfg->kernel;
	req->isa_only = kernel_isa_bit(cfg->kernel);
	req->auto_kernel = strcmp(cfg->kernel, "auto") == 0 || req->isa_only;
	req->pinned = req->auto_kernel ? NULL : kernel_by_name(arch_kernels, arch_nkernels, cfg->kernel, ~0u);
	req->budget_ms = cfg->kernel_budget;
	req->llc = arch_llc_bytes(hw);
	req->ops = &efi_stream_ops;
	for (int i = 0; i < req->sel.n; i++)
		wk->cpus[i] = (struct window_cpu){ .cpu = req->sel.cpu[i] };
	wk->boot = (struct window_cpu){ .cpu = p->mp.bsp };
	wk->vec = (struct vec_attach){ .cpus = p->mp.psci ? &wk->boot : wk->cpus,
				       .n = p->mp.psci ? 1 : req->sel.n };
	wk->a = (struct attachment){ .ops = &vec_attach_ops, .self = &wk->vec };
	wk->list = (struct attach_list){ .a = &wk->a, .n = 1, .hw = hw };
	req->vec = &wk->list;
	health_window_opts(hw, p, NULL, cfg->aer_clear, NULL, 0, &wk->health);
	req->health = &wk->health;
	req->smbios = p->smbios;
	measure_cxl(&req->cxl);
}

int measure_stream(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->stream)
		return 0;
	struct stream_work *wk = measure_work(sizeof(*wk), "stream");
	if (!wk)
		return -1;
	stream_request_build(hw, p, cfg, wk);
	struct measure_ctx ctx;
	measure_ctx_efi(&ctx, hw, p->timer_hz);
	int rc = stream_measure(&ctx, &wk->req, &wk->res);
	stream_record(&wk->req, &wk->res, &wk->vec);
	pool_free(wk);
	return rc;
}
