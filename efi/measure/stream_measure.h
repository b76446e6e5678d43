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

int measure_stream(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg);
int measure_latency(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg);

#endif
