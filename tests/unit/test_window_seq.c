/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A window's sequencing (efi/measure/window_seq.c) on the host: each AP is a thread, the clock
 * a counter every read advances by one tick, the boot CPU is processor 0. The expected spans,
 * call counts and statuses are worked out by hand from window.h's contract in each test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <cmocka.h>

#include "efi/measure/window_seq.h"

#define NSLOT 8

static struct {
	pthread_t th[NSLOT];
	int started[NSLOT];
	hw_status refuse_cpu_st;   /* start of processor refuse_cpu answers this */
	uint32_t refuse_cpu;
	int no_memory, masked_boot, unmasked_boot, irq_off, irq_on;
	uint64_t smi;
} f;

static uint64_t clock_ticks;
static uint64_t fake_timer(void) { return __atomic_add_fetch(&clock_ticks, 1, __ATOMIC_SEQ_CST); }

static int fbegin(void *ctx, int n) { (void)ctx; return n > NSLOT || f.no_memory ? -1 : 0; }
static void fend(void *ctx) { (void)ctx; }
static uint32_t fbsp(void *ctx) { (void)ctx; return 0; }

struct thread_arg { void (*fn)(void *); void *arg; };
static struct thread_arg targ[NSLOT];
static void *thread_main(void *p)
{
	struct thread_arg *t = p;
	t->fn(t->arg);
	return NULL;
}

static hw_status fstart(void *ctx, int i, uint32_t cpu, void (*fn)(void *), void *arg)
{
	(void)ctx;
	if (f.refuse_cpu && cpu == f.refuse_cpu)
		return f.refuse_cpu_st;
	targ[i] = (struct thread_arg){ fn, arg };
	f.started[i] = !pthread_create(&f.th[i], NULL, thread_main, &targ[i]);
	return f.started[i] ? HW_OK : HW_ERROR;
}

static hw_status fwait(void *ctx, int i)
{
	(void)ctx;
	pthread_join(f.th[i], NULL);
	f.started[i] = 0;
	return HW_OK;
}

static int fstalled(void *ctx) { (void)ctx; return 0; }
static void frelax(void) { sched_yield(); }
static uint64_t fmask(void *ctx) { (void)ctx; f.masked_boot++; return 7; }
static void funmask(void *ctx, uint64_t old) { (void)ctx; assert_int_equal(old, 7); f.unmasked_boot++; }
static uint64_t firq_off(void) { __atomic_add_fetch(&f.irq_off, 1, __ATOMIC_SEQ_CST); return 1; }
static void firq_on(uint64_t x) { (void)x; __atomic_add_fetch(&f.irq_on, 1, __ATOMIC_SEQ_CST); }
static hw_status fsmi(const struct hw *hw, uint64_t *c) { (void)hw; *c = f.smi; f.smi += 3; return HW_OK; }
static void *falloc(uint64_t n) { return f.no_memory ? NULL : calloc(1, n ? n : 1); }

static const struct window_mp mp = { NULL, fbegin, fend, fbsp, fstart, fwait, fstalled, frelax, fmask, funmask,
				     firq_off, firq_on, fake_timer, fsmi, falloc, free };

static uint64_t kernel(void *arg) { return (uint64_t)(uintptr_t)arg * 10; }

static int nstart, nstop, ncpu_start, ncpu_stop;
static void cstart(void *c) { (void)c; nstart++; }
static void cstop(void *c) { (void)c; nstop++; }
static void ccpu_start(void *c, int i) { (void)c; (void)i; __atomic_add_fetch(&ncpu_start, 1, __ATOMIC_SEQ_CST); }
static void ccpu_stop(void *c, int i) { (void)c; (void)i; __atomic_add_fetch(&ncpu_stop, 1, __ATOMIC_SEQ_CST); }
static const struct window_counters wc = { cstart, cstop, NULL, ccpu_start, ccpu_stop };

static void reset(void)
{
	memset(&f, 0, sizeof(f));
	clock_ticks = 100;
	nstart = nstop = ncpu_start = ncpu_stop = 0;
}

/* Boot CPU alone: t0 = 101, t1 = 102 (one timer read each), span 1; the SMI count is read
 * before (0) and after (3): delta 3; counters start and stop once, per-CPU once each. */
static void boot_cpu_alone(void **state)
{
	(void)state;
	reset();
	struct window_cpu c = { .cpu = 0, .arg = (void *)5 };
	struct window_spec s = { kernel, &c, 1, 1, &wc, NULL, NULL };
	struct window_result r;
	assert_int_equal(window_seq_run(&mp, NULL, &s, &r), 0);
	assert_int_equal(c.t0, 101);
	assert_int_equal(c.t1, 102);
	assert_int_equal(c.ret, 50);
	assert_int_equal(r.span_ticks, 1);
	assert_int_equal(r.ran, 1);
	assert_true(r.masked && r.boot_masked);
	assert_int_equal(r.smi_status, HW_OK);
	assert_int_equal(r.smi_delta, 3);
	assert_int_equal(nstart, 1);
	assert_int_equal(nstop, 1);
	assert_int_equal(ncpu_start, 1);
	assert_int_equal(ncpu_stop, 1);
	assert_int_equal(f.masked_boot, 1);
	assert_int_equal(f.unmasked_boot, 1);
}

/* Boot CPU and three APs: 4 kernels, 8 timer reads from 101: every t0/t1 lies in 101..108 and
 * the span is the last t1 minus the first t0, at least 1 (one CPU's) and at most 7; every AP
 * masks and unmasks its interrupts once (3 + 3). */
static void four_cpus(void **state)
{
	(void)state;
	reset();
	struct window_cpu c[4];
	for (int i = 0; i < 4; i++)
		c[i] = (struct window_cpu){ .cpu = (uint32_t)(3 - i), .arg = (void *)(uintptr_t)i };
	struct window_spec s = { kernel, c, 4, 1, &wc, NULL, NULL };
	struct window_result r;
	assert_int_equal(window_seq_run(&mp, NULL, &s, &r), 0);
	uint64_t first = ~0ull, last = 0;
	for (int i = 0; i < 4; i++) {
		assert_int_equal(c[i].st, HW_OK);
		assert_int_equal(c[i].ret, (uint64_t)i * 10);
		assert_true(c[i].t0 >= 101 && c[i].t1 <= 108 && c[i].t1 > c[i].t0);
		first = c[i].t0 < first ? c[i].t0 : first;
		last = c[i].t1 > last ? c[i].t1 : last;
	}
	assert_int_equal(r.span_ticks, last - first);
	assert_true(r.span_ticks >= 1 && r.span_ticks <= 7);
	assert_int_equal(r.ran, 4);
	assert_int_equal(f.irq_off, 3);
	assert_int_equal(f.irq_on, 3);
	assert_int_equal(ncpu_start, 4);
	assert_int_equal(ncpu_stop, 4);
	assert_int_equal(nstart, 1);
	assert_int_equal(nstop, 1);
}

/* An AP the firmware refuses: its st says why, the others run, the window returns -1 and
 * counts 2 of 3. */
static void refused_cpu(void **state)
{
	(void)state;
	reset();
	f.refuse_cpu = 2;
	f.refuse_cpu_st = HW_UNSUPPORTED;
	struct window_cpu c[3] = { { .cpu = 0 }, { .cpu = 1 }, { .cpu = 2 } };
	struct window_spec s = { kernel, c, 3, 0, NULL, NULL, NULL };
	struct window_result r;
	assert_int_equal(window_seq_run(&mp, NULL, &s, &r), -1);
	assert_int_equal(c[2].st, HW_UNSUPPORTED);
	assert_int_equal(c[1].st, HW_OK);
	assert_int_equal(r.ran, 2);
	assert_false(r.masked);
	assert_int_equal(f.masked_boot, 0);   /* mask_interrupts 0: the TPL stays */
	assert_int_equal(f.irq_off, 0);
}

static void boot_work(void *ctx) { (*(int *)ctx)++; fake_timer(); }

/* boot_work beside one AP: the boot CPU is not masked (boot_masked 0), boot_t0/t1 are set
 * around the work (which reads the clock once itself: t1 - t0 >= 2), the span covers both. */
static void with_boot_work(void **state)
{
	(void)state;
	reset();
	int worked = 0;
	struct window_cpu c = { .cpu = 1 };
	struct window_spec s = { kernel, &c, 1, 1, NULL, boot_work, &worked };
	struct window_result r;
	assert_int_equal(window_seq_run(&mp, NULL, &s, &r), 0);
	assert_int_equal(worked, 1);
	assert_false(r.boot_masked);
	assert_int_equal(f.masked_boot, 0);
	assert_true(r.boot_t1 >= r.boot_t0 + 2);
	uint64_t first = c.t0 < r.boot_t0 ? c.t0 : r.boot_t0, last = c.t1 > r.boot_t1 ? c.t1 : r.boot_t1;
	assert_int_equal(r.span_ticks, last - first);
	assert_int_equal(f.irq_off, 1);
}

/* No memory for the jobs: no CPU ran, each says HW_ERROR, -1. */
static void no_memory(void **state)
{
	(void)state;
	reset();
	f.no_memory = 1;
	struct window_cpu c[2] = { { .cpu = 0 }, { .cpu = 1 } };
	struct window_spec s = { kernel, c, 2, 1, &wc, NULL, NULL };
	struct window_result r;
	assert_int_equal(window_seq_run(&mp, NULL, &s, &r), -1);
	assert_int_equal(c[0].st, HW_ERROR);
	assert_int_equal(c[1].st, HW_ERROR);
	assert_int_equal(nstart, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(boot_cpu_alone), cmocka_unit_test(four_cpus), cmocka_unit_test(refused_cpu),
		cmocka_unit_test(with_boot_work), cmocka_unit_test(no_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
