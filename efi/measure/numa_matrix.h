/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * numa_matrix (config `numa_matrix = on`): from each SRAT node's selected CPUs to each node's
 * memory, the idle latency (pointer chase of numa_size bytes, 64-byte lines, on the node's first
 * selected CPU) and the read bandwidth (the load kernel on every selected CPU of the node, each
 * over its share of one numa_size buffer), each cell one window with interrupts masked. Buffers
 * are placed inside the memory node's SRAT ranges (efi/pages.h pages_alloc_in). One
 * `numa_matrix` record: the nodes (CPUs selected, memory bytes, why a node has no row or column),
 * latency_ns[cpu node][memory node], read_gbps[...], and each cell's quietness.
 */
#ifndef EFIPERF_NUMA_MATRIX_H
#define EFIPERF_NUMA_MATRIX_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"

/* Returns 0, or -1 after an error record (no SRAT, a buffer that could not be placed). */
int measure_numa_matrix(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg);

#endif
