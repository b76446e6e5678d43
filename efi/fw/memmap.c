/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/fw/memmap.h"

/* Allocating the buffer may split a free descriptor: leave room for a few more. */
#define MAP_SLACK_DESCRIPTORS 8

struct memrange *memmap_read(int *n, int free_only)
{
	UINTN size = 0, key, dsize;
	UINT32 dver;
	*n = 0;
	if (BS->GetMemoryMap(&size, NULL, &key, &dsize, &dver) != EFI_BUFFER_TOO_SMALL || !dsize)
		return NULL;
	size += MAP_SLACK_DESCRIPTORS * dsize;
	EFI_MEMORY_DESCRIPTOR *map = AllocatePool(size);
	struct memrange *r = AllocatePool((size / dsize) * sizeof(*r));
	if (!map || !r || BS->GetMemoryMap(&size, map, &key, &dsize, &dver) != EFI_SUCCESS) {
		if (map)
			FreePool(map);
		if (r)
			FreePool(r);
		return NULL;
	}
	for (UINTN off = 0; off + dsize <= size; off += dsize) {
		const EFI_MEMORY_DESCRIPTOR *d = (const EFI_MEMORY_DESCRIPTOR *)((const UINT8 *)map + off);
		if (free_only == MEMMAP_FREE && (d->Type != EfiConventionalMemory || !d->NumberOfPages))
			continue;
		if (free_only == MEMMAP_RAM && (d->Type == EfiReservedMemoryType || d->Type == EfiUnusableMemory ||
						d->Type == EfiMemoryMappedIO || d->Type == EfiMemoryMappedIOPortSpace ||
						d->Type == EfiPalCode || !d->NumberOfPages))
			continue;
		r[(*n)++] = (struct memrange){ d->PhysicalStart, d->PhysicalStart + d->NumberOfPages * EFI_PAGE_SIZE };
	}
	FreePool(map);
	return r;
}
