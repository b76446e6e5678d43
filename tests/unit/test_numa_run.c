/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * numa_measure (efi/measure/numa_run.c) on the host: a model of the windows fills each CPU's
 * kernel_run as the test says, memory in a node comes from malloc (or not, for a node the test
 * starves), a fake clock. Expected values are worked out by hand: at 1 GHz a tick is 1 ns; the
 * chase over 64 KiB makes 1024 loads a pass, so 102400 ticks are 100 ns = 100000 ps a load; the
 * read of 64 KiB by two CPUs in 32 KiB shares, the slower taking 32768 ticks, is 65536 bytes /
 * 32768 ns = 2 GB/s.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/numa_run.h"

#define HZ 1000000000ull
#define SIZE 65536u

static const struct kernel_desc chase = { "chase_test", KERNEL_CHASE, 0, 64, 64, NULL, 0, 0, 0 };
static const struct kernel_desc load = { "load_test", KERNEL_LOAD, 0, 256, 64, NULL, 0, 0, 0 };

static uint64_t now;
static uint64_t clock_fake(void) { return now++; }
static void *zalloc(uint64_t bytes) { return calloc(1, bytes); }
static void zfree(void *p) { free(p); }

static int starve_node_of_range;     /* alloc_in fails for ranges starting here (0: never) */
static int placed, freed;
static void *alloc_in(uint64_t bytes, const struct memrange *r, int nr)
{
	assert_true(nr >= 1);
	if (starve_node_of_range && r[0].start == (uint64_t)starve_node_of_range)
		return NULL;
	placed++;
	return aligned_alloc(64, bytes);
}
static void free_in(void *p, uint64_t bytes)
{
	assert_int_equal(bytes, SIZE);
	freed++;
	free(p);
}

/* Windows seen, in order: (ncpus, first CPU). The chase window takes 102400 ticks on a
 * node-0 CPU and 204800 on a node-1 CPU; a read CPU takes 16384 ticks, 32768 for CPUs 1 and 3. */
static int nwin, fail_read_of_cpu = -1;
static int seen_n[16];
static uint32_t seen_cpu[16];
static int model_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	(void)ctx;
	assert_ptr_equal(s->kernel, numa_run_kernel);
	assert_int_equal(s->mask_interrupts, 1);
	seen_n[nwin] = s->ncpus;
	seen_cpu[nwin++] = s->cpus[0].cpu;
	for (int i = 0; i < s->ncpus; i++) {
		struct kernel_run *k = s->cpus[i].arg;
		assert_ptr_equal(k->timer, clock_fake);
		if (s->ncpus == 1 && k->k == &chase) {
			assert_int_equal(k->bytes, SIZE);
			k->ticks_min = s->cpus[0].cpu < 2 ? 102400 : 204800;
		} else {
			assert_ptr_equal(k->k, &load);
			assert_int_equal(k->bytes, SIZE / 2);
			k->ticks_min = s->cpus[i].cpu % 2 ? 32768 : 16384;
			k->status = (int)s->cpus[i].cpu == fail_read_of_cpu ? -2 : 0;
		}
	}
	*r = (struct window_result){ .masked = 1, .ran = s->ncpus, .smi_status = HW_OK, .smi_delta = (uint64_t)nwin };
	return 0;
}

/* Nodes 0 and 1, two selected CPUs each (0, 1 in node 0; 2, 3 in node 1), memory at 0x1000 and
 * 0x2000; node 7 has memory only. */
static void request(struct numa_request *req)
{
	memset(req, 0, sizeof(*req));
	req->nn = 3;
	req->node[0] = (struct numa_node){ .domain = 0, .ncpu = 2, .first = 0, .nr = 1, .r = { { 0x1000, 0x2000 } } };
	req->node[1] = (struct numa_node){ .domain = 1, .ncpu = 2, .first = 2, .nr = 1, .r = { { 0x2000, 0x3000 } } };
	req->node[2] = (struct numa_node){ .domain = 7, .ncpu = 0, .first = -1, .nr = 1, .r = { { 0x7000, 0x8000 } } };
	req->nsel = 4;
	for (int i = 0; i < 4; i++) {
		req->cpu[i] = (uint32_t)i;
		req->cpu_node[i] = i / 2;
	}
	req->size = SIZE;
	req->chase = &chase;
	req->load = &load;
}

static const struct measure_ctx ctx = { .win = { model_run, NULL }, .alloc = zalloc, .free = zfree,
					.alloc_in = alloc_in, .free_in = free_in, .clock = clock_fake, .timer_hz = HZ };
static struct numa_request req;
static struct numa_result res;

static void test_cells(void **state)
{
	(void)state;
	request(&req);
	nwin = placed = freed = starve_node_of_range = 0;
	fail_read_of_cpu = -1;
	assert_int_equal(numa_measure(&ctx, &req, &res), 0);
	/* rows: nodes 0 and 1 (node 7 has no CPUs); columns: all three memories */
	assert_int_equal(placed, 6);
	assert_int_equal(freed, 6);
	assert_int_equal(nwin, 12);
	assert_int_equal(seen_n[0], 1);
	assert_int_equal(seen_cpu[0], 0);     /* node 0's first CPU chases */
	assert_int_equal(seen_n[1], 2);       /* then both of node 0's CPUs read */
	assert_int_equal(seen_cpu[6], 2);     /* node 1's row */
	for (int m = 0; m < 3; m++) {
		assert_true(res.cell[0][m].ran);
		assert_int_equal(res.cell[0][m].ps, 100000);
		assert_int_equal(res.cell[0][m].gbps_milli, 2000);
		assert_int_equal(res.cell[1][m].ps, 200000);
		assert_int_equal(res.cell[1][m].gbps_milli, 2000);
		assert_false(res.cell[2][m].placed);
		assert_false(res.cell[2][m].ran);
	}
	assert_int_equal(res.cell[0][1].wl.smi_delta, 3);   /* the third window: row 0, column 1, chase */
	assert_int_equal(res.cell[0][1].wb.smi_delta, 4);
}

static void test_unplaced_and_failed_cells(void **state)
{
	(void)state;
	request(&req);
	nwin = placed = freed = 0;
	starve_node_of_range = 0x2000;   /* node 1's memory has no room */
	fail_read_of_cpu = 3;            /* node 1's second CPU fails its read */
	assert_int_equal(numa_measure(&ctx, &req, &res), -1);
	starve_node_of_range = 0;
	fail_read_of_cpu = -1;
	assert_int_equal(placed, 4);
	assert_int_equal(freed, 4);
	assert_false(res.cell[0][1].placed);
	assert_false(res.cell[1][1].placed);
	assert_true(res.cell[0][0].ran);
	assert_true(res.cell[1][0].placed);
	assert_false(res.cell[1][0].ran);
	assert_int_equal(res.cell[1][0].ps, 200000);   /* the chase still measured */
}

/* The firmware's claims beside the cells of test_cells (node 0 chases at 100 ns, node 1 at
 * 200 ns, every read 2 GB/s = 2000 MB/s). Literals: HMAT Data Types of ACPI 6.5 Table 5.150
 * (0 access latency, 2 write latency, 4 read bandwidth), SLIT's 10 for local (5.2.17). */
static void test_claims_beside_cells(void **state)
{
	(void)state;
	request(&req);
	nwin = placed = freed = starve_node_of_range = 0;
	fail_read_of_cpu = -1;
	assert_int_equal(numa_measure(&ctx, &req, &res), 0);
	static struct acpi_hmat h;
	memset(&h, 0, sizeof(h));
	assert_string_equal(numa_hmat_why(&req, &res), "no ACPI HMAT");
	req.hmat = &h;
	assert_string_equal(numa_hmat_why(&req, &res), "no ACPI HMAT");
	h.present = 1;
	h.claim[h.n++] = (struct acpi_hmat_claim){ 7, 0, 0, 50000 };     /* node 7 has no CPUs: no row */
	h.claim[h.n++] = (struct acpi_hmat_claim){ 0, 0, 2, 90000 };     /* write latency: not measured */
	assert_non_null(numa_hmat_why(&req, &res));
	h.claim[h.n++] = (struct acpi_hmat_claim){ 0, 0, 0, 80000 };     /* access latency 80 ns */
	h.claim[h.n++] = (struct acpi_hmat_claim){ 0, 1, 4, 4000 };      /* read bandwidth 4000 MB/s */
	h.claim[h.n++] = (struct acpi_hmat_claim){ 0, 1, 0, 0 };         /* 0: no information */
	assert_null(numa_hmat_why(&req, &res));
	struct numa_claim k[4];
	assert_int_equal(numa_cell_claims(&req, &res, 0, 0, k, 4), 1);
	assert_int_equal(k[0].data_type, 0);
	assert_int_equal(k[0].claimed, 80000);
	assert_int_equal(k[0].measured, 100000);
	assert_int_equal(k[0].fraction_milli, 1250);
	assert_int_equal(numa_cell_claims(&req, &res, 0, 1, k, 4), 1);
	assert_int_equal(k[0].claimed, 4000);
	assert_int_equal(k[0].measured, 2000);
	assert_int_equal(k[0].fraction_milli, 500);
	assert_int_equal(numa_cell_claims(&req, &res, 1, 1, k, 4), 0);
	assert_int_equal(numa_cell_claims(&req, &res, 2, 0, k, 4), 0);   /* not run */
	snprintf(h.defect, sizeof(h.defect), "structure at 40: length 20 < 32");
	assert_non_null(strstr(numa_hmat_why(&req, &res), "defect"));

	static struct acpi_slit sl;
	memset(&sl, 0, sizeof(sl));
	uint32_t d;
	uint64_t cl, me;
	assert_int_equal(numa_cell_slit(&req, &res, 0, 1, &d, &cl, &me), -1);   /* no SLIT */
	req.slit = &sl;
	assert_int_equal(numa_cell_slit(&req, &res, 0, 1, &d, &cl, &me), -1);   /* not present */
	sl.present = 1;
	sl.n = 8;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			sl.dist[i * 8 + j] = i == j ? 10 : 21;
	sl.dist[0 * 8 + 7] = 31;
	assert_int_equal(numa_cell_slit(&req, &res, 0, 1, &d, &cl, &me), 0);
	assert_int_equal(d, 21);
	assert_int_equal(cl, 2100);
	assert_int_equal(me, 1000);    /* 100 ns against node 0's own 100 ns */
	assert_int_equal(numa_cell_slit(&req, &res, 0, 2, &d, &cl, &me), 0);
	assert_int_equal(d, 31);
	assert_int_equal(numa_cell_slit(&req, &res, 1, 1, &d, &cl, &me), 0);
	assert_int_equal(d, 10);
	assert_int_equal(me, 1000);
	sl.n = 4;                      /* node 7 past the localities */
	assert_int_equal(numa_cell_slit(&req, &res, 0, 2, &d, &cl, &me), -1);
	sl.n = 8;
	snprintf(sl.defect, sizeof(sl.defect), "row 2 column 2 is 20, not 10");
	assert_int_equal(numa_cell_slit(&req, &res, 0, 1, &d, &cl, &me), -1);
	numa_result_free(&ctx, &res);
	req.hmat = NULL;
	req.slit = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_unplaced_and_failed_cells),
		cmocka_unit_test(test_claims_beside_cells),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
