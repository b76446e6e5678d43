/* SPDX-License-Identifier: BSD-2-Clause */
/* efi/nvme/nvme_point.c (a measurement point over efiperf's own queues) against
 * tests/model/nvme_model.c, whose own counters are the oracle of what a device moved: data
 * bytes, 64-byte SQEs fetched, 16-byte CQEs posted, PRP list entries fetched, and the most
 * completions the host left pending (the queue depth it kept). Expected values are literals
 * from NVMe 1.4 (4.1 entry sizes, 4.3 PRP lists) and the point's size, never the driver's
 * macros. Also: two controllers in one loop, writes confined to their region, verification,
 * a refused Create I/O SQ giving the controller back disabled, a hung and a failed controller. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/nvme_model.h"
#include "efi/nvme/nvme_point.h"
#include "efi/measure/dma_pattern.h"

#define OPC_WRITE 0x01     /* NVM Command Set 1.0, "Opcodes for NVM Commands" */
#define OPC_READ 0x02
#define NSZE 4096u         /* 512-byte LBAs: a 2 MiB namespace */
#define LBADS 9u
#define MIB (1u << 20)

struct dev {
	struct nvm_model m;
	struct hw h;
	uint8_t *disk;
	struct nvme_ctrl c;
	struct nvme_queue q;
	struct nvme_mem buf;
	uint64_t lat[4096];
};

static struct dev *dv[2];
static uint64_t ticks;
static void *blocks[128];
static int nblocks;

static int alloc(void *arg, uint64_t bytes, struct nvme_mem *out)
{
	(void)arg;
	void *p = aligned_alloc(4096, (size_t)bytes);
	if (!p || nblocks == 128)
		return -1;
	blocks[nblocks++] = p;
	*out = (struct nvme_mem){ p, (uint64_t)(uintptr_t)p, bytes };
	return 0;
}

static uint64_t now(void *arg) { (void)arg; return ticks += 1000; }   /* 1 us a call at 1 GHz */

static struct nvme_env env(struct dev *d)
{
	return (struct nvme_env){ .hw = &d->h, .bar = NVM_MODEL_BAR, .alloc = alloc, .now = now, .hz = 1000000000ull };
}

static int setup(void **state)
{
	(void)state;
	nblocks = 0;
	for (int i = 0; i < 2; i++) {
		struct dev *d = dv[i] = calloc(1, sizeof(*d));
		d->disk = calloc(NSZE, 1u << LBADS);
		dma_pattern_fill(d->disk, 0, (uint64_t)NSZE << LBADS);
		nvm_model_init(&d->m, 0x7FF, d->disk, NSZE, LBADS);
		d->h = nvm_model_hw(&d->m);
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < nblocks; i++)
		free(blocks[i]);
	for (int i = 0; i < 2; i++) {
		free(dv[i]->disk);
		free(dv[i]);
	}
	return 0;
}

/* Take d's controller with a queue for `depth` and a lane of bs bytes over `bytes`. */
static void lane(struct dev *d, struct nvme_lane *l, uint8_t opc, uint32_t bs, uint32_t depth, uint64_t bytes)
{
	struct nvme_env e = env(d);
	assert_int_equal(nvme_take(&d->c, &e, &d->q, (uint16_t)(depth + 1)), 0);
	assert_int_equal(alloc(NULL, (uint64_t)(depth + 1) * bs, &d->buf), 0);
	memset(d->buf.host, 0, (size_t)(depth + 1) * bs);
	memset(l, 0, sizeof(*l));
	*l = (struct nvme_lane){ .c = &d->c, .q = &d->q, .buf = &d->buf, .opc = opc, .bs = bs, .iodepth = depth,
				 .first_lba = 0, .lbas = NSZE, .bytes = bytes, .lat = d->lat, .lat_cap = 4096 };
}

static void test_percentiles_nearest_rank(void **state)
{
	(void)state;
	uint64_t a[10] = { 7, 3, 10, 1, 9, 2, 8, 4, 6, 5 }, p50, p99, max;
	nvme_lat_summary(a, 10, &p50, &p99, &max);
	assert_int_equal(p50, 5);    /* rank ceil(0.50 x 10) = 5 */
	assert_int_equal(p99, 10);   /* rank ceil(0.99 x 10) = 10 */
	assert_int_equal(max, 10);
	for (int i = 0; i < 10; i++)
		assert_int_equal(a[i], i + 1);   /* sorted in place */
	uint64_t b[200];
	for (int i = 0; i < 200; i++)
		b[i] = (uint64_t)((i * 77) % 200) + 1;   /* 1..200, shuffled */
	nvme_lat_summary(b, 200, &p50, &p99, &max);
	assert_int_equal(p50, 100);
	assert_int_equal(p99, 198);
	assert_int_equal(max, 200);
	uint64_t one = 42;
	nvme_lat_summary(&one, 1, &p50, &p99, &max);
	assert_true(p50 == 42 && p99 == 42 && max == 42);
	nvme_lat_summary(NULL, 0, &p50, &p99, &max);
	assert_true(p50 == 0 && p99 == 0 && max == 0);
}

static void test_read_4k_depth16_counts(void **state)
{
	(void)state;
	struct dev *d = dv[0];
	struct nvme_lane l;
	lane(d, &l, OPC_READ, 4096, 16, MIB);
	struct nvm_model before = d->m;
	assert_int_equal(nvme_point_run(&l, 1, 1000000000ull), 0);
	/* 1 MiB / 4 KiB = 256 commands: 256 x 64 SQE bytes, 256 x 16 CQE bytes, no PRP list
	 * (a 4 KiB page-aligned transfer is PRP1 alone) */
	assert_int_equal(l.submitted, 256);
	assert_int_equal(l.completed, 256);
	assert_int_equal(d->m.dma_sqe_bytes - before.dma_sqe_bytes, 16384);
	assert_int_equal(d->m.dma_cqe_bytes - before.dma_cqe_bytes, 4096);
	assert_int_equal(d->m.dma_prp_bytes - before.dma_prp_bytes, 0);
	assert_int_equal(d->m.dma_data_written - before.dma_data_written, MIB);
	assert_int_equal(l.dma.sqe_bytes, 16384);
	assert_int_equal(l.dma.cqe_bytes, 4096);
	assert_int_equal(l.dma.prp_bytes, 0);
	assert_int_equal(l.dma.data_bytes, MIB);
	assert_int_equal(d->m.max_cq_pending, 16);   /* the host kept 16 in flight, never more */
	assert_true(l.t_last > l.t_first);
	uint64_t p50, p99, max, bad;
	nvme_lat_summary(l.lat, l.completed, &p50, &p99, &max);
	assert_true(p50 > 0 && p50 <= p99 && p99 <= max);
	assert_int_equal(nvme_point_verify(&l, &bad), 1);
	/* a byte of the disk changed under the last command of slot 3: verification says where */
	uint64_t off = l.slot_lba[3] * 512 + 100;
	d->disk[off] ^= 0xFF;
	assert_int_equal(nvme_point_run(&l, 1, 1000000000ull), 0);
	assert_int_equal(nvme_point_verify(&l, &bad), 0);
	assert_int_equal(bad, off & ~7ull);
	assert_int_equal(nvme_release(&d->c, &d->q), 0);
	assert_false(d->m.sq[1].exists || d->m.cq[1].exists);
	assert_int_equal(d->m.csts & 1, 0);          /* disabled, as the firmware driver expects */
	assert_int_equal(d->m.cc & 1, 0);
}

static void test_read_128k_prp_lists(void **state)
{
	(void)state;
	struct dev *d = dv[0];
	struct nvme_lane l;
	lane(d, &l, OPC_READ, 128 * 1024, 4, MIB);
	struct nvm_model before = d->m;
	assert_int_equal(nvme_point_run(&l, 1, 1000000000ull), 0);
	/* 8 commands of 32 pages: PRP1 + a list of 31 entries of 8 bytes each (NVMe 1.4 4.3) */
	assert_int_equal(l.submitted, 8);
	assert_int_equal(d->m.dma_prp_bytes - before.dma_prp_bytes, 8 * 31 * 8);
	assert_int_equal(l.dma.prp_bytes, 1984);
	assert_int_equal(d->m.max_cq_pending, 4);
	uint64_t bad;
	assert_int_equal(nvme_point_verify(&l, &bad), 1);
	/* zeros on the disk: not efiperf's pattern, so not verified either way */
	memset(d->disk, 0, (size_t)NSZE << LBADS);
	assert_int_equal(nvme_point_run(&l, 1, 1000000000ull), 0);
	assert_int_equal(nvme_point_verify(&l, &bad), -1);
}

static void test_two_controllers_one_loop(void **state)
{
	(void)state;
	struct nvme_lane l[2];
	lane(dv[0], &l[0], OPC_READ, 4096, 8, MIB / 2);
	lane(dv[1], &l[1], OPC_READ, 64 * 1024, 2, MIB);
	assert_int_equal(nvme_point_run(l, 2, 1000000000ull), 0);
	assert_int_equal(l[0].completed, 128);
	assert_int_equal(l[1].completed, 16);
	assert_int_equal(dv[0]->m.max_cq_pending, 8);
	assert_int_equal(dv[1]->m.max_cq_pending, 2);
	/* 64 KiB = 16 pages: 15 list entries per command */
	assert_int_equal(dv[1]->m.dma_prp_bytes, 16 * 15 * 8);
	/* each lane's time span overlaps the other's: one loop, not one after the other */
	assert_true(l[0].t_first < l[1].t_last && l[1].t_first < l[0].t_last);
	uint64_t bad;
	assert_int_equal(nvme_point_verify(&l[0], &bad), 1);
	assert_int_equal(nvme_point_verify(&l[1], &bad), 1);
}

static void test_writes_stay_in_region(void **state)
{
	(void)state;
	struct dev *d = dv[0];
	memset(d->disk, 0, (size_t)NSZE << LBADS);
	struct nvme_lane l;
	lane(d, &l, OPC_WRITE, 8192, 4, 64 * 1024);
	l.first_lba = 100;
	l.lbas = 40;          /* LBAs 100..139: 2 whole 16-LBA commands, then wrap */
	assert_int_equal(nvme_point_run(&l, 1, 1000000000ull), 0);
	assert_int_equal(d->m.dma_data_read, 64 * 1024);
	uint64_t bad;
	assert_int_equal(dma_pattern_check(d->disk + 100 * 512, 100 * 512, 32 * 512, &bad), 0);
	for (size_t i = 0; i < (size_t)NSZE << LBADS; i++)
		if (i < 100 * 512 || i >= 132 * 512)
			assert_int_equal(d->disk[i], 0);
}

static void test_refused_create_sq_gives_back(void **state)
{
	(void)state;
	struct dev *d = dv[0];
	d->m.refuse_create_sq = 0x101;   /* SCT 1 SC 01h: Invalid Queue Identifier */
	struct nvme_env e = env(d);
	assert_int_equal(nvme_take(&d->c, &e, &d->q, 33), -1);
	assert_string_equal(d->c.why, "Create I/O SQ: status SCT 1 SC 0x01 (CID 4, expected 4)");
	assert_false(d->m.cq[1].exists || d->m.sq[1].exists);
	assert_int_equal(d->m.cc & 1, 0);             /* left disabled for the firmware driver */
	assert_int_equal(d->m.csts & 1, 0);
	assert_int_equal(d->m.resets, 2);             /* the firmware's enable, then efiperf's */
	/* the firmware driver can take it again: a fresh take succeeds once the refusal is gone */
	d->m.refuse_create_sq = 0;
	assert_int_equal(nvme_take(&d->c, &e, &d->q, 33), 0);
	assert_int_equal(nvme_release(&d->c, &d->q), 0);
}

static void test_not_nvm_left_untouched(void **state)
{
	(void)state;
	struct dev *d = dv[0];
	d->m.cap &= ~(1ull << 37);
	struct nvme_env e = env(d);
	assert_int_equal(nvme_take(&d->c, &e, &d->q, 2), -1);
	assert_int_equal(d->m.resets, 0);
	assert_int_equal(d->m.cc & 1, 1);             /* still the firmware's enabled controller */
}

static void test_hung_and_failed_controllers(void **state)
{
	(void)state;
	struct nvme_lane l[2];
	lane(dv[0], &l[0], OPC_READ, 4096, 4, 64 * 1024);
	lane(dv[1], &l[1], OPC_READ, 4096, 4, 64 * 1024);
	dv[0]->m.hold_completions = 1;
	dv[1]->m.hold_completions = 1;
	dv[1]->m.csts |= 2;                           /* CSTS.CFS */
	assert_int_equal(nvme_point_run(l, 2, 5000000ull), -1);
	assert_true(l[0].timed_out && !l[0].fatal);
	assert_true(l[1].fatal && !l[1].timed_out);
	assert_int_equal(l[0].submitted, 4);           /* iodepth, then nothing came back */
	assert_int_equal(l[0].completed, 0);
	/* given back all the same: disabled */
	dv[0]->m.hold_completions = 0;
	nvme_release(&dv[0]->c, &dv[0]->q);
	assert_int_equal(dv[0]->m.cc & 1, 0);
}

static void test_status_errors_counted(void **state)
{
	(void)state;
	struct dev *d = dv[0];
	struct nvme_lane l;
	lane(d, &l, OPC_READ, 4096, 2, 16 * 4096);
	l.first_lba = NSZE - 16;
	l.lbas = 32;          /* runs past the namespace: LBA Out of Range (SC 80h) */
	assert_int_equal(nvme_point_run(&l, 1, 1000000000ull), -1);
	assert_int_equal(l.completed, 16);
	assert_int_equal(l.failed, 8);
	assert_int_equal(l.first_status, 0x80);
	assert_int_equal(l.dma.data_bytes, 8 * 4096);
}

/* A region smaller than one command of bs (a 64 KiB namespace under 128K commands, or
 * nvme_write_lba 2048-2055 of 512-byte LBAs under 128K): nothing is submitted, the lane says
 * region_short at once (no division by a zero span, no wait for the timeout), nothing moves. */
static void test_region_smaller_than_one_command(void **state)
{
	(void)state;
	struct dev *d = dv[0];
	memset(d->disk, 0, (size_t)NSZE << LBADS);
	struct nvme_lane l;
	lane(d, &l, OPC_WRITE, 128 * 1024, 4, MIB);
	l.first_lba = 2048;
	l.lbas = 8;           /* 2048-2055: 4 KiB */
	uint64_t t0 = ticks;
	assert_int_equal(nvme_point_run(&l, 1, 1000000000ull), -1);
	assert_true(l.region_short);
	assert_false(l.timed_out || l.fatal);
	assert_int_equal(l.submitted, 0);
	assert_int_equal(d->m.dma_data_read, 0);
	assert_true(ticks - t0 < 1000000ull);        /* returned at once: far below the 1 s timeout */
	for (size_t i = 0; i < (size_t)NSZE << LBADS; i++)
		assert_int_equal(d->disk[i], 0);
	assert_int_equal(nvme_lane_written_lbas(&l), 0);
	/* the same lane with a region of exactly one command runs */
	l.lbas = 256;
	assert_int_equal(nvme_point_run(&l, 1, 1000000000ull), 0);
	assert_false(l.region_short);
	assert_int_equal(l.completed, 8);            /* 1 MiB of 128K commands, all on LBAs 2048..2303 */
	assert_int_equal(nvme_lane_written_lbas(&l), 256);
}

/* Whole commands a region holds: 64 KiB / 128 KiB -> 0; 4 KiB / 4 KiB -> 1; bs not a multiple
 * of the LBA size, or below it -> 0. */
static void test_region_commands(void **state)
{
	(void)state;
	assert_int_equal(nvme_region_commands(128, 131072, 512), 0);   /* 64 KiB namespace */
	assert_int_equal(nvme_region_commands(256, 131072, 512), 1);
	assert_int_equal(nvme_region_commands(8, 4096, 512), 1);
	assert_int_equal(nvme_region_commands(40, 8192, 512), 2);      /* 2 whole, then the walk wraps */
	assert_int_equal(nvme_region_commands(1000, 2048, 4096), 0);   /* bs below one LBA */
	assert_int_equal(nvme_region_commands(1000, 6144, 4096), 0);   /* not whole LBAs */
	assert_int_equal(nvme_region_commands(1000, 4096, 0), 0);
	assert_int_equal(nvme_region_commands(0, 4096, 512), 0);
}

/* What a read-back must cover: the LBAs the writes reached, not the whole range. 16 KiB of 4K
 * commands into a 1000-LBA range: LBAs 0..31 only; 64 KiB into a 40-LBA range of 8K commands:
 * the walk wraps after 2 commands, so 32 LBAs. */
static void test_written_lbas(void **state)
{
	(void)state;
	struct dev *d = dv[0];
	memset(d->disk, 0, (size_t)NSZE << LBADS);
	struct nvme_lane l;
	lane(d, &l, OPC_WRITE, 8192, 4, 16 * 1024);   /* slots for 8K commands: both parts fit */
	l.bs = 4096;
	l.first_lba = 500;
	l.lbas = 1000;
	assert_int_equal(nvme_point_run(&l, 1, 1000000000ull), 0);
	assert_int_equal(nvme_lane_written_lbas(&l), 32);
	uint64_t bad;
	assert_int_equal(dma_pattern_check(d->disk + 500 * 512, 500 * 512, 32 * 512, &bad), 0);
	assert_int_not_equal(dma_pattern_check(d->disk + 532 * 512, 532 * 512, 512, &bad), 0);   /* not written */
	l.bs = 8192;
	l.lbas = 40;
	l.bytes = 64 * 1024;
	assert_int_equal(nvme_point_run(&l, 1, 1000000000ull), 0);
	assert_int_equal(nvme_lane_written_lbas(&l), 32);
	l.opc = OPC_READ;
	assert_int_equal(nvme_lane_written_lbas(&l), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles_nearest_rank),
		cmocka_unit_test_setup_teardown(test_read_4k_depth16_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_128k_prp_lists, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_controllers_one_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writes_stay_in_region, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_create_sq_gives_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_nvm_left_untouched, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hung_and_failed_controllers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_errors_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_region_smaller_than_one_command, setup, teardown),
		cmocka_unit_test(test_region_commands),
		cmocka_unit_test_setup_teardown(test_written_lbas, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
