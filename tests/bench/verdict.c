/* SPDX-License-Identifier: BSD-2-Clause */
/* make bench's verdict per row (verdict.h). */
#include <string.h>
#include "tests/bench/verdict.h"

double bench_binom_half_cdf(int n, int j)
{
	if (j < 0 || n < 0)
		return 0;
	if (j >= n)
		return 1;
	/* C(n,i) / 2^n term by term: p_0 = 2^-n, p_{i+1} = p_i (n-i) / (i+1); 2^-99 is a normal double */
	double p = 1, sum = 0;
	for (int i = 0; i < n; i++)
		p /= 2;
	for (int i = 0; i <= j; i++) {
		sum += p;
		p = p * (double)(n - i) / (double)(i + 1);
	}
	return sum;
}

static void sort(double *v, int n)
{
	for (int i = 1; i < n; i++) {   /* insertion sort: n <= 99 */
		double x = v[i];
		int j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

struct bench_ci bench_median_ci(const double *ratio, int n, double level)
{
	struct bench_ci ci = { 0 };
	double v[BENCH_MAX_PAIRS];
	if (!ratio || n <= 0 || n > BENCH_MAX_PAIRS)
		return ci;
	memcpy(v, ratio, sizeof(v[0]) * (size_t)n);
	sort(v, n);
	ci.n = n;
	ci.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	/* the largest k with 1 - 2 P(B <= k-1) >= level; k <= n/2 keeps x(k) <= x(n+1-k) */
	for (int k = 1; k <= n / 2; k++) {
		double cov = 1 - 2 * bench_binom_half_cdf(n, k - 1);
		if (cov < level)
			break;
		ci.k = k;
		ci.coverage = cov;
	}
	if (ci.k) {
		ci.lo = v[ci.k - 1];
		ci.hi = v[n - ci.k];
	}
	return ci;
}

enum bench_verdict bench_verdict_of(const struct bench_ci *ci)
{
	if (!ci || !ci->k)
		return BENCH_TOO_FEW;
	if (ci->lo > 1.0)
		return BENCH_AHEAD;
	if (ci->hi < 1.0)
		return BENCH_BEHIND;
	return BENCH_WITHIN_NOISE;
}

const char *bench_verdict_name(enum bench_verdict v)
{
	switch (v) {
	case BENCH_AHEAD:
		return "ahead";
	case BENCH_BEHIND:
		return "behind";
	case BENCH_WITHIN_NOISE:
		return "within noise";
	default:
		return "too few runs";
	}
}

static int clamp_pairs(int n)
{
	return n < 1 ? 1 : n > BENCH_MAX_PAIRS ? BENCH_MAX_PAIRS : n;
}

void bench_row_run(struct bench_row *r)
{
	const int min_pairs = clamp_pairs(r->min_pairs);
	const int max_pairs = clamp_pairs(r->max_pairs < min_pairs ? min_pairs : r->max_pairs);
	const double t0 = r->clock_s(r->ctx);
	r->n = r->failed = 0;
	r->ci = (struct bench_ci){ 0 };
	r->stopped_on = 'm';
	for (int i = 0; r->n < max_pairs; i++) {
		if (r->n >= min_pairs) {
			if (r->ci.k && r->ci.hi - r->ci.lo <= r->width * r->ci.median) {
				r->stopped_on = 'w';
				break;
			}
			if (r->clock_s(r->ctx) - t0 >= r->budget_s) {
				r->stopped_on = 'b';
				break;
			}
		}
		if (r->failed >= max_pairs) {
			r->stopped_on = 'f';
			break;
		}
		const int ours_first = i % 2;
		double o = 0, t;
		if (ours_first)
			o = r->ours(r->ctx);
		t = r->theirs(r->ctx);
		if (!ours_first)
			o = r->ours(r->ctx);
		if (o <= 0 || t <= 0) {
			r->failed++;
			continue;
		}
		r->our_mbs[r->n] = o;
		r->their_mbs[r->n] = t;
		r->ratio[r->n] = o / t;
		r->ours_first[r->n] = ours_first;
		r->n++;
		r->ci = bench_median_ci(r->ratio, r->n, BENCH_CONFIDENCE);
	}
	r->ci = bench_median_ci(r->ratio, r->n, BENCH_CONFIDENCE);
	r->verdict = bench_verdict_of(&r->ci);
	r->spent_s = r->clock_s(r->ctx) - t0;
}
