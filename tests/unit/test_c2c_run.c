/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * c2c_measure (efi/measure/c2c_run.c) on the host: a model of the windows stands for the CPUs
 * (it checks each pair's window and fills the initiator's round times, statuses, quietness as a
 * script says), a fake clock, memory from malloc. Every expected value below is worked out by
 * hand from the script: a line transfer is round ticks x 1000 / (2 x trips) ps at 1 GHz.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/c2c_run.h"

#define HZ 1000000000ull   /* 1 tick = 1 ns */

struct pair_script {
	uint32_t a, b;           /* the CPUs the window must be for */
	uint64_t ticks[3];       /* the initiator's round times */
	int timed_out, ran, masked;
	hw_status smi_st;
	uint64_t smi;
};

struct model {
	const struct pair_script *sc;
	int calls, nscript;
	uint64_t *line;
	uint32_t rounds, trips;
};

static uint64_t fake_now;
static uint64_t fake_clock(void) { return fake_now++; }

static int allocs, frees, fail_alloc;
static void *fake_alloc(uint64_t bytes)
{
	if (fail_alloc)
		return NULL;
	allocs++;
	return calloc(1, bytes);
}
static void fake_free(void *p)
{
	frees += p != NULL;
	free(p);
}

static int model_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	struct model *m = ctx;
	assert_true(m->calls < m->nscript);
	const struct pair_script *sc = &m->sc[m->calls++];
	assert_int_equal(s->ncpus, 2);
	assert_int_equal(s->mask_interrupts, 1);
	assert_ptr_equal(s->kernel, c2c_pair_kernel);
	assert_int_equal(s->cpus[0].cpu, sc->a);
	assert_int_equal(s->cpus[1].cpu, sc->b);
	struct c2c_pair_arg *ini = s->cpus[0].arg, *resp = s->cpus[1].arg;
	assert_int_equal(ini->initiator, 1);
	assert_int_equal(resp->initiator, 0);
	assert_ptr_equal(ini->run.line, m->line);
	assert_int_equal(*m->line, 0);                     /* reset before every pair */
	assert_int_equal(ini->run.rounds, m->rounds);
	assert_int_equal(ini->run.trips, m->trips);
	assert_int_equal(ini->run.timeout_ticks, 5 * HZ);   /* C2C_TIMEOUT_S at 1 GHz */
	assert_ptr_equal(ini->run.timer, fake_clock);
	assert_non_null(ini->run.round_ticks);
	assert_null(resp->run.round_ticks);
	*m->line = 99;                                     /* the pair used the line */
	for (uint32_t k = 0; k < m->rounds && k < 3; k++)
		ini->run.round_ticks[k] = sc->ticks[k];
	ini->run.status = sc->timed_out ? -1 : 0;
	resp->run.status = 0;
	s->cpus[0].ret = sc->timed_out ? 5 : 2ull * m->rounds * m->trips;
	*r = (struct window_result){ .masked = sc->masked, .ran = sc->ran ? 2 : 1, .smi_status = sc->smi_st,
				     .smi_delta = sc->smi };
	return sc->ran ? 0 : -1;
}

/* CPUs 4 and 5: SMT siblings of package 0 (node 0); CPU 9: package 1 (node 1). */
static void request3(struct c2c_request *req, uint64_t *line)
{
	*req = (struct c2c_request){ .n = 3, .rounds = 3, .trips = 2, .line = line };
	req->topo[0] = (struct c2c_cpu){ .cpu = 4, .package = 0, .core = 2, .l3 = 0, .node = 0 };
	req->topo[1] = (struct c2c_cpu){ .cpu = 5, .package = 0, .core = 2, .l3 = 0, .node = 0 };
	req->topo[2] = (struct c2c_cpu){ .cpu = 9, .package = 1, .core = 4, .l3 = 1, .node = 1 };
}

/* The first two CPUs of request3, `rounds` rounds of one trip. */
static void request2(struct c2c_request *req, uint64_t *line, uint32_t rounds)
{
	request3(req, line);
	req->n = 2;
	req->rounds = rounds;
	req->trips = 1;
}

static struct measure_ctx ctx_of(struct model *m)
{
	return (struct measure_ctx){ .hw = NULL, .win = { model_run, m }, .alloc = fake_alloc, .free = fake_free,
				     .clock = fake_clock, .timer_hz = HZ };
}

static struct c2c_result res;   /* about 100 KiB: not on the test's stack */

static void test_matrix_with_a_timed_out_pair(void **state)
{
	(void)state;
	static const struct pair_script sc[] = {
		{ 4, 5, { 400, 240, 320 }, 0, 1, 1, HW_OK, 1 },       /* 100, 60, 80 ns per transfer */
		{ 4, 9, { 1, 1, 1 }, 1, 1, 1, HW_OK, 0 },             /* the responder never answered */
		{ 5, 9, { 1000, 1000, 1200 }, 0, 1, 0, HW_OK, 2 },    /* 250, 250, 300 ns; interrupts were on */
	};
	uint64_t line = 0;
	struct model m = { sc, 0, 3, &line, 3, 2 };
	struct measure_ctx ctx = ctx_of(&m);
	struct c2c_request req;
	request3(&req, &line);
	allocs = frees = fail_alloc = 0;
	assert_int_equal(c2c_measure(&ctx, &req, &res), -1);
	assert_int_equal(m.calls, 3);
	assert_int_equal(allocs, 1);
	assert_int_equal(frees, 1);
	assert_int_equal(res.n, 3);
	assert_int_equal(res.npairs, 3);
	assert_int_equal(res.failed, 1);
	/* min / median in ps, symmetric, zero diagonal, 0 where the pair failed */
	static const uint64_t min_ps[9] = { 0, 60000, 0, 60000, 0, 250000, 0, 250000, 0 };
	static const uint64_t med_ps[9] = { 0, 80000, 0, 80000, 0, 250000, 0, 250000, 0 };
	for (int i = 0; i < 9; i++) {
		assert_int_equal(res.min_ps[i], min_ps[i]);
		assert_int_equal(res.median_ps[i], med_ps[i]);
	}
	assert_int_equal(res.pair[0].a, 4);
	assert_int_equal(res.pair[0].b, 5);
	assert_true(res.pair[0].ok);
	assert_true(res.pair[1].ran);
	assert_false(res.pair[1].ok);
	assert_true(res.pair[2].ok);
	assert_false(res.pair[2].masked);
	assert_false(res.all_masked);
	assert_int_equal(res.smi_st, HW_OK);
	assert_int_equal(res.smi, 3);
	/* summaries over the median matrix: 4-5 smt, 5-9 remote; 4-9 not measured */
	assert_int_equal(res.rel[C2C_SMT].pairs, 1);
	assert_int_equal(res.rel[C2C_SMT].min, 80000);
	assert_int_equal(res.rel[C2C_L3].pairs, 0);
	assert_int_equal(res.rel[C2C_PACKAGE].pairs, 0);
	assert_int_equal(res.rel[C2C_REMOTE].pairs, 1);
	assert_int_equal(res.rel[C2C_REMOTE].median, 250000);
	assert_int_equal(res.node[C2C_NODE_SAME].pairs, 1);
	assert_int_equal(res.node[C2C_NODE_OTHER].pairs, 1);
	assert_int_equal(res.node[C2C_NODE_UNKNOWN].pairs, 0);
}

static void test_window_not_run_and_unread_smi(void **state)
{
	(void)state;
	/* two CPUs, one round of one trip: 7 ticks -> 3500 ps (3.5 ns), then a window a CPU missed */
	static const struct pair_script ok[] = { { 4, 5, { 7, 0, 0 }, 0, 1, 1, HW_UNSUPPORTED, 0 } };
	static const struct pair_script missed[] = { { 4, 5, { 7, 0, 0 }, 0, 0, 1, HW_OK, 0 } };
	uint64_t line = 0;
	struct c2c_request req;
	request2(&req, &line, 1);
	struct model m = { ok, 0, 1, &line, 1, 1 };
	struct measure_ctx ctx = ctx_of(&m);
	assert_int_equal(c2c_measure(&ctx, &req, &res), 0);
	assert_int_equal(res.min_ps[1], 3500);
	assert_int_equal(res.median_ps[2], 3500);   /* row 1, column 0 */
	assert_int_equal(res.smi_st, HW_UNSUPPORTED);
	assert_true(res.all_masked);
	m = (struct model){ missed, 0, 1, &line, 1, 1 };
	assert_int_equal(c2c_measure(&ctx, &req, &res), -1);
	assert_false(res.pair[0].ran);
	assert_false(res.pair[0].ok);
	assert_int_equal(res.min_ps[1], 0);
	assert_int_equal(res.failed, 1);
}

static void test_no_memory(void **state)
{
	(void)state;
	uint64_t line = 0;
	struct c2c_request req;
	request3(&req, &line);
	struct model m = { NULL, 0, 0, &line, 3, 2 };
	struct measure_ctx ctx = ctx_of(&m);
	fail_alloc = 1;
	assert_int_equal(c2c_measure(&ctx, &req, &res), -1);
	fail_alloc = 0;
	assert_int_equal(res.npairs, 0);
	assert_int_equal(m.calls, 0);
}

/* More rounds than metric_median takes (METRIC_MAX_OUTLIER_N, 256): the sorted middle. Rounds
 * k = 0..300 take (301 - k) x 4 ticks at trips 1: transfers (301 - k) x 2000 ps, so the min is
 * 2000 (k = 300) and the median the 151st smallest, 151 x 2000 = 302000. */
static int many_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	(void)ctx;
	struct c2c_pair_arg *ini = s->cpus[0].arg, *resp = s->cpus[1].arg;
	for (uint32_t k = 0; k < ini->run.rounds; k++)
		ini->run.round_ticks[k] = (301 - k) * 4ull;
	ini->run.status = resp->run.status = 0;
	s->cpus[0].ret = 2ull * ini->run.rounds * ini->run.trips;
	*r = (struct window_result){ .masked = 1, .ran = 2, .smi_status = HW_OK };
	return 0;
}

static void test_many_rounds_sorted_median(void **state)
{
	(void)state;
	uint64_t line = 0;
	struct c2c_request req;
	request2(&req, &line, 301);
	struct measure_ctx ctx = { .win = { many_run, NULL }, .alloc = fake_alloc, .free = fake_free,
				   .clock = fake_clock, .timer_hz = HZ };
	assert_int_equal(c2c_measure(&ctx, &req, &res), 0);
	assert_int_equal(res.min_ps[1], 2000);
	assert_int_equal(res.median_ps[1], 302000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix_with_a_timed_out_pair),
		cmocka_unit_test(test_window_not_run_and_unread_smi),
		cmocka_unit_test(test_no_memory),
		cmocka_unit_test(test_many_rounds_sorted_median),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
