/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpuset: the `cpus` setting, which CPUs the measurement kernels run on.
 *
 *   boot          the boot CPU (default)
 *   all           every enabled CPU the firmware knows
 *   0,2,5 | 4-7   MP-services processor numbers and inclusive ranges, comma-separated
 *   socket1       every enabled CPU of physical package 1 (EFI_CPU_PHYSICAL_LOCATION.Package,
 *                 PI 1.8 Vol.2 13.4.4); items mix freely: "socket0,9,12-13"
 *
 * Parsing checks the shape only (config time, so a typo is named with its file line); resolving
 * checks it against the machine (run time: CPU numbers that exist and are enabled, packages that
 * exist). Pure: no EFI calls, unit-tested and fuzzed on the host.
 */
#ifndef EFIPERF_CPUSET_H
#define EFIPERF_CPUSET_H

#include <stddef.h>
#include <stdint.h>

#define CPUSET_MAX_ITEMS 32
#define CPUSET_MAX_CPU   65535u    /* largest CPU or package number accepted in a list */

enum cpuset_kind { CPUSET_BOOT, CPUSET_ALL, CPUSET_LIST };

struct cpuset_item {
	uint32_t first, last;      /* inclusive CPU numbers, or a package number (first == last) */
	int socket;                /* 1: "socketN" */
};

struct cpuset {
	enum cpuset_kind kind;
	int n;                     /* CPUSET_LIST: items */
	struct cpuset_item item[CPUSET_MAX_ITEMS];
};

/* One logical CPU as the firmware describes it (efi/mp.c fills these from MP services). */
struct cpu_desc {
	uint64_t proc_id;          /* x86: initial APIC ID; Arm: MPIDR_EL1 affinity fields */
	uint32_t package;          /* physical package (socket) number */
	uint8_t enabled;           /* PROCESSOR_ENABLED_BIT of its StatusFlag */
};

/* The machine a set is resolved against: ncpus CPUs numbered 0..ncpus-1, bsp the boot CPU.
 * cpu == NULL means nothing is known beyond the count (every CPU enabled, all in package 0). */
struct cpuset_topo {
	uint32_t ncpus, bsp;
	const struct cpu_desc *cpu;
};

/* Parse s[0..n) (trimmed or not). Returns 0, or -1 with msg (msgsz bytes) naming the bad item
 * and what is accepted. */
int cpuset_parse(const char *s, size_t n, struct cpuset *out, char *msg, size_t msgsz);

/* The CPUs of set on topo, ascending processor numbers, into out[0..max-1]. Returns their
 * count (>= 1), or -1 with msg naming the CPU or socket that does not exist or is disabled, an
 * empty selection, or more than max CPUs. */
int cpuset_resolve(const struct cpuset *set, const struct cpuset_topo *topo, uint32_t *out, int max, char *msg,
		   size_t msgsz);

#endif
