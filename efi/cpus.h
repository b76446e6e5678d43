/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpus: the CPUs every multi-CPU measurement runs on (config `cpus`, syntax in efi/cpuset.h),
 * resolved once against MP services, and each CPU's buffers taken from the memory of its own
 * NUMA node where the ACPI SRAT says which that is (efi/numa.h).
 */
#ifndef EFIPERF_CPUS_H
#define EFIPERF_CPUS_H

#include <stdint.h>
#include "efi/config/config.h"
#include "efi/platform.h"
#include "efi/measure/window.h"

/* Resolve cfg->cpus on this machine and write the `cpus` record (each CPU's number, package,
 * ProcessorId and NUMA node) and a console line. Returns 0, or -1 after an error record naming
 * the setting, where it was set and the CPU or socket that does not exist. */
int cpus_init(const struct platform *p, const struct efiperf_config *cfg);

/* The selection: fills cpus[0..n-1] (WINDOW_MAX_CPUS entries, arg left NULL) and returns n
 * (the boot CPU alone before cpus_init succeeded). */
int cpus_selected(struct window_cpu *cpus);

/* How many CPUs the selection holds, and whether it holds MP services CPU `cpu` (1 or 0). */
int cpus_count(void);
int cpus_has(uint32_t cpu);

/* Where a buffer of CPU i (index into the selection) was placed. */
struct cpu_place {
	int32_t node;       /* the CPU's SRAT proximity domain, -1 when SRAT does not say */
	int local;          /* 1: the buffer lies in that node's memory */
};

/* The SRAT proximity domain of selected CPU i, -1 when SRAT does not say. */
int32_t cpus_node(int i);

/* `bytes` (rounded up to pages) for selected CPU i: from its node's memory when the node is
 * known and has room, else anywhere (place->local = 0 says so). NULL when memory is short.
 * Free with pages_free(). */
void *cpus_alloc(int i, uint64_t bytes, struct cpu_place *place);

#endif
