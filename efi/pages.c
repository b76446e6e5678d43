/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/pages.h"
#include "efi/numa.h"

/* AllocateAddress can lose a race with the firmware's own allocations between reading the map
 * and allocating: read it again this many times. */
#define PLACE_ATTEMPTS 4

void *pages_alloc(uint64_t bytes)
{
	EFI_PHYSICAL_ADDRESS a = 0;
	if (BS->AllocatePages(AllocateAnyPages, EfiLoaderData, EFI_SIZE_TO_PAGES(bytes), &a) != EFI_SUCCESS)
		return NULL;
	return (void *)(uintptr_t)a;
}

/* The free runs of the UEFI memory map (EfiConventionalMemory), pool memory; NULL on failure. */
static struct memrange *free_ranges(int *n)
{
	UINTN count = 0, key, dsize;
	UINT32 dver;
	EFI_MEMORY_DESCRIPTOR *map = LibMemoryMap(&count, &key, &dsize, &dver);
	if (!map)
		return NULL;
	struct memrange *r = AllocatePool((count ? count : 1) * sizeof(*r));
	*n = 0;
	for (UINTN i = 0; r && i < count; i++) {
		const EFI_MEMORY_DESCRIPTOR *d = (const EFI_MEMORY_DESCRIPTOR *)((const char *)map + i * dsize);
		if (d->Type == EfiConventionalMemory && d->NumberOfPages)
			r[(*n)++] = (struct memrange){ d->PhysicalStart, d->PhysicalStart + d->NumberOfPages * EFI_PAGE_SIZE };
	}
	FreePool(map);
	return r;
}

void *pages_alloc_in(uint64_t bytes, const struct memrange *node, int nnode)
{
	uint64_t size = EFI_SIZE_TO_PAGES(bytes) * EFI_PAGE_SIZE;
	for (int attempt = 0; attempt < PLACE_ATTEMPTS; attempt++) {
		int nfree = 0;
		struct memrange *fr = free_ranges(&nfree);
		if (!fr)
			return NULL;
		uint64_t addr;
		int placed = numa_place(fr, nfree, node, nnode, size, &addr);
		FreePool(fr);
		if (placed != 0)
			return NULL;
		EFI_PHYSICAL_ADDRESS a = addr;
		if (BS->AllocatePages(AllocateAddress, EfiLoaderData, EFI_SIZE_TO_PAGES(bytes), &a) == EFI_SUCCESS)
			return (void *)(uintptr_t)a;
	}
	return NULL;
}

void pages_free(void *p, uint64_t bytes)
{
	if (p)
		BS->FreePages((EFI_PHYSICAL_ADDRESS)(uintptr_t)p, EFI_SIZE_TO_PAGES(bytes));
}
