/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cache_bw's request, run and result (the shape of efi/measure/shape.h). The request lists the
 * levels (each cache level the CPU reports, then DRAM) with their array sizes for one CPU and
 * for each of all selected CPUs, and the selected CPUs. For each level cache_bw_measure takes
 * each CPU's three arrays (req->buf_alloc: its node's memory), asks req->choose for the kernel
 * of each kind (load, store, copy, triad: pinned, tuned over CPU 0's arrays, or the default),
 * and runs it in two interrupt-masked windows through ctx->win: on the first selected CPU alone
 * over `single` bytes per array, then on every selected CPU at once over `each`. A CPU's rate is
 * its application bytes per timed pass over its best pass; the window's, all CPUs' bytes over
 * the slowest CPU's best pass (GB/s x 1000, metric_gbps_milli). It writes no text: the record
 * writer (efi/out/cache_bw_out.c) does, after the run.
 */
#ifndef EFIPERF_CACHE_BW_RUN_H
#define EFIPERF_CACHE_BW_RUN_H

#include <stdint.h>
#include "efi/measure/shape.h"
#include "efi/measure/health_run.h"
#include "arch/kernel.h"
#include "arch/kernel_tune.h"

#define CACHE_BW_ARRAYS 3
#define CACHE_BW_NKINDS 4          /* load, store, copy, triad */
#define CACHE_BW_MAX_LEVELS 9      /* CPUINFO_MAX_CACHES (arch/cpuinfo.h) + DRAM */
#define CACHE_BW_ALIGN 4096u       /* page: every kernel's alignment and block rule */
#define CACHE_BW_TRIAD_SCALAR 3.0
/* the tuner's reference check uses the first 2 x KERNEL_TUNE_VERIFY_BYTES + 64 bytes of each
 * array: every array holds at least that (in pages) */
#define CACHE_BW_VERIFY_ROOM ((2 * KERNEL_TUNE_VERIFY_BYTES + 64 + CACHE_BW_ALIGN - 1) / CACHE_BW_ALIGN * CACHE_BW_ALIGN)

extern const enum kernel_kind cache_bw_kinds[CACHE_BW_NKINDS];

struct cache_bw_level {
	char name[8];              /* "L1", "L2", ... "DRAM" */
	uint64_t level_bytes;      /* 0 for DRAM */
	uint64_t single, each;     /* bytes per array: one CPU alone; each CPU with all */
};

struct cache_bw_request {
	const struct health_opts *health;     /* optional: health over every point's window */
	int n;                                /* selected CPUs, 1..WINDOW_MAX_CPUS */
	uint32_t cpu[WINDOW_MAX_CPUS];        /* their MP services numbers */
	int nlevels;
	struct cache_bw_level level[CACHE_BW_MAX_LEVELS];
	uint32_t passes;                      /* timed passes per window (the best counts) */
	/* bytes for selected CPU i (its node's memory when it can be), NULL when short; buf_free
	 * gives it back (NULL ignored) */
	void *(*buf_alloc)(void *ctx, int i, uint64_t bytes);
	void (*buf_free)(void *ctx, void *p, uint64_t bytes);
	void *mem_ctx;
	/* the kernel of `kind` at a level over CPU 0's arrays of `bytes`: t is the tuner's result
	 * (t->ncand 0: not run); *fallback the one used when the tuner found none (*tune_failed 1).
	 * NULL: no kernel of that kind (left out). */
	const struct kernel_desc *(*choose)(void *ctx, enum kernel_kind kind, void *const arr[CACHE_BW_ARRAYS],
					    uint64_t bytes, struct kernel_tune *t, int *tune_failed,
					    const struct kernel_desc **fallback);
	void *choose_ctx;
	/* for the record only */
	const char *cache_source;             /* where the levels came from, NULL none */
	int emulated;
	uint64_t timer_hz;
	uint32_t cpu_class;                   /* arch_cpu_class(): the tuner record's class */
};

struct cache_bw_point {
	uint64_t gbps_milli;
	uint32_t reps;             /* kernel calls per timed pass */
	int ok;                    /* the window ran on every CPU and every kernel run returned 0 */
	struct window_result w;
	struct health_run *health; /* ctx->alloc; cache_bw_result_free */
};

struct cache_bw_kernel {
	enum kernel_kind kind;
	const struct kernel_desc *k, *fallback;
	int tune_failed;
	struct kernel_tune tune;
	struct cache_bw_point one, all;
};

struct cache_bw_level_result {
	uint64_t alloc;            /* bytes per array taken */
	int alloc_failed;          /* buf_alloc was short: nothing ran at this level */
	int nk;                    /* kernels run (a kind without one is left out) */
	struct cache_bw_kernel k[CACHE_BW_NKINDS];
};

struct cache_bw_result {
	int nlevels;
	int no_memory;                        /* ctx->alloc had no room for the working state */
	struct cache_bw_level_result *lv;     /* nlevels */
	uint64_t *cpu_gbps;                   /* level l, kernel s, CPU i at [(l x NKINDS + s) x n + i] */
	void *work;
};

/* Returns 0, or -1 when a level's arrays could not be allocated, a CPU did not run a kernel or
 * the working state could not be allocated. Free the result with cache_bw_result_free. */
int cache_bw_measure(const struct measure_ctx *ctx, const struct cache_bw_request *req, struct cache_bw_result *res);
void cache_bw_result_free(const struct measure_ctx *ctx, struct cache_bw_result *res);

/* Bytes per array for one CPU: half the level, split over `sharers` CPUs, in whole pages (at
 * least one). */
uint64_t cache_bw_array_bytes(uint64_t level_bytes, uint32_t sharers);

#endif
