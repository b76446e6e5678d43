/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dma_cpu_traffic's request, run and result (the shape of efi/measure/shape.h): the selected
 * CPUs other than the boot CPU run a STREAM function (passes of one kernel over their own three
 * `size`-byte arrays, a written, b and c holding STREAM's values; arch/kernel.h) behind the
 * window's barrier with interrupts masked, repeated until the boot CPU, as the window's boot
 * work, has read its share of the disk (efi/measure/blockio_run.h). The window is a DMA window
 * (efi/measure/dma_window.h: its counters, self_check, link limit) through request.dma (efi/measure/dma_ops.h); it is
 * cut into the slices the counters ask for, one CPU window each through ctx->win. Bytes are
 * STREAM's application bytes (kernel_app_bytes). It writes no text: efi/out/dma_cpu_out.c does.
 */
#ifndef EFIPERF_DMA_CPU_RUN_H
#define EFIPERF_DMA_CPU_RUN_H

#include <stdint.h>
#include "arch/kernel.h"
#include "efi/measure/shape.h"
#include "efi/measure/cpu_arrays.h"
#include "efi/measure/blockio_run.h"
#include "efi/measure/dma_ops.h"

#define DMA_CPU_ARRAYS 3u                 /* STREAM's a, b, c */
#define DMA_CPU_TARGET_BYTES (1u << 20)   /* the DMA target: one 1 MiB transfer buffer */

struct dma_cpu_request {
	struct cpu_sel sel;                  /* the STREAM CPUs (the boot CPU left out), n >= 0 */
	enum kernel_kind kind;               /* the STREAM function */
	const struct kernel_desc *k;         /* its widest variant the boot CPU offers; NULL: none */
	uint64_t size;                       /* bytes per array (stream_size) */
	struct blockio_dev disk;             /* the disk behind dma_blockio */
	struct hw_pci_addr bdf;
	char name[16];                       /* bdf as "0000:01:00.0" */
	uint64_t dma_bytes;                  /* bytes of the disk to read */
	struct dma_window_ops dma;
};

enum dma_cpu_status {
	DMA_CPU_RAN,            /* the window ran (the CPUs' and the read's statuses say how) */
	DMA_CPU_NO_STATE,       /* the working state or the 1 MiB target could not be had */
	DMA_CPU_NO_ARRAYS,      /* a CPU's arrays could not be had */
	DMA_CPU_NO_KERNEL,      /* no kernel of the function on this CPU */
	DMA_CPU_NO_READ,        /* blockio_read_init refused the read: why */
};

/* One STREAM CPU: passes until the boot CPU's read is done (at least one). */
struct dma_cpu_stream {
	struct kernel_run r;                 /* one pass */
	const volatile uint32_t *stop;
	uint64_t passes;                     /* passes run */
	uint64_t app_bytes;                  /* STREAM's bytes over every pass */
	uint64_t ticks;                      /* clock ticks over every pass */
	int status;                          /* 0, or the kernel's status (-2: this CPU lacks the ISA) */
};

struct dma_cpu_result {
	enum dma_cpu_status status;
	char why[160];                       /* DMA_CPU_NO_READ */
	uint64_t timer_hz;
	struct blockio_read rd;              /* the boot CPU's read: bytes, ticks, pattern, status */
	struct dma_window_result win;        /* counters, self_check, link limit */
	uint64_t window_ticks, slices;       /* the CPU windows' spans together; how many */
	int masked;                          /* the last CPU window ran with interrupts masked */
	int bad;                             /* a CPU did not run a window, or its kernel failed */
	uint64_t passes, app_bytes, ticks_max;   /* over the CPUs: sums, the longest CPU's ticks */
	struct dma_cpu_stream cpu[WINDOW_MAX_CPUS];
	struct cpu_place place[WINDOW_MAX_CPUS];
	const void *buf[WINDOW_MAX_CPUS];    /* each CPU's array a (its address, for the record) */
};

/* The window kernel: arg is a struct dma_cpu_stream. */
uint64_t dma_cpu_stream_kernel(void *arg);

/* s less the CPU `cpu` (kept in order; the node table stays). */
void dma_cpu_sel_without(struct cpu_sel *s, uint32_t cpu);

/* Allocates through ctx (the state and arrays with ctx->alloc/alloc_in, given back before it
 * returns). Returns 0 when the window ran with every CPU's kernel and the read ok; -1 otherwise
 * (res->status, res->bad, res->rd.st and res->rd.pattern say why). */
int dma_cpu_run(const struct measure_ctx *ctx, const struct dma_cpu_request *req, struct dma_cpu_result *res);

#endif
