/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Is an x86 CPU in efiperf's CPU tables? One answer from every table that keys on CPUID vendor,
 * family and model: the core-event generations (pmu/core/x86_corepmu.c), the Intel CHA and
 * IMC/IIO platforms (pmu/uncore/intel_cha_platforms.c, intel_uncore.c) and the AMD uncore
 * families (pmu/uncore/amd_uncore.c). A CPU none of them serves (an Intel family-19 part such as
 * Diamond Rapids, a family-6 model no row names, an AMD model Linux's two sources do not agree on)
 * gets architectural or raw events only, and every record says so.
 */
#ifndef EFIPERF_CPU_TABLES_H
#define EFIPERF_CPU_TABLES_H

#include <stddef.h>
#include <stdint.h>

/* vendor: CPUID leaf 0's 12 characters ("GenuineIntel", "AuthenticAMD", "HygonGenuine");
 * family/model: display values (SDM Vol.2A CPUID, AMD APM Vol.3 CPUID Fn0000_0001_EAX).
 * Returns 1 and writes the note ("GenuineIntel family 0x13 model 0x1: not in efiperf's CPU
 * tables, architectural events only") into buf[n] when no table serves the CPU; 0 (buf
 * untouched) when one does or the vendor is not x86's. */
int cpu_tables_note(const char *vendor, uint32_t family, uint32_t model, char *buf, size_t n);

#endif
