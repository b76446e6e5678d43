/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/pages.h"
#include "efi/fw/numa.h"
#include "efi/fw/memmap.h"

/* AllocateAddress can lose a race with the firmware's own allocations between reading the map
 * and allocating: read it again this many times. */
#define PLACE_ATTEMPTS 4

static struct pages_target *target;

void pages_target_set(struct pages_target *t)
{
	target = t;
}

const struct pages_target *pages_target_of(const void *p)
{
	uint64_t a = (uint64_t)(uintptr_t)p;
	return target && (!p || (a >= target->base && a - target->base < target->size)) ? target : NULL;
}

static void *target_take(uint64_t bytes)
{
	uint64_t size = EFI_SIZE_TO_PAGES(bytes) * EFI_PAGE_SIZE;
	if (!bytes || size > target->size - target->used)
		return NULL;
	target->used += size;
	return (void *)(uintptr_t)(target->base + target->used - size);
}

void *pages_alloc(uint64_t bytes)
{
	if (target)
		return target_take(bytes);
	EFI_PHYSICAL_ADDRESS a = 0;
	if (BS->AllocatePages(AllocateAnyPages, EfiLoaderData, EFI_SIZE_TO_PAGES(bytes), &a) != EFI_SUCCESS)
		return NULL;
	return (void *)(uintptr_t)a;
}

void *pages_alloc_in(uint64_t bytes, const struct memrange *node, int nnode)
{
	if (target)
		return target_take(bytes);
	uint64_t size = EFI_SIZE_TO_PAGES(bytes) * EFI_PAGE_SIZE;
	for (int attempt = 0; attempt < PLACE_ATTEMPTS; attempt++) {
		int nfree = 0;
		struct memrange *fr = memmap_read(&nfree, 1);
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
	if (p && !pages_target_of(p))
		BS->FreePages((EFI_PHYSICAL_ADDRESS)(uintptr_t)p, EFI_SIZE_TO_PAGES(bytes));
}

/* AllocatePool gives 8-byte alignment only (UEFI 2.10 section 7.2); the compiler may move a
 * struct holding an __int128 or a vector with aligned 16-byte stores (MOVAPS), which fault on
 * less. pool_zalloc aligns to POOL_ALIGN and keeps the pool's own pointer just below. */
#define POOL_ALIGN 64u

void *pool_zalloc(uint64_t bytes)
{
	if (!bytes)
		return NULL;
	uint8_t *raw = AllocateZeroPool(bytes + POOL_ALIGN + sizeof(void *));
	if (!raw)
		return NULL;
	uintptr_t a = ((uintptr_t)raw + sizeof(void *) + POOL_ALIGN - 1) & ~(uintptr_t)(POOL_ALIGN - 1);
	((void **)a)[-1] = raw;
	return (void *)a;
}

void pool_free(void *p)
{
	if (p)
		FreePool(((void **)p)[-1]);
}
