/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CXL memory the firmware committed and described: the SRAT memory ranges (ACPI 6.5 5.2.16.2
 * Memory Affinity Structure) and the UEFI memory map's EFI_MEMORY_SP ranges (UEFI 2.10 7.2,
 * "specific-purpose memory", how firmware marks CXL memory it leaves to the OS) that lie inside
 * a CEDT CFMWS window (CXL 3.1 9.18.1.3). Each such SRAT range is a NUMA node like any other
 * (efi/fw/numa.h places buffers in it unless it is non-volatile, hot-pluggable or not);
 * this names the window behind it, and the caller the device whose committed HDM decoder
 * covers it. A window's SP range without an SRAT entry is listed with domain -1.
 * Pure: host-tested with crafted tables.
 */
#ifndef EFIPERF_CXL_NUMA_H
#define EFIPERF_CXL_NUMA_H

#include <stdint.h>
#include "efi/fw/acpi.h"
#include "efi/fw/memranges.h"

#define CXL_NUMA_MAX 8

struct cxl_numa_node {
	int32_t domain;            /* SRAT proximity domain, -1: the memory map's SP range alone */
	uint32_t window;           /* CFMWS index in the CEDT */
	uint64_t base, size;       /* bytes */
	uint8_t sp;                /* every byte is EFI_MEMORY_SP in the memory map */
	uint8_t hot_pluggable, non_volatile;   /* SRAT Memory Affinity flags bits 1 and 2 */
};

/* The CFMWS window (index in cedt) holding all of [base, base + size), -1 when none does
 * (size 0, cedt NULL, or the range wraps or crosses a window's end). */
int cxl_numa_window(const struct acpi_cedt *cedt, uint64_t base, uint64_t size);

/* The CXL ranges in out[0..max-1], SRAT ranges first (in SRAT order), then SP ranges no SRAT
 * range overlaps; a range only partly inside a window is not CXL memory of that window and
 * is skipped. srat, cedt may be NULL; sp[0..nsp-1]: the map's EFI_MEMORY_SP ranges. Returns
 * how many. */
int cxl_numa_nodes(const struct acpi_srat *srat, const struct acpi_cedt *cedt, const struct memrange *sp, int nsp,
		   struct cxl_numa_node *out, int max);

#endif
