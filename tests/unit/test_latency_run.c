/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * latency_measure (efi/measure/latency_run.c) on the host: a model of the windows checks each
 * window (the noise floor: empty, no counters; a point: the boot CPU, the chase over that
 * point's working set, a single cycle through its lines) and gives the chase's best pass as the
 * script says; a counting attachment rides on the points; memory from malloc; a 2 GHz fake
 * clock. By hand, at 2 GHz with L lines a pass: ps per load = ticks x 10^12 / (2 x 10^9 x L) =
 * ticks x 500 / L, ticks x 1000 per load = 2 x ps. The curve 4 KiB .. 1 MiB (9 points):
 *   4-32 KiB at 1 ns, 64-256 KiB at 5 ns, 512 KiB-1 MiB at 20 ns
 * has two plateaus with a knee each (32 KiB at 1 ns, 256 KiB at 5 ns) and memory at 20 ns;
 * beside an L1d of 32 KiB and an L2 of 256 KiB both agree (no disagreement).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/latency_run.h"

#define HZ 2000000000ull
#define MAX (1u << 20)
#define BOOT 3u

static const struct kernel_desc chase = { "chase_test", KERNEL_CHASE, 0, 64, 64, NULL, 0, 0, 0 };

static uint64_t now;
static uint64_t clock_fake(void) { return now++; }
static int fail_in, taken, given;
static void *alloc_in(uint64_t bytes, const struct memrange *r, int nr)
{
	(void)r;
	assert_int_equal(nr, 0);   /* anywhere */
	assert_int_equal(bytes, MAX);
	if (fail_in)
		return NULL;
	taken++;
	return aligned_alloc(4096, bytes);
}
static void free_in(void *p, uint64_t bytes)
{
	assert_int_equal(bytes, MAX);
	given++;
	free(p);
}

static const uint64_t ns_of[9] = { 1, 1, 1, 1, 5, 5, 5, 20, 20 };   /* per point, ns per load */
static int nwin, broken_point = -1;
static char calls[64];   /* the attachment's calls: p(repare) s(tart) t(stop) r(ead) x (restore) */
static int ncalls;

static int model_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	(void)ctx;
	int k = nwin++;
	assert_int_equal(s->ncpus, 1);
	assert_int_equal(s->cpus[0].cpu, BOOT);
	assert_int_equal(s->mask_interrupts, 1);
	*r = (struct window_result){ .span_ticks = 100u + (uint64_t)k, .masked = 1, .ran = 1, .smi_status = HW_OK };
	if (k == 0) {   /* the noise floor */
		assert_null(s->kernel);
		assert_null(s->counters);
		return 0;
	}
	int i = k - 1;
	assert_ptr_equal(s->kernel, latency_kernel);
	struct kernel_run *kr = s->cpus[0].arg;
	uint64_t bytes = 4096ull << i, lines = bytes / 64;
	assert_ptr_equal(kr->k, &chase);
	assert_int_equal(kr->bytes, bytes);
	assert_int_equal(kr->passes, 2);
	assert_ptr_equal(kr->timer, clock_fake);
	const uint64_t *p = kr->b;   /* one cycle through every line */
	for (uint64_t n = 1; n < lines; n++) {
		p = (const uint64_t *)(uintptr_t)*p;
		assert_ptr_not_equal(p, kr->b);
	}
	assert_ptr_equal((const void *)(uintptr_t)*p, kr->b);
	if (s->counters)
		s->counters->start(s->counters->ctx);
	kr->ticks_min = ns_of[i] * 1000 * lines / 500;   /* ps x L / 500 */
	kr->status = 0;
	kr->result = i == broken_point ? 0 : (uint64_t)(uintptr_t)kr->b;
	if (s->counters)
		s->counters->stop(s->counters->ctx);
	return 0;
}

static void note(char c) { if (ncalls < 63) calls[ncalls++] = c; }
static int a_prepare(struct attachment *a, const struct hw *hw) { (void)a, (void)hw; note('p'); return 0; }
static void a_start(struct attachment *a, const struct hw *hw) { (void)a, (void)hw; note('s'); }
static void a_stop(struct attachment *a, const struct hw *hw) { (void)a, (void)hw; note('t'); }
static int a_read(struct attachment *a, const struct hw *hw) { (void)a, (void)hw; note('r'); return 0; }
static int a_restore(struct attachment *a, const struct hw *hw) { (void)a, (void)hw; note('x'); return 0; }
static const struct attachment_ops counting = { "test", a_prepare, a_start, a_stop, NULL, NULL, a_read, a_restore };

static struct cpu_info ci;
static struct attachment att;
static struct attach_list list;

static void request(struct latency_request *req, int with_evidence)
{
	*req = (struct latency_request){ .cpu = BOOT, .max_bytes = MAX, .nsizes = 9, .chase = &chase, .ci = &ci };
	for (int i = 0; i < 9; i++)
		req->size[i] = 4096ull << i;
	memset(&ci, 0, sizeof(ci));
	ci.cache[0] = (struct cache_desc){ .level = 1, .type = CACHE_DATA, .line_bytes = 64, .bytes = 32768 };
	ci.cache[1] = (struct cache_desc){ .level = 2, .type = CACHE_UNIFIED, .line_bytes = 64, .bytes = 262144 };
	ci.ncaches = 2;
	att = (struct attachment){ .ops = &counting };
	list = (struct attach_list){ .a = &att, .n = 1 };
	req->evidence = with_evidence ? &list : NULL;
	nwin = ncalls = taken = given = fail_in = 0;
	broken_point = -1;
	memset(calls, 0, sizeof(calls));
}

static const struct measure_ctx ctx = { .win = { model_run, NULL }, .alloc_in = alloc_in, .free_in = free_in,
					.clock = clock_fake, .timer_hz = HZ };
static struct latency_result res;

static void test_curve_knees_and_evidence(void **state)
{
	(void)state;
	struct latency_request req;
	request(&req, 1);
	assert_int_equal(latency_measure(&ctx, &req, &res), 0);
	assert_int_equal(nwin, 10);
	assert_true(res.placed);
	assert_int_equal(res.floor.span_ticks, 100);
	assert_int_equal(res.floor_ns, 50);               /* 100 ticks at 2 GHz */
	assert_int_equal(res.npoints, 9);
	for (int i = 0; i < 9; i++) {
		assert_int_equal(res.pt[i].bytes, 4096ull << i);
		assert_int_equal(res.pt[i].ps, ns_of[i] * 1000);
		assert_int_equal(res.pt[i].ticks_milli, 2 * ns_of[i] * 1000);
		assert_int_equal(res.pt[i].loads, (4096ull << i) / 64 * 2);
		assert_true(res.pt[i].complete);
	}
	assert_string_equal(calls, "pstrstrstrstrstrstrstrstrstrx");
	assert_int_equal(res.nk, 2);
	assert_int_equal(res.k[0].bytes, 32768);
	assert_int_equal(res.k[0].ps, 1000);
	assert_int_equal(res.k[1].bytes, 262144);
	assert_int_equal(res.k[1].ps, 5000);
	assert_int_equal(res.memory_ps, 20000);
	assert_int_equal(res.nl, 2);
	assert_true(res.lv[0].agrees);
	assert_int_equal(res.lv[0].knee, 0);
	assert_true(res.lv[1].agrees);
	assert_int_equal(res.lv[1].knee, 1);
	assert_int_equal(res.disagreements, 0);
	assert_int_equal(taken, 1);
	assert_int_equal(given, 1);
}

static void test_broken_cycle_without_evidence(void **state)
{
	(void)state;
	struct latency_request req;
	request(&req, 0);
	broken_point = 4;
	assert_int_equal(latency_measure(&ctx, &req, &res), -1);
	assert_int_equal(ncalls, 0);
	assert_true(res.pt[3].complete);
	assert_false(res.pt[4].complete);
	assert_int_equal(res.npoints, 9);
	assert_int_equal(given, taken);
}

static void test_no_buffer_or_no_size(void **state)
{
	(void)state;
	struct latency_request req;
	request(&req, 1);
	fail_in = 1;
	assert_int_equal(latency_measure(&ctx, &req, &res), -1);
	assert_false(res.placed);
	assert_int_equal(res.npoints, 0);
	assert_int_equal(nwin, 0);
	assert_int_equal(ncalls, 0);   /* nothing prepared, nothing to restore */
	request(&req, 0);
	req.nsizes = 0;
	assert_int_equal(latency_measure(&ctx, &req, &res), -1);
	assert_int_equal(taken, 0);
	assert_int_equal(nwin, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_curve_knees_and_evidence),
		cmocka_unit_test(test_broken_cycle_without_evidence),
		cmocka_unit_test(test_no_buffer_or_no_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
