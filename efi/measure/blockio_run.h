/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A read of a disk through Block IO as a DMA window's traffic, pure over ops: the firmware's
 * EFI_BLOCK_IO_PROTOCOL.ReadBlocks (UEFI 2.10 section 13.9; efi/measure/blockio_measure.c
 * blockio_dev_find) or a host model. Transfer t of `transfers` reads min(buf_bytes, 1 MiB)
 * bytes from block t x that into the target buffer at offset (t x xfer) mod buf_bytes (the DMA
 * target wraps: a buffer smaller than what is read is written again and again), checking
 * efiperf's pattern (efi/measure/dma_pattern.h) as it goes; slice k of n reads transfers
 * [k T / n, (k + 1) T / n) (a cha_window_fn, efi/measure/dma_window.h).
 */
#ifndef EFIPERF_BLOCKIO_RUN_H
#define EFIPERF_BLOCKIO_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "pmu/self_check.h"
#include "efi/config/blockio_target.h"
#include "efi/measure/dma_ops.h"
#include "efi/measure/shape.h"

#define BLOCKIO_TRANSFER_BYTES (1u << 20)   /* bytes per ReadBlocks / WriteBlocks call */
#define BLOCKIO_DISK_NAME_MAX 40            /* "0000:01:00.0/ns4294967294" and its NUL */

/* What a read asks of the disk. */
struct blockio_ops {
	/* `bytes` (whole blocks) from block lba into dst: 0, or the firmware's EFI_STATUS (nonzero) */
	uint64_t (*read)(void *dev, uint64_t lba, uint64_t bytes, void *dst);
	/* `bytes` (whole blocks) from src to block lba: 0 or the firmware's status (NULL: a
	 * read-only disk's ops, never called) */
	uint64_t (*write)(void *dev, uint64_t lba, uint64_t bytes, const void *src);
	uint64_t (*flush)(void *dev);  /* FlushBlocks: 0 or the firmware's status */
	uint64_t (*clock)(void);      /* the time base the read is timed with */
};

/* One whole disk as its Block IO media say (EFI_BLOCK_IO_MEDIA). */
struct blockio_dev {
	const struct blockio_ops *ops;
	void *dev;                    /* the ops' handle (EFI_BLOCK_IO *) */
	int media_present;
	uint32_t block_size;          /* bytes */
	uint64_t last_block;          /* LastBlock: blocks are 0..last_block */
};

struct blockio_read {
	struct blockio_dev d;
	uint8_t *buf;
	uint64_t buf_bytes;          /* the DMA target's size, bytes */
	uint64_t xfer;               /* bytes per read */
	uint64_t last, transfers;    /* last block read, number of transfers */
	uint64_t hz;                 /* time base, ticks per second */
	uint32_t block_size;
	uint64_t device_bytes;
	int pattern;                 /* -1 unknown yet, 0 not efiperf's pattern, 1 verified so far, 2 differs */
	uint64_t bad, ticks, done;   /* first bad device offset; ticks inside the reads; bytes read */
	uint64_t st;                 /* status of the last read: 0 (EFI_SUCCESS) or the firmware's */
	struct self_check_bytes moved;   /* the device wrote memory: `done` bytes */
};

/* What is wrong with reading d (its PCI function named `name`) in xfer-byte transfers (no
 * media, a block size that does not divide xfer) into msg, or NULL. */
const char *blockio_read_why(const struct blockio_dev *d, const char *name, uint64_t xfer, char *msg, size_t n);

/* Prepare a read of `bytes` (capped at the disk, whole blocks) of d into buf (buf_bytes, a
 * multiple of the block size). Returns 0, or -1 with why (naming `name`). */
int blockio_read_init(struct blockio_read *c, const struct blockio_dev *d, const char *name, uint64_t bytes, void *buf,
		      uint64_t buf_bytes, uint64_t hz, char *why, size_t n);

/* cha_window_fn: slice of the read; returns its ns inside the reads. */
uint64_t blockio_read_slice(void *arg, uint32_t slice, uint32_t nslices);

/* Blocks of the next transfer of a walk over blocks lba..last: at most xfer bytes. */
uint64_t blockio_piece_blocks(uint32_t block_size, uint64_t lba, uint64_t last, uint64_t xfer);

/* The Block IO read measurement (`dma_blockio`): dma_bytes of the disk into a 1 MiB target
 * (ctx->alloc_in) as one DMA window named blockio_read (request.dma). */
struct blockio_request {
	struct blockio_dev disk;
	struct hw_pci_addr bdf;
	char name[16];                /* "0000:01:00.0" */
	uint64_t dma_bytes;
	struct dma_window_ops dma;
};

struct blockio_result {
	int no_buffer;                /* the target could not be had: nothing ran */
	int refused;                  /* blockio_read_init refused: why */
	char why[160];
	struct blockio_read rd;
	struct dma_window_result win;
};

/* Returns 0 when the read ran, completed and did not differ from the pattern; -1 otherwise. */
int blockio_run(const struct measure_ctx *ctx, const struct blockio_request *req, struct blockio_result *res);

/* The write measurement (`dma_write_lba`): blocks t.first..t.last of disk written with the
 * pattern in 1 MiB pieces (timed), flushed (timed), read back and checked. The plan checked
 * the target (present, writable, in range, not the boot disk). */
struct blockio_write_request {
	struct blockio_dev disk;      /* its ops' write and flush set */
	struct blockio_target t;
	char name[BLOCKIO_DISK_NAME_MAX];   /* "0000:01:00.0/ns2" */
};

struct blockio_write_result {
	int no_buffer;                /* the 1 MiB buffer could not be had: nothing written */
	uint64_t wst, fst, rst;       /* write, flush, read-back status (0 ok; later ones 0 when not run) */
	int differs;                  /* read back differs: bad is the device offset */
	uint64_t bad;
	uint64_t blocks;              /* blocks written */
	uint64_t wticks, fticks;      /* clock ticks in the writes, in the flush */
	uint64_t hz;
	const char *status;           /* "ok", "WriteBlocks failed", ... "read back differs" */
};

/* Returns 0 when everything was written, flushed and read back equal; -1 otherwise. */
int blockio_write_run(const struct measure_ctx *ctx, const struct blockio_write_request *req,
		      struct blockio_write_result *res);

#endif
