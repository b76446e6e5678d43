/* SPDX-License-Identifier: BSD-2-Clause */
/* The NVMe measurement's run (efi/measure/nvme_run.c) on the host: two model controllers
 * (tests/model/nvme_model.c, its own NVMe 1.4 reading) behind one struct hw at two BARs, fake
 * firmware ops, and a fake clock that advances 1000 ticks (1 us at 1 GHz) on every read.
 * The bytes, times, rates and latencies below are worked out by hand from the clock reads the
 * polling loop makes per command (see the comments), not from the code's own macros; the
 * entry sizes are NVMe 1.4 4.1 (64-byte SQE, 16-byte CQE). Also: a point skipped with its why
 * (a namespace smaller than one command), and a controller refusing Create I/O SQ that falls
 * back to the firmware's Block IO, which fails too. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/nvme_model.h"
#include "efi/measure/nvme_run.h"
#include "efi/measure/dma_pattern.h"

#define LBADS 9u                 /* 512-byte LBAs */
#define NSZE 4096u               /* 2 MiB namespaces */
#define BAR_B (NVM_MODEL_BAR + 0x100000ull)
#define HZ 1000000000ull

struct dev {
	struct nvm_model m;
	struct hw h;
	uint8_t *disk;
};

static struct dev dv[2];
static uint64_t ticks;
static void *blocks[64];
static int nblocks, acquired[2], released[2], guard_on, guard_calls, links[4], nlinks;

/* ---- one struct hw for both models: B's registers sit 1 MiB above A's ------------------------ */

static const struct hw *model_of(uint64_t *a)
{
	if (*a >= BAR_B && *a < BAR_B + 0x2000) {
		*a -= BAR_B - NVM_MODEL_BAR;
		return &dv[1].h;
	}
	return &dv[0].h;
}

static hw_status rd32(void *ctx, uint64_t a, uint32_t *v)
{
	(void)ctx;
	const struct hw *h = model_of(&a);
	return hw_mmio_read32(h, a, v);
}

static hw_status wr32(void *ctx, uint64_t a, uint32_t v)
{
	(void)ctx;
	const struct hw *h = model_of(&a);
	return hw_mmio_write32(h, a, v);
}

static const struct hw_ops both_ops = { .name = "two-nvme-models", .mmio_read32 = rd32, .mmio_write32 = wr32 };
static const struct hw both = { &both_ops, NULL };

/* ---- the measure ctx ------------------------------------------------------------------------- */

static uint64_t clock_read(void) { return ticks += 1000; }

static int win_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	(void)ctx;
	memset(r, 0, sizeof(*r));
	s->cpus[0].ret = s->kernel(s->cpus[0].arg);
	r->masked = 1;
	return 0;
}

static void *zalloc(uint64_t bytes) { return calloc(1, (size_t)bytes); }

static const struct measure_ctx ctx = { .hw = &both, .win = { win_run, NULL }, .alloc = zalloc, .free = free,
					.clock = clock_read, .timer_hz = HZ };

/* ---- fake firmware ops ----------------------------------------------------------------------- */

static int f_acquire(void *arg, int i, char *why, size_t n)
{
	(void)arg; (void)why; (void)n;
	acquired[i]++;
	return 0;
}

static int f_alloc(void *arg, int i, uint64_t bytes, struct nvme_mem *m)
{
	(void)arg; (void)i;
	void *p = aligned_alloc(4096, (size_t)bytes);
	if (!p || nblocks == 64)
		return -1;
	memset(p, 0, (size_t)bytes);
	blocks[nblocks++] = p;
	*m = (struct nvme_mem){ p, (uint64_t)(uintptr_t)p, bytes };
	return 0;
}

static int f_release(void *arg, int i, char *err, size_t n)
{
	(void)arg; (void)err; (void)n;
	released[i]++;
	return 0;
}

static const char *f_after(void *arg, int i) { (void)arg; (void)i; return "ok"; }

static int f_blockio(void *arg, int i, const struct nvme_request *q, uint32_t bs, uint32_t depth, struct nvme_point_out *o)
{
	(void)arg;
	strcpy(o->res.bdf, q->ctrl[i].name);
	o->res.path = "blockio";
	o->res.bs = bs;
	o->res.iodepth = depth;
	strcpy(o->status, "no Block IO on the controller");
	o->with_why = 1;
	o->err = NVME_PT_NO_BLOCKIO;
	return -1;
}

static uint32_t win_ctrls[4];
static struct health_run *win_health[4];
static int nwins;

static void f_window(void *arg, const struct dma_window *w, uint32_t ctrls, struct health_run *h,
		     struct dma_window_result *r)
{
	(void)arg; (void)r;
	if (nwins < 4) {
		win_ctrls[nwins] = ctrls;
		win_health[nwins++] = h;
	}
	w->fn(w->arg, 0, 1);
}

static void f_link(void *arg, int i, uint64_t rd, uint64_t wr, uint64_t ns, struct dma_window_result *r)
{
	(void)arg; (void)rd; (void)wr; (void)ns; (void)r;
	if (nlinks < 4)
		links[nlinks++] = i;
}

static void f_guard(void *arg, void *run)
{
	(void)arg;
	guard_on = run != NULL;
	guard_calls++;
}

static const struct nvme_fw fw = { NULL, f_acquire, f_alloc, f_release, f_after, f_blockio, f_window, f_link, f_guard };

static int setup(void **state)
{
	(void)state;
	nblocks = nlinks = guard_on = guard_calls = nwins = 0;
	memset(acquired, 0, sizeof(acquired));
	memset(released, 0, sizeof(released));
	for (int i = 0; i < 2; i++) {
		dv[i].disk = calloc(NSZE, 1u << LBADS);
		dma_pattern_fill(dv[i].disk, 0, (uint64_t)NSZE << LBADS);
		nvm_model_init(&dv[i].m, 0x7FF, dv[i].disk, NSZE, LBADS);
		dv[i].h = nvm_model_hw(&dv[i].m);
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < nblocks; i++)
		free(blocks[i]);
	for (int i = 0; i < 2; i++)
		free(dv[i].disk);
	return 0;
}

/* Reads of bs 4096 at iodepth 1, 16384 bytes (4 commands) per controller and point. */
static struct nvme_request request(void)
{
	struct nvme_request q = { .on = 1, .n = 2, .bs = { 4096 }, .depth = { 1 }, .nbs = 1, .ndepth = 1, .max_bs = 4096,
				  .max_depth = 1, .size = 16384, .rw = CFG_RW_READ };
	q.ctrl[0] = (struct nvme_target){ .bdf = 0x0100, .name = "0000:01:00.0", .bar = NVM_MODEL_BAR, .bound_before = 1 };
	q.ctrl[1] = (struct nvme_target){ .bdf = 0x0400, .name = "0000:04:00.0", .bar = BAR_B, .bound_before = 1 };
	return q;
}

static void check_point(const struct nvme_point_out *o, int ctrl, const char *window, uint64_t ns, uint64_t bw,
			uint64_t iops)
{
	const struct nvme_point_result *r = &o->res;
	assert_int_equal(o->ctrl, ctrl);
	assert_false(o->skipped);
	assert_string_equal(r->path, "own-queues");
	assert_string_equal(r->window, window);
	assert_string_equal(o->status, "ok");
	assert_int_equal(o->err, NVME_PT_OK);
	assert_int_equal(r->bytes, 16384);
	assert_int_equal(r->commands, 4);
	assert_int_equal(r->failed, 0);
	assert_int_equal(r->ns, ns);
	assert_int_equal(r->bw_bytes, bw);
	assert_int_equal(r->iops, iops);
	/* each command: doorbell stamp, then its completion seen two clock reads later */
	assert_int_equal(r->clat_p50_ns, 2000);
	assert_int_equal(r->clat_p99_ns, 2000);
	assert_int_equal(r->clat_max_ns, 2000);
	assert_int_equal(r->dma.data_bytes, 16384);
	assert_int_equal(r->dma.sqe_bytes, 4 * 64);
	assert_int_equal(r->dma.cqe_bytes, 4 * 16);
	assert_int_equal(r->dma.prp_bytes, 0);   /* one 4 KiB page: PRP1 alone */
	assert_int_equal(r->verified, 1);
	assert_int_equal(r->interrupts_masked, 1);
}

static void test_alone_and_shared_hand_worked(void **state)
{
	(void)state;
	struct nvme_request q = request();
	struct nvme_result res;
	assert_int_equal(nvme_run(&ctx, &fw, &q, &res), 0);
	assert_int_equal(res.npt, 4);
	/* alone, iodepth 1: per command the loop reads the clock three times (doorbell stamp, the
	 * loop's progress time, the completion seen), so command k is rung at T + 3000 k and seen
	 * at T + 3000 k + 2000: 4 commands span 3 x 3000 + 2000 = 11000 ns;
	 * 16384 B / 11 us = 1489454545 B/s, 4 / 11 us = 363636 IOPS */
	check_point(&res.pt[0], 0, "alone", 11000, 1489454545ull, 363636);
	check_point(&res.pt[1], 1, "alone", 11000, 1489454545ull, 363636);
	/* shared: both lanes in one loop, six reads per round: 3 x 6000 + 2000 = 20000 ns;
	 * 16384 B / 20 us = 819200000 B/s, 4 / 20 us = 200000 IOPS */
	check_point(&res.pt[2], 0, "shared", 20000, 819200000ull, 200000);
	check_point(&res.pt[3], 1, "shared", 20000, 819200000ull, 200000);
	assert_int_equal(res.pt[2].res.controllers, 2);
	/* the window's first controller has its link limit; the other reads its own */
	assert_int_equal(nlinks, 4);
	assert_int_equal(links[0], -1);
	assert_int_equal(links[1], -1);
	assert_int_equal(links[2], -1);
	assert_int_equal(links[3], 1);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(res.ctrl[i].take, NVME_TAKEN);
		assert_string_equal(res.ctrl[i].path, "own-queues");
		assert_string_equal(res.ctrl[i].given_back, "ok");
		assert_int_equal(res.ctrl[i].ngb, 0);
		assert_int_equal(res.ctrl[i].lba_bytes, 512);
		assert_int_equal(res.ctrl[i].nsze, NSZE);
		assert_int_equal(acquired[i], 1);
		assert_int_equal(released[i], 1);
		assert_int_equal(dv[i].m.cc & 1, 0);   /* CC.EN = 0: disabled for the firmware driver */
		/* the device wrote two 4 KiB Identify pages (controller, namespace 1: NVMe 1.4 5.15)
		 * and the data of the alone and the shared point */
		assert_int_equal(dv[i].m.dma_data_written, 2 * 4096 + 2 * 16384);
	}
	assert_int_equal(guard_calls, 2);
	assert_false(guard_on);
	/* three windows: A alone, B alone, both shared; each window's health (memory for it)
	 * rides on its records, the shared window's on both of its records */
	assert_int_equal(nwins, 3);
	assert_int_equal(win_ctrls[0], 0x1);
	assert_int_equal(win_ctrls[1], 0x2);
	assert_int_equal(win_ctrls[2], 0x3);
	for (int k = 0; k < 3; k++)
		assert_non_null(win_health[k]);
	assert_ptr_equal(res.pt[0].health, win_health[0]);
	assert_ptr_equal(res.pt[1].health, win_health[1]);
	assert_ptr_equal(res.pt[2].health, win_health[2]);
	assert_ptr_equal(res.pt[3].health, win_health[2]);
	nvme_result_free(&ctx, &res);
}

static void test_skipped_and_failed_controller(void **state)
{
	(void)state;
	/* A: a namespace of 4 LBAs (2048 bytes) holds no command of 4096 bytes; B refuses
	 * Create I/O SQ (SCT 1 SC 01h) and its Block IO fallback has no Block IO either */
	nvm_model_init(&dv[0].m, 0x7FF, dv[0].disk, 4, LBADS);
	dv[1].m.refuse_create_sq = 0x101;
	struct nvme_request q = request();
	struct nvme_result res;
	assert_int_equal(nvme_run(&ctx, &fw, &q, &res), -1);
	assert_int_equal(res.npt, 2);   /* no shared window: one controller has its own queues */
	const struct nvme_point_out *a = &res.pt[0], *b = &res.pt[1];
	assert_int_equal(a->ctrl, 0);
	assert_true(a->skipped);
	assert_string_equal(a->skip_why, "namespace 1 is 2048 bytes, less than one command of bs 4096");
	assert_string_equal(a->res.path, "own-queues");
	assert_int_equal(b->ctrl, 1);
	assert_string_equal(b->res.path, "blockio");
	assert_int_equal(b->err, NVME_PT_NO_BLOCKIO);
	assert_null(a->health);   /* no window ran: neither record has health */
	assert_null(b->health);
	assert_int_equal(nwins, 0);
	assert_int_equal(res.ctrl[0].take, NVME_TAKEN);
	assert_int_equal(res.ctrl[1].take, NVME_FALLBACK);
	assert_non_null(strstr(res.ctrl[1].why, "Create I/O SQ"));
	assert_string_equal(res.ctrl[1].path, "blockio");
	assert_string_equal(res.ctrl[1].given_back, "ok");
	assert_int_equal(res.ctrl[1].gb_at_take, 1);
	assert_int_equal(released[0], 1);
	assert_int_equal(released[1], 1);   /* given back once, when the take failed */
	assert_int_equal(dv[1].m.cc & 1, 0);
	assert_int_equal(dv[0].m.dma_data_written, 2 * 4096);   /* Identify only: nothing read from A */
	nvme_result_free(&ctx, &res);
}

static void test_limit_stops_before_any_point(void **state)
{
	(void)state;
	/* bs 256 KiB is above the model's MDTS 5 (128 KiB): a config error on nvme_bs naming where
	 * it was set; no point runs, both controllers are given back (B never taken) */
	struct nvme_request q = request();
	q.bs[0] = q.max_bs = 262144;
	q.where_bs = "efiperf.cfg:3";
	struct nvme_result res;
	assert_int_equal(nvme_run(&ctx, &fw, &q, &res), -1);
	assert_int_equal(res.npt, 0);
	assert_int_equal(res.limit_stop, 1);
	assert_int_equal(res.ctrl[0].take, NVME_LIMIT);
	assert_string_equal(res.ctrl[0].limit_key, "nvme_bs");
	assert_string_equal(res.ctrl[0].limit_where, "efiperf.cfg:3");
	assert_string_equal(res.ctrl[0].limit_msg, "262144 is above 0000:01:00.0's largest transfer 131072 bytes (Identify MDTS)");
	assert_int_equal(res.ctrl[1].take, NVME_NOT_TRIED);
	assert_string_equal(res.ctrl[1].path, "not run");
	assert_null(res.ctrl[1].given_back);
	assert_int_equal(acquired[1], 0);
	assert_int_equal(released[0], 1);
	nvme_result_free(&ctx, &res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_alone_and_shared_hand_worked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_skipped_and_failed_controller, setup, teardown),
		cmocka_unit_test_setup_teardown(test_limit_stops_before_any_point, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
