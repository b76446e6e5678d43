/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * make bench's verdict per row: is our kernel ahead of likwid-bench, behind it, or within the
 * host's noise? Pure C (no I/O), so the unit tests drive it with fake timings
 * (tests/unit/test_bench_verdict.c) and tests/bench/bench.c with real runs.
 *
 * A row is a series of pairs: one run of ours and one of likwid's, seconds apart, the side that
 * goes first alternating from pair to pair. Each pair gives one ratio ours / likwid; a slow
 * spell of a shared host falls on both sides of a pair, so the ratio carries less of the
 * host's noise than either rate.
 *
 * The interval: a distribution-free confidence interval of the median of the paired ratios from
 * order statistics. For n sorted ratios x(1) <= ... <= x(n), [x(k), x(n+1-k)] covers the
 * population median with probability 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2), for any
 * continuous distribution of the ratios (the number of ratios below the median is B). k is the
 * largest rank whose coverage is still at least the level asked for (95%): n = 6 is the fewest
 * pairs that give one (x(1)..x(6), 96.9%). Why not a bootstrap: the ratios of a busy host are
 * skewed with long tails (a run preempted on one side only), where a bootstrap of the median
 * from 6-30 samples under-covers, and the order-statistic interval's coverage is exact without
 * any assumption about the shape. (W. J. Conover, Practical Nonparametric Statistics, 3rd ed.,
 * 1999, section 3.2 "the quantile test", confidence interval for a quantile.)
 *
 * The verdict: "ahead" when the whole interval is above 1.00, "behind" when it is all below
 * 1.00, "within noise" when it contains 1.00, "too few runs" with fewer than 6 pairs.
 *
 * The stopping rule: pairs are added until there are at least min_pairs and the interval's
 * width (hi - lo, relative to the median) is at most `width`, or the row's budget of seconds
 * is spent, or max_pairs is reached. It looks at the width only, never at which side of 1.00
 * the interval lies, so repeating does not fish for a verdict.
 */
#ifndef EFIPERF_BENCH_VERDICT_H
#define EFIPERF_BENCH_VERDICT_H

#include <stdint.h>

#define BENCH_MAX_PAIRS 99
#define BENCH_CONFIDENCE 0.95

enum bench_verdict { BENCH_TOO_FEW, BENCH_AHEAD, BENCH_BEHIND, BENCH_WITHIN_NOISE };

struct bench_ci {
	int n;             /* ratios used */
	double median;     /* of the ratios; 0 when n == 0 */
	double lo, hi;     /* the interval; both 0 when there is none (n < 6 at 95%) */
	int k;             /* its ranks: x(k) and x(n+1-k), 1-based; 0 when there is none */
	double coverage;   /* 1 - 2 P(B <= k-1): at least `level`; 0 when there is none */
};

/* P(B <= j) for B ~ Binomial(n, 1/2); 0 for j < 0, 1 for j >= n. n <= BENCH_MAX_PAIRS. */
double bench_binom_half_cdf(int n, int j);
/* The interval of the median of ratio[0..n-1] at confidence `level` (0 < level < 1); ratio is
 * left unchanged. n > BENCH_MAX_PAIRS or n < 0 gives n = 0. */
struct bench_ci bench_median_ci(const double *ratio, int n, double level);
enum bench_verdict bench_verdict_of(const struct bench_ci *ci);
const char *bench_verdict_name(enum bench_verdict v);   /* "ahead", "behind", "within noise", "too few runs" */

/* One row's pairs, run by bench_row_run. The callbacks run one side once and return its rate
 * (MB/s, > 0; <= 0 when the run failed: the pair is dropped, and after max_pairs failures the
 * row ends), and the clock gives seconds. */
struct bench_row {
	/* in */
	double (*ours)(void *ctx);
	double (*theirs)(void *ctx);
	double (*clock_s)(void *ctx);
	void *ctx;
	int min_pairs, max_pairs;      /* clamped to 1..BENCH_MAX_PAIRS */
	double width;                  /* stop when (hi - lo) / median <= width */
	double budget_s;               /* stop adding pairs once this much time has passed */
	/* out */
	int n;                         /* pairs with both rates */
	int failed;                    /* runs that gave no rate */
	double our_mbs[BENCH_MAX_PAIRS], their_mbs[BENCH_MAX_PAIRS], ratio[BENCH_MAX_PAIRS];
	int ours_first[BENCH_MAX_PAIRS];
	struct bench_ci ci;
	enum bench_verdict verdict;
	double spent_s;
	int stopped_on;                /* 'w' width reached, 'b' budget spent, 'm' max_pairs, 'f' failures */
};
/* Run pairs (pair i: likwid first when i is even, ours first when odd) under the stopping rule
 * above; fills the outputs. */
void bench_row_run(struct bench_row *r);

#endif
