/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NVIDIA Tegra410 CMEM latency and C2C-type PMUs (pmu/uncore/nv_acpi_pmu.c) on the register
 * model tests/model/nv_apmu_model.c, and the latency formula (pmu/latency.c) from literal
 * counts. Expected sums and latencies are worked out by hand in the comments from the
 * scripted increments; addresses are literal (Linux drivers/perf/nvidia_t410_cmem_latency_pmu.c:
 * CG_CTRL 0x800, CTRL 0x808; nvidia_t410_c2c_pmu.c: C2C_CTRL 0x864, counters 0x86C..0x8B0).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/latency.h"
#include "pmu/uncore/nv_acpi_pmu.h"
#include "tests/model/nv_apmu_model.h"

static struct nv_apmu_model model;
static struct nv_apmu_result res;

static void test_latency_literal(void **state)
{
	(void)state;
	struct latency l;
	/* 1e6 cum_outs / 1e4 requests = 100 cycles; 2e6 cycles in 1e6 ns = 2 GHz; 50 ns */
	latency_compute(1000000, 10000, 2000000, 1000000, &l);
	assert_true(l.valid);
	assert_int_equal(l.cycles_milli, 100000);
	assert_int_equal(l.freq_ghz_milli, 2000);
	assert_int_equal(l.ns_milli, 50000);
	/* 10 / 3 = 3.333 cycles; 3 cycles in 7 ns = 0.429 GHz; 10 x 7 / (3 x 3) = 7.778 ns */
	latency_compute(10, 3, 3, 7, &l);
	assert_int_equal(l.cycles_milli, 3333);
	assert_int_equal(l.freq_ghz_milli, 429);
	assert_int_equal(l.ns_milli, 7778);
	/* inputs near 2^64 do not overflow: (2^64-1) / (2^63) ~ 2 cycles */
	latency_compute(~0ull, 1ull << 63, 1ull << 40, 1ull << 40, &l);
	assert_int_equal(l.cycles_milli, 2000);
	assert_int_equal(l.ns_milli, 2000);
	latency_compute(5, 0, 10, 10, &l);
	assert_false(l.valid);
	assert_string_equal(l.why, "no requests counted (req = 0)");
	latency_compute(5, 1, 0, 10, &l);
	assert_false(l.valid);
	latency_compute(5, 1, 10, 0, &l);
	assert_false(l.valid);
}

/* ---- CMEM ------------------------------------------------------------------------------ */

#define CMEM_BASE 0x40000000ull
#define CMEM_BCAST (CMEM_BASE + 14 * 0x1000)

static struct nv_apmu_dev cmem;
static uint32_t ticks;
static uint64_t window_ns;

static uint64_t window(void *arg)
{
	nv_model_tick(arg, ticks);
	return window_ns;
}

static void cmem_model(void)
{
	nv_model_init(&model, NVM_CMEM, 14, CMEM_BASE);
	for (uint32_t i = 0; i < 14; i++) {
		/* order: CYCLE, MC0..2 REQ, MC0..2 AOR */
		uint64_t inc[7] = { 1000, i + 1, 2, 0, 50 * (i + 1), 40, 0 };
		memcpy(model.inc[i], inc, sizeof(inc));
		nv_model_set(&model, i, 0x820, 0xDEAD, 1);    /* stale counts: the clear drops them */
	}
	nv_model_set(&model, 14, 0x800, 1, 1);             /* firmware left the clock on */
	ticks = 4;
	window_ns = 2000;
}

static void cmem_dev(void)
{
	uint64_t base[15];
	for (int i = 0; i < 15; i++)
		base[i] = CMEM_BASE + (uint64_t)i * 0x1000;
	struct nv_apmu_props none = { 0 };
	char why[160];
	assert_int_equal(nv_apmu_setup(nv_apmu_for_hid("NVDA2021"), 0, base, 15, &none, &cmem, why, sizeof(why)), 0);
}

static void test_cmem_counts_and_latency(void **state)
{
	(void)state;
	cmem_model();
	cmem_dev();
	assert_string_equal(cmem.name, "nvidia_cmem_latency_pmu_0");
	assert_int_equal(cmem.bcast_base, CMEM_BCAST);
	struct hw hw = nv_model_hw(&model);
	assert_int_equal(nv_apmu_measure(&hw, &cmem, window, &model, &res), 0);
	assert_int_equal(res.nev, 3);
	assert_int_equal(res.state, NV_APMU_COUNTING);
	/* cycles: instance 0 alone, 4 x 1000 */
	assert_int_equal(res.count[0], 4000);
	/* rd_req: 4 x (sum of i+1 over 14 instances = 105, + 14 x 2) = 4 x 133 = 532 */
	assert_int_equal(res.count[1], 532);
	assert_int_equal(res.inst[1][13], 4 * (14 + 2));
	/* rd_cum_outs: 4 x (50 x 105 + 14 x 40) = 4 x 5810 = 23240 */
	assert_int_equal(res.count[2], 23240);
	assert_int_equal(res.nlat, 1);
	assert_string_equal(res.lat_direction[0], "rd");
	/* 23240 / 532 = 43.684 cycles; 4000 cycles / 2000 ns = 2 GHz; 21.842 ns */
	assert_true(res.lat[0].valid);
	assert_int_equal(res.lat[0].cycles_milli, 43684);
	assert_int_equal(res.lat[0].freq_ghz_milli, 2000);
	assert_int_equal(res.lat[0].ns_milli, 21842);
	/* the sequence, on the broadcast region: CG on, clear, enable, disable, clear, restore */
	const struct nvm_write want[] = {
		{ CMEM_BCAST + 0x800, 1, 1 }, { CMEM_BCAST + 0x808, 2, 1 }, { CMEM_BCAST + 0x808, 1, 1 },
		{ CMEM_BCAST + 0x808, 0, 1 }, { CMEM_BCAST + 0x808, 2, 1 },
		{ CMEM_BCAST + 0x808, 0, 1 }, { CMEM_BCAST + 0x800, 1, 1 },
	};
	assert_int_equal(model.nlog, sizeof(want) / sizeof(want[0]));
	for (uint32_t i = 0; i < model.nlog; i++) {
		assert_int_equal(model.log[i].addr, want[i].addr);
		assert_int_equal(model.log[i].value, want[i].value);
		assert_int_equal(model.log[i].wide, 1);
	}
	assert_int_equal(res.restore.status, HW_OK);
	assert_int_equal(res.restore.registers, 2);
	assert_int_equal(res.restore.nfailed, 0);
}

/* A fault at each MMIO access of a clean run in turn: the run fails naming the register, and
 * CG_CTRL / CTRL are back as found, or the record names the one not put back. */
static void test_cmem_fault_at_each_step(void **state)
{
	(void)state;
	cmem_model();
	cmem_dev();
	struct hw hw = nv_model_hw(&model);
	assert_int_equal(nv_apmu_measure(&hw, &cmem, window, &model, &res), 0);
	uint32_t total = model.naccess;
	assert_true(total > 2 * 14 * 3);
	for (int sticky = 0; sticky < 2; sticky++)
		for (uint32_t k = 1; k <= total; k++) {
			cmem_model();
			model.fail_at = k;
			model.fail_sticky = (uint8_t)sticky;
			hw = nv_model_hw(&model);
			int rc = nv_apmu_measure(&hw, &cmem, window, &model, &res);
			assert_int_equal(rc, -1);
			assert_non_null(strstr(res.why, "nvidia_cmem_latency_pmu_0: "));
			assert_non_null(strstr(res.why, "failed: sync-exception"));
			int cg_back = nv_model_get(&model, 14, 0x800, 1) == 1;
			int ctrl_back = nv_model_get(&model, 14, 0x808, 1) == 0;
			if (!cg_back || !ctrl_back) {
				assert_true(res.restore.nfailed >= 1);
				assert_int_equal(res.restore.status, HW_FAULT_SYNC);
				uint64_t a = res.restore.failed[0].addr;
				assert_true(a == CMEM_BCAST + 0x800 || a == CMEM_BCAST + 0x808);
			}
			if (!sticky)          /* one fault: restore's own writes succeed unless hit */
				assert_true((cg_back && ctrl_back) || k > total - 2);
		}
}

/* ---- C2C family ------------------------------------------------------------------------ */

#define C2C_BASE 0x50000000ull

static struct nv_apmu_dev c2c;

static void c2c_model(uint32_t ninst)
{
	nv_model_init(&model, NVM_C2C, ninst, C2C_BASE);
	for (uint32_t i = 0; i < ninst; i++) {
		/* CYCLE, IN_RD_CUM, IN_RD_REQ, IN_WR_CUM, IN_WR_REQ, OUT_RD_CUM, OUT_RD_REQ, OUT_WR_CUM, OUT_WR_REQ */
		uint64_t inc[9] = { 500, 30, 3, 7, 1, 40, 2, 0, 0 };
		memcpy(model.inc[i], inc, sizeof(inc));
	}
	ticks = 10;
	window_ns = 1000;
}

static void c2c_dev(const char *hid, uint32_t ninst, const struct nv_apmu_props *p)
{
	uint64_t base[17];
	for (uint32_t i = 0; i <= ninst; i++)
		base[i] = C2C_BASE + (uint64_t)i * 0x1000;
	char why[160];
	assert_int_equal(nv_apmu_setup(nv_apmu_for_hid(hid), 1, base, ninst + 1, p, &c2c, why, sizeof(why)), 0);
}

static void test_nvlink_c2c_gpu_peers(void **state)
{
	(void)state;
	c2c_model(14);
	struct nv_apmu_props p = { .has_gpu_en = { 1, 1 }, .gpu_en = { 0x0003, 0 } };   /* GPU 0: instances 0, 1 */
	c2c_dev("NVDA2023", 14, &p);
	assert_string_equal(c2c.name, "nvidia_nvlink_c2c_pmu_1");
	assert_int_equal(c2c.inst_mask, 0x3);
	struct hw hw = nv_model_hw(&model);
	assert_int_equal(nv_apmu_measure(&hw, &c2c, window, &model, &res), 0);
	assert_int_equal(res.nev, 9);
	assert_int_equal(res.count[0], 5000);        /* cycles: instance 0, 10 x 500 */
	assert_int_equal(res.count[1], 600);         /* in_rd_cum_outs: 2 instances x 10 x 30 */
	assert_int_equal(res.count[2], 60);          /* in_rd_req: 2 x 10 x 3 */
	assert_int_equal(res.count[4], 20);          /* in_wr_req */
	assert_int_equal(res.nlat, 4);
	/* in_rd: 600 / 60 = 10 cycles; 5000 cycles / 1000 ns = 5 GHz; 2 ns */
	assert_string_equal(res.lat_direction[0], "in_rd");
	assert_int_equal(res.lat[0].cycles_milli, 10000);
	assert_int_equal(res.lat[0].freq_ghz_milli, 5000);
	assert_int_equal(res.lat[0].ns_milli, 2000);
	/* in_wr: 140 / 20 = 7 cycles = 1.4 ns; out_rd: 800 / 40 = 20 cycles = 4 ns */
	assert_int_equal(res.lat[1].ns_milli, 1400);
	assert_int_equal(res.lat[2].ns_milli, 4000);
	assert_false(res.lat[3].valid);               /* out_wr_req counted nothing */
	/* 32-bit control writes on the broadcast region (instance 14): enable, disable, restore */
	assert_int_equal(model.nlog, 3);
	uint64_t ctrl = C2C_BASE + 14 * 0x1000 + 0x864;
	assert_int_equal(model.log[0].addr, ctrl);
	assert_int_equal(model.log[0].value, 1);
	assert_int_equal(model.log[0].wide, 0);
	assert_int_equal(model.log[1].value, 0);
	assert_int_equal(model.log[2].value, 0);
	assert_int_equal(res.restore.registers, 1);
}

static void test_peer_event_sets(void **state)
{
	(void)state;
	c2c_model(12);
	struct nv_apmu_props cpu = { .has_cpu_en = 1, .cpu_en = 0xFFF };
	c2c_dev("NVDA2022", 12, &cpu);
	struct hw hw = nv_model_hw(&model);
	assert_int_equal(nv_apmu_measure(&hw, &c2c, window, &model, &res), 0);
	assert_int_equal(res.nev, 5);                 /* no *_wr_* events for a CPU peer */
	assert_int_equal(res.nlat, 2);
	assert_string_equal(res.lat_direction[1], "out_rd");
	assert_int_equal(res.count[2], 12 * 10 * 3);  /* in_rd_req over 12 instances */

	c2c_model(16);
	struct nv_apmu_props none = { 0 };
	c2c_dev("NVDA2020", 16, &none);               /* NV-DLink: CXL memory, every instance */
	hw = nv_model_hw(&model);
	assert_int_equal(nv_apmu_measure(&hw, &c2c, window, &model, &res), 0);
	assert_int_equal(res.nev, 3);
	assert_int_equal(res.nlat, 1);
	assert_int_equal(res.count[1], 16 * 10 * 30);
}

/* A carry between the halves of a 64-bit counter: the high half read again differs, the read
 * is retried and the value is the new one whole. */
static void test_hilohi_carry(void **state)
{
	(void)state;
	c2c_model(14);
	model.inc[0][2] = 0x19999999;                 /* in_rd_req of instance 0: 10 x = 0xFFFFFFFA */
	model.bump_addr = C2C_BASE + 0x87C;
	model.bump_value = 0x10;                      /* -> 0x1_0000_000A after the first high read */
	struct nv_apmu_props p = { .has_gpu_en = { 1 }, .gpu_en = { 0x1 } };
	c2c_dev("NVDA2023", 14, &p);
	struct hw hw = nv_model_hw(&model);
	assert_int_equal(nv_apmu_measure(&hw, &c2c, window, &model, &res), 0);
	assert_int_equal(res.inst[2][0], 0x10000000Aull);
}

static void test_setup_errors(void **state)
{
	(void)state;
	uint64_t base[10] = { 0 };
	char why[160];
	struct nv_apmu_props none = { 0 };
	assert_int_equal(nv_apmu_setup(nv_apmu_for_hid("NVDA2021"), 3, base, 10, &none, &cmem, why, sizeof(why)), -1);
	assert_string_equal(why, "nvidia_cmem_latency_pmu_3 (NVDA2021) needs 15 memory resources in _CRS "
				 "(14 instances, then the broadcast region), found 10");
	uint64_t b15[15] = { 0 };
	assert_int_equal(nv_apmu_setup(nv_apmu_for_hid("NVDA2023"), 0, b15, 15, &none, &c2c, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "_DSD enables no peer"));
	assert_null(nv_apmu_for_hid("NVDA2024"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_literal),
		cmocka_unit_test(test_cmem_counts_and_latency),
		cmocka_unit_test(test_cmem_fault_at_each_step),
		cmocka_unit_test(test_nvlink_c2c_gpu_peers),
		cmocka_unit_test(test_peer_event_sets),
		cmocka_unit_test(test_hilohi_carry),
		cmocka_unit_test(test_setup_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
