/* SPDX-License-Identifier: BSD-2-Clause */
/* Measurement buffers: whole pages of boot-services memory (gBS->AllocatePages, EfiLoaderData),
 * page-aligned as the kernels and DMA want them. */
#ifndef EFIPERF_PAGES_H
#define EFIPERF_PAGES_H

#include <stdint.h>
#include "efi/fw/memranges.h"

/* `bytes` rounded up to pages, anywhere in memory; NULL when the firmware has none. */
void *pages_alloc(uint64_t bytes);

/* `bytes` rounded up to pages, inside one of node[0..nnode-1] (a NUMA node's memory,
 * efi/numa.h): placed by numa_place() in the free (EfiConventionalMemory) part of the UEFI
 * memory map and taken with AllocateAddress. NULL when no free run of that node is big enough. */
void *pages_alloc_in(uint64_t bytes, const struct memrange *node, int nnode);

/* `bytes` of zeroed boot-services pool memory (gBS->AllocatePool, EfiLoaderData), aligned to
 * 64 bytes, for a measurement's working arrays, so they take no room in the image (gnu-efi
 * keeps .bss in the file); NULL when the firmware has none. Give it back with pool_free only
 * (not FreePool); NULL is ignored. */
void *pool_zalloc(uint64_t bytes);
void pool_free(void *p);

/* A memory target the firmware does not hand out (a CXL window efiperf committed itself,
 * efi/cxl_memory.c): while one is set, pages_alloc and pages_alloc_in take whole pages from
 * [base + used, base + size) in address order (used grows; nothing is given back or reused,
 * so each buffer's last contents stay where they were written), and pages_free of them does
 * nothing. NULL: back to the firmware's pages. */
struct pages_target {
	const char *device;          /* "0000:0d:00.0": the memory device behind the range */
	uint32_t window;             /* CFMWS index in the CEDT */
	uint64_t base, size, used;   /* bytes */
	uint64_t link_mbps;          /* the device link's raw rate per direction (MB/s), 0 down */
	const struct acpi_hmat *hmat;   /* the platform's HMAT, NULL none */
	int32_t domain, initiator;   /* the window memory's SRAT domain, the boot CPU's; -1 none */
};
void pages_target_set(struct pages_target *t);
/* The target p lies in, NULL when p is firmware memory or no target is set; p NULL: the
 * target set now. */
const struct pages_target *pages_target_of(const void *p);

/* Free what pages_alloc(bytes) or pages_alloc_in(bytes, ...) returned; NULL is ignored. */
void pages_free(void *p, uint64_t bytes);

#endif
