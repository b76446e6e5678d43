/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Kernel variants and the tuner (arch/kernel.h, arch/kernel_tune.h):
 *  - every variant's name carries its shape (the variants against the reference at every
 *    alignment and tail length: test_kernels.c);
 *  - the tuner on a fake timer whose clock each variant advances by its own cost per byte picks
 *    the variant made cheapest, never a faster one that is wrong, and lists all rates;
 *  - the time budget: with a known cost per pass, the tuner makes exactly the passes that fit
 *    and spends no more than the budget;
 *  - on the host's real clock it chooses a verified, offered variant of the kind.
 * Expected values are literal (costs and budgets set here), not computed by the tuner's code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "arch/kernel.h"
#include "arch/kernel_tune.h"
#include "efi/config/config.h"

/* Names carry the shape: kind, s<parts>[u<unroll>][_pf<lines>], ISA; the fields agree. */
static void test_variant_names_carry_shape(void **state)
{
	(void)state;
	for (uint32_t i = 0; i < arch_nkernels; i++) {
		const struct kernel_desc *k = &arch_kernels[i];
		if (k->kind == KERNEL_CHASE)
			continue;
		char want[64];
		char u[8] = "", pf[8] = "";
		if (k->unroll > 1)
			snprintf(u, sizeof(u), "u%u", k->unroll);
		if (k->prefetch_lines)
			snprintf(pf, sizeof(pf), "_pf%u", k->prefetch_lines);
		snprintf(want, sizeof(want), "%s_s%u%s%s_%s", kernel_kind_name(k->kind), k->parts, u, pf,
			 kernel_isa_name(k->isa));
		assert_string_equal(k->name, want);
	}
}

/* ---- fake timer --------------------------------------------------------------------------- */
static uint64_t fake_now;
static uint64_t fake_timer(void)
{
	return fake_now++;   /* a read costs one tick, as a real one costs something */
}

/* cost in ticks per KiB of one array for each fake variant; the timed passes' order in order[] */
static uint64_t cost_per_kib[6];
static int order[64], norder;
#define FAKE(i)                                                                                  \
	static uint64_t fake##i(void *a, const void *b, const void *c, uint64_t bytes, double s) \
	{                                                                                        \
		if (bytes > KERNEL_TUNE_VERIFY_BYTES && norder < 64)                             \
			order[norder++] = i;                                                      \
		fake_now += cost_per_kib[i] * bytes / 1024;                                       \
		return kernel_ref_set[KERNEL_COPY].fn(a, b, c, bytes, s);                        \
	}
FAKE(0) FAKE(1) FAKE(2) FAKE(3) FAKE(4)
static uint64_t fake_wrong(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	fake_now += cost_per_kib[5] * bytes / 1024;
	kernel_ref_set[KERNEL_COPY].fn(a, b, c, bytes, s);
	((unsigned char *)a)[0] ^= 0x40;
	return 0;
}

static const struct kernel_desc fake_table[] = {
	{ "copy_s8_fake", KERNEL_COPY, KERNEL_ISA_NONE, 512, 64, fake0, 8, 1, 0 },
	{ "copy_s4_fake", KERNEL_COPY, KERNEL_ISA_NONE, 256, 64, fake1, 4, 1, 0 },
	{ "load_s1_c", KERNEL_LOAD, KERNEL_ISA_NONE, 8, 8, NULL, 1, 1, 0 },       /* another kind: skipped */
	{ "copy_s2_fake", KERNEL_COPY, KERNEL_ISA_NONE, 128, 64, fake2, 2, 1, 0 },
	{ "copy_s1_wide", KERNEL_COPY, KERNEL_ISA_AVX512, 64, 64, fake3, 1, 1, 0 }, /* not offered */
	{ "copy_s1_fake", KERNEL_COPY, KERNEL_ISA_NONE, 64, 64, fake4, 1, 1, 0 },
	{ "copy_s1_wrong", KERNEL_COPY, KERNEL_ISA_NONE, 64, 64, fake_wrong, 1, 1, 0 },
};

#define PROBE (1u << 20)

static void tune_setup(struct kernel_tune *t, void **a, void **b)
{
	*a = aligned_alloc(64, PROBE);
	*b = aligned_alloc(64, PROBE);
	assert_non_null(*a);
	assert_non_null(*b);
	memset(*b, 0, PROBE);
	memset(t, 0, sizeof(*t));
	t->table = fake_table;
	t->n = sizeof(fake_table) / sizeof(fake_table[0]);
	t->kind = KERNEL_COPY;
	t->isa = KERNEL_ISA_NONE;
	t->a = *a;
	t->b = *b;
	t->probe_bytes = PROBE;
	t->timer = fake_timer;
}

/* The tuner over fake_table with the clock at 0 and these costs per KiB of one array: s2
 * cheapest among the correct ones (40), then s1 (70), s4 (90), s8 (100); the wrong one cheaper
 * still (10); the AVX-512 one not offered. */
static struct kernel_tune *tune_fake(void **a, void **b, uint64_t budget)
{
	struct kernel_tune *t = calloc(1, sizeof(*t));
	assert_non_null(t);
	tune_setup(t, a, b);
	const uint64_t costs[6] = { 100, 90, 40, 1, 70, 10 };
	memcpy(cost_per_kib, costs, sizeof(costs));
	t->budget_ticks = budget;
	fake_now = 0;
	norder = 0;
	kernel_tune(t);
	return t;
}

static void test_tuner_picks_the_fastest_correct_variant(void **state)
{
	(void)state;
	void *a, *b;
	struct kernel_tune *t = tune_fake(&a, &b, 1000000000ull);
	assert_int_equal(t->status, 0);
	assert_int_equal(t->ncand, 5);   /* four correct copies and the wrong one; not load, not AVX-512 */
	assert_true(t->choice >= 0);
	assert_string_equal(t->cand[t->choice].k->name, "copy_s2_fake");
	for (uint32_t i = 0; i < t->ncand; i++) {
		const struct kernel_tune_cand *c = &t->cand[i];
		if (!strcmp(c->k->name, "copy_s1_wrong")) {
			assert_int_equal(c->verified, 0);
			assert_int_equal(c->passes, 0);
			continue;
		}
		assert_int_equal(c->verified, 1);
		assert_true(c->passes >= 1);
		/* 512 KiB per array (1 MiB footprint over 2 streams); rate = 2 x 512 KiB / cost */
		assert_int_equal(c->bytes, 524288);
		assert_int_equal(c->app_bytes, 1048576);
		uint64_t want_ticks = 512 * (!strcmp(c->k->name, "copy_s8_fake") ? 100 : !strcmp(c->k->name, "copy_s4_fake") ? 90 :
					     !strcmp(c->k->name, "copy_s2_fake") ? 40 : 70) + 1;
		assert_int_equal(c->best_ticks, want_ticks);
	}
	/* MB/s at a 1 GHz timer: 1048576 bytes / 20481 ns = 51197.3 MB/s */
	assert_int_equal(kernel_tune_mbps(&t->cand[t->choice], 1000000000ull), 51197);
	free(a), free(b), free(t);
}

/* Successive halving: all four correct variants once in table order (s8, s4, s2, s1), then only
 * the faster two (s2 at 40 ticks/KiB, s1 at 70) in turn, reversed every round (s1 s2, s2 s1, ...),
 * until the budget is spent; the slower two keep their one pass. */
static void test_tuner_halving(void **state)
{
	(void)state;
	void *a, *b;
	/* verification 2441 ticks (8072 bytes at 100, 90, 40, 70 and 10 ticks/KiB); passes of 51201,
	 * 46081, 20481 and 35841 ticks (a read each); the tuner goes on while the longest pass
	 * (51201) still fits what is left of 400000: four passes, then eight of s2/s1, the last
	 * ending at 381357, where 18643 are left */
	struct kernel_tune *t = tune_fake(&a, &b, 400000);
	assert_int_equal(t->status, 0);
	assert_string_equal(t->cand[t->choice].k->name, "copy_s2_fake");
	static const int want[] = { 0, 1, 2, 4, 4, 2, 2, 4, 4, 2, 2, 4 };   /* fake index per timed pass */
	assert_int_equal(norder, sizeof(want) / sizeof(want[0]));
	for (int i = 0; i < norder; i++)
		assert_int_equal(order[i], want[i]);
	for (uint32_t i = 0; i < t->ncand; i++) {
		const char *n = t->cand[i].k->name;
		uint32_t passes = !strcmp(n, "copy_s8_fake") || !strcmp(n, "copy_s4_fake") ? 1 : !strcmp(n, "copy_s1_wrong") ? 0 : 5;
		assert_int_equal(t->cand[i].passes, passes);
	}
	free(a), free(b), free(t);
}

static void test_tuner_budget_honoured(void **state)
{
	(void)state;
	struct kernel_tune *t = calloc(1, sizeof(*t));
	void *a, *b;
	assert_non_null(t);
	tune_setup(t, &a, &b);
	const uint64_t costs[6] = { 10, 10, 10, 10, 10, 10 };   /* 5120 ticks a pass + 1 for the read */
	memcpy(cost_per_kib, costs, sizeof(costs));
	static const struct { uint64_t budget; uint32_t passes; } cases[] = {
		{ 100000, 19 },  /* verification ~ 4 x 79 ticks, then 19 passes of 5121 = 97299 */
		{ 20000, 3 },
		{ 5121, 1 },     /* the first pass is always made */
		{ 10, 1 },       /* even when it alone exceeds the budget */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t->budget_ticks = cases[i].budget;
		fake_now = 1000;
		kernel_tune(t);
		assert_int_equal(t->status, 0);
		uint32_t passes = 0;
		for (uint32_t j = 0; j < t->ncand; j++)
			passes += t->cand[j].passes;
		assert_int_equal(passes, cases[i].passes);
		if (cases[i].passes > 1)
			assert_true(t->spent_ticks <= cases[i].budget);
		assert_int_equal(fake_now - 1000, t->spent_ticks + 1);   /* spent is what the clock saw */
	}
	free(a), free(b), free(t);
}

/* slices = 4: passes rotate over four quarters of the probe arrays (offsets 0, 128 KiB, 256
 * KiB, 384 KiB of each 512 KiB array), each a quarter long. */
static uintptr_t seen_a[64], seen_b[64];
static uint64_t seen_bytes[64];
static int nseen;
static uint64_t fake_seen(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	if (nseen < 64 && bytes > KERNEL_TUNE_VERIFY_BYTES) {   /* the timed passes, not the check */
		seen_a[nseen] = (uintptr_t)a, seen_b[nseen] = (uintptr_t)b, seen_bytes[nseen++] = bytes;
		fake_now += 1000;
	}
	return kernel_ref_set[KERNEL_COPY].fn(a, b, c, bytes, s);
}

/* The tuner over the one fake_seen variant: slices, reps and budget as given; the passes seen
 * are in seen_* / nseen. */
static struct kernel_tune *tune_seen(void **a, void **b, uint32_t slices, uint32_t reps, uint64_t budget)
{
	static const struct kernel_desc one[] = { { "copy_s1_seen", KERNEL_COPY, KERNEL_ISA_NONE, 64, 64, fake_seen, 1, 1, 0 } };
	struct kernel_tune *t = calloc(1, sizeof(*t));
	assert_non_null(t);
	tune_setup(t, a, b);
	t->table = one;
	t->n = 1;
	t->slices = slices;
	t->reps = reps;
	t->budget_ticks = budget;
	nseen = 0;
	fake_now = 0;
	kernel_tune(t);
	assert_int_equal(t->status, 0);
	return t;
}

static void test_tuner_slices(void **state)
{
	(void)state;
	void *a, *b;
	/* six passes of 1000 ticks and a few timer reads each, not seven */
	struct kernel_tune *t = tune_seen(&a, &b, 4, 0, 6100);
	assert_int_equal(t->cand[0].bytes, 131072);
	assert_int_equal(nseen, 6);
	for (int i = 0; i < nseen; i++) {
		assert_int_equal(seen_bytes[i], 131072);
		assert_int_equal(seen_a[i] - (uintptr_t)a, (uintptr_t)(i % 4) * 131072);
		assert_int_equal(seen_b[i] - (uintptr_t)b, (uintptr_t)(i % 4) * 131072);
	}
	free(a), free(b), free(t);
}

/* reps = 3 over slices = 2: each timed pass is three calls on one half, so three calls per pass
 * land on the same offset, app_bytes counts all three, and the rate is per pass (three calls). */
static void test_tuner_reps(void **state)
{
	(void)state;
	void *a, *b;
	/* two passes of 3000 ticks (and a few reads), not three */
	struct kernel_tune *t = tune_seen(&a, &b, 2, 3, 6100);
	assert_int_equal(t->cand[0].bytes, 262144);            /* 1 MiB / 2 streams / 2 slices */
	assert_int_equal(t->cand[0].app_bytes, 3 * 2 * 262144);  /* read + write, three calls */
	assert_int_equal(t->cand[0].passes, 2);
	assert_int_equal(nseen, 6);
	for (int i = 0; i < nseen; i++)
		assert_int_equal(seen_a[i] - (uintptr_t)a, (uintptr_t)(i / 3) * 262144);
	assert_int_equal(t->cand[0].best_ticks, 3001);         /* three calls of 1000 and one read */
	/* 1572864 bytes in 3001 ns at a 1 GHz timer: 524113.9 MB/s */
	assert_int_equal(kernel_tune_mbps(&t->cand[0], 1000000000ull), 524113);
	free(a), free(b), free(t);
}

static void test_tuner_bad_arguments(void **state)
{
	(void)state;
	struct kernel_tune t = { 0 };
	kernel_tune(&t);
	assert_int_equal(t.status, -1);
	assert_int_equal(t.choice, -1);
	struct kernel_tune *u = calloc(1, sizeof(*u));
	void *a, *b;
	tune_setup(u, &a, &b);
	u->b = NULL;               /* copy reads b */
	kernel_tune(u);
	assert_int_equal(u->status, -1);
	u->b = b;
	u->kind = KERNEL_TRIAD;    /* no triad variant in the fake table */
	u->c = b;
	kernel_tune(u);
	assert_int_equal(u->status, -1);
	free(a), free(b), free(u);
}

static uint64_t host_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void test_tuner_on_host(void **state)
{
	(void)state;
	const uint64_t probe = 4u << 20;
	void *a = aligned_alloc(64, probe), *b = aligned_alloc(64, probe), *c = aligned_alloc(64, probe);
	assert_non_null(a), assert_non_null(b), assert_non_null(c);
	memset(b, 0x3f, probe);   /* 0x3f3f...: the double 0.49..., finite */
	memset(c, 0x3f, probe);
	memset(a, 0, probe);
	for (int kind = KERNEL_LOAD; kind <= KERNEL_TRIAD; kind++) {
		struct kernel_tune *t = calloc(1, sizeof(*t));
		assert_non_null(t);
		*t = (struct kernel_tune){ .table = arch_kernels, .n = arch_nkernels, .kind = (enum kernel_kind)kind,
					   .isa = arch_kernel_isa(), .a = a, .b = b, .c = c, .probe_bytes = probe,
					   .timer = host_ns, .budget_ticks = 50000000, .scalar = 3.0 };
		kernel_tune(t);
		assert_int_equal(t->status, 0);
		const struct kernel_tune_cand *ch = &t->cand[t->choice];
		assert_int_equal(ch->k->kind, kind);
		assert_true(ch->verified && ch->passes >= 1 && kernel_offered(ch->k, arch_kernel_isa()));
		for (uint32_t i = 0; i < t->ncand; i++)
			assert_true(t->cand[i].verified);   /* every real variant matches the reference */
		free(t);
	}
	free(a), free(b), free(c);
}

/* `kernel` and `kernel_budget`: a name that is no variant is an error naming the line and
 * the value; a variant of this architecture and auto are accepted; the budget's range. */
static void test_config_keys(void **state)
{
	(void)state;
	struct efiperf_config *cfg = calloc(1, sizeof(*cfg));
	struct cfg_errors errs;
	assert_non_null(cfg);
	cfg_defaults(cfg);
	assert_string_equal(cfg->kernel, "auto");
	assert_int_equal(kernel_isa_bit("avx2"), KERNEL_ISA_AVX2);   /* arch/kernel.h */
	assert_int_equal(kernel_isa_bit("sve"), KERNEL_ISA_SVE);
	assert_int_equal(kernel_isa_bit("c"), 0);
	assert_int_equal(cfg->kernel_budget, 1000);
	memset(&errs, 0, sizeof(errs));
	const char bad[] = "stream = on\nkernel = copy_s3_avx2\n";
	assert_int_equal(cfg_parse_text(cfg, bad, sizeof(bad) - 1, "efiperf.cfg", &errs), 1);
	assert_string_equal(errs.e[0].where, "efiperf.cfg:2");
	assert_string_equal(errs.e[0].key, "kernel");
	assert_non_null(strstr(errs.e[0].message, "'copy_s3_avx2' is not a kernel variant"));
	const char chase[] = "kernel = chase_c\n";   /* the chase is no stream kernel */
	memset(&errs, 0, sizeof(errs));
	assert_int_equal(cfg_parse_text(cfg, chase, sizeof(chase) - 1, "efiperf.cfg", &errs), 1);
	char good[80];
	snprintf(good, sizeof(good), "kernel = %s\nkernel_budget = 0\n", arch_kernels[0].name);
	memset(&errs, 0, sizeof(errs));
	assert_int_equal(cfg_parse_text(cfg, good, strlen(good), "efiperf.cfg", &errs), 0);
	assert_string_equal(cfg->kernel, arch_kernels[0].name);
	assert_int_equal(cfg->kernel_budget, 0);
	const char isa[] = "kernel = sse2\n";      /* an ISA: the tuner chooses among its variants */
	memset(&errs, 0, sizeof(errs));
	assert_int_equal(cfg_parse_text(cfg, isa, sizeof(isa) - 1, "efiperf.cfg", &errs), 0);
	assert_string_equal(cfg->kernel, "sse2");
	const char other[] = "kernel = armv9\n";
	memset(&errs, 0, sizeof(errs));
	assert_int_equal(cfg_parse_text(cfg, other, sizeof(other) - 1, "efiperf.cfg", &errs), 1);
	const char over[] = "kernel_budget = 10001\n";
	memset(&errs, 0, sizeof(errs));
	assert_int_equal(cfg_parse_text(cfg, over, sizeof(over) - 1, "efiperf.cfg", &errs), 1);
	assert_string_equal(errs.e[0].key, "kernel_budget");
	free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variant_names_carry_shape),
		cmocka_unit_test(test_tuner_picks_the_fastest_correct_variant),
		cmocka_unit_test(test_tuner_budget_honoured),
		cmocka_unit_test(test_tuner_halving),
		cmocka_unit_test(test_tuner_slices),
		cmocka_unit_test(test_tuner_reps),
		cmocka_unit_test(test_tuner_bad_arguments),
		cmocka_unit_test(test_tuner_on_host),
		cmocka_unit_test(test_config_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
