/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Portable C reference kernels (arch/kernel.h): one per kind, no intrinsics, one 8-byte element
 * at a time. The unit tests' oracle for the SIMD kernels of arch/<arch>/, and the fallback a
 * window can always run. block_bytes 8 (one element); the chase walks 64-byte lines.
 */
#include <string.h>
#include "arch/kernel.h"

static uint64_t ref_load(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	(void)a, (void)c, (void)s;
	const uint64_t *src = b;
	uint64_t x = 0;
	for (uint64_t i = 0; i < bytes / 8; i++)
		x ^= src[i];
	return x;
}

static uint64_t ref_store(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	(void)b, (void)c;
	uint64_t v, *dst = a;
	memcpy(&v, &s, sizeof(v));
	for (uint64_t i = 0; i < bytes / 8; i++)
		dst[i] = v;
	return 0;
}

static uint64_t ref_copy(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	(void)c, (void)s;
	uint64_t *dst = a;
	const uint64_t *src = b;
	for (uint64_t i = 0; i < bytes / 8; i++)
		dst[i] = src[i];
	return 0;
}

static uint64_t ref_triad(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	double *x = a;
	const double *y = b, *z = c;
	for (uint64_t i = 0; i < bytes / 8; i++)
		x[i] = y[i] + s * z[i];
	return 0;
}

/* The reference has no non-temporal stores: ntstore/ntcopy are the temporal loops (same
 * result, which is what the oracle is for). */
const struct kernel_desc kernel_ref_set[KERNEL_KIND_COUNT] = {
	{ "load_c",    KERNEL_LOAD,    KERNEL_ISA_NONE, 8,  8,  ref_load, 1, 1, 0 },
	{ "store_c",   KERNEL_STORE,   KERNEL_ISA_NONE, 8,  8,  ref_store, 1, 1, 0 },
	{ "ntstore_c", KERNEL_NTSTORE, KERNEL_ISA_NONE, 8,  8,  ref_store, 1, 1, 0 },
	{ "copy_c",    KERNEL_COPY,    KERNEL_ISA_NONE, 8,  8,  ref_copy, 1, 1, 0 },
	{ "ntcopy_c",  KERNEL_NTCOPY,  KERNEL_ISA_NONE, 8,  8,  ref_copy, 1, 1, 0 },
	{ "triad_c",   KERNEL_TRIAD,   KERNEL_ISA_NONE, 8,  8,  ref_triad, 1, 1, 0 },
	{ "chase_c",   KERNEL_CHASE,   KERNEL_ISA_NONE, 64, 64, kernel_chase_c, 1, 1, 0 },
};
