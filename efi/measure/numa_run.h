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
#include "efi/measure/health_run.h"
#include "efi/fw/acpi.h"

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
	const struct health_opts *health;    /* optional: health over each cell's read window */
	const struct acpi_hmat *hmat;        /* the firmware's claims (NULL: no ACPI tables) */
	const struct acpi_slit *slit;
};

struct numa_cell {
	int placed;                      /* the buffer was taken in the memory node */
	int ran;                         /* both windows ran and every kernel returned 0 */
	uint64_t ps;                     /* idle latency, ps per load */
	uint64_t gbps_milli;             /* read bandwidth */
	struct window_result wl, wb;     /* the latency and read windows */
	struct health_run *health;       /* over the read window (ctx->alloc; numa_result_free) */
};

struct numa_result {
	struct numa_cell cell[NUMA_MAX_NODES][NUMA_MAX_NODES];   /* [cpu node][memory node] */
};

/* A claim of the firmware beside the measured cell, in the claim's unit: HMAT latencies in ps
 * against the pointer chase's ps per load, bandwidths in MB/s (10^6 B/s as measured) against the
 * read bandwidth; fraction_milli = measured / claimed x 1000. */
struct numa_claim {
	uint8_t data_type;               /* HMAT Data Type (efi/fw/acpi_hmat.h): 0, 1, 3, 4 only */
	uint64_t claimed, measured, fraction_milli;
};

/* The HMAT claims of h from initiator to target that a measurement can stand beside: access/read
 * latency against ps (ps per load), access/read bandwidth against mbps (MB/s); a measured 0
 * takes none of its kind. Into out[0..max); how many. */
int hmat_claims_beside(const struct acpi_hmat *h, uint32_t initiator, uint32_t target, uint64_t ps, uint64_t mbps,
		       struct numa_claim *out, int max);

/* The HMAT claims (access/read latency, access/read bandwidth, memory hierarchy) for the cell
 * of CPU node c and memory node m into out[0..max); how many (0: none, or the cell did not run). */
int numa_cell_claims(const struct numa_request *req, const struct numa_result *res, int c, int m,
		     struct numa_claim *out, int max);

/* SLIT's distance between c and m (ACPI 6.5 5.2.17: 10 is local) against the measured latency
 * relative to c's own memory: claimed_milli = distance x 100, measured_milli = ps(c,m) x 1000 /
 * ps(c,c). 0 with *dist set, or -1: no SLIT, a defect, a domain past its localities, or no
 * local cell to compare to. */
int numa_cell_slit(const struct numa_request *req, const struct numa_result *res, int c, int m, uint32_t *dist,
		   uint64_t *claimed_milli, uint64_t *measured_milli);

/* Why the matrix has no HMAT claims beside it (no table, a defect, none for its nodes), or NULL. */
const char *numa_hmat_why(const struct numa_request *req, const struct numa_result *res);

/* Give back every cell's health (ctx->free). */
void numa_result_free(const struct measure_ctx *ctx, struct numa_result *res);

/* The window kernel of both windows: kernel_run over a struct kernel_run. */
uint64_t numa_run_kernel(void *arg);

/* Every cell. Returns 0, or -1 when a cell could not be placed or did not run, or ctx->alloc
 * had no memory for the windows' CPU arrays (no cell placed then). */
int numa_measure(const struct measure_ctx *ctx, const struct numa_request *req, struct numa_result *res);

#endif
