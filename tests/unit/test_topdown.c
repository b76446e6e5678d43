/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TopDown: Linux tools/perf/Documentation/topdown.txt as data (metric-byte decoding, the delta method, the `perf stat --topdown`
 * example), the pre-Ice-Lake formulas (pmu-tools skl_client_ratios.py), and windows on the register model
 * (tests/unit/test_intel_model.h): SLOTS + PERF_METRICS with resets and 8-bit rounding, both
 * read paths, level 2, general-counter TopDown with and without AnyThread, and restore.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/test_intel_model.h"
#include "pmu/core/x86_corepmu.h"

/* --- Linux tools/perf/Documentation/topdown.txt as data --------------------------------------------------------------------- */

/* GET_METRIC(m, i) = (m >> (i*8)) & 0xff; TOPDOWN_RETIRING = byte 0 ... BE_BOUND = byte 3. */
static void test_seed_metric_bytes(void **state)
{
	(void)state;
	uint64_t m = 0x0102030405402A55ull;  /* ret 0x55, bad 0x2A, fe 0x40, be 0x05 ... */
	assert_int_equal(td_metric_byte(m, TD_RETIRING), 0x55);
	assert_int_equal(td_metric_byte(m, TD_BAD_SPEC), 0x2A);
	assert_int_equal(td_metric_byte(m, TD_FE_BOUND), 0x40);
	assert_int_equal(td_metric_byte(m, TD_BE_BOUND), 0x05);
	assert_int_equal(td_metric_byte(m, TD_MEM_BOUND), 0x01);
	/* scaled = byte x slots / 0xff: 0x55 of 0xff of 2550 slots = 850 */
	assert_int_equal(td_scaled(2550, m, TD_RETIRING), 850);
	assert_int_equal(td_scaled(UINT64_MAX, 0xFF, TD_RETIRING), UINT64_MAX);  /* no overflow */
	assert_string_equal(td_cat_name[TD_FE_BOUND], "frontend_bound");
}

/* Linux tools/perf/Documentation/topdown.txt's delta method: retiring_slots = GET_METRIC(b,0)*slots_b - GET_METRIC(a,0)*slots_a
 * (each divided by 0xff), ratio = delta / slots_delta. */
static void test_seed_delta_method(void **state)
{
	(void)state;
	uint64_t a_slots = 255000, a_m = 0x33333366ull;   /* 102/51/51/51 */
	uint64_t b_slots = 510000, b_m = 0x19334C4Dull;   /* 77/76/51/25 of 0xff */
	uint64_t d[TD_L1];
	td_delta(a_slots, a_m, b_slots, b_m, TD_L1, d);
	assert_int_equal(d[TD_RETIRING], 77 * 2000 - 102 * 1000);
	assert_int_equal(d[TD_BAD_SPEC], 76 * 2000 - 51 * 1000);
	assert_int_equal(d[TD_FE_BOUND], 51 * 2000 - 51 * 1000);
	assert_int_equal(d[TD_BE_BOUND], 0);   /* 25 x 2000 < 51 x 1000: clamped */
	/* A share that fell (8-bit rounding, Linux arch/x86/events/intel/core.c) is clamped to 0, never negative. */
	td_delta(b_slots, 0x000000FFull, b_slots + 10, 0x010000FEull, TD_L1, d);
	assert_int_equal(d[TD_RETIRING], 0);
	assert_int_equal(d[TD_BE_BOUND], 510010 / 255);
}

/* `perf stat -a --topdown -I1000` in Linux tools/perf/Documentation/topdown.txt: three intervals, counts -> printed percent.
 * perf divides by the interval's total slots, which it does not print; efiperf divides by the
 * sum of the four categories (Intel PCM / pmu-tools). The first interval (the first interval) must
 * come out exactly as printed; in the other two perf's "43.0" frontend differs by 0.1 from
 * the sum-normalised 43.07 %, so those are checked to within 1 per-mille. */
static void test_seed_perf_stat_example(void **state)
{
	(void)state;
	static const struct { uint64_t cat[4]; uint32_t pm[4]; } iv[] = {
		{ { 8460978609ull, 3445383303ull, 15886483355ull, 9163488720ull }, { 229, 93, 430, 248 } },
		{ { 8477925431ull, 3459151256ull, 15947224725ull, 9145551695ull }, { 229, 93, 430, 247 } },
		{ { 8487323125ull, 3451808066ull, 15959068902ull, 9172479784ull }, { 229, 93, 430, 247 } },
	};
	for (unsigned i = 0; i < 3; i++) {
		uint32_t pm[4];
		td_ratios(iv[i].cat, TD_L1, pm);
		for (unsigned k = 0; k < 4; k++) {
			if (i == 0)
				assert_int_equal(pm[k], iv[i].pm[k]);
			assert_true(pm[k] + 1 >= iv[i].pm[k] && pm[k] <= iv[i].pm[k] + 1);
		}
	}
	assert_int_equal(td_permille(1, 3), 333);
	assert_int_equal(td_permille(2, 3), 667);
	assert_int_equal(td_permille(UINT64_MAX / 2, UINT64_MAX), 500);
	assert_int_equal(td_permille(5, 0), 0);
}

/* pmu-tools skl_client_ratios.py with numbers: SLOTS 400, FE 40, BadSpec 300-250+4*2 = 58, Retiring 250,
 * BE 52; AnyThread form halves cycles and recovery. */
static void test_gp_formula(void **state)
{
	(void)state;
	uint64_t cat[TD_L1];
	struct td_gp_counts c = { .clks = 100, .uops_issued = 300, .retire_slots = 250, .idq_not_delivered = 40,
				  .recovery = 2 };
	assert_int_equal(td_gp_l1(&c, cat), 400);
	assert_int_equal(cat[TD_FE_BOUND], 40);
	assert_int_equal(cat[TD_BAD_SPEC], 58);
	assert_int_equal(cat[TD_RETIRING], 250);
	assert_int_equal(cat[TD_BE_BOUND], 52);
	c.any_form = 1;
	c.clks = 200;
	c.recovery = 4;
	assert_int_equal(td_gp_l1(&c, cat), 400);
	assert_int_equal(cat[TD_BAD_SPEC], 58);
	/* More retired than issued + recovery (counter skew): BadSpec clamps at 0. */
	c = (struct td_gp_counts){ .clks = 10, .uops_issued = 5, .retire_slots = 50 };
	td_gp_l1(&c, cat);
	assert_int_equal(cat[TD_BAD_SPEC], 0);
	assert_int_equal(cat[TD_BE_BOUND], 0);
}

/* --- windows on the register model -------------------------------------------------------- */

static const struct tm_cpu icx = { .model = 0x6A, .version = 5, .ngp = 8, .nfixed = 4, .pdcm = 1,
				   .metrics_bit = 1, .fw_write = 1, .anythread_deprecated = 1 };
static const struct tm_cpu spr = { .model = 0x8F, .version = 5, .ngp = 8, .nfixed = 4, .pdcm = 1,
				   .metrics_bit = 1, .fw_write = 1, .anythread_deprecated = 1 };
static const uint64_t fx_steps[4] = { 700, 100, 90, 255 };  /* FC3: 255 slots per tick */

static struct corepmu cp;

static void start_topdown(const struct tm_cpu *cpu, int rdpmc)
{
	tm_init(cpu, fx_steps, NULL);
	hw_model_rdpmc(&tm, rdpmc);
	assert_int_equal(corepmu_probe(&tmh, &cp), 0);
	struct corepmu_config cfg = { .core_events = "", .topdown = 1 };
	char err[160];
	assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), 0);
	assert_int_equal(corepmu_start(&tmh, &cp, 0, 1000), HW_OK);
}

/* topdown = l2 on Intel is topdown = on (its level 2 comes with on where the CPU has it): the
 * same TopDown plan and counters, with and without core_events. */
static void test_l2_is_on_for_intel(void **state)
{
	(void)state;
	static struct intel_topdown td_on;
	static struct intel_core ic_on;
	const struct tm_cpu *cpus[] = { &icx, &spr };
	const char *events[] = { "", "INST_RETIRED.ANY_P cpu/event=0x3c,umask=0x0/" };
	char err[160];
	for (unsigned c = 0; c < 2; c++)
		for (unsigned e = 0; e < 2; e++) {
			tm_init(cpus[c], fx_steps, NULL);
			for (int topdown = 1; topdown <= 2; topdown++) {
				assert_int_equal(corepmu_probe(&tmh, &cp), 0);
				struct corepmu_config cfg = { .core_events = events[e], .topdown = topdown, .multiplex = 1 };
				assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), 0);
				if (topdown == 1) {
					td_on = cp.td;
					ic_on = cp.ic;
				}
			}
			assert_memory_equal(&cp.td, &td_on, sizeof(td_on));
			assert_memory_equal(&cp.ic, &ic_on, sizeof(ic_on));
			assert_int_equal(cp.td_level2, cpus[c] == &spr);   /* Sapphire Rapids: level 2 with on */
		}
}

static void set_shares(uint32_t ret, uint32_t bad, uint32_t fe, uint32_t be)
{
	truth.share[TD_RETIRING] = ret;
	truth.share[TD_BAD_SPEC] = bad;
	truth.share[TD_FE_BOUND] = fe;
	truth.share[TD_BE_BOUND] = be;
}

static void test_icl_window_with_resets(void **state)
{
	(void)state;
	start_topdown(&icx, 1);
	assert_int_equal(cp.td.kind, TD_METRICS);
	assert_int_equal(tm_msr(IA32_FIXED_CTR3), 0);            /* reset at window start */
	assert_int_equal(tm_msr(IA32_PERF_METRICS), 0);
	assert_int_equal(tm_msr(IA32_PERF_GLOBAL_CTRL), TM_GLOBAL_ORIG | (0xFull << 32) | (1ull << 48));
	uint64_t now = 0;
	set_shares(102, 25, 51, 77);
	for (int i = 0; i < 6; i++) {
		tm_tick(10);
		now += 300;  /* > 250 ms at 1000 Hz: every call ticks */
		assert_int_equal(corepmu_tick(&tmh, &cp, now), HW_OK);
		assert_int_equal(tm_msr(IA32_FIXED_CTR3), 0);        /* reset on every tick */
	}
	set_shares(0, 51, 204, 0);
	for (int i = 0; i < 4; i++) {
		tm_tick(10);
		now += 300;
		corepmu_tick(&tmh, &cp, now);
	}
	tm_tick(10);
	assert_int_equal(corepmu_stop(&tmh, &cp, now + 100), HW_OK);
	const struct intel_topdown *td = &cp.td;
	assert_true(td->valid);
	assert_int_equal(td->path, TD_PATH_RDPMC);
	assert_int_equal(td->resets, 1 + 10);
	assert_int_equal(td->slots, 110 * 255);
	/* exact: every interval's bytes are exact fractions of a multiple of 255 slots */
	assert_int_equal(td->cat[TD_RETIRING], 60 * 102);
	assert_int_equal(td->cat[TD_BAD_SPEC], 60 * 25 + 50 * 51);
	assert_int_equal(td->cat[TD_FE_BOUND], 60 * 51 + 50 * 204);
	assert_int_equal(td->cat[TD_BE_BOUND], 60 * 77);
	assert_int_equal(td->permille[TD_RETIRING], 218);   /* 6120 / 28050 = 21.8% */
	assert_int_equal(td->ncat, TD_L1);
	/* FC3 is written before PERF_METRICS every time (Linux arch/x86/events/intel/core.c, QEMU "SDM") */
	for (int i = 0; i + 1 < tm.nlog; i++)
		if (tm.log[i + 1].id == IA32_PERF_METRICS)
			assert_int_equal(tm.log[i].id, IA32_FIXED_CTR3);
	assert_int_equal(corepmu_restore(&tmh, &cp), HW_OK);
	assert_int_equal(tm_msr(IA32_PERF_METRICS), TM_METRICS_ORIG);
	assert_int_equal(tm_msr(IA32_PERF_GLOBAL_CTRL), TM_GLOBAL_ORIG);
	assert_int_equal(tm_msr(IA32_FIXED_CTR_CTRL), TM_FIXED_CTRL_ORIG);
	assert_int_equal(tm_msr(IA32_FIXED_CTR3), 3005);
}

/* 8-bit rounding: a short backend-bound phase after a long retiring one vanishes from the
 * bytes unless SLOTS and PERF_METRICS were reset in between (Linux tools/perf/Documentation/topdown.txt "Resetting"). */
static void rounding_run(int tick_between, uint64_t *be, uint64_t *ret)
{
	start_topdown(&icx, 1);
	set_shares(255, 0, 0, 0);
	tm_tick(1000);                        /* 255000 slots retiring */
	corepmu_tick(&tmh, &cp, tick_between ? 300 : 100);  /* 100 < 250: no read, no reset */
	set_shares(0, 0, 0, 255);
	tm_tick(1);                           /* 255 slots backend bound */
	corepmu_stop(&tmh, &cp, 400);
	*be = cp.td.cat[TD_BE_BOUND];
	*ret = cp.td.cat[TD_RETIRING];
	corepmu_restore(&tmh, &cp);
}

static void test_eight_bit_rounding_needs_resets(void **state)
{
	(void)state;
	uint64_t be, ret;
	rounding_run(1, &be, &ret);
	assert_int_equal(be, 255);
	assert_int_equal(ret, 255000);
	rounding_run(0, &be, &ret);
	assert_int_equal(be, 0);              /* 255/255255 of 0xff rounds to 0 */
	assert_int_equal(ret, 255255);
}

static void test_rdpmc_fault_falls_back_to_rdmsr(void **state)
{
	(void)state;
	start_topdown(&icx, 0);               /* model: RDPMC raises #UD */
	set_shares(51, 51, 51, 102);
	tm_tick(4);
	corepmu_tick(&tmh, &cp, 300);
	tm_tick(4);
	corepmu_stop(&tmh, &cp, 301);
	assert_true(cp.td.valid);
	assert_int_equal(cp.td.path, TD_PATH_RDMSR);
	assert_int_equal(cp.td.rdpmc_status, HW_FAULT_UD);
	assert_int_equal(cp.td.cat[TD_BE_BOUND], 8 * 102);
	corepmu_restore(&tmh, &cp);
}

static void test_spr_level2(void **state)
{
	(void)state;
	start_topdown(&spr, 1);
	assert_int_equal(cp.td.ncat, TD_NCAT);
	set_shares(102, 25, 51, 77);
	truth.share[TD_HEAVY_OPS] = 51;
	truth.share[TD_BR_MISPREDICT] = 20;
	truth.share[TD_FETCH_LAT] = 30;
	truth.share[TD_MEM_BOUND] = 60;
	tm_tick(3);
	corepmu_tick(&tmh, &cp, 300);
	tm_tick(2);
	corepmu_stop(&tmh, &cp, 301);
	static const uint32_t want[TD_NCAT] = { 102, 25, 51, 77, 51, 20, 30, 60 };
	for (unsigned k = 0; k < TD_NCAT; k++)
		assert_int_equal(cp.td.cat[k], 5 * want[k]);
	/* level 2 normalised by the level-1 sum (Intel PCM, pmu-tools): memory bound 60/255 */
	assert_int_equal(cp.td.permille[TD_MEM_BOUND], 235);   /* 60 / 255 = 23.5% */
	corepmu_restore(&tmh, &cp);
}

/* Skylake-SP, 4 GP counters: UOPS_ISSUED.ANY, RETIRE_SLOTS, IDQ_NOT_DELIVERED, RECOVERY on
 * PMC0-3, cycles on fixed counter 1. */
static void gp_window(int smt, uint64_t clk_step, uint64_t rec_step)
{
	static const struct tm_cpu skx_base = { .model = 0x55, .version = 4, .ngp = 4, .nfixed = 3 };
	struct tm_cpu skx = skx_base;
	skx.smt = smt;
	const uint64_t fx[4] = { 500, clk_step, 90, 0 };
	const uint64_t gp[4] = { 300, 250, 40, rec_step };
	tm_init(&skx, fx, gp);
	assert_int_equal(corepmu_probe(&tmh, &cp), 0);
	assert_int_equal(cp.td_kind, TD_GP_SKL);
	struct corepmu_config cfg = { .core_events = "", .topdown = 1 };
	char err[160];
	assert_int_equal(corepmu_configure(&cp, &cfg, err, sizeof(err)), 0);
	corepmu_start(&tmh, &cp, 0, 0);
	tm_tick(10);
	corepmu_tick(&tmh, &cp, 1);
	tm_tick(10);
	corepmu_stop(&tmh, &cp, 2);
}

static void test_pre_icelake_general_counters(void **state)
{
	(void)state;
	gp_window(0, 100, 2);
	assert_int_equal(tm_msr(IA32_PERFEVTSEL0), 0x43010E);   /* UOPS_ISSUED.ANY|USR|OS|EN */
	assert_int_equal(tm_msr(IA32_PERFEVTSEL0 + 1), 0x4302C2);
	assert_int_equal(tm_msr(IA32_PERFEVTSEL0 + 2), 0x43019C);
	assert_int_equal(tm_msr(IA32_PERFEVTSEL0 + 3), 0x43010D); /* SKL RECOVERY_CYCLES 0x0D/0x01 */
	assert_true(cp.td.valid);
	assert_int_equal(cp.td.slots, 20 * 400);
	assert_int_equal(cp.td.cat[TD_FE_BOUND], 20 * 40);
	assert_int_equal(cp.td.cat[TD_BAD_SPEC], 20 * 58);
	assert_int_equal(cp.td.cat[TD_RETIRING], 20 * 250);
	assert_int_equal(cp.td.cat[TD_BE_BOUND], 20 * 52);
	assert_int_equal(cp.td.permille[TD_RETIRING], 625);
	assert_int_equal(corepmu_restore(&tmh, &cp), HW_OK);
	for (int i = 0; i < 4; i++)
		assert_int_equal(tm_msr(IA32_PERFEVTSEL0 + (uint32_t)i), 0);
	assert_int_equal(tm_msr(IA32_PERF_GLOBAL_CTRL), TM_GLOBAL_ORIG);
}

static void test_pre_icelake_anythread_with_smt(void **state)
{
	(void)state;
	gp_window(1, 200, 4);  /* both threads' cycles and recovery */
	assert_int_equal(tm_msr(IA32_PERFEVTSEL0 + 3), 0x63010D); /* RECOVERY_CYCLES_ANY: AnyThread[21] */
	/* fixed counter 1: EN=3 | AnyThread (bit 2 of its field) */
	assert_int_equal((tm_msr(IA32_FIXED_CTR_CTRL) >> 4) & 0xF, 0x7);
	assert_true(cp.td.any_form);
	assert_int_equal(cp.td.slots, 20 * 400);
	assert_int_equal(cp.td.cat[TD_BAD_SPEC], 20 * 58);
	corepmu_restore(&tmh, &cp);
	assert_int_equal(tm_msr(IA32_FIXED_CTR_CTRL), TM_FIXED_CTRL_ORIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_l2_is_on_for_intel),
		cmocka_unit_test(test_seed_metric_bytes),
		cmocka_unit_test(test_seed_delta_method),
		cmocka_unit_test(test_seed_perf_stat_example),
		cmocka_unit_test(test_gp_formula),
		cmocka_unit_test(test_icl_window_with_resets),
		cmocka_unit_test(test_eight_bit_rounding_needs_resets),
		cmocka_unit_test(test_rdpmc_fault_falls_back_to_rdmsr),
		cmocka_unit_test(test_spr_level2),
		cmocka_unit_test(test_pre_icelake_general_counters),
		cmocka_unit_test(test_pre_icelake_anythread_with_smt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
