/* SPDX-License-Identifier: BSD-2-Clause */
/* The UEFI memory map (gBS->GetMemoryMap, UEFI 2.10 section 7.2) as address ranges: every
 * descriptor, for checking table pointers (efi/firmware_tables.c), or only the free ones
 * (EfiConventionalMemory), for placing buffers (efi/pages.c). */
#ifndef EFIPERF_MEMMAP_H
#define EFIPERF_MEMMAP_H

#include "efi/fw/memranges.h"
#include "efi/fw/fwaddr.h"

/* The map's ranges [start, end), in map order, as pool memory the caller frees with FreePool;
 * *n = how many. free_only: MEMMAP_FREE only EfiConventionalMemory descriptors; MEMMAP_RAM
 * the descriptors of system RAM (every type but reserved, unusable, MMIO, MMIO port space and
 * PAL code: UEFI 2.10 Table 7-5), for refusing register windows that overlap RAM; MEMMAP_SP
 * the descriptors whose Attribute has EFI_MEMORY_SP (specific-purpose memory, e.g. CXL memory
 * the firmware leaves to the OS: efi/fw/cxl_numa.h). NULL when the map cannot be read or
 * memory is short. */
#define MEMMAP_ALL  0
#define MEMMAP_FREE 1
#define MEMMAP_RAM  2
#define MEMMAP_SP   3
struct memrange *memmap_read(int *n, int free_only);

/* Every descriptor with its EFI_MEMORY_TYPE (for efi/fw/fwaddr.h), pool memory the caller frees
 * with FreePool; *n = how many. NULL when the map cannot be read or memory is short. */
struct fwaddr_desc *memmap_read_typed(int *n);

#endif
