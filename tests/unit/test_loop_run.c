/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * loop_run (efi/measure/loop_run.c) on the host: the register model with 2 CPUs (0, 1), a fake
 * core PMU that counts its starts, stops and restores, and a fake loop that "counts" 1000 x
 * iterations + 6 instructions, plus extra instructions per call as scripted (the unmasked loop
 * sees an interrupt: +40). Expected values by hand, iterations 1000, expected 1000 x 1000 + 6 =
 * 1000006:
 *   masked repeats count 1000006 + 0, 1, 0, 2, 0, 0, 0, 0, 0, 0: least 1000006, most 1000008,
 *   spread 2; unmasked 1000046; CPUs 0 and 1 run the masked loop (1000006 each); CPU 5 is not
 *   there (HW_BAD_ARG) and takes its why from cpu_why. Starts = stops = restores = 10 + 1 + 2.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/loop_run.h"
#include "tests/model/hw_model.h"

static int starts, stops, restores, fail_start, calls;
static hw_status p_start(const struct hw *hw, struct core_set *s) { (void)hw; (void)s; starts++; return fail_start ? HW_FAULT_GP : HW_OK; }
static hw_status p_stop(const struct hw *hw, struct core_set *s) { (void)hw; (void)s; stops++; return HW_OK; }
static hw_status p_restore(const struct hw *hw, struct core_set *s) { (void)hw; (void)s; restores++; return HW_OK; }
static const struct core_pmu pmu = { .start = p_start, .stop = p_stop, .restore = p_restore };

static const uint64_t extra_masked[LOOP_MASKED_REPEATS] = { 0, 1, 0, 2, 0, 0, 0, 0, 0, 0 };
static void fake_loop(const struct core_set *s, uint64_t it, int masked, struct known_loop_result *r)
{
	assert_ptr_equal(s->pmu, &pmu);
	r->iterations = it;
	r->expected = 1000 * it + 6;
	r->counted = r->expected + (masked ? (calls < LOOP_MASKED_REPEATS ? extra_masked[calls] : 0) : 40);
	r->valid = 1;
	calls++;
}
static hw_status no_fixup(const struct hw *hw, const struct core_set *s) { (void)hw; (void)s; return HW_UNSUPPORTED; }
static const char *why_of(uint32_t cpu) { return cpu == 5 ? "CPU 5 did not start" : NULL; }
static const struct loop_ops ops = { fake_loop, no_fixup, why_of };

static int fail_alloc;
static void *zalloc(uint64_t bytes) { return fail_alloc ? NULL : calloc(1, bytes); }

static struct hw_model m;
static struct hw hw;
static struct core_set core;
static struct loop_request req;
static struct loop_result res;
static struct measure_ctx ctx;

static int setup(void **state)
{
	(void)state;
	starts = stops = restores = fail_start = calls = fail_alloc = 0;
	hw_model_init(&m);
	m.ncpus = 2;
	hw = hw_model_hw(&m);
	memset(&core, 0, sizeof(core));
	core.pmu = &pmu;
	req = (struct loop_request){ .iterations = 1000, .core = &core, .ncpus = 3, .cpu = { 0, 1, 5 }, .ops = &ops };
	ctx = (struct measure_ctx){ .hw = &hw, .alloc = zalloc, .free = free };
	return 0;
}

static void test_loop(void **state)
{
	(void)state;
	assert_int_equal(loop_run(&ctx, &req, &res), 0);
	assert_int_equal(res.masked[0].expected, 1000006);
	assert_int_equal(res.masked[0].counted, 1000006);
	assert_int_equal(res.masked[3].counted, 1000008);
	assert_int_equal(res.lo, 1000006);
	assert_int_equal(res.hi, 1000008);
	assert_int_equal(res.unmasked.counted, 1000046);
	assert_int_equal(res.cpu[0].st, HW_OK);
	assert_int_equal(res.cpu[1].st, HW_OK);
	assert_int_equal(res.cpu[1].r.counted, 1000006);
	assert_int_equal(res.cpu[1].fixup, HW_UNSUPPORTED);
	assert_int_equal(res.cpu[2].st, HW_BAD_ARG);
	assert_string_equal(res.cpu[2].why, "CPU 5 did not start");
	assert_int_equal(starts, 13);
	assert_int_equal(stops, 13);
	assert_int_equal(restores, 13);
}

static void test_counters_refused(void **state)
{
	(void)state;
	fail_start = 1;
	assert_int_equal(loop_run(&ctx, &req, &res), 0);
	assert_false(res.masked[0].valid);
	assert_string_equal(res.masked[0].why, "core counters could not be started");
	assert_int_equal(calls, 0);      /* no loop without its counters */
	assert_int_equal(restores, 13);  /* what start wrote is put back every time */
	assert_int_equal(stops, 0);
}

static void test_no_state(void **state)
{
	(void)state;
	fail_alloc = 1;
	assert_int_equal(loop_run(&ctx, &req, &res), -1);
	assert_true(res.no_state);
	assert_int_equal(starts, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_loop, setup),
		cmocka_unit_test_setup(test_counters_refused, setup),
		cmocka_unit_test_setup(test_no_state, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
