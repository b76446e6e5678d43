/* SPDX-License-Identifier: BSD-2-Clause */
#include "pmu/metrics.h"

#define NS_PER_S 1000000000ull
#define MILLI 1000u

uint64_t metric_ticks_to_ns(uint64_t ticks, uint64_t hz)
{
	if (!hz)
		return 0;
	return (uint64_t)((unsigned __int128)ticks * NS_PER_S / hz);
}

uint64_t metric_ratio_milli(uint64_t a, uint64_t b)
{
	if (!b)
		return 0;
	return (uint64_t)(((unsigned __int128)a * MILLI + b / 2) / b);
}

uint64_t metric_gbps_milli(uint64_t bytes, uint64_t ns)
{
	return metric_ratio_milli(bytes, ns);
}

#define PERCENT 100u

uint64_t metric_median(const uint64_t *vals, int n)
{
	uint64_t sorted[METRIC_MAX_OUTLIER_N];
	if (n <= 0 || n > METRIC_MAX_OUTLIER_N)
		return 0;
	for (int i = 0; i < n; i++) {       /* insertion sort: n is a CPU or round count */
		uint64_t v = vals[i];
		int k = i;
		while (k > 0 && sorted[k - 1] > v) {
			sorted[k] = sorted[k - 1];
			k--;
		}
		sorted[k] = v;
	}
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

int metric_outliers(const uint64_t *vals, int n, uint32_t tolerance_pct, uint8_t *out, uint64_t *median)
{
	*median = 0;
	if (n <= 0 || n > METRIC_MAX_OUTLIER_N)
		return 0;
	uint64_t med = metric_median(vals, n);
	*median = med;
	int flagged = 0;
	for (int i = 0; i < n; i++) {
		uint64_t d = vals[i] > med ? vals[i] - med : med - vals[i];
		out[i] = (unsigned __int128)d * PERCENT > (unsigned __int128)med * tolerance_pct;
		flagged += out[i];
	}
	return flagged;
}

uint64_t metric_mux_scale(uint64_t raw, uint64_t window, uint64_t running)
{
	if (running >= window)
		return raw;
	if (!running)
		return 0;
	return (uint64_t)((unsigned __int128)raw * window / running);
}
