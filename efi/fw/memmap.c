/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/fw/memmap.h"
#include "efi/fw/fwaddr.h"

/* UEFI 2.10 7.2 "EFI_BOOT_SERVICES.GetMemoryMap()", memory attribute definitions: the
 * specific-purpose memory attribute (gnu-efi does not name it). */
#define MEMORY_SP 0x0000000000040000ull

/* Allocating the buffer may split a free descriptor: leave room for a few more. */
#define MAP_SLACK_DESCRIPTORS 8

/* The descriptors of the map in pool memory (*size bytes, *dsize per descriptor), or NULL. */
static EFI_MEMORY_DESCRIPTOR *map_read(UINTN *size, UINTN *dsize)
{
	UINTN key;
	UINT32 dver;
	*size = 0;
	if (BS->GetMemoryMap(size, NULL, &key, dsize, &dver) != EFI_BUFFER_TOO_SMALL || !*dsize)
		return NULL;
	*size += MAP_SLACK_DESCRIPTORS * *dsize;
	EFI_MEMORY_DESCRIPTOR *map = AllocatePool(*size);
	if (map && BS->GetMemoryMap(size, map, &key, dsize, &dver) != EFI_SUCCESS) {
		FreePool(map);
		map = NULL;
	}
	return map;
}

struct fwaddr_desc *memmap_read_typed(int *n)
{
	UINTN size, dsize;
	*n = 0;
	EFI_MEMORY_DESCRIPTOR *map = map_read(&size, &dsize);
	struct fwaddr_desc *r = map ? AllocatePool((size / dsize) * sizeof(*r)) : NULL;
	for (UINTN off = 0; r && off + dsize <= size; off += dsize) {
		const EFI_MEMORY_DESCRIPTOR *d = (const EFI_MEMORY_DESCRIPTOR *)((const UINT8 *)map + off);
		r[(*n)++] = (struct fwaddr_desc){ d->PhysicalStart, d->PhysicalStart + d->NumberOfPages * EFI_PAGE_SIZE,
						  d->Type };
	}
	if (map)
		FreePool(map);
	return r;
}

struct memrange *memmap_read(int *n, int free_only)
{
	UINTN size, dsize;
	*n = 0;
	EFI_MEMORY_DESCRIPTOR *map = map_read(&size, &dsize);
	struct memrange *r = map ? AllocatePool((size / dsize) * sizeof(*r)) : NULL;
	for (UINTN off = 0; r && off + dsize <= size; off += dsize) {
		const EFI_MEMORY_DESCRIPTOR *d = (const EFI_MEMORY_DESCRIPTOR *)((const UINT8 *)map + off);
		if (free_only == MEMMAP_FREE && (d->Type != EfiConventionalMemory || !d->NumberOfPages))
			continue;
		if (free_only == MEMMAP_SP && (!(d->Attribute & MEMORY_SP) || !d->NumberOfPages))
			continue;
		if (free_only == MEMMAP_RAM && (d->Type == EfiReservedMemoryType || d->Type == EfiUnusableMemory ||
						d->Type == EfiMemoryMappedIO || d->Type == EfiMemoryMappedIOPortSpace ||
						d->Type == EfiPalCode || !d->NumberOfPages))
			continue;
		r[(*n)++] = (struct memrange){ d->PhysicalStart, d->PhysicalStart + d->NumberOfPages * EFI_PAGE_SIZE };
	}
	if (map)
		FreePool(map);
	return r;
}
