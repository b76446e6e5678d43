/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The copy measurement's request, run and result (the shape of efi/measure/shape.h). Each
 * selected CPU copies its own src buffer to its own dst buffer (`bytes` each) in chunks of
 * COPY_CHUNK_BYTES, all CPUs in one interrupt-masked window; `passes` passes, each of `windows`
 * windows (more than one when a multiplexed core-counter set needs a window per event group and
 * round: a pass's times are then the mean window). The counters ride on the windows as an
 * attachment list (efi/measure/attach.h); copy_measure prepares, reads after every window and
 * restores it on every exit.
 *
 * Bytes moved: STREAM's convention (stream.c: Copy counts the array read and the array
 * written), 2 x bytes per CPU per pass. Rates are GB/s x 1000 (metric_gbps_milli: bytes per ns).
 * It writes no text: the record writer (efi/out/copy_out.c) does, after the run.
 */
#ifndef EFIPERF_COPY_RUN_H
#define EFIPERF_COPY_RUN_H

#include <stdint.h>
#include "efi/measure/shape.h"
#include "efi/measure/health_run.h"
#include "efi/measure/attach.h"
#include "pmu/core/core_counters.h"

/* The copy runs in chunks so each CPU can tick its counters between them (IBS polling, TopDown
 * resets: Linux tools/perf/Documentation/topdown.txt asks a program reading the metrics with
 * RDPMC to reset them regularly, "as in every few seconds"). */
#define COPY_CHUNK_BYTES (1u << 20)
/* src word k of CPU i holds COPY_FILL_PATTERN x (k + 1 + i): any non-repeating 64-bit pattern */
#define COPY_FILL_PATTERN 0x9E3779B97F4A7C15ull

/* One CPU of the window and its buffers (whole pages, bytes each). */
struct copy_cpu {
	uint32_t cpu;             /* MP services processor number */
	uint64_t *src, *dst;
	int32_t node;             /* the buffers' SRAT node, -1 unknown */
	int local;                /* both lie in the CPU's node */
};

/* What the core-counter attachment leaves for the record: the boot CPU's set of every pass. */
struct copy_core_out {
	const struct core_set *pass_set;   /* passes entries */
	int mux;                           /* multiplexed: ngroups x rounds windows a pass */
	uint32_t ngroups, rounds;
	int arm_topdown, topdown_l2;       /* Arm PMUv3 with topdown = on / l2: a topdown record a pass */
	uint32_t bsp;                      /* the boot CPU (the set's CPU) */
};

struct copy_request {
	int n;                          /* 1..WINDOW_MAX_CPUS */
	struct copy_cpu *cpu;           /* n entries */
	uint64_t bytes;                 /* per buffer, a multiple of 8 */
	uint32_t passes;                /* >= 1 */
	uint32_t windows;               /* per pass, >= 1 */
	/* the copy primitive (arch_copy on the firmware, memcpy on the host) */
	void (*copy)(void *dst, const void *src, uint64_t n);
	/* optional: on CPU i between chunks (the core counters' tick) */
	void (*tick)(void *ctx, int i);
	void *tick_ctx;
	struct attach_list *counters;   /* optional: what rides on every copy window */
	/* for the record only */
	uint64_t timer_hz;
	const struct copy_core_out *core;   /* NULL: no core counters */
	const struct health_opts *health;   /* optional: health over every pass's windows together */
};

/* One CPU in one pass: its kernel time (mean over the pass's windows) and rate. */
struct copy_cpu_pass {
	uint64_t ns, gbps_milli;
	uint8_t outlier;           /* more than MEASURE_OUTLIER_PCT from the median rate */
};

struct copy_pass {
	struct window_result w;    /* span_ticks: the mean window; smi_delta: all windows'; masked: all */
	uint64_t ns, gbps_milli;   /* bytes moved by all CPUs over the mean window */
	uint64_t median_gbps_milli;
	int outliers;
};

struct copy_result {
	int n;
	uint32_t npass;            /* passes completed */
	struct window_result floor;
	struct copy_pass *pass;           /* npass entries (ctx->alloc; copy_result_free) */
	struct copy_cpu_pass *cpu;        /* pass p, CPU i at [p * n + i] */
	int failed_ran;            /* -1; else the window of pass npass did not run on every CPU:
				      how many did */
	int no_memory;             /* ctx->alloc had no room for the working state */
	int verified;              /* after the last pass, every dst equals its src */
	uint64_t best_ns, best_gbps_milli, mean_gbps_milli;
	void *work;
	struct health_run *health;        /* over all passes (ctx->alloc; copy_result_free) */
};

/* The kernel of one window CPU (arg: struct copy_arg). */
struct copy_arg {
	const struct copy_request *req;
	int i;
};
uint64_t copy_kernel(void *arg);

/* Fill every src, zero every dst, run the noise floor (an empty window on the same CPUs) and
 * the passes. Returns 0; -1 when a window did not run on every CPU (failed_ran), the working
 * state could not be allocated (no_memory) or a dst differs from its src (verified 0). The
 * result's arrays come from ctx->alloc: give them back with copy_result_free. */
int copy_measure(const struct measure_ctx *ctx, const struct copy_request *req, struct copy_result *res);
void copy_result_free(const struct measure_ctx *ctx, struct copy_result *res);

#endif
