/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dma_cpu_run (efi/measure/dma_cpu_run.c) on the host: a model disk (512-byte blocks, blocks
 * 0..4095 = 2 MiB) whose reads cost 1000 ticks each, a model of the CPU windows (the boot CPU's
 * work first, then each CPU's kernel, a span of 5000 ticks) and a model DMA window that cuts the
 * window into 2 slices; a fake clock at 500 MHz (1 tick = 2 ns); a test triad kernel that
 * computes a = b + s c over the arrays and costs 300 ticks a call. Expected values by hand:
 *   dma_bytes 3 MiB is capped at the disk: 2 MiB = 2097152 bytes in 2 transfers of 1 MiB, one
 *   per slice; 2 x 1000 ticks = 2000 ticks = 4000 ns; 2097152 / 4000 = 524.288 GB/s.
 *   CPUs 0, 1, 2 selected, the boot CPU 0 left out: CPUs 1 and 2 each run one triad pass per
 *   slice (the read is done before they start in the model): 2 passes x 3 arrays x 4096 bytes =
 *   24576 bytes and 600 ticks each; together 49152 bytes, 4 passes, the longest 600 ticks =
 *   1200 ns: 49152 / 1200 = 40.96 GB/s.
 *   window: 2 slices x 5000 ticks = 10000 ticks.
 * The pattern word at device offset o is (o / 8) XOR 0x2166726570696665 ("efiperf!").
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/dma_cpu_run.h"
#include "pmu/metrics.h"

#define HZ 500000000ull
#define SIZE 4096u
#define BLOCK 512u
#define MAGIC 0x2166726570696665ull
#define MIB (1u << 20)

static uint64_t now;
static uint64_t clock_fake(void) { return now; }

/* The triad a = b + s c, 300 ticks a call. */
static uint64_t triad_fn(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	double *x = a;
	const double *y = b, *z = c;
	for (uint64_t i = 0; i < bytes / 8; i++)
		x[i] = y[i] + s * z[i];
	now += 300;
	return 0;
}
static const struct kernel_desc triad = { "triad_test", KERNEL_TRIAD, 0, 64, 64, triad_fn, 0, 0, 0 };

/* The disk model. */
static int pattern_on = 1, fail_read_at = -1, flip_at = -1, reads;
static uint64_t disk_read(void *dev, uint64_t lba, uint64_t bytes, void *dst)
{
	assert_ptr_equal(dev, &reads);
	if (reads++ == fail_read_at)
		return 0x8000000000000007ull;   /* EFI_DEVICE_ERROR (UEFI 2.10 Appendix D) */
	uint64_t *w = dst;
	for (uint64_t i = 0; i < bytes / 8; i++) {
		uint64_t off = lba * BLOCK + i * 8;
		w[i] = pattern_on ? (off / 8) ^ MAGIC : 0x1234;
		if ((int64_t)off == flip_at)
			w[i] ^= 1;
	}
	now += 1000;
	return 0;
}
static const struct blockio_ops disk_ops = { disk_read, NULL, NULL, clock_fake };   /* read only */

/* Memory. */
static int fail_alloc, fail_in_after = -1, taken, given, allocs, frees;
static void *zalloc(uint64_t bytes)
{
	if (fail_alloc)
		return NULL;
	allocs++;
	return calloc(1, bytes);
}
static void zfree(void *p)
{
	frees += p != NULL;
	free(p);
}
static void *alloc_in(uint64_t bytes, const struct memrange *r, int nr)
{
	(void)r;
	assert_int_equal(nr, 0);   /* no SRAT nodes in the selection */
	if (fail_in_after >= 0 && taken >= fail_in_after)
		return NULL;
	taken++;
	return aligned_alloc(4096, bytes);
}
static void free_in(void *p, uint64_t bytes)
{
	(void)bytes;
	given++;
	free(p);
}

/* The CPU windows. */
static int win_fail, nwin;
static int win_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	(void)ctx;
	nwin++;
	assert_true(s->mask_interrupts);
	assert_int_equal(s->ncpus, 2);
	assert_int_equal(s->cpus[0].cpu, 1);
	assert_int_equal(s->cpus[1].cpu, 2);
	s->boot_work(s->boot_ctx);
	for (int i = 0; i < s->ncpus; i++)
		s->kernel(s->cpus[i].arg);
	*r = (struct window_result){ .span_ticks = 5000, .masked = 1 };
	return win_fail ? -1 : 0;
}

/* The DMA window: 2 slices; what rate was asked. */
static uint64_t rate_read, rate_write, rate_ns, expected_write;
static int dma_run(void *ctx, const struct dma_window *w, struct dma_window_result *r)
{
	(void)ctx;
	assert_string_equal(w->kernel, "dma_cpu_traffic");
	memset(r, 0, sizeof(*r));
	w->fn(w->arg, 0, 2);
	w->fn(w->arg, 1, 2);
	expected_write = w->expected->write;
	return 0;
}
static void dma_rate(struct dma_window_result *r, uint64_t rd, uint64_t wr, uint64_t ns)
{
	(void)r;
	rate_read = rd;
	rate_write = wr;
	rate_ns = ns;
}

static const struct measure_ctx ctx = { .win = { win_run, NULL }, .alloc = zalloc, .free = zfree, .alloc_in = alloc_in,
					.free_in = free_in, .clock = clock_fake, .timer_hz = HZ };

static struct dma_cpu_request req;
static struct dma_cpu_result res;

static int setup(void **state)
{
	(void)state;
	now = 0;
	pattern_on = 1;
	fail_read_at = flip_at = fail_in_after = -1;
	reads = fail_alloc = taken = given = allocs = frees = win_fail = nwin = 0;
	rate_read = rate_write = rate_ns = expected_write = 0;
	memset(&req, 0, sizeof(req));
	req.sel = (struct cpu_sel){ .n = 3, .cpu = { 0, 1, 2 }, .node = { -1, -1, -1 }, .mem = { -1, -1, -1 } };
	dma_cpu_sel_without(&req.sel, 0);
	req.kind = KERNEL_TRIAD;
	req.k = &triad;
	req.size = SIZE;
	req.disk = (struct blockio_dev){ &disk_ops, &reads, 1, BLOCK, 4095 };
	strcpy(req.name, "0000:01:00.0");
	req.dma_bytes = 3ull * MIB;
	req.dma = (struct dma_window_ops){ dma_run, dma_rate, NULL };
	return 0;
}

static void everything_given_back(void)
{
	assert_int_equal(taken, given);
	assert_int_equal(allocs, frees);
}

static void test_window(void **state)
{
	(void)state;
	assert_int_equal(dma_cpu_run(&ctx, &req, &res), 0);
	assert_int_equal(res.status, DMA_CPU_RAN);
	assert_int_equal(res.rd.done, 2097152);
	assert_int_equal(res.rd.ticks, 2000);
	assert_int_equal(metric_ticks_to_ns(res.rd.ticks, HZ), 4000);
	assert_int_equal(metric_gbps_milli(res.rd.done, 4000), 524288);
	assert_int_equal(res.rd.pattern, 1);
	assert_int_equal(res.rd.transfers, 2);
	assert_int_equal(res.rd.device_bytes, 2097152);
	assert_int_equal(expected_write, 2097152);   /* self_check's expected bytes */
	assert_int_equal(rate_read, 0);
	assert_int_equal(rate_write, 2097152);
	assert_int_equal(rate_ns, 4000);
	assert_int_equal(res.slices, 2);
	assert_int_equal(nwin, 2);
	assert_int_equal(res.window_ticks, 10000);
	assert_true(res.masked);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(res.cpu[i].passes, 2);
		assert_int_equal(res.cpu[i].app_bytes, 24576);
		assert_int_equal(res.cpu[i].ticks, 600);
		assert_int_equal(res.cpu[i].status, 0);
		assert_int_equal(res.place[i].node, -1);
		assert_false(res.place[i].local);
	}
	assert_int_equal(res.passes, 4);
	assert_int_equal(res.app_bytes, 49152);
	assert_int_equal(res.ticks_max, 600);
	assert_int_equal(metric_gbps_milli(res.app_bytes, metric_ticks_to_ns(res.ticks_max, HZ)), 40960);
	assert_false(res.bad);
	everything_given_back();   /* 1 target + 2 CPUs x 3 arrays */
	assert_int_equal(taken, 7);
}

/* The triad really ran over STREAM's values: a = b + 3 c, checked in one CPU's arrays
 * before they are given back. */
static const double *seen_a, *seen_b, *seen_c;
static double a_word5, b_word5, c_word5;
static int win_run_look(void *c, const struct window_spec *s, struct window_result *r)
{
	int rc = win_run(c, s, r);
	const struct dma_cpu_stream *st = s->cpus[0].arg;
	seen_a = st->r.a;
	seen_b = st->r.b;
	seen_c = st->r.c;
	a_word5 = seen_a[5];
	b_word5 = seen_b[5];
	c_word5 = seen_c[5];
	return rc;
}

static void test_triad_values(void **state)
{
	(void)state;
	struct measure_ctx look = ctx;
	look.win.run = win_run_look;
	assert_int_equal(dma_cpu_run(&look, &req, &res), 0);
	assert_true(b_word5 != 0.0 || c_word5 != 0.0);
	assert_true(a_word5 == b_word5 + 3.0 * c_word5);
}

static void test_pattern_unknown(void **state)
{
	(void)state;
	pattern_on = 0;
	assert_int_equal(dma_cpu_run(&ctx, &req, &res), 0);   /* not verified, not an error */
	assert_int_equal(res.rd.pattern, 0);
	assert_int_equal(res.rd.done, 2097152);
}

static void test_data_differs(void **state)
{
	(void)state;
	flip_at = MIB + 4096;   /* a word of the second transfer */
	assert_int_equal(dma_cpu_run(&ctx, &req, &res), -1);
	assert_int_equal(res.rd.pattern, 2);
	assert_int_equal(res.rd.bad, 1052672);
	everything_given_back();
}

static void test_read_fails(void **state)
{
	(void)state;
	fail_read_at = 1;
	assert_int_equal(dma_cpu_run(&ctx, &req, &res), -1);
	assert_int_equal(res.rd.st, 0x8000000000000007ull);
	assert_int_equal(res.rd.done, 1048576);   /* the first transfer only */
	everything_given_back();
}

static void test_cpu_window_fails(void **state)
{
	(void)state;
	win_fail = 1;
	assert_int_equal(dma_cpu_run(&ctx, &req, &res), -1);
	assert_int_equal(res.status, DMA_CPU_RAN);
	assert_true(res.bad);
}

static void test_no_state(void **state)
{
	(void)state;
	fail_alloc = 1;
	assert_int_equal(dma_cpu_run(&ctx, &req, &res), -1);
	assert_int_equal(res.status, DMA_CPU_NO_STATE);
	assert_int_equal(nwin, 0);
	everything_given_back();
}

static void test_no_arrays(void **state)
{
	(void)state;
	fail_in_after = 4;   /* the target and CPU 1's three arrays, then none */
	assert_int_equal(dma_cpu_run(&ctx, &req, &res), -1);
	assert_int_equal(res.status, DMA_CPU_NO_ARRAYS);
	assert_int_equal(nwin, 0);
	everything_given_back();
}

static void test_no_kernel(void **state)
{
	(void)state;
	req.k = NULL;
	assert_int_equal(dma_cpu_run(&ctx, &req, &res), -1);
	assert_int_equal(res.status, DMA_CPU_NO_KERNEL);
	assert_int_equal(reads, 0);
	everything_given_back();
}

static void test_block_size_refused(void **state)
{
	(void)state;
	req.disk.block_size = 520;   /* 1048576 / 520 is not whole */
	assert_int_equal(dma_cpu_run(&ctx, &req, &res), -1);
	assert_int_equal(res.status, DMA_CPU_NO_READ);
	assert_string_equal(res.why, "0000:01:00.0: block size 520 does not divide the 1048576-byte transfer");
	assert_int_equal(nwin, 0);
	everything_given_back();
}

static void test_sel_without(void **state)
{
	(void)state;
	struct cpu_sel s = { .n = 4, .cpu = { 5, 0, 7, 9 }, .node = { 1, 0, 1, -1 }, .mem = { 1, 0, 1, -1 }, .nnodes = 2 };
	dma_cpu_sel_without(&s, 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.cpu[0], 5);
	assert_int_equal(s.cpu[1], 7);
	assert_int_equal(s.cpu[2], 9);
	assert_int_equal(s.node[1], 1);
	assert_int_equal(s.mem[2], -1);
	assert_int_equal(s.nnodes, 2);
	dma_cpu_sel_without(&s, 42);   /* not there: unchanged */
	assert_int_equal(s.n, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_window, setup),
		cmocka_unit_test_setup(test_triad_values, setup),
		cmocka_unit_test_setup(test_pattern_unknown, setup),
		cmocka_unit_test_setup(test_data_differs, setup),
		cmocka_unit_test_setup(test_read_fails, setup),
		cmocka_unit_test_setup(test_cpu_window_fails, setup),
		cmocka_unit_test_setup(test_no_state, setup),
		cmocka_unit_test_setup(test_no_arrays, setup),
		cmocka_unit_test_setup(test_no_kernel, setup),
		cmocka_unit_test_setup(test_block_size_refused, setup),
		cmocka_unit_test_setup(test_sel_without, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
