/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Platform report: CPU identity (arch_cpu_info), logical CPUs and packages (MP services +
 * CPUID topology), time base and its frequency, firmware, exception handling, core PMU probe,
 * a PCI config read. Prints it and writes the `platform` record.
 */
#ifndef EFIPERF_PLATFORM_H
#define EFIPERF_PLATFORM_H

#include "arch/cpuinfo.h"
#include "efi/mp.h"
#include "pmu/core/core_counters.h"
#include "efi/fw/smbios.h"
#include "efi/fw/acpi.h"

struct corepmu;
struct vec_run;

struct platform {
	struct cpu_info cpu;
	struct mp_info mp;
	struct core_set core;   /* probed core PMU (counters absent or not) */
	int core_known;         /* core_probe() found a PMU architecture */
	uint64_t timer_hz;      /* arch_timer_read() ticks per second */
	const char *timer_source;
	int exc_vectors;        /* exception vectors registered for fault recovery */
	const char *exc_why;    /* why fewer than all, or NULL */
	const struct smbios_info *smbios;  /* parsed SMBIOS, or NULL: system and BIOS identity */
	const struct acpi_fadt *fadt;      /* parsed FADT, or NULL: its PM timer calibrates the TSC */
	const struct acpi_srat *srat;      /* parsed SRAT, or NULL: the NUMA node of CPUs and memory */
	const struct acpi_madt *madt;      /* parsed MADT, or NULL: Arm MPIDR to ACPI Processor UID */
	const struct acpi_apmt *apmt;      /* parsed APMT, or NULL: the CoreSight PMUs (uncore) */
	const struct acpi_pptt *pptt;      /* parsed PPTT, or NULL: Arm CPU packages (PSCI CPUs) */
	const struct acpi_info *acpi;      /* every table parsed, or NULL: the FADT's DSDT and the SSDTs
					    * for the AML reader (efi/measure/nv_acpi_run.h) */
	uint64_t stall_hz;      /* the same timer measured against gBS->Stall (cross-check) */
	int64_t stall_ppm;      /* stall_hz against timer_hz, parts per million */
	const char *pm_why;     /* why the PM timer could not calibrate, or NULL */
	struct corepmu *corepmu;  /* x86 core PMU (efi/corepmu_run.h), or NULL */
	/* Vector state (efi/measure/vec_run.h): what the firmware had on every enabled CPU, what
	 * efiperf enables for its kernels, enabled and restored once here as a check and read back */
	const struct vec_run *vec;
};

void platform_discover(const struct hw *hw, struct platform *p);
void platform_report(const struct platform *p);

#endif
