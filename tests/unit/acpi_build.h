/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * acpi_build: synthetic firmware tables for tests. A memory image (struct img) placed at a
 * physical base, little-endian field writers, ACPI headers (ACPI 6.5 5.2.6) with the checksum
 * fixed up, RSDP (5.2.5.3) and XSDT/RSDT (5.2.7, 5.2.8), and a reader of the sparse "chunk"
 * fixtures (tests/unit/fixtures/README.md). Header-only, host only.
 */
#ifndef EFIPERF_TESTS_ACPI_BUILD_H
#define EFIPERF_TESTS_ACPI_BUILD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "efi/fw/physmem.h"

struct img {
	uint8_t *mem;
	struct physmem_buf buf;
	struct physmem pm;
};

static inline void img_init(struct img *im, uint64_t base, uint64_t size)
{
	im->mem = calloc(1, size);
	im->buf.data = im->mem;
	im->buf.base = base;
	im->buf.size = size;
	im->pm.map = physmem_buf_map;
	im->pm.ctx = &im->buf;
}

static inline void img_free(struct img *im)
{
	free(im->mem);
	im->mem = NULL;
}

/* Pointer to physical address addr inside the image (the caller keeps within it). */
static inline uint8_t *img_at(struct img *im, uint64_t addr)
{
	return im->mem + (addr - im->buf.base);
}

static inline void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static inline void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

static inline uint8_t sum8(const uint8_t *p, size_t n)
{
	uint8_t s = 0;
	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

/* Makes the 8-bit sum of p[0..n) zero by adjusting p[at]. */
static inline void fix_sum(uint8_t *p, size_t n, size_t at)
{
	p[at] = 0;
	p[at] = (uint8_t)(0x100 - sum8(p, n));
}

#define TB_OEMID     "EFIPRF"
#define TB_OEMTABLE  "SYNTHTBL"

/* ACPI 6.5 5.2.6: Signature @0, Length @4, Revision @8, Checksum @9, OEMID @10,
 * OEM Table ID @16, OEM Revision @24, Creator ID @28, Creator Revision @32. */
static inline void acpi_hdr(uint8_t *t, const char *sig, uint32_t len, uint8_t rev)
{
	memcpy(t, sig, 4);
	put32(t + 4, len);
	t[8] = rev;
	memcpy(t + 10, TB_OEMID, 6);
	memcpy(t + 16, TB_OEMTABLE, 8);
	put32(t + 24, 1);
	memcpy(t + 28, "TEST", 4);
	put32(t + 32, 0x20250101);
}

/* Checksum over the table's own Length field. */
static inline void acpi_fix(uint8_t *t)
{
	uint32_t len = (uint32_t)t[4] | (uint32_t)t[5] << 8 | (uint32_t)t[6] << 16 | (uint32_t)t[7] << 24;
	fix_sum(t, len, 9);
}

/* ACPI 6.5 5.2.5.3: RSDP; revision 0 (20 bytes) or 2 (36 bytes, extended checksum @32). */
static inline void acpi_rsdp(uint8_t *p, uint8_t rev, uint32_t rsdt, uint64_t xsdt)
{
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, TB_OEMID, 6);
	p[15] = rev;
	put32(p + 16, rsdt);
	if (rev >= 2) {
		put32(p + 20, 36);
		put64(p + 24, xsdt);
	}
	fix_sum(p, 20, 8);
	if (rev >= 2)
		fix_sum(p, 36, 32);
}

/* XSDT (entry 8) or RSDT (entry 4) listing n tables. Returns its length. */
static inline uint32_t acpi_root(uint8_t *t, int xsdt, const uint64_t *addr, unsigned n)
{
	unsigned e = xsdt ? 8 : 4;
	uint32_t len = 36 + e * n;
	acpi_hdr(t, xsdt ? "XSDT" : "RSDT", len, 1);
	for (unsigned i = 0; i < n; i++) {
		if (xsdt)
			put64(t + 36 + 8 * i, addr[i]);
		else
			put32(t + 36 + 4 * i, (uint32_t)addr[i]);
	}
	acpi_fix(t);
	return len;
}

/*
 * Sparse memory fixture: a file of records { u64 addr, u32 len, len bytes } (little-endian),
 * each a window of physical memory copied from a real machine. physmem maps a request that
 * lies inside one record.
 */
#define CHUNKS_MAX 64
struct chunks {
	uint8_t *file;
	unsigned n;
	struct { uint64_t addr; uint32_t len; const uint8_t *data; } c[CHUNKS_MAX];
	struct physmem pm;
};

static inline const void *chunks_map(void *ctx, uint64_t addr, uint64_t len)
{
	const struct chunks *k = ctx;
	for (unsigned i = 0; i < k->n; i++)
		if (addr >= k->c[i].addr && addr - k->c[i].addr <= k->c[i].len &&
		    len <= k->c[i].len - (addr - k->c[i].addr))
			return k->c[i].data + (addr - k->c[i].addr);
	return NULL;
}

/* Reads a whole file; returns its size or -1. */
static inline long read_file(const char *path, uint8_t **out)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	*out = malloc(n > 0 ? (size_t)n : 1);
	if (fread(*out, 1, (size_t)n, f) != (size_t)n)
		n = -1;
	fclose(f);
	return n;
}

static inline int chunks_load(struct chunks *k, const char *path)
{
	memset(k, 0, sizeof(*k));
	long n = read_file(path, &k->file);
	if (n < 0)
		return -1;
	for (long off = 0; off + 12 <= n && k->n < CHUNKS_MAX;) {
		uint64_t a = 0;
		uint32_t l = 0;
		for (int b = 7; b >= 0; b--)
			a = a << 8 | k->file[off + b];
		for (int b = 3; b >= 0; b--)
			l = l << 8 | k->file[off + 8 + b];
		if ((long)l > n - off - 12)
			return -1;
		k->c[k->n].addr = a;
		k->c[k->n].len = l;
		k->c[k->n].data = k->file + off + 12;
		k->n++;
		off += 12 + l;
	}
	k->pm.map = chunks_map;
	k->pm.ctx = k;
	return 0;
}

#endif
