/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/pages.h"

void *pages_alloc(uint64_t bytes)
{
	EFI_PHYSICAL_ADDRESS a = 0;
	if (BS->AllocatePages(AllocateAnyPages, EfiLoaderData, EFI_SIZE_TO_PAGES(bytes), &a) != EFI_SUCCESS)
		return NULL;
	return (void *)(uintptr_t)a;
}

void pages_free(void *p, uint64_t bytes)
{
	if (p)
		BS->FreePages((EFI_PHYSICAL_ADDRESS)(uintptr_t)p, EFI_SIZE_TO_PAGES(bytes));
}
