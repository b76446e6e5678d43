/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The NUMA matrix's request, run and result (the shape of efi/measure/shape.h). For every
 * (CPU node c, memory node m) with selected CPUs in c and memory in m: a buffer of `size` in m's
 * memory (ctx->alloc_in), the pointer chase on c's first selected CPU (idle latency, ps per
 * load) and then the load kernel on all of c's selected CPUs over equal whole-block shares (read
 * bandwidth: the shares' bytes over the slowest CPU's best pass). The record writer is
 * efi/out/numa_out.c.
 */
#ifndef EFIPERF_NUMA_RUN_H
#define EFIPERF_NUMA_RUN_H

#include <stdint.h>
#include "arch/kernel.h"
#include "efi/measure/shape.h"

#define NUMA_MAX_NODES 16
#define NUMA_NODE_RANGES 16

struct numa_node {
	uint32_t domain;                 /* SRAT proximity domain */
	int ncpu, first;                 /* selected CPUs in it, index of the first (-1 none) */
	uint64_t mem_bytes;
	struct memrange r[NUMA_NODE_RANGES];
	int nr;                          /* its memory ranges (0: no column) */
};

struct numa_request {
	int nn;
	struct numa_node node[NUMA_MAX_NODES];
	int nsel;                            /* the selection: MP services numbers and SRAT nodes */
	uint32_t cpu[WINDOW_MAX_CPUS];
	int32_t cpu_node[WINDOW_MAX_CPUS];   /* -1 unknown */
	uint64_t size;                       /* bytes per cell */
	const struct kernel_desc *chase, *load;
};

struct numa_cell {
	int placed;                      /* the buffer was taken in the memory node */
	int ran;                         /* both windows ran and every kernel returned 0 */
	uint64_t ps;                     /* idle latency, ps per load */
	uint64_t gbps_milli;             /* read bandwidth */
	struct window_result wl, wb;     /* the latency and read windows */
};

struct numa_result {
	struct numa_cell cell[NUMA_MAX_NODES][NUMA_MAX_NODES];   /* [cpu node][memory node] */
};

/* The window kernel of both windows: kernel_run over a struct kernel_run. */
uint64_t numa_run_kernel(void *arg);

/* Every cell. Returns 0, or -1 when a cell could not be placed or did not run, or ctx->alloc
 * had no memory for the windows' CPU arrays (no cell placed then). */
int numa_measure(const struct measure_ctx *ctx, const struct numa_request *req, struct numa_result *res);

#endif
