/* SPDX-License-Identifier: BSD-2-Clause */
/* The DMA engines efiperf can drive (efi/dma_engine.h): one entry per engine. Pure. */
#include "efi/measure/dma_engine.h"

extern const struct dma_engine dma_engine_edu;

static const struct dma_engine *const dma_engines[] = { &dma_engine_edu };

const struct dma_engine *dma_engine_find(uint16_t vendor, uint16_t device)
{
	for (unsigned i = 0; i < sizeof(dma_engines) / sizeof(dma_engines[0]); i++)
		if (dma_engines[i]->vendor == vendor && dma_engines[i]->device == device)
			return dma_engines[i];
	return NULL;
}
