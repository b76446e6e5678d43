/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The DDIO sweep's hit ratio at each point (efi/measure/ddio.h) on register-model CHA boxes
 * (tests/model/cha_model.c, Ice Lake layout, 4 CHAs): at each point a model device writes its
 * buffer's lines, some of them hitting the LLC and the rest missing it, as IO TOR inserts; the
 * run measures them through cha_measure with TOR_INSERTS.IO_HIT and TOR_INSERTS.IO_MISS (perfmon
 * icelakex uncore: umask 0x04, umask_ext 0xC001FD / 0xC001FE, which the model decodes on its
 * own) and the point's ratio is hits / (hits + misses). The expected counts and ratios are worked
 * out by hand from the scripted traffic: per tick CHA n gets per_tick x (n + 1) requests, so 4
 * CHAs see per_tick x 10. QEMU cannot show a ratio that is not 0/0 (TCG reads uncore MSRs as 0).
 * Also: the sizes list (`ddio_sweep`), and the states not-advancing and absent.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/cha_model.h"
#include "pmu/uncore/intel_cha.h"
#include "efi/measure/ddio.h"

#define NBOX 4
#define ICX_MODEL 0x6A
#define ALL_KEY 0xC001           /* Ice Lake uncore manual: umask_ext >> 8 of every request type */
#define PCIRDCUR_KEY 0xC8F3      /* Table 2-132: PCIRdCur */
#define ITOM_KEY 0xCC43          /* Table 2-132: ItoM */

static struct hw_model m;
static struct cha_model cm;
static struct hw h;
static struct cha_request req;
static struct cha_result res;
static uint64_t hit_per_tick, miss_per_tick;
static uint32_t key = ITOM_KEY;

/* The model device's writes of one point: one tick of hits and misses. */
static uint64_t point_window(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)arg;
	(void)slice;
	(void)nslices;
	cm.ntraffic = 0;
	if (hit_per_tick)
		cha_model_add(&cm, (struct cha_model_traffic){ .ia = 0, .hit = 1, .key = key, .per_tick = hit_per_tick });
	if (miss_per_tick)
		cha_model_add(&cm, (struct cha_model_traffic){ .ia = 0, .hit = 0, .key = key, .per_tick = miss_per_tick });
	hw_model_tick(&m, 1);
	cm.ntraffic = 0;
	return 1000000;   /* 1 ms */
}

/* One point: the model writes hit + miss lines per tick; returns its ratio. */
static void point(const char *events, uint64_t hit, uint64_t miss, struct ddio_ratio *r)
{
	char why[160];
	uint32_t cpu[1] = { 0 };
	h = cha_model_machine(&cm, &m, CHA_MODEL_ICX, NBOX);
	hit_per_tick = hit;
	miss_per_tick = miss;
	if (cha_prepare(&h, 6, ICX_MODEL, NULL, 0, 1, cpu, NBOX, events, 1, &req, why, sizeof(why)))
		fail_msg("cha_prepare: %s", why);
	assert_int_equal(cha_measure(&h, &req, point_window, NULL, &res), 0);
	ddio_ratio_of(&res.total, (hit + miss) * 10 * 64, "unused", r);
}

#define IO_HIT_MISS "TOR_INSERTS.IO_HIT;TOR_INSERTS.IO_MISS"

static void test_ratio_at_each_point(void **state)
{
	(void)state;
	/* three buffer sizes: all lines hit, three in four hit, one in four hits */
	static const struct { uint64_t hit, miss, hits, misses, milli; } pts[] = {
		{ 100, 0, 1000, 0, 1000 },
		{ 75, 25, 750, 250, 750 },
		{ 25, 75, 250, 750, 250 },
	};
	for (unsigned i = 0; i < 3; i++) {
		struct ddio_ratio r;
		point(IO_HIT_MISS, pts[i].hit, pts[i].miss, &r);
		assert_int_equal(r.state, DDIO_RATIO_OK);
		assert_int_equal(r.hits, pts[i].hits);
		assert_int_equal(r.misses, pts[i].misses);
		assert_int_equal(r.ratio_milli, pts[i].milli);
		assert_string_equal(ddio_state_name(r.state), "ok");
	}
}

static void test_rounding(void **state)
{
	(void)state;
	struct ddio_ratio r;
	point(IO_HIT_MISS, 1, 2, &r);         /* 10 hits, 20 misses: 1/3 = 0.333 */
	assert_int_equal(r.ratio_milli, 333);
	point(IO_HIT_MISS, 2, 1, &r);         /* 2/3 = 0.667 rounded */
	assert_int_equal(r.ratio_milli, 667);
}

static void test_default_events_read_ratio(void **state)
{
	(void)state;
	/* the ICX default set counts PCIRdCur hits and misses: the device reading memory */
	struct ddio_ratio r;
	key = PCIRDCUR_KEY;
	point(NULL, 30, 10, &r);
	key = ITOM_KEY;
	assert_int_equal(r.state, DDIO_RATIO_OK);
	/* the default set has the bandwidth group and six TOR latency groups: the point ran once
	 * per slice, 7 times, and the scaled counts are the window's */
	assert_int_equal(req.ngroups, 7);
	assert_int_equal(r.hits, 7 * 300);
	assert_int_equal(r.misses, 7 * 100);
	assert_int_equal(r.ratio_milli, 750);
}

static void test_not_advancing_and_absent(void **state)
{
	(void)state;
	struct ddio_ratio r;
	/* nothing moved: nothing to judge */
	point(IO_HIT_MISS, 0, 0, &r);
	assert_int_equal(r.state, DDIO_RATIO_ABSENT);
	/* counters that never advance while the device moved bytes (TCG): the model counted the
	 * pair, both 0 */
	point(IO_HIT_MISS, 0, 0, &r);
	ddio_ratio_of(&res.total, 1 << 20, NULL, &r);
	assert_int_equal(r.state, DDIO_RATIO_NOT_ADVANCING);
	assert_string_equal(ddio_state_name(r.state), "not-advancing");
	assert_non_null(strstr(r.why, "1048576 bytes"));
	/* events without a hit and miss pair: no ratio, saying what to count */
	point("TOR_INSERTS.IO_ITOM", 75, 25, &r);
	assert_int_equal(r.state, DDIO_RATIO_ABSENT);
	assert_non_null(strstr(r.why, "TOR_INSERTS.IO_HIT"));
	/* no counters at all */
	ddio_ratio_of(NULL, 1 << 20, "cha = off", &r);
	assert_int_equal(r.state, DDIO_RATIO_ABSENT);
	assert_string_equal(r.why, "cha = off");
	assert_string_equal(ddio_state_name(r.state), "absent");
}

static void test_sizes(void **state)
{
	(void)state;
	uint32_t s[DDIO_MAX_POINTS];
	int n = -1;
	char msg[160] = "";
	assert_int_equal(ddio_parse_sizes("none", 4, s, &n, msg, sizeof(msg)), 0);
	assert_int_equal(n, 0);
	assert_int_equal(ddio_parse_sizes(" 64K, 1M ,4M", 12, s, &n, msg, sizeof(msg)), 0);
	assert_int_equal(n, 3);
	assert_int_equal(s[0], 65536);
	assert_int_equal(s[1], 1048576);
	assert_int_equal(s[2], 4194304);
	assert_int_equal(ddio_parse_sizes("64K,64K", 7, s, &n, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "value 2"));
	assert_int_equal(ddio_parse_sizes("6000", 4, s, &n, msg, sizeof(msg)), -1);   /* not a multiple of 4K */
	assert_non_null(strstr(msg, "value 1"));
	assert_int_equal(ddio_parse_sizes("2G", 2, s, &n, msg, sizeof(msg)), -1);     /* above 1G */
	assert_int_equal(ddio_parse_sizes("4K,8K,12K,16K,20K,24K,28K,32K,36K", 34, s, &n, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "more than 8"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratio_at_each_point),
		cmocka_unit_test(test_rounding),
		cmocka_unit_test(test_default_events_read_ratio),
		cmocka_unit_test(test_not_advancing_and_absent),
		cmocka_unit_test(test_sizes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
