/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The selection as a request sees it (the CPUs a multi-CPU measurement runs on, each with the
 * memory of its NUMA node), and each CPU's working arrays taken through a measure_ctx
 * (efi/measure/shape.h): from its own node's memory where the ACPI SRAT says which that is and
 * the node has room, else anywhere (the place says which). Pure: STREAM, loaded latency and the
 * host tests share it.
 */
#ifndef EFIPERF_CPU_ARRAYS_H
#define EFIPERF_CPU_ARRAYS_H

#include <stdint.h>
#include "efi/measure/shape.h"
#include "efi/cpus.h"

#define CPU_SEL_NODES 16        /* distinct SRAT nodes the selection's memory comes from (a CPU of a
                                 * further node takes its arrays anywhere, place.local 0) */
#define CPU_SEL_RANGES 16       /* memory ranges per node (efi/fw/numa.h numa_domain_ranges) */
#define CPU_ARRAYS_MAX 3        /* STREAM's a, b, c */

struct cpu_sel_node {
	int32_t domain;                      /* SRAT proximity domain */
	int nr;                              /* its memory ranges, 0: none known */
	struct memrange r[CPU_SEL_RANGES];
};

struct cpu_sel {
	int n;                               /* selected CPUs, 1..WINDOW_MAX_CPUS */
	uint32_t cpu[WINDOW_MAX_CPUS];       /* MP services numbers, in selection order */
	int32_t node[WINDOW_MAX_CPUS];       /* each CPU's SRAT domain, -1 when SRAT does not say */
	int8_t mem[WINDOW_MAX_CPUS];         /* its index into nodes[], -1 none */
	int nnodes;
	struct cpu_sel_node nodes[CPU_SEL_NODES];
};

/* One CPU's arrays: narrays buffers of the same size, and where they lie (local only when every
 * one is in the CPU's node). */
struct cpu_arrays {
	void *a[CPU_ARRAYS_MAX];
	struct cpu_place place;
};

/* `bytes` for selected CPU i through ctx->alloc_in: its node's ranges first, then anywhere
 * (alloc_in with no ranges). NULL when memory is short. Give back with ctx->free_in(p, bytes). */
void *cpu_array_alloc(const struct measure_ctx *ctx, const struct cpu_sel *s, int i, uint64_t bytes,
		      struct cpu_place *place);

/* narrays (1..CPU_ARRAYS_MAX) buffers of `bytes` for each of the first n CPUs of s into
 * out[0..n). Returns 0, or -1 when memory is short: then every buffer taken is given back and
 * out[] holds NULLs. */
int cpu_arrays_alloc(const struct measure_ctx *ctx, const struct cpu_sel *s, int n, uint64_t bytes, unsigned narrays,
		     struct cpu_arrays *out);

/* Give back what cpu_arrays_alloc took (NULL entries are skipped) and clear them. */
void cpu_arrays_free(const struct measure_ctx *ctx, int n, uint64_t bytes, unsigned narrays, struct cpu_arrays *arr);

/* The firmware's selection (efi/cpus.h cpus_selected, cpus_node, the SRAT's ranges per node):
 * efi/measure/measure.c. */
struct platform;
void measure_cpu_sel(const struct platform *p, struct cpu_sel *s);

#endif
