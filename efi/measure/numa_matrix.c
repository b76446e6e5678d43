/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/numa_matrix.h"
#include "efi/measure/measure.h"
#include "efi/fw/numa.h"
#include "efi/out/report.h"
#include "efi/pages.h"
#include "arch/arch.h"
#include "arch/kernel.h"
#include "pmu/metrics.h"

#define MAX_NODES 16
#define NODE_RANGES 16
#define LINE_BYTES 64u
#define CHASE_SEED 0xC0FFEEull
#define CHASE_PASSES 2u
#define READ_PASSES 2u

struct node {
	uint32_t domain;
	int ncpu, first;                /* selected CPUs in it, index of the first */
	uint64_t mem_bytes;
	struct memrange r[NODE_RANGES];
	int nr;
};

static uint64_t run_kernel(void *arg)
{
	kernel_run(arg);
	return ((struct kernel_run *)arg)->result;
}

static int add_node(struct node *nodes, int *n, uint32_t d)
{
	for (int i = 0; i < *n; i++)
		if (nodes[i].domain == d)
			return i;
	if (*n == MAX_NODES)
		return -1;
	nodes[*n] = (struct node){ .domain = d, .first = -1 };
	return (*n)++;
}

struct cell {
	uint64_t ps, gbps_milli;
	int ran;
	struct window_result wl, wb;
};

/* The matrix's working state: pool memory for the run of measure_numa_matrix (about 90 KiB). */
struct numa_work {
	struct window_cpu sel[WINDOW_MAX_CPUS];
	struct node nodes[MAX_NODES];
	struct cell cells[MAX_NODES][MAX_NODES];
	struct window_cpu wc[WINDOW_MAX_CPUS];     /* one cell's window */
	struct kernel_run runs[WINDOW_MAX_CPUS];
};

/* One cell: chase on the node's first CPU, then the load kernel on all its CPUs. */
static void measure_cell(const struct hw *hw, const struct platform *p, struct numa_work *wk, int nsel,
			 const struct node *cn, void *buf, uint64_t size, struct cell *out)
{
	struct window_cpu *wc = wk->wc, *sel = wk->sel;
	struct kernel_run *runs = wk->runs;
	const struct kernel_desc *chase = kernel_best(arch_kernels, arch_nkernels, KERNEL_CHASE, arch_kernel_isa());
	const struct kernel_desc *load = kernel_best(arch_kernels, arch_nkernels, KERNEL_LOAD, arch_kernel_isa());
	if (!chase)
		chase = &kernel_ref_set[KERNEL_CHASE];
	if (!load)
		load = &kernel_ref_set[KERNEL_LOAD];
	kernel_chase_build(buf, size, LINE_BYTES, CHASE_SEED);
	runs[0] = (struct kernel_run){ .k = chase, .b = buf, .bytes = size, .passes = CHASE_PASSES, .timer = arch_timer_read };
	wc[0] = (struct window_cpu){ .cpu = sel[cn->first].cpu, .arg = &runs[0] };
	struct window_spec spec = { .kernel = run_kernel, .cpus = wc, .ncpus = 1, .mask_interrupts = 1 };
	out->ran = window_run(hw, &spec, &out->wl) == 0 && runs[0].status == 0;
	out->ps = kernel_ps_per_load(runs[0].ticks_min, p->timer_hz, size / LINE_BYTES);
	/* read: the node's CPUs split the buffer in equal whole-block shares */
	int n = 0;
	for (int i = 0; i < nsel; i++)
		if (cpus_node(i) == (int32_t)cn->domain)
			wc[n++] = (struct window_cpu){ .cpu = sel[i].cpu };
	uint64_t share = size / (uint64_t)n / load->block_bytes * load->block_bytes;
	for (int i = 0; i < n; i++) {
		runs[i] = (struct kernel_run){ .k = load, .b = (char *)buf + share * (uint64_t)i, .bytes = share,
					       .passes = READ_PASSES, .timer = arch_timer_read };
		wc[i].arg = &runs[i];
	}
	spec.ncpus = n;
	out->ran &= share > 0 && window_run(hw, &spec, &out->wb) == 0;
	uint64_t worst = 0;
	for (int i = 0; i < n; i++) {
		out->ran &= runs[i].status == 0;
		worst = runs[i].ticks_min > worst ? runs[i].ticks_min : worst;
	}
	/* all CPUs read at once: the slowest CPU's best pass bounds the total */
	out->gbps_milli = metric_gbps_milli(share * (uint64_t)n, metric_ticks_to_ns(worst, p->timer_hz));
}

static void cell_quiet_json(struct json *j, const char *key, const struct window_result *w)
{
	json_obj(j, key);
	measure_quiet_json(j, w);
	json_close(j);
}

static int numa_matrix_run(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, struct numa_work *wk)
{
	struct window_cpu *sel = wk->sel;
	struct node *nodes = wk->nodes;
	struct cell (*cells)[MAX_NODES] = wk->cells;
	int nsel = cpus_selected(sel), nn = 0;
	if (!p->srat || !p->srat->present) {
		rep_error("numa_matrix", "no ACPI SRAT: the firmware does not say which memory is whose");
		return -1;
	}
	for (uint32_t i = 0; i < p->srat->ncpu; i++)
		add_node(nodes, &nn, p->srat->cpu[i].domain);
	for (uint32_t i = 0; i < p->srat->nmem; i++)
		add_node(nodes, &nn, p->srat->mem[i].domain);
	for (int i = 0; i < nsel; i++) {
		int k = cpus_node(i) >= 0 ? add_node(nodes, &nn, (uint32_t)cpus_node(i)) : -1;
		if (k >= 0 && !nodes[k].ncpu++)
			nodes[k].first = i;
	}
	for (int k = 0; k < nn; k++) {
		nodes[k].nr = numa_domain_ranges(p->srat, nodes[k].domain, nodes[k].r, NODE_RANGES);
		for (int r = 0; r < nodes[k].nr; r++)
			nodes[k].mem_bytes += nodes[k].r[r].end - nodes[k].r[r].start;
	}
	uint64_t size = cfg->numa_size;
	int rc = 0;
	rep_line("numa:       %d node(s), %llu bytes per cell: idle latency and read bandwidth, CPU node -> memory node",
		 nn, (unsigned long long)size);
	for (int c = 0; c < nn; c++)
		for (int m = 0; m < nn; m++) {
			cells[c][m] = (struct cell){ 0 };
			if (!nodes[c].ncpu || !nodes[m].nr)
				continue;
			void *buf = pages_alloc_in(size, nodes[m].r, nodes[m].nr);
			if (!buf) {
				rep_error("numa_matrix", "node %u's memory has no free run of %llu bytes (numa_size)", nodes[m].domain,
					  (unsigned long long)size);
				rc = -1;
				continue;
			}
			measure_cell(hw, p, wk, nsel, &nodes[c], buf, size, &cells[c][m]);
			pages_free(buf, size);
			if (!cells[c][m].ran) {
				rep_error("numa_matrix", "node %u -> node %u: a CPU did not run its kernel", nodes[c].domain, nodes[m].domain);
				rc = -1;
			}
		}
	struct json *j = rep_begin("numa_matrix");
	json_u64(j, "bytes", size);
	json_str(j, "latency_kernel", "pointer chase, 64-byte lines, the node's first selected CPU");
	json_str(j, "read_kernel", "load, every selected CPU of the node on its share");
	json_arr(j, "nodes");
	for (int k = 0; k < nn; k++) {
		json_obj(j, NULL);
		json_u64(j, "node", nodes[k].domain);
		json_u64(j, "cpus", (uint64_t)nodes[k].ncpu);
		json_u64(j, "memory_bytes", nodes[k].mem_bytes);
		if (!nodes[k].ncpu || !nodes[k].nr)
			json_str(j, "why", !nodes[k].ncpu && !nodes[k].nr ? "no selected CPUs and no memory: neither row nor column"
					   : !nodes[k].ncpu ? "no selected CPUs: no row (its memory is a column)"
							    : "no memory: no column (its CPUs are a row)");
		json_close(j);
	}
	json_close(j);
	static const char *const keys[2] = { "latency_ns", "read_gbps" };
	for (int t = 0; t < 2; t++) {
		json_arr(j, keys[t]);
		for (int c = 0; c < nn; c++) {
			json_arr(j, NULL);
			for (int m = 0; m < nn; m++) {
				const struct cell *x = &cells[c][m];
				if (!x->ran)
					json_null(j, NULL);
				else
					json_milli(j, NULL, t ? x->gbps_milli : x->ps);
			}
			json_close(j);
		}
		json_close(j);
	}
	json_arr(j, "cells");
	for (int c = 0; c < nn; c++)
		for (int m = 0; m < nn; m++)
			if (cells[c][m].ran) {
				json_obj(j, NULL);
				json_u64(j, "cpu_node", nodes[c].domain);
				json_u64(j, "memory_node", nodes[m].domain);
				cell_quiet_json(j, "latency_window", &cells[c][m].wl);
				cell_quiet_json(j, "read_window", &cells[c][m].wb);
				json_close(j);
			}
	json_close(j);
	rep_end();
	for (int c = 0; c < nn; c++)
		for (int m = 0; m < nn; m++)
			if (cells[c][m].ran) {
				char l[32], g[32];
				fmt_milli(l, sizeof(l), cells[c][m].ps);
				fmt_milli(g, sizeof(g), cells[c][m].gbps_milli);
				rep_line("            node %u -> memory of node %u: %s ns idle, %s GB/s read", nodes[c].domain,
					 nodes[m].domain, l, g);
			}
	for (int k = 0; k < nn; k++)
		if (!nodes[k].ncpu || !nodes[k].nr)
			rep_line("            node %u: %s", nodes[k].domain, !nodes[k].ncpu ? "no selected CPUs" : "no memory");
	return rc;
}

int measure_numa_matrix(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->numa_matrix)
		return 0;
	struct numa_work *wk = measure_work(sizeof(*wk), "numa_matrix");
	if (!wk)
		return -1;
	int rc = numa_matrix_run(hw, p, cfg, wk);
	pool_free(wk);
	return rc;
}
