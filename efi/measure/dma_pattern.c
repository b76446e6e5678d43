/* SPDX-License-Identifier: BSD-2-Clause */
#include "efi/measure/dma_pattern.h"

#define WORD 8u

uint64_t dma_pattern_word(uint64_t offset)
{
	return (offset / WORD) ^ DMA_PATTERN_MAGIC;
}

int dma_pattern_present(uint64_t first)
{
	return first == dma_pattern_word(0);
}

void dma_pattern_fill(void *buf, uint64_t offset, uint64_t bytes)
{
	uint64_t *w = buf;
	for (uint64_t i = 0; i < bytes / WORD; i++)
		w[i] = dma_pattern_word(offset + i * WORD);
}

int dma_pattern_check(const void *buf, uint64_t offset, uint64_t bytes, uint64_t *bad)
{
	const uint64_t *w = buf;
	for (uint64_t i = 0; i < bytes / WORD; i++)
		if (w[i] != dma_pattern_word(offset + i * WORD)) {
			*bad = offset + i * WORD;
			return -1;
		}
	return 0;
}
