/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Core-to-core matrix grouping (efi/measure/c2c_group.c) on synthetic topologies: 2 sockets x
 * 2 CCX (L3 domains) per socket x 2 cores per CCX x 2 SMT threads = 16 CPUs, one SRAT node per
 * socket; the APIC-ID shift rule of SDM Vol.2A CPUID leaf 04H; summaries per relation with
 * literal expected minima and medians; the pair ping-pong on two host threads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <cmocka.h>

#include "efi/measure/c2c_group.h"
#include "arch/c2c.h"

#define N 16

/* CPU i: socket i/8, CCX (i/4)%2, core i/2, thread i%2. APIC IDs as a 2-socket part numbers
 * them: thread bit 0, core bits 1, CCX bit 2, socket bit 3 (i itself). */
static struct c2c_cpu topo[N];

static int setup(void **state)
{
	(void)state;
	for (uint32_t i = 0; i < N; i++) {
		uint32_t apic = i;
		topo[i] = (struct c2c_cpu){ .cpu = i, .package = i / 8, .core = apic >> c2c_apic_shift(2),
					    .l3 = apic >> c2c_apic_shift(4), .node = (int32_t)(i / 8) };
	}
	return 0;
}

static void test_apic_shift(void **state)
{
	(void)state;
	assert_int_equal(c2c_apic_shift(0), 0);
	assert_int_equal(c2c_apic_shift(1), 0);
	assert_int_equal(c2c_apic_shift(2), 1);
	assert_int_equal(c2c_apic_shift(3), 2);    /* "nearest power of 2 not smaller than" 3 is 4 */
	assert_int_equal(c2c_apic_shift(12), 4);   /* Zen 3 L3 shared by 12 threads: 16 IDs */
	assert_int_equal(c2c_apic_shift(16), 4);
	assert_int_equal(c2c_apic_shift(17), 5);
}

static void test_relations(void **state)
{
	(void)state;
	assert_int_equal(c2c_relation(&topo[0], &topo[0]), C2C_SELF);
	assert_int_equal(c2c_relation(&topo[0], &topo[1]), C2C_SMT);
	assert_int_equal(c2c_relation(&topo[0], &topo[2]), C2C_L3);
	assert_int_equal(c2c_relation(&topo[0], &topo[3]), C2C_L3);
	assert_int_equal(c2c_relation(&topo[0], &topo[4]), C2C_PACKAGE);
	assert_int_equal(c2c_relation(&topo[3], &topo[7]), C2C_PACKAGE);
	assert_int_equal(c2c_relation(&topo[0], &topo[8]), C2C_REMOTE);
	assert_int_equal(c2c_relation(&topo[7], &topo[8]), C2C_REMOTE);
	/* same core numbers in another package are still remote */
	assert_int_equal(c2c_relation(&topo[9], &topo[1]), C2C_REMOTE);
	assert_int_equal(c2c_node_relation(&topo[0], &topo[7]), C2C_NODE_SAME);
	assert_int_equal(c2c_node_relation(&topo[0], &topo[8]), C2C_NODE_OTHER);
	struct c2c_cpu nosrat = topo[1];
	nosrat.node = -1;
	assert_int_equal(c2c_node_relation(&topo[0], &nosrat), C2C_NODE_UNKNOWN);
	assert_string_equal(c2c_rel_name(C2C_L3), "l3");
	assert_string_equal(c2c_node_rel_name(C2C_NODE_OTHER), "other_node");
}

/* Matrix values by relation: smt 10 ns, l3 30..37, package 80..87, remote 150..157 (ps),
 * varying with the lower CPU number so that minima and medians are distinct. */
static uint64_t value(int i, int j)
{
	static const uint64_t base[C2C_NREL] = { 0, 10000, 30000, 80000, 150000 };
	return i == j ? 0 : base[c2c_relation(&topo[i], &topo[j])] + (uint64_t)((i < j ? i : j) % 8) * 1000;
}

static void test_summaries(void **state)
{
	(void)state;
	static uint64_t m[N * N], scratch[N * (N - 1) / 2];
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			m[i * N + j] = value(i, j);
	struct c2c_summary rel[C2C_NREL], node[C2C_NNODE];
	c2c_summarise(topo, N, m, scratch, rel, node);
	/* pairs: smt 8 (one per core), l3 4 CCX x (6 - 2) = 16, package 2 x 16 = 32, remote 64 */
	assert_int_equal(rel[C2C_SELF].pairs, 0);
	assert_int_equal(rel[C2C_SMT].pairs, 8);
	assert_int_equal(rel[C2C_L3].pairs, 16);
	assert_int_equal(rel[C2C_PACKAGE].pairs, 32);
	assert_int_equal(rel[C2C_REMOTE].pairs, 64);
	/* smt pairs (0,1) (2,3) ... (14,15): lower CPU % 8 = 0,2,4,6,0,2,4,6 -> 10000 + those x 1000 */
	assert_int_equal(rel[C2C_SMT].min, 10000);
	assert_int_equal(rel[C2C_SMT].median, 13000);   /* sorted 10,10,12,12,14,14,16,16: (12+14)/2 */
	/* remote pairs (i in 0..7, j in 8..15): value 150000 + i x 1000, 8 of each: median (153+154)/2 */
	assert_int_equal(rel[C2C_REMOTE].min, 150000);
	assert_int_equal(rel[C2C_REMOTE].median, 153500);
	assert_int_equal(node[C2C_NODE_SAME].pairs, 8 + 16 + 32);
	assert_int_equal(node[C2C_NODE_OTHER].pairs, 64);
	assert_int_equal(node[C2C_NODE_OTHER].median, 153500);
	assert_int_equal(node[C2C_NODE_UNKNOWN].pairs, 0);
	/* pairs not measured (0) are left out */
	m[0 * N + 8] = 0;
	c2c_summarise(topo, N, m, scratch, rel, node);
	assert_int_equal(rel[C2C_REMOTE].pairs, 63);
}

static void test_sort(void **state)
{
	(void)state;
	static uint64_t v[20000];
	uint64_t x = 12345;
	for (int i = 0; i < 20000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = x >> 40;
	}
	c2c_sort_u64(v, 20000);
	for (int i = 1; i < 20000; i++)
		assert_true(v[i - 1] <= v[i]);
}

/* ---- the ping-pong on two host threads ---------------------------------------------------- */
static uint64_t host_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void *responder(void *arg)
{
	c2c_responder(arg);
	return NULL;
}

static void test_pingpong_two_threads(void **state)
{
	(void)state;
	static uint64_t line[C2C_LINE_BYTES / 8] __attribute__((aligned(C2C_LINE_BYTES)));
	static uint64_t ticks[8];
	line[0] = 0;
	struct c2c_run ini = { .line = line, .rounds = 8, .trips = 200, .timer = host_ns,
			       .timeout_ticks = 10000000000ull, .round_ticks = ticks };
	struct c2c_run res = ini;
	res.round_ticks = NULL;
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, responder, &res), 0);
	uint64_t last = c2c_initiator(&ini);
	pthread_join(t, NULL);
	assert_int_equal(ini.status, 0);
	assert_int_equal(res.status, 0);
	assert_int_equal(last, 2 * 8 * 200);   /* every trip made both CASes */
	for (int r = 0; r < 8; r++)
		assert_true(ticks[r] > 0);

	/* no responder: the initiator gives up after timeout_ticks instead of hanging */
	line[0] = 0;
	ini.timeout_ticks = 20000000ull;   /* 20 ms */
	ini.rounds = 1;
	c2c_initiator(&ini);
	assert_int_equal(ini.status, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apic_shift),
		cmocka_unit_test(test_relations),
		cmocka_unit_test(test_summaries),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_pingpong_two_threads),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
