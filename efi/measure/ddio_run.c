/* SPDX-License-Identifier: BSD-2-Clause */
/* The DDIO sweep's run (efi/measure/ddio_run.h): pure over ctx and request.dma. */
#include <string.h>
#include "efi/measure/ddio_run.h"
#include "arch/lib/fmt.h"
#include "pmu/metrics.h"

#define DMA_4GIB (1ull << 32)   /* buffers above: 4 DW Memory Write headers */

/* Point i with its buffer; returns 0, or -1 when the read was refused (res->why). */
static int point(const struct measure_ctx *ctx, const struct ddio_request *req, int i, uint8_t *buf, struct ddio_result *res)
{
	struct ddio_point *pt = &res->pt[i];
	uint64_t size = req->sizes[i];
	if (blockio_read_init(&pt->rd, &req->disk, req->name, req->dma_bytes, buf, size, ctx->timer_hz, res->why,
			      sizeof(res->why)) != 0)
		return -1;
	fmt_snprintf(pt->kernel, sizeof(pt->kernel), "ddio_sweep:%llu", (unsigned long long)size);
	struct dma_window w = { pt->kernel, blockio_read_slice, &pt->rd, &pt->rd.moved, NULL, req->bdf,
				(uintptr_t)buf + size > DMA_4GIB, NULL };
	req->dma.run(req->dma.ctx, &w, &pt->win);
	req->dma.rate(&pt->win, 0, pt->rd.done, metric_ticks_to_ns(pt->rd.ticks, ctx->timer_hz));
	ddio_ratio_of(pt->win.have_cha ? &pt->win.cha : NULL, pt->rd.done, pt->win.sc.why, &pt->hr);
	return 0;
}

int ddio_run(const struct measure_ctx *ctx, const struct ddio_request *req, struct ddio_result *res)
{
	memset(res, 0, sizeof(*res));
	res->timer_hz = ctx->timer_hz;
	int rc = 0;
	for (int i = 0; i < req->n && i < (int)DDIO_MAX_POINTS; i++) {
		uint8_t *buf = ctx->alloc_in(req->sizes[i], NULL, 0);
		if (!buf) {
			res->stop = DDIO_NO_BUFFER;
			return -1;
		}
		int refused = point(ctx, req, i, buf, res);
		ctx->free_in(buf, req->sizes[i]);
		if (refused) {
			res->stop = DDIO_NO_READ;
			return -1;
		}
		res->ran++;
		rc |= res->pt[i].rd.st != 0 || res->pt[i].rd.pattern == 2 ? -1 : 0;
	}
	return rc;
}
