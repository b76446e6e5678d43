/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Average latency from a cumulative-outstanding counter, a request counter and the same
 * PMU's cycle counter over one window (NVIDIA Tegra410 PCIE, CMEM latency, NVLink-C2C,
 * NV-CLink, NV-DLink PMUs; Linux Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst):
 *
 *   latency_cycles = cum_outs / req                 (cycles of the PMU's own clock)
 *   freq_ghz       = cycles / window_ns
 *   latency_ns     = latency_cycles / freq_ghz = cum_outs x window_ns / (req x cycles)
 *
 * Pure, host-tested from literal counts. Values are fixed-point x1000 (milli).
 */
#ifndef EFIPERF_PMU_LATENCY_H
#define EFIPERF_PMU_LATENCY_H

#include <stdint.h>

struct latency {
	uint8_t valid;                 /* 0: why says which input was zero */
	const char *why;
	uint64_t cum_outs, req, cycles, window_ns;   /* the inputs, as given */
	uint64_t cycles_milli;         /* latency in cycles x1000 */
	uint64_t freq_ghz_milli;       /* the PMU clock in GHz x1000 */
	uint64_t ns_milli;             /* latency in ns x1000 */
};

/* Fills *out (rounded to the nearest milli). Not valid when req, cycles or window_ns is 0. */
void latency_compute(uint64_t cum_outs, uint64_t req, uint64_t cycles, uint64_t window_ns, struct latency *out);

#endif
