/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blockio_run and blockio_write_run (efi/measure/blockio_run.c) on the host: a model disk of
 * 8192 blocks of 512 bytes (4 MiB) in memory, filled with efiperf's pattern (the word at device
 * offset o is (o / 8) XOR 0x2166726570696665, "efiperf!"); a read costs 1000 ticks, a write
 * 2000, a flush 500, on a fake clock at 500 MHz (1 tick = 2 ns). Expected values by hand:
 *   read of dma_bytes 3 MiB: 3 transfers of 1 MiB = 3145728 bytes in 3000 ticks = 6000 ns;
 *   write of blocks 2048..5119: 3072 blocks = 1572864 bytes in 2 writes (1 MiB, 512 KiB) =
 *   4000 ticks, one flush of 500 ticks, 2 reads back; block 2048 starts at device offset
 *   1048576, whose pattern word is 131072 ^ 0x2166726570696665 = 0x21667265706B6665.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/blockio_run.h"

#define HZ 500000000ull
#define BLOCK 512u
#define BLOCKS 8192u
#define MAGIC 0x2166726570696665ull

static uint64_t now;
static uint64_t clock_fake(void) { return now; }

static uint8_t *disk;
static int nreads, nwrites, nflushes, fail_write_at = -1;
static int64_t corrupt_at = -1;
static uint64_t m_read(void *dev, uint64_t lba, uint64_t bytes, void *dst)
{
	assert_ptr_equal(dev, disk);
	assert_true((lba * BLOCK + bytes) <= (uint64_t)BLOCKS * BLOCK);
	nreads++;
	memcpy(dst, disk + lba * BLOCK, bytes);
	now += 1000;
	return 0;
}
static uint64_t m_write(void *dev, uint64_t lba, uint64_t bytes, const void *src)
{
	assert_ptr_equal(dev, disk);
	if (nwrites++ == fail_write_at)
		return 0x8000000000000007ull;   /* EFI_DEVICE_ERROR */
	memcpy(disk + lba * BLOCK, src, bytes);
	if (corrupt_at >= 0 && (uint64_t)corrupt_at >= lba * BLOCK && (uint64_t)corrupt_at < lba * BLOCK + bytes)
		disk[corrupt_at] ^= 0x80;
	now += 2000;
	return 0;
}
static uint64_t m_flush(void *dev)
{
	assert_ptr_equal(dev, disk);
	nflushes++;
	now += 500;
	return 0;
}
static const struct blockio_ops ops = { m_read, m_write, m_flush, clock_fake };

static int fail_alloc, taken, given;
static void *alloc_in(uint64_t bytes, const struct memrange *r, int nr)
{
	(void)r;
	assert_int_equal(nr, 0);
	assert_int_equal(bytes, 1048576);
	if (fail_alloc)
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

static uint64_t expected_write, rate_write, rate_ns;
static int dma_run(void *ctx, const struct dma_window *w, struct dma_window_result *r)
{
	(void)ctx;
	assert_string_equal(w->kernel, "blockio_read");
	memset(r, 0, sizeof(*r));
	w->fn(w->arg, 0, 1);
	expected_write = w->expected->write;
	return 0;
}
static void dma_rate(struct dma_window_result *r, uint64_t rd, uint64_t wr, uint64_t ns)
{
	(void)r;
	assert_int_equal(rd, 0);
	rate_write = wr;
	rate_ns = ns;
}

static const struct measure_ctx ctx = { .alloc_in = alloc_in, .free_in = free_in, .clock = clock_fake, .timer_hz = HZ };

static int setup(void **state)
{
	(void)state;
	disk = calloc(BLOCKS, BLOCK);
	uint64_t *w = (uint64_t *)disk;
	for (uint64_t i = 0; i < (uint64_t)BLOCKS * BLOCK / 8; i++)
		w[i] = i ^ MAGIC;
	now = 0;
	nreads = nwrites = nflushes = fail_alloc = taken = given = 0;
	fail_write_at = -1;
	corrupt_at = -1;
	expected_write = rate_write = rate_ns = 0;
	return 0;
}
static int teardown(void **state)
{
	(void)state;
	free(disk);
	return 0;
}

static struct blockio_request rreq(void)
{
	struct blockio_request r = { .disk = { &ops, NULL, 1, BLOCK, BLOCKS - 1 }, .name = "0000:01:00.0",
				     .dma_bytes = 3u << 20, .dma = { dma_run, dma_rate, NULL } };
	r.disk.dev = disk;
	return r;
}

static void test_read(void **state)
{
	(void)state;
	struct blockio_request req = rreq();
	struct blockio_result res;
	assert_int_equal(blockio_run(&ctx, &req, &res), 0);
	assert_int_equal(res.rd.done, 3145728);
	assert_int_equal(res.rd.ticks, 3000);
	assert_int_equal(res.rd.device_bytes, 4194304);
	assert_int_equal(res.rd.pattern, 1);
	assert_int_equal(nreads, 3);
	assert_int_equal(expected_write, 3145728);
	assert_int_equal(rate_write, 3145728);
	assert_int_equal(rate_ns, 6000);
	assert_int_equal(taken, given);
}

static void test_read_differs(void **state)
{
	(void)state;
	disk[2 * 1048576 + 24] ^= 1;   /* the word at device offset 2 MiB + 24 */
	struct blockio_request req = rreq();
	struct blockio_result res;
	assert_int_equal(blockio_run(&ctx, &req, &res), -1);
	assert_int_equal(res.rd.pattern, 2);
	assert_int_equal(res.rd.bad, 2097176);
}

static void test_read_refused(void **state)
{
	(void)state;
	struct blockio_request req = rreq();
	struct blockio_result res;
	req.dma_bytes = 100;   /* less than one 512-byte block */
	assert_int_equal(blockio_run(&ctx, &req, &res), -1);
	assert_true(res.refused);
	assert_string_equal(res.why, "0000:01:00.0: no media, or smaller than one block");
	assert_int_equal(nreads, 0);
	assert_int_equal(taken, given);
	fail_alloc = 1;
	req.dma_bytes = 1;
	assert_int_equal(blockio_run(&ctx, &req, &res), -1);
	assert_true(res.no_buffer);
}

static struct blockio_write_request wreq(void)
{
	struct blockio_write_request r = { .disk = { &ops, NULL, 1, BLOCK, BLOCKS - 1 },
					   .t = { .set = 1, .first = 2048, .last = 5119 }, .name = "0000:01:00.0/ns1" };
	r.disk.dev = disk;
	memset(disk, 0, (size_t)BLOCKS * BLOCK);   /* a blank disk: the write puts the pattern there */
	return r;
}

static void test_write(void **state)
{
	(void)state;
	struct blockio_write_request req = wreq();
	struct blockio_write_result res;
	assert_int_equal(blockio_write_run(&ctx, &req, &res), 0);
	assert_string_equal(res.status, "ok");
	assert_int_equal(res.blocks, 3072);
	assert_int_equal(res.wticks, 4000);
	assert_int_equal(res.fticks, 500);
	assert_int_equal(nwrites, 2);
	assert_int_equal(nflushes, 1);
	assert_int_equal(nreads, 2);
	uint64_t w;
	memcpy(&w, disk + 1048576, 8);
	assert_int_equal(w, 0x21667265706B6665ull);
	memcpy(&w, disk + 1048576 - 8, 8);     /* block 2047: untouched */
	assert_int_equal(w, 0);
	memcpy(&w, disk + 5120u * BLOCK, 8);   /* block 5120: untouched */
	assert_int_equal(w, 0);
	assert_int_equal(taken, given);
}

static void test_write_fails(void **state)
{
	(void)state;
	struct blockio_write_request req = wreq();
	struct blockio_write_result res;
	fail_write_at = 1;
	assert_int_equal(blockio_write_run(&ctx, &req, &res), -1);
	assert_string_equal(res.status, "WriteBlocks failed");
	assert_int_equal(res.blocks, 2048);   /* the first 1 MiB */
	assert_int_equal(nflushes, 0);
	assert_int_equal(nreads, 0);
}

static void test_write_reads_back_different(void **state)
{
	(void)state;
	struct blockio_write_request req = wreq();
	struct blockio_write_result res;
	corrupt_at = 2 * 1048576 + 9;   /* a byte of the word at device offset 2 MiB + 8 */
	assert_int_equal(blockio_write_run(&ctx, &req, &res), -1);
	assert_string_equal(res.status, "read back differs");
	assert_true(res.differs);
	assert_int_equal(res.bad, 2097160);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_differs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_reads_back_different, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
