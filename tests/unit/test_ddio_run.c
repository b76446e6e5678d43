/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ddio_run (efi/measure/ddio_run.c) on the host: a model disk of 2048 blocks of 512 bytes
 * (1 MiB) carrying efiperf's pattern, each read costing 10 ticks on a fake clock at 500 MHz
 * (1 tick = 2 ns); a model DMA window with no CHA counters (self_check why "cha = off").
 * Expected values by hand, dma_bytes 1 MiB:
 *   point 0, a 4096-byte buffer: 1048576 / 4096 = 256 transfers of 4096 bytes, each written at
 *   offset 0 of the buffer again (t x 4096 mod 4096 = 0): 2560 ticks = 5120 ns;
 *   point 1, a 1 MiB buffer: one transfer of 1048576 bytes, 10 ticks = 20 ns;
 *   both read 1048576 bytes; with no CHA totals the IO LLC hit ratio is absent, why "cha = off".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/ddio_run.h"

#define HZ 500000000ull
#define BLOCK 512u
#define BLOCKS 2048u
#define MAGIC 0x2166726570696665ull

static uint64_t now;
static uint64_t clock_fake(void) { return now; }

static int nreads;
static uint64_t m_read(void *dev, uint64_t lba, uint64_t bytes, void *dst)
{
	(void)dev;
	uint64_t *w = dst;
	for (uint64_t i = 0; i < bytes / 8; i++)
		w[i] = (lba * BLOCK / 8 + i) ^ MAGIC;
	nreads++;
	now += 10;
	return 0;
}
static const struct blockio_ops ops = { m_read, NULL, NULL, clock_fake };

static int fail_at = -1, taken, given;
static uint64_t sizes_asked[4];
static void *alloc_in(uint64_t bytes, const struct memrange *r, int nr)
{
	(void)r;
	assert_int_equal(nr, 0);
	if (taken == fail_at)
		return NULL;
	sizes_asked[taken++] = bytes;
	return aligned_alloc(4096, bytes);
}
static void free_in(void *p, uint64_t bytes)
{
	(void)bytes;
	given++;
	free(p);
}

static char kernels[4][40];
static int nwin;
static int dma_run(void *ctx, const struct dma_window *w, struct dma_window_result *r)
{
	(void)ctx;
	strcpy(kernels[nwin++], w->kernel);
	memset(r, 0, sizeof(*r));
	strcpy(r->sc.why, "cha = off");
	w->fn(w->arg, 0, 1);
	return 0;
}
static void dma_rate(struct dma_window_result *r, uint64_t rd, uint64_t wr, uint64_t ns)
{
	(void)r;
	(void)rd;
	(void)wr;
	(void)ns;
}

static const struct measure_ctx ctx = { .alloc_in = alloc_in, .free_in = free_in, .clock = clock_fake, .timer_hz = HZ };
static struct ddio_request req;
static struct ddio_result res;

static int setup(void **state)
{
	(void)state;
	now = 0;
	nreads = taken = given = nwin = 0;
	fail_at = -1;
	req = (struct ddio_request){ .n = 2, .sizes = { 4096, 1048576 }, .disk = { &ops, NULL, 1, BLOCK, BLOCKS - 1 },
				     .name = "0000:01:00.0", .dma_bytes = 1048576, .dma = { dma_run, dma_rate, NULL } };
	return 0;
}

static void test_sweep(void **state)
{
	(void)state;
	assert_int_equal(ddio_run(&ctx, &req, &res), 0);
	assert_int_equal(res.ran, 2);
	assert_int_equal(res.stop, DDIO_ALL_RAN);
	assert_string_equal(kernels[0], "ddio_sweep:4096");
	assert_string_equal(kernels[1], "ddio_sweep:1048576");
	assert_int_equal(sizes_asked[0], 4096);
	assert_int_equal(sizes_asked[1], 1048576);
	assert_int_equal(res.pt[0].rd.transfers, 256);
	assert_int_equal(res.pt[0].rd.xfer, 4096);
	assert_int_equal(res.pt[0].rd.done, 1048576);
	assert_int_equal(res.pt[0].rd.ticks, 2560);
	assert_int_equal(res.pt[0].rd.pattern, 1);
	assert_int_equal(res.pt[1].rd.transfers, 1);
	assert_int_equal(res.pt[1].rd.done, 1048576);
	assert_int_equal(res.pt[1].rd.ticks, 10);
	assert_int_equal(res.pt[1].hr.state, DDIO_RATIO_ABSENT);
	assert_string_equal(res.pt[1].hr.why, "cha = off");
	assert_int_equal(nreads, 257);
	assert_int_equal(taken, given);
}

static void test_stops_without_buffer(void **state)
{
	(void)state;
	fail_at = 1;
	assert_int_equal(ddio_run(&ctx, &req, &res), -1);
	assert_int_equal(res.ran, 1);
	assert_int_equal(res.stop, DDIO_NO_BUFFER);
	assert_int_equal(nwin, 1);
	assert_int_equal(taken, given);
}

static void test_stops_when_refused(void **state)
{
	(void)state;
	req.disk.block_size = 8192;   /* larger than the 4096-byte transfer of point 0 */
	assert_int_equal(ddio_run(&ctx, &req, &res), -1);
	assert_int_equal(res.ran, 0);
	assert_int_equal(res.stop, DDIO_NO_READ);
	assert_string_equal(res.why, "0000:01:00.0: block size 8192 does not divide the 4096-byte transfer");
	assert_int_equal(nwin, 0);
	assert_int_equal(taken, given);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_sweep, setup),
		cmocka_unit_test_setup(test_stops_without_buffer, setup),
		cmocka_unit_test_setup(test_stops_when_refused, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
