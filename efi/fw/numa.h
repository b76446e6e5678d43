/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * numa: which NUMA node (SRAT proximity domain) a CPU belongs to, which memory is that node's,
 * and where in the free memory a buffer of that node fits. The firmware's allocator knows
 * nothing of nodes, so efiperf picks the address itself (efi/pages.h pages_alloc_in) from the
 * ACPI SRAT (ACPI 6.5 5.2.16: Processor Local APIC/SAPIC 5.2.16.1, Memory 5.2.16.2, x2APIC
 * 5.2.16.3, GICC 5.2.16.4 Affinity Structures) and the UEFI memory map.
 * Pure: no EFI calls, unit-tested on the host.
 */
#ifndef EFIPERF_NUMA_H
#define EFIPERF_NUMA_H

#include <stdint.h>
#include "efi/fw/acpi.h"
#include "efi/fw/memranges.h"

#define NUMA_PAGE_BYTES 4096u

/* The proximity domain of the CPU whose MP-services ProcessorId is proc_id: on x86 its APIC or
 * x2APIC ID, matched against SRAT's APIC and x2APIC affinity entries; on Arm its MPIDR, turned
 * into the ACPI Processor UID through madt's GICC entries (madt may be NULL) and matched against
 * SRAT's GICC affinity entries. Returns 0 and *domain, or -1 when SRAT (s may be NULL) has no
 * entry for the CPU. */
int numa_cpu_domain(const struct acpi_srat *s, const struct acpi_madt *madt, uint64_t proc_id, uint32_t *domain);

/* The ordinary memory of domain: SRAT memory ranges that are enabled and neither hot-pluggable
 * nor non-volatile, into out[0..max-1]. A hot-pluggable range that lies inside a CFMWS window
 * of cedt (efi/fw/cxl_numa.h: CXL memory the firmware committed, which it marks hot-pluggable
 * so an OS may offline it) counts as ordinary memory too; cedt may be NULL. Returns how many. */
int numa_domain_ranges(const struct acpi_srat *s, const struct acpi_cedt *cedt, uint32_t domain, struct memrange *out,
		       int max);

/* The highest NUMA_PAGE_BYTES-aligned address a with [a, a + bytes) inside one range of free[]
 * and one range of node[]. Returns 0 and *addr, or -1 when no such place exists (bytes 0, or
 * the node's free memory is too fragmented or too small). */
int numa_place(const struct memrange *free, int nfree, const struct memrange *node, int nnode, uint64_t bytes,
	       uint64_t *addr);

#endif
