/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Logical CPUs through EFI_MP_SERVICES_PROTOCOL (PI Vol.2 13.4). Where the firmware has no MP
 * services (AAVMF) but the FADT says PSCI (ACPI 6.5 5.2.9.4 ARM_BOOT_ARCH.PSCI_COMPLIANT, the
 * conduit from PSCI_USE_HVC), the CPUs are the MADT's enabled GICC entries (ACPI 6.5 5.2.12.14)
 * in table order and efiperf starts each AP itself with PSCI CPU_ON for every job
 * (arch_ap_start, arch/arch.h): the AP runs the job on efiperf's own entry code and turns
 * itself off with CPU_OFF; mp_wait() returns once PSCI AFFINITY_INFO says it is off. One
 * interface either way; elsewhere efiperf runs on the boot CPU only and says why.
 */
#ifndef EFIPERF_MP_H
#define EFIPERF_MP_H

#include <stdint.h>
#include "arch/hw.h"
#include "efi/config/cpuset.h"
#include "efi/exceptions.h"

struct mp_info {
	int present;             /* MP services protocol found */
	uint32_t logical;        /* processors the firmware knows */
	uint32_t enabled;        /* of which enabled */
	uint32_t packages;       /* distinct EFI_CPU_PHYSICAL_LOCATION.Package values */
	uint32_t bsp;            /* processor number of the boot CPU */
	uint32_t package_cpu[64];/* a CPU of package k, packages in the order first seen (boot CPU's
				    package first when it is CPU 0) */
	const struct cpu_desc *cpu;  /* `logical` entries (pool memory), or NULL without MP services */
	const char *backend;     /* "EFI_MP_SERVICES_PROTOCOL", "PSCI" or "boot CPU only" */
	const char *count_source;/* where `logical` comes from: "EFI_MP_SERVICES_PROTOCOL",
				    "MADT GICC entries" or "boot CPU only" */
	const char *package_source; /* "EFI_MP_SERVICES_PROTOCOL", "PPTT", or "none" (every CPU
				    package 0; package_why says why) */
	char package_why[120];
	const struct acpi_cpu_topo *topo;  /* PPTT: `logical` entries (package, cluster, core), else NULL */
	int psci;                /* 1: the PSCI backend starts the APs */
	int psci_conduit;        /* PSCI: enum arch_ap_conduit */
	int32_t psci_version;    /* PSCI: PSCI_VERSION's answer (major << 16 | minor) */
	char why[96];            /* boot CPU only: why no other CPU can be used */
};

struct acpi_madt;
struct acpi_fadt;
struct acpi_pptt;
struct acpi_cpu_topo;
/* The firmware tables the PSCI backend reads (any may be NULL); call before mp_init. The PPTT
 * (ACPI 6.5 5.2.30) gives the PSCI CPUs their package, cluster and core. */
void mp_use_acpi(const struct acpi_madt *madt, const struct acpi_fadt *fadt, const struct acpi_pptt *pptt);

/* Why CPU `cpu`'s last job did not run or end (PSCI: CPU_ON's error, an exception on the AP
 * with its ESR and address, no CPU_OFF; MP services: an exception on the AP with its vector,
 * address and hardware ID, the job then returned HW_ERROR), or NULL. */
const char *mp_cpu_why(uint32_t cpu);

/* Jobs on APs that have ended at an exception so far (MP services: exceptions_ap_call; PSCI: a
 * started AP in ARCH_AP_FAULTED). A CPU waiting for an AP's progress stops when it changes: that
 * AP will make none. No firmware call: safe on an AP. */
uint32_t mp_jobs_faulted(void);

/* 1 once the fatal-exception path asked every AP to leave whatever it is waiting for. */
int mp_aborting(void);

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
	uint32_t cpu;
	int faulted;             /* MP services: the job ended at an exception (exceptions_ap_call) */
	struct exc_ap_fault fault;
};
hw_status mp_start_on_cpu(uint32_t cpu, hw_cpu_fn fn, void *arg, struct mp_pending *p);
hw_status mp_wait(struct mp_pending *p);

#endif
