/* SPDX-License-Identifier: BSD-2-Clause */
/* The firmware's DMA window ops (efi/measure/dma_ops.h). */
#include <efi.h>
#include "efi/measure/dma_ops.h"

static int efi_dma_window(void *ctx, const struct dma_window *w, struct dma_window_result *r)
{
	const struct dma_ops_efi *e = ctx;
	return dma_window_run(e->hw, e->p, e->dp, w, r);
}

struct dma_window_ops dma_ops_efi(struct dma_ops_efi *e, const struct hw *hw, const struct platform *p,
				  const struct dma_plan *dp)
{
	*e = (struct dma_ops_efi){ hw, p, dp };
	return (struct dma_window_ops){ efi_dma_window, dma_window_rate, e };
}
