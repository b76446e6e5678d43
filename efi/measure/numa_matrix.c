/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/numa_matrix.h"
#include "efi/measure/numa_run.h"
#include "efi/measure/health_window.h"
#include "efi/measure/measure.h"
#include "efi/cpus.h"
#include "efi/fw/numa.h"
#include "efi/out/numa_out.h"
#include "efi/out/report.h"
#include "efi/pages.h"
#include "arch/arch.h"

static int add_node(struct numa_node *nodes, int *n, uint32_t d)
{
	for (int i = 0; i < *n; i++)
		if (nodes[i].domain == d)
			return i;
	if (*n == NUMA_MAX_NODES)
		return -1;
	nodes[*n] = (struct numa_node){ .domain = d, .first = -1 };
	return (*n)++;
}

/* The request from the SRAT, the selection and the config: every node the SRAT names (CPUs or
 * memory) or a selected CPU sits in, with its selected CPUs and memory ranges; the kernels. */
static void numa_request_build(const struct platform *p, const struct efiperf_config *cfg, struct window_cpu *sel,
			       struct numa_request *req)
{
	struct numa_node *nodes = req->node;
	req->nsel = cpus_selected(sel);
	for (uint32_t i = 0; i < p->srat->ncpu; i++)
		add_node(nodes, &req->nn, p->srat->cpu[i].domain);
	for (uint32_t i = 0; i < p->srat->nmem; i++)
		add_node(nodes, &req->nn, p->srat->mem[i].domain);
	for (int i = 0; i < req->nsel; i++) {
		req->cpu[i] = sel[i].cpu;
		req->cpu_node[i] = cpus_node(i);
		int k = req->cpu_node[i] >= 0 ? add_node(nodes, &req->nn, (uint32_t)req->cpu_node[i]) : -1;
		if (k >= 0 && !nodes[k].ncpu++)
			nodes[k].first = i;
	}
	for (int k = 0; k < req->nn; k++) {
		nodes[k].nr = numa_domain_ranges(p->srat, p->acpi ? &p->acpi->cedt : NULL, nodes[k].domain, nodes[k].r, NUMA_NODE_RANGES);
		for (int r = 0; r < nodes[k].nr; r++)
			nodes[k].mem_bytes += nodes[k].r[r].end - nodes[k].r[r].start;
	}
	req->size = cfg->numa_size;
	req->chase = kernel_best(arch_kernels, arch_nkernels, KERNEL_CHASE, arch_kernel_isa());
	req->load = kernel_best(arch_kernels, arch_nkernels, KERNEL_LOAD, arch_kernel_isa());
	if (!req->chase)
		req->chase = &kernel_ref_set[KERNEL_CHASE];
	if (!req->load)
		req->load = &kernel_ref_set[KERNEL_LOAD];
}

int measure_numa_matrix(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->numa_matrix)
		return 0;
	if (!p->srat || !p->srat->present) {
		rep_error("numa_matrix", "no ACPI SRAT: the firmware does not say which memory is whose");
		return -1;
	}
	struct numa_work {
		struct window_cpu sel[WINDOW_MAX_CPUS];
		struct numa_request req;
		struct numa_result res;
		struct health_opts health;
	} *wk = measure_work(sizeof(*wk), "numa_matrix");
	if (!wk)
		return -1;
	numa_request_build(p, cfg, wk->sel, &wk->req);
	health_window_opts(hw, p, NULL, cfg->aer_clear, NULL, 0, &wk->health);
	wk->req.health = &wk->health;
	wk->req.hmat = p->acpi ? &p->acpi->hmat : NULL;
	wk->req.slit = p->acpi ? &p->acpi->slit : NULL;
	struct measure_ctx ctx;
	measure_ctx_efi(&ctx, hw, p->timer_hz);
	int rc = numa_measure(&ctx, &wk->req, &wk->res);
	numa_record(&wk->req, &wk->res);
	numa_result_free(&ctx, &wk->res);
	pool_free(wk);
	return rc;
}
