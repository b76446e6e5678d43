/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * physmem: how pure parsers of firmware data (ACPI tables, SMBIOS) reach physical memory.
 * Firmware tables point at each other by physical address; a parser asks for a window
 * [addr, addr+len) and gets a pointer or NULL. Under UEFI memory is identity-mapped
 * (efi/discovery.c); host tests and fuzzers map a synthetic memory image, so an address
 * outside it, or a length running past it, is refused instead of read.
 */
#ifndef EFIPERF_PHYSMEM_H
#define EFIPERF_PHYSMEM_H

#include <stddef.h>
#include <stdint.h>

struct physmem {
	/* Pointer to len bytes at physical address addr, or NULL when not mapped (or len 0,
	 * or addr + len overflows). */
	const void *(*map)(void *ctx, uint64_t addr, uint64_t len);
	void *ctx;
};

static inline const void *physmem_map(const struct physmem *pm, uint64_t addr, uint64_t len)
{
	if (!len || addr + len < addr)
		return NULL;
	return pm->map(pm->ctx, addr, len);
}

/* A physmem over one buffer placed at physical address `base` (tests, fuzzers). */
struct physmem_buf { const uint8_t *data; uint64_t base, size; };
static inline const void *physmem_buf_map(void *ctx, uint64_t addr, uint64_t len)
{
	const struct physmem_buf *b = ctx;
	if (addr < b->base || addr - b->base > b->size || len > b->size - (addr - b->base))
		return NULL;
	return b->data + (addr - b->base);
}

#endif
