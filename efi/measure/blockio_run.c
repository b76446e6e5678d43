/* SPDX-License-Identifier: BSD-2-Clause */
/* A Block IO read over ops (efi/measure/blockio_run.h): pure. */
#include "efi/measure/blockio_run.h"
#include "efi/measure/dma_pattern.h"
#include "arch/lib/fmt.h"
#include "pmu/metrics.h"
#include <string.h>

uint64_t blockio_piece_blocks(uint32_t block_size, uint64_t lba, uint64_t last, uint64_t xfer)
{
	uint64_t per = xfer / block_size;
	return last - lba + 1 < per ? last - lba + 1 : per;
}

const char *blockio_read_why(const struct blockio_dev *d, const char *name, uint64_t xfer, char *msg, size_t n)
{
	if (!d->media_present)
		fmt_snprintf(msg, n, "%s: no media, or smaller than one block", name);
	else if (!d->block_size || xfer % d->block_size)
		fmt_snprintf(msg, n, "%s: block size %u does not divide the %llu-byte transfer", name, d->block_size,
			     (unsigned long long)xfer);
	else
		return NULL;
	return msg;
}

int blockio_read_init(struct blockio_read *c, const struct blockio_dev *d, const char *name, uint64_t bytes, void *buf,
		      uint64_t buf_bytes, uint64_t hz, char *why, size_t n)
{
	uint64_t xfer = buf_bytes < BLOCKIO_TRANSFER_BYTES ? buf_bytes : BLOCKIO_TRANSFER_BYTES;
	*c = (struct blockio_read){ .d = *d, .buf = buf, .buf_bytes = buf_bytes, .xfer = xfer, .hz = hz, .pattern = -1 };
	if (blockio_read_why(d, name, xfer, why, n))
		return -1;
	c->block_size = d->block_size;
	c->device_bytes = (d->last_block + 1) * (uint64_t)d->block_size;
	bytes = bytes < c->device_bytes ? bytes : c->device_bytes;
	bytes -= bytes % d->block_size;
	if (!bytes) {
		fmt_snprintf(why, n, "%s: no media, or smaller than one block", name);
		return -1;
	}
	c->last = bytes / d->block_size - 1;
	c->transfers = (bytes + xfer - 1) / xfer;
	return 0;
}

uint64_t blockio_read_slice(void *arg, uint32_t slice, uint32_t nslices)
{
	struct blockio_read *c = arg;
	const struct blockio_ops *ops = c->d.ops;
	uint64_t per = c->xfer / c->block_size, n = nslices ? nslices : 1;
	uint64_t first = c->transfers * slice / n, end = c->transfers * (slice + 1) / n, ticks = 0;
	for (uint64_t t = first; t < end && c->st == 0; t++) {
		uint64_t lba = t * per;
		uint64_t bytes = blockio_piece_blocks(c->block_size, lba, c->last, c->xfer) * c->block_size;
		uint8_t *dst = c->buf + t * c->xfer % c->buf_bytes;   /* the DMA target wraps in the buffer */
		uint64_t t0 = ops->clock();
		c->st = ops->read(c->d.dev, lba, bytes, dst);
		ticks += ops->clock() - t0;
		if (c->st != 0)
			break;
		if (c->pattern < 0)
			c->pattern = dma_pattern_present(*(uint64_t *)dst);
		if (c->pattern == 1 && dma_pattern_check(dst, lba * c->block_size, bytes, &c->bad) != 0)
			c->pattern = 2;   /* carried the pattern, then differed: a data error */
		c->done += bytes;
	}
	c->ticks += ticks;
	c->moved.write = c->done;
	return metric_ticks_to_ns(ticks, c->hz);
}

#define DMA_4GIB (1ull << 32)   /* buffers above: 4 DW Memory Write headers */

int blockio_run(const struct measure_ctx *ctx, const struct blockio_request *req, struct blockio_result *res)
{
	memset(res, 0, sizeof(*res));
	uint8_t *buf = ctx->alloc_in(BLOCKIO_TRANSFER_BYTES, NULL, 0);
	if (!buf) {
		res->no_buffer = 1;
		return -1;
	}
	if (blockio_read_init(&res->rd, &req->disk, req->name, req->dma_bytes, buf, BLOCKIO_TRANSFER_BYTES, ctx->timer_hz,
			      res->why, sizeof(res->why)) != 0) {
		ctx->free_in(buf, BLOCKIO_TRANSFER_BYTES);
		res->refused = 1;
		return -1;
	}
	struct dma_window w = { "blockio_read", blockio_read_slice, &res->rd, &res->rd.moved, NULL, req->bdf,
				(uintptr_t)buf + BLOCKIO_TRANSFER_BYTES > DMA_4GIB, NULL };
	req->dma.run(req->dma.ctx, &w, &res->win);
	ctx->free_in(buf, BLOCKIO_TRANSFER_BYTES);
	req->dma.rate(&res->win, 0, res->rd.done, metric_ticks_to_ns(res->rd.ticks, ctx->timer_hz));
	return res->rd.st != 0 || res->rd.pattern == 2 ? -1 : 0;
}

/* Write t's blocks with the pattern in 1 MiB pieces, timing the writes. */
static void write_range(const struct blockio_write_request *req, uint8_t *buf, struct blockio_write_result *res)
{
	const struct blockio_dev *d = &req->disk;
	uint64_t lba = req->t.first;
	while (lba <= req->t.last && res->wst == 0) {
		uint64_t nblk = blockio_piece_blocks(d->block_size, lba, req->t.last, BLOCKIO_TRANSFER_BYTES);
		dma_pattern_fill(buf, lba * d->block_size, nblk * d->block_size);
		uint64_t t0 = d->ops->clock();
		res->wst = d->ops->write(d->dev, lba, nblk * d->block_size, buf);
		res->wticks += d->ops->clock() - t0;
		if (res->wst == 0)
			lba += nblk;
	}
	res->blocks = lba - req->t.first;
}

/* Read t's blocks back and check the pattern: differs and bad at the first difference. */
static void verify_range(const struct blockio_write_request *req, uint8_t *buf, struct blockio_write_result *res)
{
	const struct blockio_dev *d = &req->disk;
	for (uint64_t lba = req->t.first; lba <= req->t.last;) {
		uint64_t nblk = blockio_piece_blocks(d->block_size, lba, req->t.last, BLOCKIO_TRANSFER_BYTES);
		res->rst = d->ops->read(d->dev, lba, nblk * d->block_size, buf);
		if (res->rst != 0)
			return;
		if (dma_pattern_check(buf, lba * d->block_size, nblk * d->block_size, &res->bad) != 0) {
			res->differs = 1;
			return;
		}
		lba += nblk;
	}
}

int blockio_write_run(const struct measure_ctx *ctx, const struct blockio_write_request *req,
		      struct blockio_write_result *res)
{
	const struct blockio_dev *d = &req->disk;
	memset(res, 0, sizeof(*res));
	res->hz = ctx->timer_hz;
	uint8_t *buf = ctx->alloc_in(BLOCKIO_TRANSFER_BYTES, NULL, 0);
	if (!buf) {
		res->no_buffer = 1;
		return -1;
	}
	write_range(req, buf, res);
	if (res->wst == 0) {
		uint64_t t0 = d->ops->clock();
		res->fst = d->ops->flush(d->dev);
		res->fticks = d->ops->clock() - t0;
	}
	if (res->wst == 0 && res->fst == 0)
		verify_range(req, buf, res);
	ctx->free_in(buf, BLOCKIO_TRANSFER_BYTES);
	res->status = res->wst ? "WriteBlocks failed" : res->fst ? "FlushBlocks failed" : res->rst ? "ReadBlocks failed"
		      : res->differs ? "read back differs" : "ok";
	return res->wst || res->fst || res->rst || res->differs ? -1 : 0;
}
