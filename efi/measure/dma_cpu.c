/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/dma_cpu.h"
#include "efi/measure/blockio_measure.h"
#include "efi/measure/dma_cpu_run.h"
#include "efi/measure/dma_ops.h"
#include "efi/measure/measure.h"
#include "efi/measure/cpu_arrays.h"
#include "efi/cpus.h"
#include "efi/pages.h"
#include "efi/pcie/pcie.h"
#include "efi/out/dma_cpu_out.h"
#include "efi/out/report.h"
#include "arch/arch.h"

/* dma_cpu_traffic's values (efi/config/config.h enum cfg_dma_cpu) to STREAM functions. */
static const enum kernel_kind kinds[] = {
	[CFG_DMA_CPU_LOAD] = KERNEL_LOAD, [CFG_DMA_CPU_STORE] = KERNEL_STORE, [CFG_DMA_CPU_NTSTORE] = KERNEL_NTSTORE,
	[CFG_DMA_CPU_COPY] = KERNEL_COPY, [CFG_DMA_CPU_NTCOPY] = KERNEL_NTCOPY, [CFG_DMA_CPU_TRIAD] = KERNEL_TRIAD,
};

int dma_cpu_plan_check(const struct efiperf_config *cfg, uint32_t bsp, struct plan_errors *out)
{
	if (cfg->dma_cpu_traffic == CFG_DMA_CPU_NONE || cpus_count() - cpus_has(bsp) > 0)
		return 0;
	plan_error_add(out, CFG_DMA_CPU_TRAFFIC, "the STREAM kernel runs on the cpus other than the boot CPU %u, "
		       "and cpus = %s selects none", bsp, cfg->cpus);
	return 1;
}

/* The request from the config and the platform: the CPUs, the kernel, the disk. Returns 0,
 * or -1 with why when the disk is not there. */
static int request(const struct platform *p, const struct efiperf_config *cfg, struct dma_cpu_request *req, char *why,
		   size_t n)
{
	uint64_t b = cfg->dma_blockio;
	req->kind = kinds[cfg->dma_cpu_traffic];
	req->k = kernel_best(arch_kernels, arch_nkernels, req->kind, arch_kernel_isa());
	req->size = cfg->stream_size;
	req->dma_bytes = cfg->dma_bytes;
	req->bdf = (struct hw_pci_addr){ CFG_BDF_SEG(b), CFG_BDF_BUS(b), CFG_BDF_DEV(b), CFG_BDF_FN(b) };
	pcie_bdf_str(req->bdf, req->name, sizeof(req->name));
	measure_cpu_sel(p, &req->sel);
	dma_cpu_sel_without(&req->sel, p->mp.bsp);
	return blockio_dev_find(b, &req->disk, why, n);
}

int measure_dma_cpu(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
                    const struct dma_plan *dp)
{
	if (cfg->dma_cpu_traffic == CFG_DMA_CPU_NONE || cfg->dma_cpu_traffic >= sizeof(kinds) / sizeof(kinds[0]))
		return 0;
	char why[160];
	struct dma_cpu_request *req = pool_zalloc(sizeof(*req));
	struct dma_cpu_result *res = pool_zalloc(sizeof(*res));
	int rc = -1;
	if (!req || !res)
		rep_error("dma_cpu_traffic", "cannot allocate the window's state and 1 MiB transfer buffer");
	else if (request(p, cfg, req, why, sizeof(why)) != 0)
		rep_error("dma_cpu_traffic", "dma_blockio %s", why);
	else {
		struct measure_ctx ctx;
		struct dma_ops_efi e;
		measure_ctx_efi(&ctx, hw, p->timer_hz);
		req->dma = dma_ops_efi(&e, hw, p, dp);
		dma_cpu_run(&ctx, req, res);
		rc = dma_cpu_record(req, res);
	}
	pool_free(res);
	pool_free(req);
	return rc;
}
