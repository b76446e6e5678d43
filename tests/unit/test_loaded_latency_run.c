/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ll_measure (efi/measure/loaded_latency_run.c) on the host: a model of the windows checks each
 * point's window (CPUs, roles, delay, the chase buffer a single cycle over every line) and fills
 * the chase's times and the readers' line counts as the script says; memory from malloc, a fake
 * clock at 500 MHz (1 tick = 2 ns). Expected values by hand:
 *   the chase over 64 KiB walks 1024 lines a pass; a best pass of 51200 ticks = 102400 ns is
 *   100 ns a load (100000 ps), of 76800 ticks = 153600 ns is 150 ns (150000 ps);
 *   two readers of 1000 and 500 lines read 1500 x 64 = 96000 bytes; over a window of 24000 ticks
 *   = 48000 ns that is 96000 / 48000 = 2 GB/s (2000 milli).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/loaded_latency_run.h"

#define HZ 500000000ull
#define SIZE 65536u
#define LINES (SIZE / 64u)

static const struct kernel_desc chase = { "chase_test", KERNEL_CHASE, 0, 64, 64, NULL, 0, 0, 0 };

static uint64_t now;
static uint64_t clock_fake(void) { return now++; }

static int fail_alloc, fail_in_node, fail_anywhere_after = -1;
static int allocs, frees, taken, given, local_asks;
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
	assert_int_equal(bytes, SIZE);
	if (nr) {
		local_asks++;
		assert_int_equal(r[0].start, 0x100000);   /* node 3's range */
		if (fail_in_node)
			return NULL;
	} else if (fail_anywhere_after >= 0 && taken >= fail_anywhere_after) {
		return NULL;
	}
	taken++;
	return aligned_alloc(64, bytes);
}
static void free_in(void *p, uint64_t bytes)
{
	assert_int_equal(bytes, SIZE);
	given++;
	free(p);
}

struct point_script {
	int ncpus;
	uint32_t delay;
	uint64_t chase_ticks;
	uint64_t lines[2];     /* the readers' */
	uint64_t span;
	int ran, broken_cycle;
};

static const struct point_script *script;
static int nwin;

/* The chase buffer is one cycle through every line, starting and ending at its first. */
static void check_cycle(const void *b)
{
	const uint64_t *p = b;
	for (uint32_t k = 1; k < LINES; k++) {
		p = (const uint64_t *)(uintptr_t)*p;
		assert_true(p != b);
	}
	assert_ptr_equal((const void *)(uintptr_t)*p, b);
}

static int model_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	(void)ctx;
	const struct point_script *sc = &script[nwin++];
	static const uint32_t cpus[3] = { 2, 5, 7 };
	assert_ptr_equal(s->kernel, ll_kernel);
	assert_int_equal(s->mask_interrupts, 1);
	assert_int_equal(s->ncpus, sc->ncpus);
	struct ll_arg *ch = s->cpus[0].arg;
	assert_true(ch->chaser);
	assert_int_equal(ch->sh->expected, sc->ncpus - 1);
	assert_int_equal(ch->sh->wait_ticks, HZ);    /* LL_START_WAIT_S = 1 s */
	assert_ptr_equal(ch->chase->k, &chase);
	assert_int_equal(ch->chase->bytes, SIZE);
	assert_int_equal(ch->chase->passes, 2);
	assert_ptr_equal(ch->chase->timer, clock_fake);
	check_cycle(ch->chase->b);
	for (int i = 0; i < s->ncpus; i++) {
		struct ll_arg *a = s->cpus[i].arg;
		assert_int_equal(s->cpus[i].cpu, cpus[i]);
		assert_int_equal(a->delay, sc->delay);
		if (i) {
			assert_false(a->chaser);
			assert_ptr_not_equal(a->buf, ch->chase->b);
			assert_int_equal(a->buf[LINES], LINES);   /* the readers' buffers hold word k = k */
			a->lines = sc->lines[i - 1];
		}
	}
	ch->chase->ticks_min = sc->chase_ticks;
	ch->chase->status = 0;
	ch->chase->result = sc->broken_cycle ? 8 : (uint64_t)(uintptr_t)ch->chase->b;
	*r = (struct window_result){ .span_ticks = sc->span, .masked = 1, .ran = sc->ncpus, .smi_status = HW_OK,
				     .smi_delta = (uint64_t)nwin };
	return sc->ran ? 0 : -1;
}

/* CPUs 2, 5, 7; CPU 2 in SRAT node 3 (memory at 1 MiB), the others unknown; delays 0 and 1000. */
static void request(struct ll_request *req)
{
	memset(req, 0, sizeof(*req));
	req->sel.n = 3;
	req->sel.cpu[0] = 2, req->sel.cpu[1] = 5, req->sel.cpu[2] = 7;
	req->sel.node[0] = 3, req->sel.node[1] = -1, req->sel.node[2] = -1;
	req->sel.mem[0] = 0, req->sel.mem[1] = -1, req->sel.mem[2] = -1;
	req->sel.nnodes = 1;
	req->sel.nodes[0] = (struct cpu_sel_node){ .domain = 3, .nr = 1, .r = { { 0x100000, 0x200000 } } };
	req->size = SIZE;
	req->ndelays = 2;
	req->delay[0] = 0, req->delay[1] = 1000;
	req->chase = &chase;
}

static const struct measure_ctx ctx = { .win = { model_run, NULL }, .alloc = zalloc, .free = zfree,
					.alloc_in = alloc_in, .free_in = free_in, .clock = clock_fake, .timer_hz = HZ };

static void reset(const struct point_script *sc)
{
	script = sc;
	nwin = allocs = frees = taken = given = local_asks = 0;
	fail_alloc = fail_in_node = 0;
	fail_anywhere_after = -1;
}

static void test_idle_and_two_delays(void **state)
{
	(void)state;
	static const struct point_script sc[] = {
		{ 1, 0, 51200, { 0, 0 }, 60000, 1, 0 },         /* idle: 100 ns, no reader */
		{ 3, 0, 76800, { 1000, 500 }, 24000, 1, 0 },    /* 150 ns at 2 GB/s */
		{ 3, 1000, 51200, { 10, 0 }, 64000, 1, 0 },     /* 640 bytes in 128000 ns: 0.005 GB/s */
	};
	reset(sc);
	struct ll_request req;
	struct ll_result res;
	request(&req);
	assert_int_equal(ll_measure(&ctx, &req, &res), 0);
	assert_int_equal(nwin, 3);
	assert_int_equal(res.npoints, 3);
	assert_true(res.placed);
	assert_true(res.pt[0].idle);
	assert_true(res.pt[0].ok);
	assert_int_equal(res.pt[0].ps, 100000);
	assert_int_equal(res.pt[0].read_bytes, 0);
	assert_int_equal(res.pt[0].window_ns, 120000);
	assert_false(res.pt[1].idle);
	assert_int_equal(res.pt[1].delay, 0);
	assert_int_equal(res.pt[1].ps, 150000);
	assert_int_equal(res.pt[1].read_bytes, 96000);
	assert_int_equal(res.pt[1].window_ns, 48000);
	assert_int_equal(res.pt[1].gbps_milli, 2000);
	assert_int_equal(res.pt[2].delay, 1000);
	assert_int_equal(res.pt[2].read_bytes, 640);
	assert_int_equal(res.pt[2].gbps_milli, 5);
	assert_int_equal(res.pt[2].w.smi_delta, 3);
	/* CPU 2's buffer in node 3, the others anywhere (their node is unknown) */
	assert_int_equal(local_asks, 1);
	assert_int_equal(res.place[0].node, 3);
	assert_true(res.place[0].local);
	assert_int_equal(res.place[1].node, -1);
	assert_false(res.place[1].local);
	assert_int_equal(taken, 3);
	assert_int_equal(given, 3);
	assert_int_equal(allocs, frees);

	/* the idle point (100 ns, chase buffer local to node 3) beside the HMAT's claims (ACPI 6.5
	 * Table 5.150 Data Types: 0 access latency, 1 read latency, 3 access bandwidth) */
	struct numa_claim c[4];
	const char *why;
	assert_int_equal(ll_idle_claims(&req, &res, c, 4, &why), 0);
	assert_string_equal(why, "no ACPI HMAT");
	static struct acpi_hmat h;
	h.present = 1;
	h.claim[h.n++] = (struct acpi_hmat_claim){ 3, 4, 0, 70000 };   /* another target */
	h.claim[h.n++] = (struct acpi_hmat_claim){ 3, 3, 3, 9000 };    /* bandwidth: the idle point has none */
	req.hmat = &h;
	assert_int_equal(ll_idle_claims(&req, &res, c, 4, &why), 0);
	assert_non_null(strstr(why, "claims no"));
	h.claim[h.n++] = (struct acpi_hmat_claim){ 3, 3, 1, 80000 };   /* read latency 80 ns */
	assert_int_equal(ll_idle_claims(&req, &res, c, 4, &why), 1);
	assert_null(why);
	assert_int_equal(c[0].data_type, 1);
	assert_int_equal(c[0].claimed, 80000);
	assert_int_equal(c[0].measured, 100000);
	assert_int_equal(c[0].fraction_milli, 1250);
	res.place[0].local = 0;
	assert_int_equal(ll_idle_claims(&req, &res, c, 4, &why), 0);
	assert_non_null(strstr(why, "not in the chase CPU's node"));
}

static void test_a_cpu_did_not_run_and_a_broken_cycle(void **state)
{
	(void)state;
	static const struct point_script sc[] = {
		{ 1, 0, 51200, { 0, 0 }, 60000, 1, 1 },         /* the chase did not come back to its start */
		{ 3, 0, 51200, { 1, 1 }, 100, 0, 0 },           /* a CPU did not run */
		{ 3, 1000, 51200, { 1, 1 }, 100, 1, 0 },
	};
	reset(sc);
	struct ll_request req;
	struct ll_result res;
	request(&req);
	assert_int_equal(ll_measure(&ctx, &req, &res), -1);
	assert_false(res.pt[0].ok);
	assert_false(res.pt[1].ok);
	assert_true(res.pt[2].ok);
	assert_int_equal(given, taken);
}

static void test_no_memory(void **state)
{
	(void)state;
	struct ll_request req;
	struct ll_result res;
	request(&req);
	/* node 3 full: CPU 2's buffer comes from anywhere, not local */
	static const struct point_script sc[] = { { 1, 0, 1, { 0, 0 }, 1, 1, 0 }, { 3, 0, 1, { 0, 0 }, 1, 1, 0 },
						  { 3, 1000, 1, { 0, 0 }, 1, 1, 0 } };
	reset(sc);
	fail_in_node = 1;
	assert_int_equal(ll_measure(&ctx, &req, &res), 0);
	assert_int_equal(res.place[0].node, 3);
	assert_false(res.place[0].local);
	/* the third CPU's buffer cannot be had: no window, the two taken given back */
	reset(sc);
	fail_anywhere_after = 2;
	assert_int_equal(ll_measure(&ctx, &req, &res), -1);
	assert_false(res.placed);
	assert_int_equal(res.npoints, 0);
	assert_int_equal(nwin, 0);
	assert_int_equal(taken, 2);
	assert_int_equal(given, 2);
	assert_int_equal(allocs, frees);
	/* no working state */
	reset(sc);
	fail_alloc = 1;
	assert_int_equal(ll_measure(&ctx, &req, &res), -1);
	assert_int_equal(taken, 0);
	assert_int_equal(nwin, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_and_two_delays),
		cmocka_unit_test(test_a_cpu_did_not_run_and_a_broken_cycle),
		cmocka_unit_test(test_no_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
