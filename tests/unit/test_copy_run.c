/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * copy_measure (efi/measure/copy_run.c) on the host: a model of the windows stands for the CPUs
 * (it checks each window's spec, runs the copy kernel on each CPU's malloc'ed buffers and sets
 * each CPU's start and end tick and the window's quietness as a script says), memory from malloc,
 * an attachment that counts its calls. Timer: 1 GHz, so 1 tick = 1 ns. Every expected value is
 * worked out by hand in the comments: a rate in GB/s x 1000 is bytes moved x 1000 / ns.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/copy_run.h"

#define HZ 1000000000ull
#define BYTES 8192u            /* 2 x 8192 = 16384 bytes moved per CPU per pass */

struct win_script {
	uint64_t t[4];         /* CPU i's kernel ticks (t0 = 100, t1 = 100 + t[i]) */
	uint64_t span;
	int ran;               /* CPUs that ran; < n: the window failed */
	int masked;
	hw_status smi_st;
	uint64_t smi;
	int corrupt;           /* after the kernel, flip a dst word of CPU 0 */
};

struct model {
	const struct win_script *sc;
	int calls, nscript, floors, counted;
	const struct copy_request *req;
};

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

static int copies, ticks_seen;
static void host_copy(void *dst, const void *src, uint64_t n)
{
	copies++;
	memcpy(dst, src, n);
}
static void host_tick(void *ctx, int i)
{
	(void)i;
	ticks_seen += ctx == &ticks_seen;
}

static int model_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	struct model *m = ctx;
	assert_int_equal(s->ncpus, m->req->n);
	assert_int_equal(s->mask_interrupts, 1);
	for (int i = 0; i < s->ncpus; i++)
		assert_int_equal(s->cpus[i].cpu, m->req->cpu[i].cpu);
	if (!s->kernel) {   /* the noise floor: an empty window, nothing riding on it */
		assert_null(s->counters);
		m->floors++;
		*r = (struct window_result){ .span_ticks = 40, .masked = 1, .ran = s->ncpus, .smi_status = HW_OK };
		return 0;
	}
	assert_ptr_equal(s->kernel, copy_kernel);
	assert_true(m->calls < m->nscript);
	const struct win_script *sc = &m->sc[m->calls++];
	if (s->counters) {
		m->counted++;
		s->counters->start(s->counters->ctx);
	}
	for (int i = 0; i < s->ncpus && i < sc->ran; i++) {
		if (s->counters && s->counters->cpu_start)
			s->counters->cpu_start(s->counters->ctx, i);
		s->cpus[i].ret = s->kernel(s->cpus[i].arg);
		s->cpus[i].t0 = 100;
		s->cpus[i].t1 = 100 + sc->t[i];
		if (s->counters && s->counters->cpu_stop)
			s->counters->cpu_stop(s->counters->ctx, i);
	}
	if (s->counters)
		s->counters->stop(s->counters->ctx);
	if (sc->corrupt)
		m->req->cpu[0].dst[3] ^= 1;
	*r = (struct window_result){ .span_ticks = sc->span, .masked = sc->masked, .ran = sc->ran,
				     .smi_status = sc->smi_st, .smi_delta = sc->smi };
	return sc->ran == s->ncpus ? 0 : -1;
}

/* An attachment that counts its calls (the core counters' place on the window). */
struct counts { int prepare, start, stop, cpu_start, cpu_stop, read, restore; };
static int c_prepare(struct attachment *a, const struct hw *hw) { (void)hw; ((struct counts *)a->self)->prepare++; return 0; }
static void c_start(struct attachment *a, const struct hw *hw) { (void)hw; ((struct counts *)a->self)->start++; }
static void c_stop(struct attachment *a, const struct hw *hw) { (void)hw; ((struct counts *)a->self)->stop++; }
static void c_cpu_start(struct attachment *a, const struct hw *hw, int i) { (void)hw; (void)i; ((struct counts *)a->self)->cpu_start++; }
static void c_cpu_stop(struct attachment *a, const struct hw *hw, int i) { (void)hw; (void)i; ((struct counts *)a->self)->cpu_stop++; }
static int c_read(struct attachment *a, const struct hw *hw) { (void)hw; ((struct counts *)a->self)->read++; return 0; }
static int c_restore(struct attachment *a, const struct hw *hw) { (void)hw; ((struct counts *)a->self)->restore++; return 0; }
static const struct attachment_ops count_ops = { "core_pmu", c_prepare, c_start, c_stop, c_cpu_start, c_cpu_stop,
						 c_read, c_restore };

struct rig {
	struct copy_cpu cpu[4];
	uint64_t mem[8][BYTES / 8];
	struct copy_request req;
	struct counts cnt;
	struct attachment a;
	struct attach_list list;
	struct model m;
	struct measure_ctx ctx;
};

static struct rig rig;   /* 64 KiB of buffers: not on the test's stack */

/* n CPUs (MP numbers 2, 5, 7, 9), `passes` x `windows`, the counting attachment on every window. */
static void rig_init(int n, uint32_t passes, uint32_t windows, const struct win_script *sc, int nscript)
{
	memset(&rig, 0, sizeof(rig));
	static const uint32_t numbers[4] = { 2, 5, 7, 9 };
	for (int i = 0; i < n; i++)
		rig.cpu[i] = (struct copy_cpu){ .cpu = numbers[i], .src = rig.mem[2 * i], .dst = rig.mem[2 * i + 1],
						.node = i, .local = 1 };
	rig.a = (struct attachment){ .ops = &count_ops, .self = &rig.cnt };
	rig.list = (struct attach_list){ .a = &rig.a, .n = 1 };
	rig.req = (struct copy_request){ .n = n, .cpu = rig.cpu, .bytes = BYTES, .passes = passes, .windows = windows,
					 .copy = host_copy, .tick = host_tick, .tick_ctx = &ticks_seen,
					 .counters = &rig.list, .timer_hz = HZ };
	rig.m = (struct model){ sc, 0, nscript, 0, 0, &rig.req };
	rig.ctx = (struct measure_ctx){ .win = { model_run, &rig.m }, .alloc = fake_alloc, .free = fake_free,
					.timer_hz = HZ };
	allocs = frees = fail_alloc = copies = ticks_seen = 0;
}

static void test_two_passes_with_an_outlier(void **state)
{
	(void)state;
	/* 3 CPUs, 2 passes of one window. Pass 0: each CPU 1000 ticks -> 16384 B / 1000 ns =
	 * 16.384 GB/s each; span 1250 -> 3 x 16384 = 49152 B / 1250 ns = 39.3216, rounded to 39.322 GB/s.
	 * Pass 1: CPUs 2000, 2000, 4000 ns -> 8.192, 8.192, 4.096 GB/s: median 8.192, and 4.096 is
	 * 50 % from it (> 25 %): CPU 7 an outlier; span 4000 -> 49152 / 4000 = 12.288 GB/s. */
	static const struct win_script sc[] = {
		{ { 1000, 1000, 1000 }, 1250, 3, 1, HW_OK, 0, 0 },
		{ { 2000, 2000, 4000 }, 4000, 3, 1, HW_OK, 2, 0 },
	};
	rig_init(3, 2, 1, sc, 2);
	struct copy_result res;
	assert_int_equal(copy_measure(&rig.ctx, &rig.req, &res), 0);
	assert_int_equal(rig.m.floors, 1);
	assert_int_equal(rig.m.calls, 2);
	assert_int_equal(res.floor.span_ticks, 40);
	assert_int_equal(res.npass, 2);
	assert_int_equal(res.failed_ran, -1);
	assert_int_equal(res.pass[0].ns, 1250);
	assert_int_equal(res.pass[0].gbps_milli, 39322);
	assert_int_equal(res.cpu[0].gbps_milli, 16384);
	assert_int_equal(res.pass[0].outliers, 0);
	assert_int_equal(res.pass[1].gbps_milli, 12288);
	assert_int_equal(res.pass[1].median_gbps_milli, 8192);
	assert_int_equal(res.pass[1].outliers, 1);
	assert_int_equal(res.cpu[3 + 2].ns, 4000);
	assert_int_equal(res.cpu[3 + 2].gbps_milli, 4096);
	assert_true(res.cpu[3 + 2].outlier);
	assert_false(res.cpu[3 + 0].outlier);
	assert_int_equal(res.pass[1].w.smi_delta, 2);
	/* best: pass 0 (1250 ns, 39.322 GB/s); mean: 2 x 49152 B over 1250 + 4000 ns = 18.72457 -> 18.725 GB/s */
	assert_int_equal(res.best_ns, 1250);
	assert_int_equal(res.best_gbps_milli, 39322);
	assert_int_equal(res.mean_gbps_milli, 18725);
	assert_true(res.verified);
	/* src word k of CPU i = pattern x (k + 1 + i), copied: CPU 2's word 5 = pattern x 8 */
	assert_int_equal(rig.cpu[2].dst[5], 0x9E3779B97F4A7C15ull * 8);
	/* 8192 bytes in one chunk: one copy call and one tick per CPU per window (3 x 2) */
	assert_int_equal(copies, 6);
	assert_int_equal(ticks_seen, 6);
	/* the attachment: prepared once, on both windows, read after each, restored once */
	assert_int_equal(rig.cnt.prepare, 1);
	assert_int_equal(rig.cnt.start, 2);
	assert_int_equal(rig.cnt.cpu_start, 6);
	assert_int_equal(rig.cnt.cpu_stop, 6);
	assert_int_equal(rig.cnt.read, 2);
	assert_int_equal(rig.cnt.restore, 1);
	copy_result_free(&rig.ctx, &res);
	assert_int_equal(allocs, frees);
}

static void test_multiplexed_pass_is_the_mean_window(void **state)
{
	(void)state;
	/* 1 CPU, 1 pass of 4 windows (groups x rounds): spans 1000, 2000, 3000, 2000 -> mean 2000;
	 * CPU ticks 900 + 1900 + 2900 + 1900 = 7600 / 4 = 1900 ns; SMIs 1 + 0 + 2 + 0 = 3; the third
	 * window ran with interrupts on, so the pass is not masked; the last SMI status counts.
	 * Rate: 16384 B / 2000 ns = 8.192 GB/s; the CPU's 16384 / 1900 = 8.6231 -> 8.623 GB/s. */
	static const struct win_script sc[] = {
		{ { 900 }, 1000, 1, 1, HW_OK, 1, 0 },
		{ { 1900 }, 2000, 1, 1, HW_OK, 0, 0 },
		{ { 2900 }, 3000, 1, 0, HW_OK, 2, 0 },
		{ { 1900 }, 2000, 1, 1, HW_UNSUPPORTED, 0, 0 },
	};
	rig_init(1, 1, 4, sc, 4);
	struct copy_result res;
	assert_int_equal(copy_measure(&rig.ctx, &rig.req, &res), 0);
	assert_int_equal(res.pass[0].w.span_ticks, 2000);
	assert_int_equal(res.pass[0].ns, 2000);
	assert_int_equal(res.pass[0].gbps_milli, 8192);
	assert_int_equal(res.cpu[0].ns, 1900);
	assert_int_equal(res.cpu[0].gbps_milli, 8623);
	assert_int_equal(res.pass[0].w.smi_delta, 3);
	assert_false(res.pass[0].w.masked);
	assert_int_equal(res.pass[0].w.smi_status, HW_UNSUPPORTED);
	assert_int_equal(rig.cnt.read, 4);
	assert_int_equal(rig.cnt.restore, 1);
	copy_result_free(&rig.ctx, &res);
}

static void test_cpu_did_not_run(void **state)
{
	(void)state;
	/* pass 0 fine; in pass 1 only 1 of 2 CPUs ran: the run stops, one pass kept, and the counters
	 * are still restored */
	static const struct win_script sc[] = {
		{ { 1000, 1000 }, 1000, 2, 1, HW_OK, 0, 0 },
		{ { 1000, 1000 }, 1000, 1, 1, HW_OK, 0, 0 },
		{ { 1000, 1000 }, 1000, 2, 1, HW_OK, 0, 0 },
	};
	rig_init(2, 3, 1, sc, 3);
	struct copy_result res;
	assert_int_equal(copy_measure(&rig.ctx, &rig.req, &res), -1);
	assert_int_equal(rig.m.calls, 2);
	assert_int_equal(res.npass, 1);
	assert_int_equal(res.failed_ran, 1);
	assert_int_equal(rig.cnt.read, 1);      /* the failed window is not read */
	assert_int_equal(rig.cnt.restore, 1);
	copy_result_free(&rig.ctx, &res);
	assert_int_equal(allocs, frees);
}

static void test_copy_differs(void **state)
{
	(void)state;
	static const struct win_script sc[] = { { { 1000 }, 1000, 1, 1, HW_OK, 0, 1 } };
	rig_init(1, 1, 1, sc, 1);
	struct copy_result res;
	assert_int_equal(copy_measure(&rig.ctx, &rig.req, &res), -1);
	assert_int_equal(res.npass, 1);
	assert_int_equal(res.failed_ran, -1);
	assert_false(res.verified);
	copy_result_free(&rig.ctx, &res);
}

static void test_no_memory(void **state)
{
	(void)state;
	rig_init(2, 1, 1, NULL, 0);
	fail_alloc = 1;
	struct copy_result res;
	assert_int_equal(copy_measure(&rig.ctx, &rig.req, &res), -1);
	assert_true(res.no_memory);
	assert_int_equal(res.npass, 0);
	assert_int_equal(rig.m.calls + rig.m.floors, 0);   /* no window ran */
	assert_int_equal(rig.cnt.prepare, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_passes_with_an_outlier),
		cmocka_unit_test(test_multiplexed_pass_is_the_mean_window),
		cmocka_unit_test(test_cpu_did_not_run),
		cmocka_unit_test(test_copy_differs),
		cmocka_unit_test(test_no_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
