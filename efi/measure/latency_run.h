/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The latency curve's request, run and result (the shape of efi/measure/shape.h). For every
 * working set of the request (4 KiB doubling to latency_max, arch/kernel.h kernel_chase_sizes)
 * latency_measure builds a random cyclic permutation of 64-byte lines in one buffer
 * (ctx->alloc_in, anywhere) and runs the pointer chase on one CPU in an interrupt-masked window
 * through ctx->win, LAT_PASSES passes, with the request's evidence attachments riding on each
 * point's window (efi/measure/attach.h: prepared once, read after every window, restored at
 * the end). A point's latency is ps (and timer ticks x 1000) per load of the best pass; it is
 * complete when the chase came back to where it began. Before the curve, an empty window on
 * the same CPU (the noise floor). After it, the curve's knees beside the cache levels the CPU
 * reports (efi/measure/knees.h). It writes no text: efi/out/latency_out.c does, after the run.
 */
#ifndef EFIPERF_LATENCY_RUN_H
#define EFIPERF_LATENCY_RUN_H

#include <stdint.h>
#include "arch/kernel.h"
#include "efi/measure/attach.h"
#include "efi/measure/knees.h"
#include "efi/measure/shape.h"
#include "efi/measure/health_run.h"

#define LAT_LINE_BYTES 64u
#define LAT_CHASE_SEED 0x5EEDull    /* point i's permutation: seed + i */
#define LAT_PASSES 2u
#define LAT_MAX_SIZES 32

struct latency_request {
	uint32_t cpu;                        /* MP services number of the chasing CPU (the boot CPU) */
	uint64_t max_bytes;                  /* latency_max: the buffer */
	uint32_t nsizes;                     /* 0..LAT_MAX_SIZES (0: nothing to measure) */
	uint64_t size[LAT_MAX_SIZES];        /* working sets, bytes, multiples of 64 */
	const struct kernel_desc *chase;
	const struct cpu_info *ci;           /* the caches the CPU reports, for the knees */
	struct attach_list *evidence;        /* optional: counters riding on every point's window */
	struct mem_cxl cxl;                  /* the CXL window the buffer lies in, device NULL none */
	const struct health_opts *health;    /* optional: health over every point's window */
};

struct latency_point {
	uint64_t bytes;
	uint64_t ps;                         /* ps per load */
	uint64_t ticks_milli;                /* timer ticks x 1000 per load */
	uint64_t loads;                      /* loads in the window: lines x passes */
	int complete;                        /* the chase ran and came back to its start */
	struct window_result w;
	struct health_run *health;           /* ctx->alloc; the caller frees each after the record */
};

struct latency_result {
	int placed;                          /* the buffer was taken */
	const void *buf;                     /* where (its address, for the record; freed after the run) */
	struct window_result floor;          /* the empty window */
	uint64_t floor_ns;                   /* its span */
	uint32_t npoints;
	struct latency_point pt[LAT_MAX_SIZES];
	/* the knees (knees_find, knees_match over the points) */
	int nk, nl, disagreements;
	struct knee k[KNEES_MAX];
	uint8_t taken[KNEES_MAX];
	struct knee_level lv[CPUINFO_MAX_CACHES];
	uint64_t memory_ps;                  /* beyond the last knee, 0: none */
};

/* The window kernel: kernel_run over a struct kernel_run. */
uint64_t latency_kernel(void *arg);

/* The curve. Returns 0; -1 when there is no size or no buffer (res->placed 0, no point), or a
 * chase did not come back to its start. */
int latency_measure(const struct measure_ctx *ctx, const struct latency_request *req, struct latency_result *res);

#endif
