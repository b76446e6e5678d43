/* SPDX-License-Identifier: BSD-2-Clause */
/* Average latency from cum_outs, req, cycles and the window (pmu/latency.h). */
#include "pmu/latency.h"

#define MILLI 1000u

typedef unsigned __int128 u128;

/* round(num x 1000 / den), den > 0; falls back to a coarser division when num x 1000 would
 * not fit 128 bits (inputs near 2^64 each). */
static uint64_t milli_div(u128 num, u128 den)
{
	u128 q;
	if (num <= ~(u128)0 / MILLI)
		q = (num * MILLI + den / 2) / den;
	else
		q = num / (den / MILLI ? den / MILLI : 1);
	return q > ~0ull ? ~0ull : (uint64_t)q;
}

void latency_compute(uint64_t cum_outs, uint64_t req, uint64_t cycles, uint64_t window_ns, struct latency *out)
{
	*out = (struct latency){ .cum_outs = cum_outs, .req = req, .cycles = cycles, .window_ns = window_ns };
	if (!req) {
		out->why = "no requests counted (req = 0)";
		return;
	}
	if (!cycles) {
		out->why = "the PMU's cycle counter did not advance (cycles = 0)";
		return;
	}
	if (!window_ns) {
		out->why = "window of 0 ns";
		return;
	}
	out->valid = 1;
	out->cycles_milli = milli_div(cum_outs, req);
	out->freq_ghz_milli = milli_div(cycles, window_ns);
	out->ns_milli = milli_div((u128)cum_outs * window_ns, (u128)req * cycles);
}
