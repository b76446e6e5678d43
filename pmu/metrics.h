/* SPDX-License-Identifier: BSD-2-Clause */
/* Metric formulas: pure arithmetic over raw counts, never touching hardware. */
#ifndef EFIPERF_METRICS_H
#define EFIPERF_METRICS_H

#include <stdint.h>

/* Nanoseconds for `ticks` of a timer running at `hz` (128-bit intermediate). 0 when hz is 0. */
uint64_t metric_ticks_to_ns(uint64_t ticks, uint64_t hz);

/* Bandwidth in GB/s (10^9 bytes per second) times 1000, rounded to nearest: bytes per ns is
 * GB/s. 0 when ns is 0. */
uint64_t metric_gbps_milli(uint64_t bytes, uint64_t ns);

/* Ratio a/b times 1000, rounded (e.g. instructions per cycle). 0 when b is 0. */
uint64_t metric_ratio_milli(uint64_t a, uint64_t b);

/* A multiplexed count scaled to the whole window, as Linux perf scales by enabled/running time
 * (tools/perf/Documentation/perf-stat.txt): raw x window / running (128-bit intermediate). raw
 * itself when running >= window (counted all along), 0 when running is 0 (never ran). */
uint64_t metric_mux_scale(uint64_t raw, uint64_t window, uint64_t running);

/* The median of vals[0..n-1] (the mean of the middle two for even n); 0 for n <= 0 or
 * n > METRIC_MAX_OUTLIER_N. vals is left unchanged. */
uint64_t metric_median(const uint64_t *vals, int n);

/* Outliers among n per-CPU results (e.g. GB/s x 1000): out[i] = 1 when vals[i] differs from the
 * median of vals by more than tolerance_pct percent of it. Returns the number flagged; the
 * median goes to *median. n <= METRIC_MAX_OUTLIER_N (larger n: nothing is flagged). */
#define METRIC_MAX_OUTLIER_N 256
int metric_outliers(const uint64_t *vals, int n, uint32_t tolerance_pct, uint8_t *out, uint64_t *median);

#endif
