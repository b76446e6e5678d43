/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cache_bw_measure (efi/measure/cache_bw_run.c) on the host: a model of the windows checks each
 * window's kernel runs and fills each CPU's best pass and application bytes as a script says
 * (the kernels themselves do not run), arrays from malloc, a kernel chooser that hands out one
 * stand-in kernel per kind. Timer: 1 GHz (1 tick = 1 ns). Streams per kind (load 1, store 1,
 * copy 2, triad 3: STREAM / likwid-bench's kernels) give the calls per 8 MiB pass. Expected
 * values are worked out by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/cache_bw_run.h"

#define HZ 1000000000ull

static const struct kernel_desc fake_k[4] = {
	{ .name = "load_fake", .kind = KERNEL_LOAD }, { .name = "store_fake", .kind = KERNEL_STORE },
	{ .name = "copy_fake", .kind = KERNEL_COPY }, { .name = "triad_fake", .kind = KERNEL_TRIAD },
};

struct model {
	int windows, fail_window, fail_alloc_at, allocs, frees, chooses;
	uint64_t tick;
	int no_store;       /* the chooser has no store kernel */
};
static struct model mdl;

static uint64_t fake_clock(void) { return mdl.tick++; }

static void *buf_alloc(void *ctx, int i, uint64_t bytes)
{
	(void)ctx;
	(void)i;
	if (++mdl.allocs == mdl.fail_alloc_at)
		return NULL;
	assert_int_equal(bytes % 4096, 0);
	return aligned_alloc(4096, bytes);
}
static void buf_free(void *ctx, void *p, uint64_t bytes)
{
	(void)ctx;
	(void)bytes;
	mdl.frees += p != NULL;
	free(p);
}

static const struct kernel_desc *choose(void *ctx, enum kernel_kind kind, void *const arr[CACHE_BW_ARRAYS],
					uint64_t bytes, struct kernel_tune *t, int *tune_failed,
					const struct kernel_desc **fallback)
{
	(void)ctx;
	(void)bytes;
	assert_non_null(arr[0]);
	mdl.chooses++;
	memset(t, 0, sizeof(*t));
	*fallback = &fake_k[kind == KERNEL_LOAD ? 0 : kind == KERNEL_STORE ? 1 : kind == KERNEL_COPY ? 2 : 3];
	if (kind == KERNEL_STORE && mdl.no_store)
		return NULL;
	if (kind == KERNEL_TRIAD) {   /* the tuner found none: the fallback is used */
		t->status = -2;
		*tune_failed = 1;
	}
	return *fallback;
}

/* One CPU alone: 1000 ns best pass; with all: CPU i takes 1000 x (i + 1) ns. Each CPU's
 * application bytes per pass = 16384, over 2 passes. */
static int model_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	(void)ctx;
	assert_int_equal(s->mask_interrupts, 1);
	assert_non_null(s->kernel);
	int failed = ++mdl.windows == mdl.fail_window;
	for (int i = 0; i < s->ncpus; i++) {
		struct kernel_run *k = s->cpus[i].arg;
		assert_int_equal(s->cpus[i].cpu, 10 + (uint32_t)i);
		assert_int_equal(k->passes, 2);
		assert_ptr_equal(k->timer, fake_clock);
		assert_true(k->scalar == 3.0);
		k->status = failed && i == s->ncpus - 1 ? -1 : 0;
		k->app_bytes = 2 * 16384;
		k->ticks_min = 1000 * (uint64_t)(i + 1);
	}
	*r = (struct window_result){ .span_ticks = 5000, .masked = 1, .ran = failed ? s->ncpus - 1 : s->ncpus,
				     .smi_status = HW_OK };
	return failed ? -1 : 0;
}

static int fail_work;
static void *work_alloc(uint64_t bytes) { return fail_work ? NULL : calloc(1, bytes); }

static struct cache_bw_request req;
static struct cache_bw_result res;

static struct measure_ctx setup(void)
{
	memset(&mdl, 0, sizeof(mdl));
	fail_work = 0;
	/* L1: 48 KiB, arrays of 8 KiB (one CPU and each); DRAM: 64 KiB arrays */
	req = (struct cache_bw_request){ .n = 2, .cpu = { 10, 11 }, .nlevels = 2, .passes = 2, .buf_alloc = buf_alloc,
					 .buf_free = buf_free, .choose = choose, .timer_hz = HZ };
	req.level[0] = (struct cache_bw_level){ "L1", 49152, 8192, 8192 };
	req.level[1] = (struct cache_bw_level){ "DRAM", 0, 65536, 65536 };
	return (struct measure_ctx){ .win = { model_run, NULL }, .alloc = work_alloc, .free = free, .clock = fake_clock,
				     .timer_hz = HZ };
}

static void test_levels(void **state)
{
	(void)state;
	struct measure_ctx ctx = setup();
	assert_int_equal(cache_bw_measure(&ctx, &req, &res), 0);
	assert_int_equal(res.nlevels, 2);
	/* L1's arrays: max(8192, the tuner's room 2 x 8192 + 64 -> 5 pages = 20480) = 20480 bytes */
	assert_int_equal(res.lv[0].alloc, 20480);
	assert_int_equal(res.lv[1].alloc, 65536);
	/* 2 levels x 2 CPUs x 3 arrays, each given back */
	assert_int_equal(mdl.allocs, 12);
	assert_int_equal(mdl.frees, 12);
	assert_int_equal(mdl.chooses, 8);
	assert_int_equal(mdl.windows, 16);        /* 2 levels x 4 kinds x (one, all) */
	const struct cache_bw_level_result *l1 = &res.lv[0];
	assert_int_equal(l1->nk, 4);
	assert_int_equal(l1->k[0].kind, KERNEL_LOAD);
	assert_ptr_equal(l1->k[0].k, &fake_k[0]);
	/* one CPU: 16384 B per pass / 1000 ns = 16.384 GB/s */
	assert_int_equal(l1->k[0].one.gbps_milli, 16384);
	assert_true(l1->k[0].one.ok);
	/* all: 2 x 16384 B over the slowest best pass (2000 ns) = 16.384 GB/s; CPU 11: 8.192 */
	assert_int_equal(l1->k[0].all.gbps_milli, 16384);
	assert_int_equal(res.cpu_gbps[0], 16384);
	assert_int_equal(res.cpu_gbps[1], 8192);
	/* calls per 8 MiB pass over 8192-byte arrays: load 1 stream -> 8388608 / 8192 = 1024;
	 * copy 2 -> 512; triad 3 -> 8388608 / 24576 = 341 */
	assert_int_equal(l1->k[0].one.reps, 1024);
	assert_int_equal(l1->k[2].one.reps, 512);
	assert_int_equal(l1->k[3].one.reps, 341);
	assert_true(l1->k[3].tune_failed);
	assert_int_equal(l1->k[3].tune.status, -2);
	/* DRAM, copy: 2 x 65536 = 131072 B a call -> 64 calls; its per-CPU rates at [(1 x 4 + 2) x 2] */
	assert_int_equal(res.lv[1].k[2].all.reps, 64);
	assert_int_equal(res.cpu_gbps[(1 * 4 + 2) * 2 + 1], 8192);
	cache_bw_result_free(&ctx, &res);
}

static void test_cpu_did_not_run(void **state)
{
	(void)state;
	struct measure_ctx ctx = setup();
	mdl.no_store = 1;
	mdl.fail_window = 4;   /* L1: load one, load all, copy one, copy all (store left out) */
	assert_int_equal(cache_bw_measure(&ctx, &req, &res), -1);
	const struct cache_bw_level_result *l1 = &res.lv[0];
	assert_int_equal(l1->nk, 3);
	assert_int_equal(l1->k[1].kind, KERNEL_COPY);
	assert_true(l1->k[1].one.ok);
	assert_false(l1->k[1].all.ok);
	assert_true(l1->k[0].all.ok);
	assert_int_equal(res.lv[1].nk, 3);       /* DRAM still ran */
	cache_bw_result_free(&ctx, &res);
}

static void test_alloc_failures(void **state)
{
	(void)state;
	struct measure_ctx ctx = setup();
	mdl.fail_alloc_at = 5;   /* L1: CPU 1's second array */
	assert_int_equal(cache_bw_measure(&ctx, &req, &res), -1);
	assert_true(res.lv[0].alloc_failed);
	assert_int_equal(res.lv[0].nk, 0);
	assert_false(res.lv[1].alloc_failed);
	assert_int_equal(res.lv[1].nk, 4);
	assert_int_equal(mdl.windows, 8);        /* DRAM's only */
	assert_int_equal(mdl.frees, mdl.allocs - 1);
	cache_bw_result_free(&ctx, &res);
	ctx = setup();
	fail_work = 1;
	assert_int_equal(cache_bw_measure(&ctx, &req, &res), -1);
	assert_true(res.no_memory);
	assert_int_equal(mdl.windows + mdl.allocs, 0);
}

static void test_array_bytes(void **state)
{
	(void)state;
	/* half the level over 3 arrays and the sharers, in whole pages, at least one page */
	assert_int_equal(cache_bw_array_bytes(49152, 1), 8192);          /* 48 KiB / 6 */
	assert_int_equal(cache_bw_array_bytes(1048576, 3), 57344);       /* 58254 -> 14 pages */
	assert_int_equal(cache_bw_array_bytes(1000, 1), 4096);
	assert_int_equal(cache_bw_array_bytes(49152, 0), 8192);          /* 0 sharers: one */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_cpu_did_not_run),
		cmocka_unit_test(test_alloc_failures),
		cmocka_unit_test(test_array_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
