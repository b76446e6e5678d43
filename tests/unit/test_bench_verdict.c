/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * make bench's verdict rule (tests/bench/verdict.h): the order-statistic interval of the
 * median of paired ratios, the verdict from it, and the alternating, stopping row runner, fed
 * with fake timings that are ahead, behind and within noise.
 *
 * Oracles are independent of the code: binomial probabilities written out by hand
 * (C(n,i) / 2^n), and the ranks of the distribution-free 95% interval of a median as
 * nonparametric statistics tables give them (e.g. Conover, Practical Nonparametric Statistics,
 * 3rd ed., Table A3 quantiles of the binomial with p = 1/2: n = 6 gives ranks 1 and 6,
 * n = 10 ranks 2 and 9, n = 20 ranks 6 and 15, n = 30 ranks 10 and 21).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/bench/verdict.h"

static void test_binomial_half(void **state)
{
	(void)state;
	/* n = 6: 1, 6, 15, 20, 15, 6, 1 over 64 */
	assert_float_equal(bench_binom_half_cdf(6, 0), 1.0 / 64, 1e-15);
	assert_float_equal(bench_binom_half_cdf(6, 1), 7.0 / 64, 1e-15);
	assert_float_equal(bench_binom_half_cdf(6, 2), 22.0 / 64, 1e-15);
	assert_float_equal(bench_binom_half_cdf(6, 3), 42.0 / 64, 1e-15);
	assert_float_equal(bench_binom_half_cdf(6, 6), 1.0, 0);
	assert_float_equal(bench_binom_half_cdf(6, -1), 0.0, 0);
	/* n = 10: 1 + 10 + 45 = 56 over 1024 */
	assert_float_equal(bench_binom_half_cdf(10, 2), 56.0 / 1024, 1e-15);
	/* n = 20: 1 + 20 + 190 + 1140 + 4845 + 15504 = 21700 over 2^20 */
	assert_float_equal(bench_binom_half_cdf(20, 5), 21700.0 / 1048576, 1e-15);
	/* the largest n: P(B <= 0) = 2^-99, and symmetric halves */
	assert_float_equal(bench_binom_half_cdf(99, 0), 1.5777218104420236e-30, 1e-44);
	assert_float_equal(bench_binom_half_cdf(99, 49), 0.5, 1e-12);
}

/* ranks (k, n+1-k) of the 95% interval for n ratios 1..n (sorted values = their ranks) */
static void ranks(int n, int want_k, double want_cov)
{
	double v[BENCH_MAX_PAIRS];
	for (int i = 0; i < n; i++)   /* reversed: the interval must sort */
		v[i] = (double)(n - i);
	struct bench_ci ci = bench_median_ci(v, n, 0.95);
	assert_int_equal(ci.n, n);
	assert_int_equal(ci.k, want_k);
	if (want_k) {
		assert_float_equal(ci.lo, (double)want_k, 0);
		assert_float_equal(ci.hi, (double)(n + 1 - want_k), 0);
		assert_float_equal(ci.coverage, want_cov, 1e-9);
		assert_true(ci.coverage >= 0.95);
	} else {
		assert_float_equal(ci.lo, 0, 0);
		assert_float_equal(ci.hi, 0, 0);
	}
	assert_float_equal(ci.median, (n + 1) / 2.0, 0);
	assert_float_equal(v[0], (double)n, 0);   /* input untouched */
}

static void test_interval_ranks(void **state)
{
	(void)state;
	ranks(1, 0, 0);
	ranks(5, 0, 0);                                   /* 2/32 = 6.25% outside: no 95% interval */
	ranks(6, 1, 1 - 2.0 / 64);                        /* 96.875% */
	ranks(7, 1, 1 - 2.0 / 128);
	ranks(9, 2, 1 - 2 * 10.0 / 512);                  /* 1 + 9 = 10: 96.1% */
	ranks(10, 2, 1 - 2 * 11.0 / 1024);                /* 97.9% */
	ranks(20, 6, 1 - 2 * 21700.0 / 1048576);          /* 95.86% */
	ranks(30, 10, 1 - 2 * 22964087.0 / 1073741824);  /* sum of C(30, 0..9) over 2^30: 0.0214 */
}

static void test_verdict_rule(void **state)
{
	(void)state;
	const double ahead[] = { 1.04, 1.03, 1.05, 1.02, 1.06, 1.04 };
	const double behind[] = { 0.66, 0.64, 0.68, 0.65, 0.63, 0.67 };
	const double noise[] = { 1.02, 0.97, 1.05, 0.99, 1.01, 0.96 };
	/* the median is above 1.00, but one pair of six is not: not "ahead" */
	const double mostly[] = { 1.02, 1.03, 0.995, 1.04, 1.05, 1.02 };
	struct bench_ci ci = bench_median_ci(ahead, 6, 0.95);
	assert_int_equal(bench_verdict_of(&ci), BENCH_AHEAD);
	ci = bench_median_ci(behind, 6, 0.95);
	assert_int_equal(bench_verdict_of(&ci), BENCH_BEHIND);
	assert_float_equal(ci.hi, 0.68, 0);
	ci = bench_median_ci(noise, 6, 0.95);
	assert_int_equal(bench_verdict_of(&ci), BENCH_WITHIN_NOISE);
	ci = bench_median_ci(mostly, 6, 0.95);
	assert_true(ci.median > 1.0);
	assert_int_equal(bench_verdict_of(&ci), BENCH_WITHIN_NOISE);
	ci = bench_median_ci(ahead, 5, 0.95);   /* five all ahead: still too few for 95% */
	assert_int_equal(bench_verdict_of(&ci), BENCH_TOO_FEW);
	assert_int_equal(bench_verdict_of(NULL), BENCH_TOO_FEW);
	ci = bench_median_ci(ahead, 0, 0.95);
	assert_int_equal(ci.n, 0);
	ci = bench_median_ci(ahead, BENCH_MAX_PAIRS + 1, 0.95);
	assert_int_equal(ci.n, 0);
	assert_string_equal(bench_verdict_name(BENCH_AHEAD), "ahead");
	assert_string_equal(bench_verdict_name(BENCH_BEHIND), "behind");
	assert_string_equal(bench_verdict_name(BENCH_WITHIN_NOISE), "within noise");
	assert_string_equal(bench_verdict_name(BENCH_TOO_FEW), "too few runs");
}

/* ---- the row runner on fake timings ------------------------------------------------------------
 * Each side's rate is its true rate times a factor that is shared by the two runs of a pair (a
 * slow spell of the host falls on both) and one of its own (the two sides step through the
 * table differently); the clock advances one second per run. The factors cycle through fixed
 * tables, so every case is deterministic. */
struct fake {
	double ours_rate, their_rate;
	const double *shared, *own_ours, *own_theirs;
	int nshared, nown;
	int runs_ours, runs_theirs, pair;
	double t;
	char order[2 * BENCH_MAX_PAIRS + 1];
	int fail_ours;                 /* ours fails on these many first runs */
};

static double fake_ours(void *p)
{
	struct fake *f = p;
	const int pair = (f->runs_ours + f->runs_theirs) / 2, i = f->runs_ours++;
	f->t += 1;
	f->order[strlen(f->order)] = 'o';
	if (i < f->fail_ours)
		return -1;
	return f->ours_rate * f->shared[pair % f->nshared] * f->own_ours[i % f->nown];
}

static double fake_theirs(void *p)
{
	struct fake *f = p;
	const int pair = (f->runs_ours + f->runs_theirs) / 2, i = f->runs_theirs++;
	f->t += 1;
	f->order[strlen(f->order)] = 't';
	return f->their_rate * f->shared[pair % f->nshared] * f->own_theirs[(3 * i + 2) % f->nown];
}

static double fake_clock(void *p)
{
	return ((struct fake *)p)->t;
}

/* a busy host: the pair's shared factor swings by up to 2x, each side's own by +-3% */
static const double shared_swing[] = { 1.0, 0.5, 0.8, 0.62, 0.95, 0.7, 0.55, 0.9 };
static const double own_small[] = { 1.00, 0.97, 1.03, 0.99, 1.02, 0.98, 1.01 };
static const double own_big[] = { 1.00, 0.80, 1.25, 0.90, 1.15, 0.85, 1.10 };

static void run_row(struct fake *f, struct bench_row *r, int min_pairs, int max_pairs, double width, double budget)
{
	*r = (struct bench_row){ .ours = fake_ours, .theirs = fake_theirs, .clock_s = fake_clock, .ctx = f,
				 .min_pairs = min_pairs, .max_pairs = max_pairs, .width = width, .budget_s = budget };
	bench_row_run(r);
}

static void test_row_ahead_behind_noise(void **state)
{
	(void)state;
	static struct bench_row r;
	/* ahead by 5% on a host whose load halves both sides' rates now and then */
	struct fake f = { 105, 100, shared_swing, own_small, own_small, 8, 7, 0, 0, 0, 0, "", 0 };
	run_row(&f, &r, 6, 40, 0.02, 1000);
	assert_int_equal(r.verdict, BENCH_AHEAD);
	assert_true(r.ci.lo > 1.0 && r.ci.median > 1.03 && r.ci.median < 1.07);
	/* behind: two thirds of likwid's rate, as the L1 load once was */
	f = (struct fake){ 66, 100, shared_swing, own_small, own_small, 8, 7, 0, 0, 0, 0, "", 0 };
	run_row(&f, &r, 6, 40, 0.02, 1000);
	assert_int_equal(r.verdict, BENCH_BEHIND);
	assert_true(r.ci.hi < 1.0);
	/* equal kernels, +-25% noise of each side's own: within noise, and the budget ends it */
	f = (struct fake){ 100, 100, shared_swing, own_big, own_small, 8, 7, 0, 0, 0, 0, "", 0 };
	run_row(&f, &r, 6, 40, 0.02, 30);
	assert_int_equal(r.verdict, BENCH_WITHIN_NOISE);
	assert_true(r.ci.lo < 1.0 && r.ci.hi > 1.0);
	assert_int_equal(r.stopped_on, 'b');
	assert_int_equal(r.n, 15);   /* 2 s a pair: pairs start at t = 0, 2, ... 28 */
}

static void test_row_alternates_and_stops(void **state)
{
	(void)state;
	static struct bench_row r;
	/* steady host: the interval is narrow after the minimum and the row stops there */
	static const double one[] = { 1.0 };
	struct fake f = { 101, 100, one, one, one, 1, 1, 0, 0, 0, 0, "", 0 };
	run_row(&f, &r, 6, 40, 0.02, 1000);
	assert_int_equal(r.n, 6);
	assert_int_equal(r.stopped_on, 'w');
	assert_string_equal(f.order, "toot" "toot" "toot");   /* likwid first, then ours first */
	for (int i = 0; i < r.n; i++) {
		assert_int_equal(r.ours_first[i], i % 2);
		assert_float_equal(r.ratio[i], 1.01, 1e-12);
	}
	assert_int_equal(r.verdict, BENCH_AHEAD);
	/* max_pairs ends a row whose interval stays wide */
	f = (struct fake){ 100, 100, shared_swing, own_big, own_small, 8, 7, 0, 0, 0, 0, "", 0 };
	run_row(&f, &r, 6, 9, 0.001, 1000);
	assert_int_equal(r.n, 9);
	assert_int_equal(r.stopped_on, 'm');
	/* a budget of 0 still makes the minimum pairs */
	f = (struct fake){ 100, 100, shared_swing, own_big, own_small, 8, 7, 0, 0, 0, 0, "", 0 };
	run_row(&f, &r, 6, 40, 0.001, 0);
	assert_int_equal(r.n, 6);
	/* failed runs drop their pair and do not count */
	f = (struct fake){ 101, 100, one, one, one, 1, 1, 0, 0, 0, 0, "", 2 };
	run_row(&f, &r, 6, 40, 0.02, 1000);
	assert_int_equal(r.failed, 2);
	assert_int_equal(r.n, 6);
	/* a side that never runs ends the row after max_pairs failures, with no verdict */
	f = (struct fake){ 101, 100, one, one, one, 1, 1, 0, 0, 0, 0, "", 1000 };
	run_row(&f, &r, 6, 8, 0.02, 1000);
	assert_int_equal(r.n, 0);
	assert_int_equal(r.stopped_on, 'f');
	assert_int_equal(r.verdict, BENCH_TOO_FEW);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binomial_half),
		cmocka_unit_test(test_interval_ranks),
		cmocka_unit_test(test_verdict_rule),
		cmocka_unit_test(test_row_ahead_behind_noise),
		cmocka_unit_test(test_row_alternates_and_stops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
