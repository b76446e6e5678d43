/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * loaded_latency's request, run and result (the shape of efi/measure/shape.h), after Intel
 * MLC's --loaded_latency. The request: the selection (the first CPU chases, the others make
 * traffic), loaded_size, the injection delays, the chase kernel. ll_measure takes one buffer
 * per CPU (ctx->alloc_in, in the CPU's node where known), builds the chase (random cyclic
 * permutation of 64-byte lines) in the first and fills the others, then runs one
 * interrupt-masked window per point through ctx->win: first the chase alone (idle), then per
 * delay the chase while every other CPU reads its buffer line by line with `delay` spin
 * iterations after each line, until the chase ends. The chase starts once every reading CPU
 * read its first line (at most LL_START_WAIT_S). A point's latency is ps per load of the chase's
 * best pass; its bandwidth the reading CPUs' lines x 64 bytes over the window's span. It writes
 * no text: efi/out/loaded_latency_out.c does, after the run.
 */
#ifndef EFIPERF_LOADED_LATENCY_RUN_H
#define EFIPERF_LOADED_LATENCY_RUN_H

#include <stdint.h>
#include "arch/kernel.h"
#include "efi/config/config.h"
#include "efi/measure/cpu_arrays.h"
#include "efi/measure/shape.h"
#include "efi/measure/numa_run.h"

#define LL_LINE_BYTES 64u
#define LL_CHASE_SEED 0x10ADEDull
#define LL_CHASE_PASSES 2u
#define LL_START_WAIT_S 1u         /* the chaser waits this long at most for the readers */
#define LL_MAX_POINTS (1 + LOADED_DELAYS_MAX)

struct ll_request {
	struct cpu_sel sel;                 /* n >= 2: cpu[0] chases */
	uint64_t size;                      /* bytes per CPU (loaded_size), a multiple of 64 */
	int ndelays;                        /* 1..LOADED_DELAYS_MAX */
	uint32_t delay[LOADED_DELAYS_MAX];  /* spin iterations after each line read */
	const struct kernel_desc *chase;
	int emulated;                       /* for the record: a hypervisor said so */
	const struct health_opts *health;   /* optional: health over each point's window */
	const struct acpi_hmat *hmat;       /* the firmware's claims for the idle latency, or NULL */
};

/* What one window's CPUs share: the readers stop when the chase is done. */
struct ll_shared {
	volatile uint32_t done, started, expected;
	uint64_t wait_ticks;
	uint64_t (*clock)(void);
};

/* One window CPU's kernel argument, and the kernel (both roles). */
struct ll_arg {
	struct ll_shared *sh;
	int chaser;
	struct kernel_run *chase;          /* chaser */
	const uint64_t *buf;               /* reader: its buffer */
	uint64_t bytes;
	uint32_t delay;
	uint64_t lines;                    /* out: lines read */
};
uint64_t ll_kernel(void *arg);

struct ll_point {
	int idle;                          /* the chase alone (delay is 0 then) */
	uint32_t delay;
	int ok;                            /* every CPU ran and the chase came back to its start */
	uint64_t ps;                       /* ps per load */
	uint64_t read_bytes;               /* the readers' lines x 64 */
	uint64_t window_ns;                /* the window's span */
	uint64_t gbps_milli;               /* read_bytes / window_ns */
	struct window_result w;
	struct health_run *health;         /* ctx->alloc; ll_result_free */
};

struct ll_result {
	int placed;                        /* every CPU's buffer was taken */
	int npoints;
	struct ll_point pt[LL_MAX_POINTS];
	struct cpu_place place[WINDOW_MAX_CPUS];
};

/* Every point. Returns 0; -1 when the buffers or the working state could not be had
 * (res->placed 0, no point) or a point is not ok. */
int ll_measure(const struct measure_ctx *ctx, const struct ll_request *req, struct ll_result *res);

/* The HMAT latency claims from the chase CPU's node to its own memory beside the idle point
 * (efi/measure/numa_run.h hmat_claims_beside) into out[0..max); how many, and *why: NULL, or why
 * there are none (no HMAT, a defect, SRAT gives no node, the buffer is not in the node's memory,
 * no claim for the node). */
int ll_idle_claims(const struct ll_request *req, const struct ll_result *res, struct numa_claim *out, int max,
		   const char **why);

/* Give back every point's health (ctx->free). */
void ll_result_free(const struct measure_ctx *ctx, struct ll_result *res);

#endif
