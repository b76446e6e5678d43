/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The self-check of a DMA window on register-model CHA boxes (tests/model/cha_model.c): a model
 * device writes N bytes of memory in the window, which the model counts as N / 64 IO ItoM TOR
 * inserts spread over the CHAs (a full-line inbound write is one ItoM: PCM src/pcm-pcie.h, the
 * PCIe write formula of WhitleyPlatform; the ItoM key 0xCC43 is the Ice Lake uncore manual's
 * Table 2-132 code). The platform's default events and formulas count them back: self_check
 * ok. A model that counts every line twice (hit and miss both, as a counting error would) gives
 * off; one whose counters never advance gives not-advancing. QEMU cannot show the first two
 * (TCG reads uncore MSRs as 0).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/cha_model.h"
#include "pmu/uncore/intel_cha.h"
#include "pmu/self_check.h"

#define NBOX 4
#define LINE 64
#define ICX_MODEL 0x6A
#define ITOM_KEY 0xCC43          /* Ice Lake uncore manual Table 2-132: IO ItoM (umask_ext >> 8) */
#define DMA_BYTES (640u * 1024)  /* 10240 lines: 1024 per tick x (1 + 2 + 3 + 4) over the CHAs */

static struct hw_model m;
static struct cha_model cm;
static struct hw h;
static struct cha_request req;
static struct cha_result res;
static unsigned copies;          /* classes counting each line: 1 truthful, 2 doubled, 0 stuck */
static unsigned slices;          /* slices run: the device moved DMA_BYTES in each */

/* The model device: writes DMA_BYTES of memory during the window, one tick. */
static uint64_t dma_window(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)arg;
	(void)slice;
	(void)nslices;
	slices++;
	uint64_t lines = DMA_BYTES / LINE, per_tick = lines / (NBOX * (NBOX + 1) / 2);
	cm.ntraffic = 0;
	for (unsigned c = 0; c < copies; c++)
		cha_model_add(&cm, (struct cha_model_traffic){ .ia = 0, .hit = (uint8_t)c, .key = ITOM_KEY,
							     .per_tick = per_tick });
	hw_model_tick(&m, 1);
	cm.ntraffic = 0;
	return 1000000;   /* 1 ms */
}

static void run(unsigned n, struct self_check *sc)
{
	char why[160];
	uint32_t cpu[1] = { 0 };
	h = cha_model_machine(&cm, &m, CHA_MODEL_ICX, NBOX);
	copies = n;
	slices = 0;
	if (cha_prepare(&h, 6, ICX_MODEL, NULL, 0, 1, cpu, NBOX, NULL, 1, &req, why, sizeof(why)))
		fail_msg("cha_prepare: %s", why);
	assert_int_equal(cha_measure(&h, &req, dma_window, NULL, &res), 0);
	/* the default set multiplexes the bandwidth group with the TOR latency groups: every slice
	 * moves DMA_BYTES (as an NVMe point re-runs per slice), and the window moved them all */
	assert_int_equal(req.ngroups, 7);
	assert_int_equal(slices, 7);
	struct self_check_bytes expected = { .read = 0, .write = (uint64_t)DMA_BYTES * slices };
	struct self_check_bytes counted = { res.total.read_bytes, res.total.write_bytes, res.total.have_read,
					    res.total.have_write };
	self_check_compute(&expected, &counted, 0, NULL, sc);
}

static void test_counted_matches_dma_ok(void **state)
{
	(void)state;
	struct self_check sc;
	run(1, &sc);
	assert_int_equal(res.total.write_bytes, 7 * 655360);
	assert_int_equal(sc.state, SELF_CHECK_OK);
	assert_int_equal(sc.ratio_write_milli, 1000);
	assert_int_equal(sc.counted_read, 0);
}

static void test_doubled_counts_off(void **state)
{
	(void)state;
	struct self_check sc;
	run(2, &sc);
	assert_int_equal(res.total.write_bytes, 7 * 2 * 655360);
	assert_int_equal(sc.state, SELF_CHECK_OFF);
	assert_int_equal(sc.ratio_write_milli, 2000);
}

static void test_stuck_counters_not_advancing(void **state)
{
	(void)state;
	struct self_check sc;
	run(0, &sc);
	assert_int_equal(sc.state, SELF_CHECK_NOT_ADVANCING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counted_matches_dma_ok),
		cmocka_unit_test(test_doubled_counts_off),
		cmocka_unit_test(test_stuck_counters_not_advancing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
