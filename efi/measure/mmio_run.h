/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The MMIO measurement's request, run and result (the shape of efi/measure/shape.h). The
 * request is a resolved memory BAR (its mapping, how many bytes each kernel covers) and the
 * CPU that drives it. mmio_measure runs each kernel (64- and 32-bit reads, and with writes on a
 * 64-bit write loop checked by reading back) as a DMA window (efi/measure/dma_window.h: the
 * counters and the link limit ride on it) whose slices each run the kernel once in an
 * interrupt-masked window through ctx->win, after a noise floor of the same window. Every access
 * is a volatile load or store of exactly the kernel's width, so the device sees one request per
 * access. It writes no text: the record writer (efi/out/mmio_out.c) does, after the run.
 */
#ifndef EFIPERF_MMIO_RUN_H
#define EFIPERF_MMIO_RUN_H

#include <stdint.h>
#include "efi/measure/shape.h"
#include "efi/measure/dma_window.h"

/* word i of a write kernel's pass holds MMIO_WRITE_PATTERN x (i + 1) */
#define MMIO_WRITE_PATTERN 0x9E3779B97F4A7C15ull
#define MMIO_NKERNELS 3

#define MMIO_NO_DMA "MMIO moves no DMA bytes: the CPU's loads and stores to a BAR are requests " \
		    "(mmio_reads / mmio_writes in the cha record), not PCIe read/write bytes"

struct mmio_kernel {
	const char *name;     /* the record's kernel: "mmio_read64", "mmio_read32", "mmio_write64" */
	window_kernel fn;
	unsigned width;       /* bytes per access */
	int writes;
};
extern const struct mmio_kernel mmio_kernels[MMIO_NKERNELS];

/* The kernels' argument: the BAR's mapping and the bytes one run covers. */
struct mmio_arg { uintptr_t base; uint64_t bytes; };

struct mmio_request {
	uint32_t cpu;              /* the CPU that runs the kernels (MP services number) */
	uintptr_t base;            /* the BAR's mapping (identity: its physical address) */
	uint64_t bytes;            /* per kernel run: min(mmio_bytes, BAR size), a multiple of 8 */
	int writes;                /* mmio_write = on */
	struct hw_pci_addr dev;    /* the function: its link limit */
	int addr64;                /* the BAR lies (partly) above 4 GiB */
	/* the DMA window with its counters (dma_window_run on the firmware); returns r->status */
	int (*dma_run)(void *ctx, const struct dma_window *w, struct dma_window_result *r);
	void *dma_ctx;
	/* for the record only */
	char bdf[16];
	uint32_t id;               /* config dword 0: vendor | device << 16 */
	unsigned bar;
	uint64_t bar_base, bar_size;
	int is64, prefetch;
	uint64_t timer_hz;
};

struct mmio_kernel_result {
	const struct mmio_kernel *k;
	struct window_result floor;   /* the kernel's window with an empty kernel */
	struct window_result w;       /* the last slice's window */
	uint32_t rounds;              /* slices run (each the whole kernel once) */
	uint64_t moved, accesses;     /* bytes x rounds, moved / width */
	uint64_t ns;                  /* all slices' windows together */
	int verified;                 /* writes: the BAR read back as written; reads: -1 */
	uint64_t checksum;            /* reads: the last run's sum of the words (mod 2^64) */
	struct dma_window_result dma; /* counters, self check, link limit (fraction: this rate) */
};

struct mmio_result {
	int nk;
	struct mmio_kernel_result k[MMIO_NKERNELS];
};

/* Returns 0, or -1 when a write kernel's data did not read back (its verified 0). */
int mmio_measure(const struct measure_ctx *ctx, const struct mmio_request *req, struct mmio_result *res);

#endif
