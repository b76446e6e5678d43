/* SPDX-License-Identifier: BSD-2-Clause */
#include "efi/measure/knees.h"
#include "pmu/metrics.h"

#define PCT 100u

/* v is inside the tolerance above level. */
static int within(uint64_t v, uint64_t level)
{
	return (unsigned __int128)v * PCT <= (unsigned __int128)level * (PCT + KNEE_TOLERANCE_PCT);
}

int knees_find(const uint64_t *bytes, const uint64_t *ps, int n, struct knee *out, int max, uint64_t *memory_ps)
{
	int nk = 0;
	*memory_ps = 0;
	int i = 0;
	while (i < n) {
		/* A plateau starts where two neighbours are level; before that the curve is rising. */
		if (i + 1 < n && !within(ps[i + 1], ps[i])) {
			i++;
			continue;
		}
		if (i == n - 1 && i > 0)
			break;         /* a lone last point after a rise: the curve never levelled off */
		int first = i, last = i;
		uint64_t level = ps[i];
		int j = i + 1;
		while (j < n) {
			if (within(ps[j], level))
				last = j++;
			else if (j + 1 < n && within(ps[j + 1], level)) {
				last = j + 1;         /* one high point with a level successor: noise */
				j += 2;
			} else
				break;
			level = metric_median(ps + first, last - first + 1);
		}
		if (j >= n) {          /* the curve ends on this plateau: memory, no knee */
			*memory_ps = level;
			break;
		}
		if (nk < max)
			out[nk++] = (struct knee){ bytes[last], level, (uint32_t)first, (uint32_t)last };
		i = last + 1;
	}
	return nk;
}

int knees_match(const struct cpu_info *ci, const struct knee *knees, int nk, uint64_t max_bytes,
		struct knee_level *levels, uint8_t *taken, int *disagreements)
{
	int nl = 0;
	*disagreements = 0;
	for (int k = 0; k < nk; k++)
		taken[k] = 0;
	for (int c = 0; c < ci->ncaches && nl < CPUINFO_MAX_CACHES; c++) {
		const struct cache_desc *d = &ci->cache[c];
		if (d->type != CACHE_DATA && d->type != CACHE_UNIFIED)
			continue;
		struct knee_level *l = &levels[nl++];
		*l = (struct knee_level){ .level = d->level, .reported_bytes = d->bytes, .knee = -1 };
		uint64_t best_d = ~0ull;
		for (int k = 0; k < nk; k++) {
			uint64_t kb = knees[k].bytes, rb = d->bytes;
			if (taken[k] || kb > 2 * rb || 2 * kb < rb)
				continue;
			uint64_t dist = kb > rb ? kb - rb : rb - kb;
			if (dist < best_d) {
				best_d = dist;
				l->knee = k;
			}
		}
		if (l->knee >= 0) {
			taken[l->knee] = 1;
			l->agrees = 1;
			continue;
		}
		(*disagreements)++;
		l->why = d->bytes * 2 > max_bytes ? "the curve ends before twice this size (latency_max)"
						  : "no knee in the curve within a factor of two of this size";
	}
	for (int k = 0; k < nk; k++)
		*disagreements += !taken[k];
	return nl;
}
