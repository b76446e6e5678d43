/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Latency kernel: a pointer chase over one random cycle through the cache lines of a buffer
 * (arch/kernel.h). Every load's address is the value the previous load returned, so the loads
 * are serialised by data dependence: neither the compiler nor the CPU can skip or overlap them,
 * and the random order defeats the hardware prefetchers (which follow strides).
 */
#include "arch/kernel.h"

/* splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number generators", 2014):
 * a full-period 64-bit generator; every seed, including 0, gives a good stream. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in [0, bound) by rejection on the high half of a 64x64 product (Lemire 2019). */
static uint64_t below(uint64_t *state, uint64_t bound)
{
	for (;;) {
		unsigned __int128 m = (unsigned __int128)splitmix64(state) * bound;
		/* reject the low products that would over-represent some results */
		if ((uint64_t)m < bound && (uint64_t)m < (uint64_t)-bound % bound)
			continue;
		return (uint64_t)(m >> 64);
	}
}

static uint64_t *word(void *buf, uint64_t line_index, uint32_t line)
{
	return (uint64_t *)((char *)buf + line_index * line);
}

uint64_t kernel_chase_build(void *buf, uint64_t bytes, uint32_t line, uint64_t seed)
{
	if (!buf || line < 8 || line % 8 != 0 || bytes % line != 0 || bytes / line < 2)
		return 0;
	uint64_t n = bytes / line, state = seed;
	/* The permutation lives in the lines themselves: word 0 of line k holds sigma(k). */
	for (uint64_t k = 0; k < n; k++)
		*word(buf, k, line) = k;
	/* Sattolo (1986): for i = n-1 .. 1 swap a[i] with a[j], j uniform in [0, i). Unlike
	 * Fisher-Yates (j in [0, i]) it yields only cyclic permutations, each (n-1)! of them
	 * equally likely: k -> sigma(k) visits every line before it returns. */
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = below(&state, i);
		uint64_t *wi = word(buf, i, line), *wj = word(buf, j, line);
		uint64_t t = *wi;
		*wi = *wj;
		*wj = t;
	}
	for (uint64_t k = 0; k < n; k++) {
		uint64_t *w = word(buf, k, line);
		*w = (uint64_t)(uintptr_t)buf + *w * line;
	}
	return n;
}

uint64_t kernel_chase(const void *start, uint64_t loads)
{
	uint64_t p = (uint64_t)(uintptr_t)start;
#define HOP p = *(const uint64_t *)(uintptr_t)p
	for (; loads >= 8; loads -= 8) {
		HOP; HOP; HOP; HOP; HOP; HOP; HOP; HOP;
	}
	for (; loads > 0; loads--)
		HOP;
#undef HOP
	return p;
}

uint64_t kernel_chase_c(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	(void)a, (void)c, (void)s;
	return kernel_chase(b, bytes / 64);
}

uint64_t kernel_ticks_per_load_milli(uint64_t ticks, uint64_t loads)
{
	if (loads == 0)
		return 0;
	return (uint64_t)(((unsigned __int128)ticks * 1000 + loads / 2) / loads);
}

uint64_t kernel_ps_per_load(uint64_t ticks, uint64_t hz, uint64_t loads)
{
	if (loads == 0 || hz == 0)
		return 0;
	unsigned __int128 d = (unsigned __int128)hz * loads;
	return (uint64_t)(((unsigned __int128)ticks * 1000000000000ull + d / 2) / d);
}

uint32_t kernel_chase_sizes(uint64_t max_bytes, uint64_t *out, uint32_t n)
{
	uint32_t k = 0;
	for (uint64_t s = 4096; s <= max_bytes && s <= (1ull << 30) && k < n; s <<= 1)
		out[k++] = s;
	return k;
}
