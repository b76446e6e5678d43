/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * STREAM-style memory kernels and the latency curve, with the kernel library of
 * arch/kernel.h: load, store, non-temporal store, copy, non-temporal copy and triad, each the
 * widest variant the CPU offers (SSE2/AVX2/AVX-512 from CPUID and XCR0; NEON), run on the
 * chosen CPUs at once in interrupt-masked windows, `stream_passes` passes, bytes counted as
 * STREAM and likwid-bench count them (application bytes). Console lines as STREAM prints them
 * (best rate MB/s, avg/min/max time) and one `stream` record per kernel. The latency curve: a
 * pointer chase over a random cyclic permutation of cache lines, 4 KiB to latency_max, ns and
 * timer ticks per load, one `latency` record.
 */
#ifndef EFIPERF_STREAM_MEASURE_H
#define EFIPERF_STREAM_MEASURE_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"
#include "arch/kernel.h"

/* A STREAM kernel on one CPU beside other traffic (dma_cpu_traffic): passes of the function
 * over its three arrays (bytes each) repeat until *stop is set by the CPU driving the other
 * traffic (at least one pass). Prepare on the boot CPU, run stream_beside_kernel as the
 * window_kernel of that CPU (arg: the struct). Rates: app_bytes (STREAM's application bytes,
 * arch/kernel.h kernel_app_bytes) over ticks. */
struct stream_beside {
	struct kernel_run r;          /* one pass; set by stream_beside_prepare */
	const volatile uint32_t *stop;
	uint64_t passes;              /* passes run */
	uint64_t app_bytes;           /* bytes: STREAM's count over every pass */
	uint64_t ticks;               /* timer ticks over every pass */
	int status;                   /* 0, or the kernel's status (-2: this CPU lacks the ISA) */
};

/* Fill s for STREAM function kind over a, b, c (bytes each, page-aligned; b and c are filled
 * with STREAM's values): the widest variant this CPU offers (kernel_best). Returns the
 * kernel's name, or NULL when no kernel of that kind runs here. */
const char *stream_beside_prepare(struct stream_beside *s, enum kernel_kind kind, void *a, void *b, void *c,
				  uint64_t bytes, const volatile uint32_t *stop);
uint64_t stream_beside_kernel(void *arg);

int measure_stream(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg);
int measure_latency(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg);

#endif
