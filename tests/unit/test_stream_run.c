/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream_measure (efi/measure/stream_run.c) on the host: a model of the windows checks each
 * window (the noise floor: empty; a function's: every CPU's kernel_run over its own arrays, a
 * zeroed and b, c holding STREAM's values) and fills the runs as a script says (a copy copies b
 * into a unless the script breaks it); memory from malloc, a fake clock at 1 GHz (1 tick = 1 ns),
 * fake CPU ops (ISAs, classes, a tuner that records what it was asked) and a counting
 * attachment for the vector state.
 *
 * By hand (3 CPUs, 64 KiB arrays, 2 passes): STREAM's application bytes per pass and CPU are
 * streams x 65536, streams = load 1, store 1, ntstore 1, copy 2, ntcopy 2, triad 3 (the STREAM
 * benchmark's count: copy reads one array and writes one, triad reads two and writes one).
 * Best passes: CPUs 4 and 5 16384 ticks, CPU 6 32768; slowest passes 20000, 20000, 40000;
 * both passes together 36384, 36384, 72768. So for copy:
 *   per CPU 131072 B / 16384 ns = 8000 MB/s (CPU 6: 4000), median 8000, CPU 6 50% off: 1 outlier;
 *   app 3 x 131072 = 393216 B, over the best 16384 ns = 24000.0 MB/s (mbps10 240000);
 *   min 16384 ns, max 40000 ns, avg (36384 + 36384 + 72768) / (3 x 2) = 24256 ns.
 * load: 12000.0 MB/s (196608 B), per CPU 4000 / 2000; triad: 36000.0 (589824 B), 12000 / 6000.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/stream_run.h"

#define HZ 1000000000ull
#define SIZE 65536u
#define ISA_WIDE 2u
#define ISA_MISSING 4u

/* The library: per kind the widest first (as the arch tables order them). */
static const struct kernel_desc table[] = {
	{ "load_t", KERNEL_LOAD, 0, 64, 64, NULL, 0, 0, 0 },
	{ "store_t", KERNEL_STORE, 0, 64, 64, NULL, 0, 0, 0 },
	{ "ntstore_t", KERNEL_NTSTORE, 0, 64, 64, NULL, 0, 0, 0 },
	{ "copy_missing", KERNEL_COPY, ISA_MISSING, 64, 64, NULL, 0, 0, 0 },
	{ "copy_wide", KERNEL_COPY, ISA_WIDE, 64, 64, NULL, 0, 0, 0 },
	{ "copy_t", KERNEL_COPY, 0, 64, 64, NULL, 0, 0, 0 },
	{ "ntcopy_t", KERNEL_NTCOPY, 0, 64, 64, NULL, 0, 0, 0 },
	{ "triad_t", KERNEL_TRIAD, 0, 64, 64, NULL, 0, 0, 0 },
};
#define NTABLE (sizeof(table) / sizeof(table[0]))
/* the tuner's choice of each kind */
static const struct kernel_desc tuned[] = {
	[KERNEL_LOAD] = { "load_tuned", KERNEL_LOAD, 0, 64, 64, NULL, 0, 0, 0 },
	[KERNEL_STORE] = { "store_tuned", KERNEL_STORE, 0, 64, 64, NULL, 0, 0, 0 },
	[KERNEL_NTSTORE] = { "ntstore_tuned", KERNEL_NTSTORE, 0, 64, 64, NULL, 0, 0, 0 },
	[KERNEL_COPY] = { "copy_tuned", KERNEL_COPY, 0, 64, 64, NULL, 0, 0, 0 },
	[KERNEL_NTCOPY] = { "ntcopy_tuned", KERNEL_NTCOPY, 0, 64, 64, NULL, 0, 0, 0 },
	[KERNEL_TRIAD] = { "triad_tuned", KERNEL_TRIAD, 0, 64, 64, NULL, 0, 0, 0 },
};

static uint64_t now;
static uint64_t clock_fake(void) { return now++; }

/* memory */
static int fail_alloc, fail_in_node, fail_anywhere_after = -1, taken, given, allocs, frees;
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
		assert_int_equal(r[0].start, 0x40000000);   /* node 1's range */
		if (fail_in_node)
			return NULL;
	} else if (fail_anywhere_after >= 0 && taken >= fail_anywhere_after) {
		return NULL;
	}
	taken++;
	void *p = aligned_alloc(64, bytes);
	memset(p, 0xA5, bytes);   /* not zeroed: the run must set the arrays */
	return p;
}
static void free_in(void *p, uint64_t bytes)
{
	assert_int_equal(bytes, SIZE);
	given++;
	free(p);
}

/* the vector state: a counting attachment */
static char calls[16];
static int ncalls, restore_fails;
static void note(char c) { if (ncalls < 15) calls[ncalls++] = c; }
static int v_prepare(struct attachment *a, const struct hw *hw) { (void)a, (void)hw; note('p'); return 0; }
static int v_restore(struct attachment *a, const struct hw *hw) { (void)a, (void)hw; note('x'); return restore_fails ? -1 : 0; }
static const struct attachment_ops vec_ops = { "vector_state", v_prepare, NULL, NULL, NULL, NULL, NULL, v_restore };

/* the CPU ops */
static uint32_t isa_now;
static uint32_t isa_fake(void)
{
	assert_int_equal(ncalls, 1);   /* asked once the vector state is on */
	return isa_now;
}
static uint32_t class_fake(const struct hw *hw, uint32_t cpu)
{
	(void)hw;
	return cpu == 6 ? 7 : 0;
}
struct tune_call { uint32_t cpu; enum kernel_kind kind; uint64_t budget, probe; uint32_t slices; };
static struct tune_call tcalls[16];
static int ntcalls, tune_fail_cpu = -1;
static int tune_fake(const struct hw *hw, uint32_t cpu, struct kernel_tune *t, uint32_t isa_only)
{
	(void)hw, (void)isa_only;
	assert_ptr_equal(t->timer, clock_fake);
	tcalls[ntcalls++] = (struct tune_call){ cpu, t->kind, t->budget_ticks, t->probe_bytes, t->slices };
	t->spent_ticks = 1000000;   /* 1 ms */
	t->ncand = 1;
	t->cand[0].k = &tuned[t->kind];
	t->choice = 0;
	t->status = (int)cpu == tune_fail_cpu ? -1 : 0;
	return t->status ? -1 : 0;
}
static const struct stream_ops ops = { isa_fake, class_fake, tune_fake };

/* the windows */
static const uint32_t streams[] = { [KERNEL_LOAD] = 1, [KERNEL_STORE] = 1, [KERNEL_NTSTORE] = 1,
				    [KERNEL_COPY] = 2, [KERNEL_NTCOPY] = 2, [KERNEL_TRIAD] = 3 };
static int nwin_counted, nwin, fail_cpu6_in_kind = -1, break_copy_of_cpu5;
static const struct kernel_desc *expect_k[8];   /* per kind: what every CPU must run (NULL: unchecked) */

static void check_arrays(const struct kernel_run *r)
{
	const double *b = r->b, *c = r->c;
	for (uint64_t w = 0; w < SIZE / 8; w++) {
		assert_true(((const double *)r->a)[w] == 0.0);
		assert_true(b[w] == (double)(w % 256));
		assert_true(c[w] == (double)((w / 256) % 256));
	}
}

static int model_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	(void)ctx;
	nwin++;
	assert_int_equal(s->ncpus, 3);
	assert_int_equal(s->mask_interrupts, 1);
	*r = (struct window_result){ .span_ticks = 50, .masked = 1, .ran = 3, .smi_status = HW_OK, .smi_delta = 1 };
	if (!s->kernel) {
		assert_null(s->counters);   /* nothing rides on the noise floor */
		return 0;
	}
	nwin_counted += s->counters != NULL;
	assert_ptr_equal(s->kernel, stream_kernel);
	static const uint64_t tmin[3] = { 16384, 16384, 32768 }, tmax[3] = { 20000, 20000, 40000 };
	int ran = 1;
	for (int i = 0; i < 3; i++) {
		struct kernel_run *k = s->cpus[i].arg;
		enum kernel_kind kind = k->k->kind;
		assert_int_equal(s->cpus[i].cpu, 4u + (uint32_t)i);
		assert_int_equal(k->bytes, SIZE);
		assert_int_equal(k->passes, 2);
		assert_ptr_equal(k->timer, clock_fake);
		assert_true(k->scalar == (kind == KERNEL_TRIAD ? 3.0 : 1.0));
		if (expect_k[kind])
			assert_ptr_equal(k->k, expect_k[kind]);
		check_arrays(k);
		if (i == 2 && (int)kind == fail_cpu6_in_kind) {
			k->status = -2;   /* this CPU did not run it */
			ran = 0;
			continue;
		}
		k->status = 0;
		k->ticks_min = tmin[i];
		k->ticks_max = tmax[i];
		k->ticks_total = tmin[i] + tmax[i];
		k->app_bytes = (uint64_t)streams[kind] * SIZE * 2;
		if ((kind == KERNEL_COPY || kind == KERNEL_NTCOPY) && !(i == 1 && break_copy_of_cpu5))
			memcpy(k->a, k->b, SIZE);
	}
	return ran ? 0 : -1;
}

static const struct measure_ctx ctx = { .win = { model_run, NULL }, .alloc = zalloc, .free = zfree,
					.alloc_in = alloc_in, .free_in = free_in, .clock = clock_fake, .timer_hz = HZ };
static struct attachment vec_att;
static struct attach_list vec_list;
static struct stream_request req;
static struct stream_result res;

/* CPUs 4, 5, 6; CPU 4 in SRAT node 1 (memory at 1 GiB), 5 and 6 unknown; kernel = auto. */
static void request(uint32_t budget_ms)
{
	memset(&req, 0, sizeof(req));
	req.sel.n = 3;
	for (int i = 0; i < 3; i++) {
		req.sel.cpu[i] = 4u + (uint32_t)i;
		req.sel.node[i] = i ? -1 : 1;
		req.sel.mem[i] = (int8_t)(i ? -1 : 0);
	}
	req.sel.nnodes = 1;
	req.sel.nodes[0] = (struct cpu_sel_node){ .domain = 1, .nr = 1, .r = { { 0x40000000, 0x80000000 } } };
	req.size = SIZE;
	req.passes = 2;
	req.table = table;
	req.ntable = NTABLE;
	req.kernel = "auto";
	req.auto_kernel = 1;
	req.budget_ms = budget_ms;
	req.llc = 16384;
	req.ops = &ops;
	vec_att = (struct attachment){ .ops = &vec_ops };
	vec_list = (struct attach_list){ .a = &vec_att, .n = 1 };
	req.vec = &vec_list;
	nwin_counted = nwin = ncalls = ntcalls = taken = given = allocs = frees = 0;
	fail_alloc = fail_in_node = restore_fails = break_copy_of_cpu5 = 0;
	fail_anywhere_after = tune_fail_cpu = fail_cpu6_in_kind = -1;
	isa_now = ISA_WIDE;
	memset(calls, 0, sizeof(calls));
	memset(expect_k, 0, sizeof(expect_k));
}

static void test_six_functions_by_hand(void **state)
{
	(void)state;
	request(0);
	expect_k[KERNEL_COPY] = &table[4];    /* copy_wide: the widest offered (ISA_MISSING is not) */
	expect_k[KERNEL_TRIAD] = &table[7];
	assert_int_equal(stream_measure(&ctx, &req, &res), 0);
	assert_int_equal(nwin, 12);            /* a noise floor and a window per function */
	assert_string_equal(calls, "px");
	assert_int_equal(ntcalls, 0);          /* budget 0: no tuner */
	assert_int_equal(res.nclasses, 2);
	assert_int_equal(res.class_first[1], 2);
	assert_false(res.kernel_refused);
	const struct stream_kind_out *copy = &res.kind[3], *load = &res.kind[0], *triad = &res.kind[5];
	assert_string_equal(copy->from, "default");
	assert_int_equal(copy->app, 393216);
	assert_int_equal(copy->mbps10, 240000);
	assert_int_equal(copy->min_ns, 16384);
	assert_int_equal(copy->max_ns, 40000);
	assert_int_equal(copy->avg_ns, 24256);
	assert_int_equal(copy->cpu[0].mbps, 8000);
	assert_int_equal(copy->cpu[2].mbps, 4000);
	assert_int_equal(copy->median_mbps, 8000);
	assert_int_equal(copy->outliers, 1);
	assert_true(copy->cpu[2].outlier);
	assert_false(copy->cpu[0].outlier);
	assert_true(copy->verified);
	assert_int_equal(copy->floor_ns, 50);
	assert_int_equal(load->app, 196608);
	assert_int_equal(load->mbps10, 120000);
	assert_int_equal(load->cpu[1].mbps, 4000);
	assert_int_equal(triad->app, 589824);
	assert_int_equal(triad->mbps10, 360000);
	assert_int_equal(triad->cpu[2].mbps, 6000);
	for (int s = 0; s < STREAM_NKINDS; s++)
		assert_true(res.kind[s].ran && res.kind[s].verified);
	/* CPU 4's arrays in node 1, the others anywhere */
	assert_int_equal(res.place[0].node, 1);
	assert_true(res.place[0].local);
	assert_int_equal(res.place[1].node, -1);
	assert_int_equal(taken, 9);
	assert_int_equal(given, 9);
	assert_int_equal(allocs, frees);
}

/* Budget 100 ms = 10^8 ticks over 6 functions x 2 classes, each tuner call spending 1 ms:
 * the first call gets 10^8 / 12 = 8333333, the second (10^8 - 10^6) / 11 = 9000000, the third
 * (10^8 - 2 x 10^6) / 10 = 9800000. The probe: 2 x LLC = 32768 < the working set (load: 65536),
 * one slice (32768 / 1 / 8 < 64 KiB). */
static void test_tuner_per_class_and_its_failure(void **state)
{
	(void)state;
	request(100);
	tune_fail_cpu = 6;
	assert_int_equal(stream_measure(&ctx, &req, &res), 0);
	assert_int_equal(ntcalls, 12);
	assert_int_equal(tcalls[0].cpu, 4);
	assert_int_equal(tcalls[1].cpu, 6);
	assert_int_equal(tcalls[0].kind, KERNEL_LOAD);
	assert_int_equal(tcalls[0].budget, 8333333);
	assert_int_equal(tcalls[1].budget, 9000000);
	assert_int_equal(tcalls[2].budget, 9800000);
	assert_int_equal(tcalls[0].probe, 32768);
	assert_int_equal(tcalls[0].slices, 1);
	const struct stream_kind_out *load = &res.kind[0];
	assert_string_equal(load->from, "tuner");
	assert_true(load->probe_above_llc);
	assert_ptr_equal(load->cpu[0].k, &tuned[KERNEL_LOAD]);    /* class 0: the tuner's choice */
	assert_ptr_equal(load->cpu[1].k, &tuned[KERNEL_LOAD]);
	assert_ptr_equal(load->cpu[2].k, &table[0]); /* class 7's tuner failed: the default */
	assert_int_equal(load->tune_rc[0], 0);
	assert_int_equal(load->tune_rc[1], -1);
	assert_ptr_equal(load->deflt, &table[0]);
}

static void test_pinned_and_refused(void **state)
{
	(void)state;
	request(100);
	req.kernel = "copy_wide";
	req.auto_kernel = 0;
	req.pinned = &table[4];
	expect_k[KERNEL_COPY] = &table[4];
	assert_int_equal(stream_measure(&ctx, &req, &res), 0);
	assert_string_equal(res.kind[3].from, "pinned");
	assert_int_equal(ntcalls, 10);               /* every function but copy tuned, 2 classes each */
	/* a pinned kernel this CPU does not offer: refused, the default for copy */
	request(0);
	req.kernel = "copy_wide";
	req.auto_kernel = 0;
	req.pinned = &table[4];
	isa_now = 0;
	expect_k[KERNEL_COPY] = &table[5];
	assert_int_equal(stream_measure(&ctx, &req, &res), 0);
	assert_true(res.kernel_refused);
	assert_string_equal(res.kind[3].from, "default");
	assert_int_equal(res.isa, 0);
}

static void test_cpu_did_not_run_broken_copy_and_restore(void **state)
{
	(void)state;
	request(0);
	fail_cpu6_in_kind = KERNEL_TRIAD;
	assert_int_equal(stream_measure(&ctx, &req, &res), -1);
	const struct stream_kind_out *triad = &res.kind[5];
	assert_false(triad->verified);
	assert_int_equal(triad->cpu[2].mbps, 0);
	assert_int_equal(triad->app, 393216);        /* the two CPUs that ran */
	assert_int_equal(triad->mbps10, 240000);
	assert_int_equal(triad->avg_ns, 18192);      /* (36384 + 36384) / (2 x 2) */
	assert_true(res.kind[3].verified);
	request(0);
	break_copy_of_cpu5 = 1;
	restore_fails = 1;
	assert_int_equal(stream_measure(&ctx, &req, &res), -1);
	assert_false(res.kind[3].verified);
	assert_false(res.kind[4].verified);
	assert_true(res.kind[5].verified);
	assert_true(res.vec_not_restored);
}

static void test_no_memory(void **state)
{
	(void)state;
	request(0);
	fail_in_node = 1;       /* node 1 full: CPU 4's arrays from anywhere */
	assert_int_equal(stream_measure(&ctx, &req, &res), 0);
	assert_int_equal(res.place[0].node, 1);
	assert_false(res.place[0].local);
	request(0);
	fail_anywhere_after = 7;   /* the 8th of 9 arrays cannot be had */
	assert_int_equal(stream_measure(&ctx, &req, &res), -1);
	assert_false(res.placed);
	assert_int_equal(nwin, 0);
	assert_int_equal(ncalls, 0);   /* the vector state never enabled */
	assert_int_equal(taken, 7);
	assert_int_equal(given, 7);
	assert_int_equal(allocs, frees);
	request(0);
	fail_alloc = 1;
	assert_int_equal(stream_measure(&ctx, &req, &res), -1);
	assert_int_equal(taken, 0);
}

/* With the request's health options the health attachments ride on each function's window,
 * not on its noise floor; a machine with none of their sources (every hw op missing) and no
 * PCIe device: each source of each window says why it is absent. */
static void test_health_on_each_window(void **state)
{
	(void)state;
	static const struct hw_ops none_ops = { .name = "none" };
	static const struct hw none = { &none_ops, NULL };
	struct measure_ctx c = ctx;
	struct health_opts o = { 0 };
	c.hw = &none;
	request(0);
	req.health = &o;
	assert_int_equal(stream_measure(&c, &req, &res), 0);
	assert_int_equal(nwin, 12);
	assert_int_equal(nwin_counted, 6);
	for (unsigned s = 0; s < STREAM_NKINDS; s++) {
		const struct attachment *aer = health_kind(&res.kind[s].health, "aer");
		assert_non_null(aer);
		assert_int_not_equal(aer->st, HW_OK);
		assert_string_equal(aer->why, "the window has no PCIe device");
		for (int k = 0; k < 4; k++)
			assert_false(res.kind[s].health.a[k].prepared && res.kind[s].health.a[k].st == HW_OK);
	}
}

/* A CXL device link of 16 GT/s x4: 16 x 4 x 128/130 / 8 = 7.877 GB/s raw per direction, given
 * as 7876 MB/s. Worked by hand: triad's 6000 MB/s is 3 arrays, 2 read (4000) and 1 written
 * (2000): 4000/7876 = 0.507, 2000/7876 = 0.253; load's 7000 all read (0.888); copy's 5001 is
 * 2501 read, 2500 written (both 0.317); ntstore's 3000 all written (0.380); link down: no
 * fraction. */
static void test_link_split_by_hand(void **state)
{
	(void)state;
	struct stream_link l;
	stream_link_split(KERNEL_TRIAD, 6000, 7876, &l);
	assert_true(l.read_mbps == 4000 && l.write_mbps == 2000 && l.read_milli == 507 && l.write_milli == 253);
	stream_link_split(KERNEL_LOAD, 7000, 7876, &l);
	assert_true(l.read_mbps == 7000 && l.write_mbps == 0 && l.read_milli == 888 && l.write_milli == 0);
	stream_link_split(KERNEL_COPY, 5001, 7876, &l);
	assert_true(l.read_mbps == 2501 && l.write_mbps == 2500 && l.read_milli == 317 && l.write_milli == 317);
	stream_link_split(KERNEL_NTSTORE, 3000, 7876, &l);
	assert_true(l.read_mbps == 0 && l.write_mbps == 3000 && l.read_milli == 0 && l.write_milli == 380);
	stream_link_split(KERNEL_TRIAD, 6000, 0, &l);
	assert_true(l.read_mbps == 4000 && l.write_mbps == 2000 && l.read_milli == 0 && l.write_milli == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_six_functions_by_hand),
		cmocka_unit_test(test_tuner_per_class_and_its_failure),
		cmocka_unit_test(test_pinned_and_refused),
		cmocka_unit_test(test_cpu_did_not_run_broken_copy_and_restore),
		cmocka_unit_test(test_no_memory),
		cmocka_unit_test(test_health_on_each_window),
		cmocka_unit_test(test_link_split_by_hand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
