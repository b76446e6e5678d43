/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Logical CPUs through EFI_MP_SERVICES_PROTOCOL (PI Vol.2 13.4). Where the firmware has no MP
 * services (e.g. AAVMF), efiperf runs on the boot CPU only and says so.
 */
#ifndef EFIPERF_MP_H
#define EFIPERF_MP_H

#include <stdint.h>
#include "arch/hw.h"
#include "efi/config/cpuset.h"

struct mp_info {
	int present;             /* MP services protocol found */
	uint32_t logical;        /* processors the firmware knows */
	uint32_t enabled;        /* of which enabled */
	uint32_t packages;       /* distinct EFI_CPU_PHYSICAL_LOCATION.Package values */
	uint32_t bsp;            /* processor number of the boot CPU */
	uint32_t package_cpu[64];/* a CPU of package k, packages in the order first seen (boot CPU's
				    package first when it is CPU 0) */
	const struct cpu_desc *cpu;  /* `logical` entries (pool memory), or NULL without MP services */
};

/* Locate the protocol and fill info. Returns 0 when present, -1 when not (info says 1 CPU). */
int mp_init(struct mp_info *info);

/* Run fn(arg) on processor `cpu` (MP services numbering) and wait. HW_BAD_ARG for an unknown
 * CPU, HW_UNSUPPORTED without MP services (except cpu == boot CPU). */
hw_status mp_run_on_cpu(uint32_t cpu, hw_cpu_fn fn, void *arg);

/* Non-blocking: start fn(arg) on AP `cpu` and return at once; mp_wait() waits for it.
 * The struct must stay alive until mp_wait() returns. */
struct mp_pending {
	void *event;             /* EFI_EVENT signalled when the AP's procedure returns */
	hw_cpu_fn fn;
	void *arg;
	int started;
};
hw_status mp_start_on_cpu(uint32_t cpu, hw_cpu_fn fn, void *arg, struct mp_pending *p);
hw_status mp_wait(struct mp_pending *p);

#endif
