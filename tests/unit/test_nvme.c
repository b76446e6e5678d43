/* SPDX-License-Identifier: BSD-2-Clause */
/* efi/nvme/ (efiperf's own NVMe queues) against tests/model/nvme_model.c: taking the controller
 * (disable, admin queue, enable, Identify, Number of Queues), I/O queues with interrupts off,
 * reads and writes at queue depth with PRP1/PRP2/PRP lists, completion phase across wraps,
 * deletion order, and every failure named: a refused Create I/O SQ, CSTS.CFS on enable, a
 * controller that never completes, a CAP without the NVM command set. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/nvme_model.h"
#include "efi/nvme/nvme.h"
#include "efi/measure/dma_pattern.h"

/* NVM Command Set 1.0, Figure "Opcodes for NVM Commands": Write 01h, Read 02h */
#define OPC_WRITE 0x01
#define OPC_READ 0x02
#define LBADS 12u          /* 4096-byte LBAs */
#define NSZE 256u          /* 1 MiB namespace */

static struct nvm_model m;
static struct hw h;
static uint8_t *disk;
static uint64_t fake_ticks;
static void *blocks[64];
static int nblocks;

static int alloc(void *arg, uint64_t bytes, struct nvme_mem *out)
{
	(void)arg;
	void *p = aligned_alloc(4096, (size_t)bytes);
	if (!p || nblocks == 64)
		return -1;
	blocks[nblocks++] = p;
	*out = (struct nvme_mem){ p, (uint64_t)(uintptr_t)p, bytes };
	return 0;
}

/* 1 ms per call: every wait loop's limit is reached in a bounded number of polls. */
static uint64_t now(void *arg) { (void)arg; return fake_ticks += 1000000; }

static struct nvme_env env(void)
{
	return (struct nvme_env){ .hw = &h, .bar = NVM_MODEL_BAR, .alloc = alloc, .now = now, .hz = 1000000000ull };
}

static int setup(void **state)
{
	(void)state;
	disk = calloc(NSZE, 1u << LBADS);
	dma_pattern_fill(disk, 0, (uint64_t)NSZE << LBADS);
	nvm_model_init(&m, 0x7FF, disk, NSZE, LBADS);
	h = nvm_model_hw(&m);
	nblocks = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < nblocks; i++)
		free(blocks[i]);
	free(disk);
	return 0;
}

static struct nvme_ctrl c;
static struct nvme_queue q;

static void test_prp_literals(void **state)
{
	(void)state;
	uint64_t list[8] = { 0 }, p1, p2;
	assert_int_equal(nvme_prp(0x100000, 4096, list, 0x900000, &p1, &p2), 0);
	assert_int_equal(p1, 0x100000);
	assert_int_equal(p2, 0);
	assert_int_equal(nvme_prp(0x100000, 8192, list, 0x900000, &p1, &p2), 0);
	assert_int_equal(p2, 0x101000);
	assert_int_equal(nvme_prp(0x100000, 3 * 4096, list, 0x900000, &p1, &p2), 2);
	assert_int_equal(p2, 0x900000);
	assert_int_equal(list[0], 0x101000);
	assert_int_equal(list[1], 0x102000);
}

static void test_take_identify_queues(void **state)
{
	(void)state;
	struct nvme_env e = env();
	assert_int_equal(nvme_init(&c, &e, 4), 0);
	assert_string_equal(c.sn, "EFIPERF-MODEL-0001");
	assert_string_equal(c.mn, "efiperf NVMe model");
	assert_int_equal(c.lba_bytes, 4096);
	assert_int_equal(c.nsze, NSZE);
	assert_int_equal(c.max_xfer, 128 * 1024);       /* MDTS 5: 2^5 x 4 KiB */
	assert_int_equal(c.mqes, 0x7FF);
	assert_int_equal(c.to_ms, 7500);
	assert_int_equal(c.nioq, 4);                    /* asked 4, model grants 8 */
	assert_int_equal(m.resets, 1);                  /* the firmware's enabled controller was disabled */
	assert_int_equal(m.enables, 1);
	assert_int_equal(m.aqa, (NVME_ADMIN_ENTRIES - 1) << 16 | (NVME_ADMIN_ENTRIES - 1));

	assert_int_equal(nvme_queue_create(&c, &q, 1, 64), 0);
	assert_true(m.cq[1].exists && m.sq[1].exists);
	assert_int_equal(m.sq[1].size, 64);
	assert_int_equal(m.sq[1].cqid, 1);
	/* QID 0 and beyond what the controller granted are refused, naming the limits */
	struct nvme_queue q2;
	assert_int_equal(nvme_queue_create(&c, &q2, 5, 64), -1);
	assert_string_equal(c.why, "I/O queue 5 of 64 entries: QID 1..4 and 2..1024 entries allowed");
}

static void test_reads_at_depth_verify(void **state)
{
	(void)state;
	struct nvme_env e = env();
	assert_int_equal(nvme_init(&c, &e, 1), 0);
	assert_int_equal(nvme_queue_create(&c, &q, 1, 8), 0);
	struct nvme_mem buf;
	assert_int_equal(alloc(NULL, 1 << 20, &buf), 0);
	memset(buf.host, 0, 1 << 20);
	/* 7 commands fill an 8-entry SQ; the 8th is refused until completions free a slot */
	uint64_t done = 0, lba = 0;
	int sub = 0, rounds = 0;
	struct nvme_cpl cpl[8];
	while (done < (1u << 20)) {
		while (lba < NSZE && nvme_submit_rw(&c, &q, OPC_READ, lba, 32, &buf, lba * 4096) == 31) {
			lba += 32;
			sub++;
		}
		int n = nvme_reap(&c, &q, cpl, 8);
		for (int i = 0; i < n; i++) {
			assert_int_equal(cpl[i].status, 0);
			assert_true(cpl[i].ticks > 0);
			done += 32 * 4096;
		}
		assert_true(++rounds < 100);
	}
	assert_int_equal(sub, 8);                        /* 8 x 128 KiB = 1 MiB */
	assert_int_equal(q.inflight, 0);
	uint64_t bad;
	assert_int_equal(dma_pattern_check(buf.host, 0, 1 << 20, &bad), 0);
	assert_int_equal(m.dma_data_written, (1u << 20) + 2 * 4096);   /* data + 2 Identify pages */
	assert_int_equal(m.dma_prp_bytes, 8 * 31 * 8);   /* each 32-page read: a 31-entry PRP list */
	/* phase wrapped: 8 completions on an 8-entry CQ flip the expected phase once */
	assert_int_equal(q.phase, 0);
	assert_int_equal(q.cq_head, 0);
	assert_int_equal(nvme_queue_delete(&c, &q), 0);
	assert_false(m.sq[1].exists || m.cq[1].exists);
	assert_int_equal(nvme_disable(&c), 0);
	assert_int_equal(m.csts & 1, 0);
}

static void test_full_queue_and_sizes(void **state)
{
	(void)state;
	struct nvme_env e = env();
	assert_int_equal(nvme_init(&c, &e, 1), 0);
	assert_int_equal(nvme_queue_create(&c, &q, 1, 4), 0);
	struct nvme_mem buf;
	assert_int_equal(alloc(NULL, 64 * 4096, &buf), 0);
	m.hold_completions = 1;
	for (int i = 0; i < 3; i++)
		assert_int_equal(nvme_submit_rw(&c, &q, OPC_READ, (uint64_t)i, 1, &buf, 0), 0);
	assert_int_equal(nvme_submit_rw(&c, &q, OPC_READ, 3, 1, &buf, 0), -1);   /* size - 1 in flight */
	/* the held commands complete once the controller runs them: the tail doorbell again */
	m.hold_completions = 0;
	assert_int_equal(nvme_submit_rw(&c, &q, OPC_READ, 3, 1, &buf, 0), -1);   /* still full: no reap yet */
	struct nvme_cpl cpl[4];
	assert_int_equal(nvme_reap(&c, &q, cpl, 4), 0);   /* nothing posted while held */
	/* entries beyond CAP.MQES + 1 are refused before anything is allocated */
	struct nvme_queue q2;
	m.cap = (m.cap & ~0xFFFFull) | 3;                 /* MQES 3: 4 entries at most */
	c.mqes = 3;
	assert_int_equal(nvme_queue_create(&c, &q2, 1, 5), -1);
	assert_string_equal(c.why, "I/O queue 1 of 5 entries: QID 1..1 and 2..4 entries allowed");
}

static void test_writes_land(void **state)
{
	(void)state;
	struct nvme_env e = env();
	assert_int_equal(nvme_init(&c, &e, 1), 0);
	assert_int_equal(nvme_queue_create(&c, &q, 1, 16), 0);
	struct nvme_mem buf;
	assert_int_equal(alloc(NULL, 8192, &buf), 0);
	memset(buf.host, 0xA5, 8192);
	assert_int_equal(nvme_submit_rw(&c, &q, OPC_WRITE, 10, 2, &buf, 0), 0);
	struct nvme_cpl cpl;
	assert_int_equal(nvme_reap(&c, &q, &cpl, 1), 1);
	assert_int_equal(cpl.status, 0);
	for (int i = 0; i < 8192; i++)
		assert_int_equal(disk[10 * 4096 + i], 0xA5);
	assert_int_equal(disk[12 * 4096], dma_pattern_word(12 * 4096) & 0xFF);   /* next LBA untouched */
	assert_int_equal(m.dma_data_read, 8192);
	assert_int_equal(nvme_submit_rw(&c, &q, OPC_WRITE, 0, 64, &buf, 0), -1);   /* over MDTS / buffer */
	assert_int_equal(nvme_submit_rw(&c, &q, OPC_WRITE, 0, 1, &buf, 512), -1);  /* offset not 4 KiB */
	assert_int_equal(nvme_submit_rw(&c, &q, OPC_WRITE, 0, 0, &buf, 0), -1);    /* nothing */
	/* past the namespace: the controller's LBA Out of Range comes back as the status */
	assert_int_equal(nvme_submit_rw(&c, &q, OPC_READ, NSZE - 1, 2, &buf, 0), 0);
	assert_int_equal(nvme_reap(&c, &q, &cpl, 1), 1);
	assert_int_equal(cpl.status, 0x80);
}

static void test_refusals_are_named(void **state)
{
	(void)state;
	struct nvme_env e = env();
	m.refuse_create_sq = 0x101;
	assert_int_equal(nvme_init(&c, &e, 2), 0);
	assert_int_equal(nvme_queue_create(&c, &q, 1, 16), -1);
	assert_string_equal(c.why, "Create I/O SQ: status SCT 1 SC 0x01 (CID 4, expected 4)");
	assert_false(m.cq[1].exists);                    /* its CQ was deleted again */
}

static void test_cfs_on_enable(void **state)
{
	(void)state;
	struct nvme_env e = env();
	m.cfs_on_enable = 1;
	assert_int_equal(nvme_init(&c, &e, 1), -1);
	assert_string_equal(c.why, "CSTS.CFS = 1 while enabling (CSTS 0x2)");
}

static void test_hung_controller_times_out(void **state)
{
	(void)state;
	struct nvme_env e = env();
	m.hold_completions = 1;
	assert_int_equal(nvme_init(&c, &e, 1), -1);
	assert_string_equal(c.why, "Identify controller: no completion within 5000 ms");
}

static void test_not_nvm(void **state)
{
	(void)state;
	struct nvme_env e = env();
	m.cap &= ~(1ull << 37);
	assert_int_equal(nvme_init(&c, &e, 1), -1);
	assert_non_null(strstr(c.why, "needs the NVM command set (CSS bit 37)"));
	assert_int_equal(m.resets, 0);                   /* nothing was touched */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prp_literals),
		cmocka_unit_test_setup_teardown(test_take_identify_queues, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reads_at_depth_verify, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_queue_and_sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writes_land, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals_are_named, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cfs_on_enable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hung_controller_times_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_nvm, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
