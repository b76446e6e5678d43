/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The DDIO sweep's request, run and result (efi/measure/shape.h): for each target-buffer size
 * in order, a buffer of that size (whole pages anywhere, ctx->alloc_in) and a read of
 * dma_bytes of the disk into it (efi/measure/blockio_run.h: min(size, 1 MiB) transfers, the
 * target wrapping) as a DMA window (request.dma, efi/measure/dma_ops.h) named
 * "ddio_sweep:<size>", and the window's IO LLC hit ratio from its CHA totals
 * (efi/measure/ddio.h ddio_ratio_of). The sweep stops at the first point whose buffer or read
 * cannot be had. efi/out/ddio_out.c writes the records.
 */
#ifndef EFIPERF_DDIO_RUN_H
#define EFIPERF_DDIO_RUN_H

#include <stdint.h>
#include "efi/measure/ddio.h"
#include "efi/measure/blockio_run.h"
#include "efi/measure/dma_ops.h"
#include "efi/measure/shape.h"

#define DDIO_KERNEL_NAME 40   /* "ddio_sweep:1073741824" and its NUL */

struct ddio_request {
	int n;                                /* points, 1..DDIO_MAX_POINTS */
	uint32_t sizes[DDIO_MAX_POINTS];      /* target-buffer bytes (ddio_sweep, parsed once) */
	struct blockio_dev disk;              /* the disk behind dma_blockio */
	struct hw_pci_addr bdf;
	char name[16];                        /* "0000:01:00.0" */
	uint64_t dma_bytes;
	struct dma_window_ops dma;
};

struct ddio_point {
	char kernel[DDIO_KERNEL_NAME];
	struct blockio_read rd;
	struct dma_window_result win;
	struct ddio_ratio hr;
};

enum ddio_stop { DDIO_ALL_RAN, DDIO_NO_BUFFER, DDIO_NO_READ };

struct ddio_result {
	int ran;                              /* points that ran, in order */
	enum ddio_stop stop;                  /* why the sweep stopped at point `ran` */
	char why[160];                        /* DDIO_NO_READ */
	uint64_t timer_hz;
	struct ddio_point pt[DDIO_MAX_POINTS];
};

/* Returns 0 when every point ran and read without error; -1 otherwise. */
int ddio_run(const struct measure_ctx *ctx, const struct ddio_request *req, struct ddio_result *res);

#endif
