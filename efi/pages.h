/* SPDX-License-Identifier: BSD-2-Clause */
/* Measurement buffers: whole pages of boot-services memory (gBS->AllocatePages, EfiLoaderData),
 * page-aligned as the kernels and DMA want them. */
#ifndef EFIPERF_PAGES_H
#define EFIPERF_PAGES_H

#include <stdint.h>

/* `bytes` rounded up to pages, anywhere in memory; NULL when the firmware has none. */
void *pages_alloc(uint64_t bytes);
/* Free what pages_alloc(bytes) returned; NULL is ignored. */
void pages_free(void *p, uint64_t bytes);

#endif
