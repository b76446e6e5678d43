/* SPDX-License-Identifier: BSD-2-Clause */
/* The copy window of the uncore counters (efi/measure/copy_slices.h). */
#include <efi.h>
#include "efi/measure/copy_slices.h"
#include "efi/measure/window.h"
#include "efi/pages.h"
#include "arch/arch.h"
#include "pmu/metrics.h"

#define COPY_BLOCK 64u   /* a share is whole cache lines */

int copy_slices_alloc(struct copy_slices *c, const struct hw *hw, const struct platform *p, uint64_t bytes)
{
	*c = (struct copy_slices){ hw, p, NULL, NULL, bytes, 0, 1 };
	c->src = pages_alloc(bytes);
	c->dst = pages_alloc(bytes);
	if (c->src && c->dst)
		return 0;
	copy_slices_free(c);
	return -1;
}

void copy_slices_free(struct copy_slices *c)
{
	if (c->src)
		pages_free(c->src, c->bytes);
	if (c->dst)
		pages_free(c->dst, c->bytes);
	c->src = c->dst = NULL;
}

static uint64_t slice_kernel(void *arg)
{
	struct copy_slices *c = arg;
	uint64_t share = c->bytes / c->n / COPY_BLOCK * COPY_BLOCK;
	if (!share)
		share = COPY_BLOCK;
	uint64_t off = (uint64_t)c->cur * share % c->bytes;
	if (off + share > c->bytes)
		off = 0;
	arch_copy(c->dst + off, c->src + off, share);
	return 0;
}

uint64_t copy_slices_window(void *arg, uint32_t slice, uint32_t nslices)
{
	struct copy_slices *c = arg;
	c->cur = slice;
	c->n = nslices ? nslices : 1;
	struct window_cpu cpu = { .cpu = c->p->mp.bsp, .arg = c };
	struct window_spec spec = { .kernel = slice_kernel, .cpus = &cpu, .ncpus = 1, .mask_interrupts = 1 };
	struct window_result w;
	window_run(c->hw, &spec, &w);
	return metric_ticks_to_ns(w.span_ticks, c->p->timer_hz);
}

uint64_t copy_slices_whole(void *arg)
{
	return copy_slices_window(arg, 0, 1);
}
