/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * IBS sampler (pmu/amd_ibs.c, amd_ibs_decode.c) against a register model that produces
 * samples: whenever the control register is enabled and not yet valid, the test's producer
 * sets Val, preloads random low CurCnt bits (as hardware does, AMD APM Vol.2 section 13.3) and fills the
 * data registers from a scripted sample. Checked: period validation naming ibs_period, the
 * re-arm after each valid sample (Val cleared, En set, MaxCnt kept, random bits kept only for
 * op counting with RdWrOpCnt), exact histograms, the errata sequences, that IbsCtl and the
 * APIC are never written, and that restore puts every register back.
 *
 * Every sample and control value below is a hex literal whose bit positions come from the AMD
 * manuals and Linux's register unions, never from the decoder's macros (a wrong macro would
 * otherwise build a wrong sample and still pass):
 *   IbsFetchCtl MSRC001_1030, IbsOpCtl MSRC001_1033, IbsOpData MSRC001_1035, IbsOpData2
 *   MSRC001_1036, IbsOpData3 MSRC001_1037: AMD APM Vol.2 (pub. 24593) section 13.3
 *   "Instruction-Based Sampling"; AMD PPR for Family 19h Model 11h (pub. 55901), IBS MSRs;
 *   Linux arch/x86/include/asm/amd-ibs.h unions ibs_fetch_ctl, ibs_op_ctl, ibs_op_data,
 *   ibs_op_data2, ibs_op_data3.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/out/pmu_json.h"
#include "tests/model/hw_model.h"
#include "tests/unit/json_check.h"
#include "pmu/core/x86_corepmu.h"
#include "arch/regs/x86_amd_msr.h"
#include "arch/regs/x86_msr.h"
#include "efi/out/jsonl.h"

static struct hw_model m;
static struct hw h;
static struct corepmu cp;
static uint32_t lcg = 12345;

#define CAPS_ZEN4 (IBS_CAPS_AVAIL | IBS_CAPS_FETCHSAM | IBS_CAPS_OPSAM | IBS_CAPS_RDWROPCNT | IBS_CAPS_OPCNT | \
		   IBS_CAPS_OPCNTEXT | IBS_CAPS_RIPINVALIDCHK | IBS_CAPS_ZEN4)
#define CTL_ORIG 0x0ull

/* IbsOpCtl: IbsOpEn [17], IbsOpVal [18], IbsOpCntCtl [19], IbsOpCurCnt low 7 bits [38:32]. */
#define OPCTL_EN        0x0000000000020000ull
#define OPCTL_VAL       0x0000000000040000ull
#define OPCTL_CNTCTL    0x0000000000080000ull
#define OPCTL_CURCNT_LO 0x0000007F00000000ull
/* IbsFetchCtl: IbsFetchEn [48], IbsFetchVal [49], IbsRandEn [57]. */
#define FETCH_EN        0x0001000000000000ull
#define FETCH_VAL       0x0002000000000000ull
#define FETCH_RANDEN    0x0200000000000000ull

static uint64_t msr(uint32_t id) { return hw_model_find(&m, HWM_MSR, id)->value; }
static void set(uint32_t id, uint64_t v) { hw_model_find(&m, HWM_MSR, id)->value = v; }

static void ibs_model(uint32_t sig, uint32_t caps)
{
	hw_model_init(&m);
	h = hw_model_hw(&m);
	hw_model_cpuid(&m, 0, 0, 0x10, 0x68747541, 0x444d4163, 0x69746e65);
	hw_model_cpuid(&m, CPUID_SIGNATURE, 0, sig, 0, 0, 0);
	hw_model_cpuid(&m, CPUID_EXT_MAXLEAF, 0, 0x80000022, 0, 0, 0);
	hw_model_cpuid(&m, CPUID_AMD_EXT_FEATURES, 0, 0, 0, AMD_EXT_ECX_IBS | AMD_EXT_ECX_PERFCTR_CORE, 0);
	hw_model_cpuid(&m, CPUID_AMD_IBS, 0, caps, 0, 0, 0);
	static const uint32_t regs[] = { IbsFetchCtl, IbsFetchLinAd, IbsFetchPhysAd, IbsOpCtl, IbsOpRip, IbsOpData,
					 IbsOpData2, IbsOpData3, IbsCtl };
	for (unsigned i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		hw_model_reg(&m, HWM_MSR, regs[i], HWM_PLAIN, regs[i] == IbsCtl ? 0x100 : CTL_ORIG);
	for (uint32_t i = 0; i < 6; i++) {
		hw_model_reg(&m, HWM_MSR, MSR_F15H_PERF_CTL + 2 * i, HWM_PLAIN, 0);
		struct hw_model_reg *r = hw_model_reg(&m, HWM_MSR, MSR_F15H_PERF_CTR + 2 * i, HWM_COUNTER, 0);
		r->step = 1000;
		r->en_id = MSR_F15H_PERF_CTL + 2 * i;
		r->en_mask = EVTSEL_EN;
	}
}

static int setup(const char *events, enum ibs_mode mode, uint32_t period, enum ibs_count count, char *err)
{
	assert_int_equal(corepmu_probe(&h, &cp), 0);
	struct corepmu_config cfg = { .core_events = events, .ibs = mode, .ibs_period = period, .ibs_count = count };
	return corepmu_configure(&cp, &cfg, err, 160);
}

static void test_period_validation(void **state)
{
	(void)state;
	char err[160];
	static const struct { uint32_t caps; enum ibs_mode mode; uint32_t period; enum ibs_count count; const char *word; } bad[] = {
		{ CAPS_ZEN4, IBS_MODE_OP, 0x10008, IBS_COUNT_CYCLES, "bits 3:0" },
		{ CAPS_ZEN4, IBS_MODE_OP, 0x80, IBS_COUNT_CYCLES, "0x90" },          /* op minimum */
		{ CAPS_ZEN4, IBS_MODE_FETCH, 0x0, IBS_COUNT_CYCLES, "0x10" },        /* fetch minimum */
		{ CAPS_ZEN4, IBS_MODE_FETCH, 0x100000, IBS_COUNT_CYCLES, "0xffff0" }, /* 20 bits */
		{ CAPS_ZEN4, IBS_MODE_OP, 0x8000000, IBS_COUNT_CYCLES, "0x7fffff0" }, /* 27 bits */
		{ 0x7, IBS_MODE_OP, 0x100000, IBS_COUNT_CYCLES, "8000_001B:EAX[6]" },  /* no OPCNTEXT */
		{ 0x7, IBS_MODE_OP, 0x1000, IBS_COUNT_OPS, "EAX[4]" },                 /* no OPCNT */
		{ CAPS_ZEN4, IBS_MODE_FETCH, 0x1000, IBS_COUNT_OPS, "only IBS op" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ibs_model(0x00A10F11, bad[i].caps | IBS_CAPS_AVAIL);
		assert_int_equal(setup("", bad[i].mode, bad[i].period, bad[i].count, err), -1);
		if (!strstr(err, bad[i].word) || !strstr(err, "ibs_"))
			fail_msg("case %u: '%s' does not say '%s'", i, err, bad[i].word);
	}
	ibs_model(0x00A10F11, CAPS_ZEN4);
	assert_int_equal(setup("", IBS_MODE_OP, 0x7FFFFF0, IBS_COUNT_OPS, err), 0);
	/* period 26:20 -> IbsOpCtl[26:20], period 19:4 -> [15:0], CntCtl[19] */
	assert_int_equal(cp.ibs.cfg, 0x07F0FFFFull | OPCTL_CNTCTL);
	assert_int_equal(setup("", IBS_MODE_FETCH, 0x10, IBS_COUNT_CYCLES, err), 0);
	assert_int_equal(cp.ibs.cfg, 0x1 | FETCH_RANDEN);   /* RandEn always for fetch */
}

/* Scripted op samples: IbsOpData, IbsOpData2, IbsOpData3, as hex literals.
 *   IbsOpData2: DataSrc[2:0], RmtNode [4], DataSrc[4:3] in [7:6] (Zen 4).
 *   IbsOpData3: IbsLdOp [0], IbsStOp [1], IbsDcMiss [7], IbsDcWcMemAcc [13], IbsDcUcMemAcc [14],
 *               IbsL2Miss [20], IbsDcMissLat [47:32].
 *   IbsOpData:  IbsRipInvalid [38]. */
struct op_spec { uint64_t d1, d2, d3; };
static const struct op_spec op_specs[] = {
	{ 0, 0x13, 0x0000006400000081ull },                    /* load, DcMiss, lat 100; DRAM (3), remote */
	{ 0, 0x02, 0x0000002800000081ull },                    /* load, DcMiss, lat 40; near CCX cache (2) */
	{ 0, 0x00, 0x0000000000000001ull },                    /* load, L1 hit: no source */
	{ 0, 0x00, 0x000001F400000082ull },                    /* store, DcMiss, lat 500: no lat hist */
	{ 0, 0x07, 0x0000038400004081ull },                    /* MMIO load: UC, DcMiss, lat 900: UC only */
	{ 0, 0x00, 0x0000000000002002ull },                    /* WC store */
	{ 0x0000004000000000ull, 0, 0 },                       /* RIP invalid, not a memory op */
	{ 0, 0x40, 0x00000BB800100081ull },                    /* load, DcMiss, L2Miss, lat 3000; src 8 (CXL) */
};
#define NSPEC (sizeof(op_specs) / sizeof(op_specs[0]))

/* The producer: an armed, not-yet-valid IbsOpCtl takes a sample. Returns 1 when it did. */
static int produce_op(const struct op_spec *s)
{
	uint64_t c = msr(IbsOpCtl);
	if (!(c & OPCTL_EN) || (c & OPCTL_VAL))
		return 0;
	lcg = lcg * 1103515245u + 12345u;
	uint64_t rnd = ((uint64_t)(lcg >> 16) << 32) & OPCTL_CURCNT_LO;
	set(IbsOpCtl, (c & ~OPCTL_CURCNT_LO) | OPCTL_VAL | rnd);
	set(IbsOpData, s->d1);
	set(IbsOpData2, s->d2);
	set(IbsOpData3, s->d3);
	return 1;
}

static void run_op(enum ibs_count count, int rounds)
{
	char err[160];
	assert_int_equal(setup("ls_not_halted_cyc", IBS_MODE_OP, 0x10000, count, err), 0);
	assert_int_equal(corepmu_start(&h, &cp, 0, 0), HW_OK);
	/* start: 0, then cfg | En (stale Val cleared, count reset) */
	assert_int_equal(msr(IbsOpCtl), cp.ibs.cfg | OPCTL_EN);
	for (int r = 0; r < rounds; r++) {
		for (unsigned i = 0; i < NSPEC; i++) {
			assert_int_equal(produce_op(&op_specs[i]), 1);
			uint64_t sampled = msr(IbsOpCtl);
			hw_model_tick(&m, 1);
			assert_int_equal(corepmu_tick(&h, &cp, 0), HW_OK);
			uint64_t now = msr(IbsOpCtl);
			assert_int_equal(now & OPCTL_VAL, 0);                           /* Val cleared */
			assert_int_equal(now & OPCTL_EN, OPCTL_EN);                     /* re-armed */
			assert_int_equal(now & ~OPCTL_CURCNT_LO & ~OPCTL_EN, cp.ibs.cfg);
			uint64_t kept = count == IBS_COUNT_OPS ? sampled & OPCTL_CURCNT_LO : 0;
			assert_int_equal(now & OPCTL_CURCNT_LO, kept);
			assert_int_equal(corepmu_tick(&h, &cp, 0), HW_OK);              /* nothing pending */
		}
	}
	corepmu_stop(&h, &cp, 0);
}

static void test_op_sampler_histograms_exact(void **state)
{
	(void)state;
	ibs_model(0x00A10F11, CAPS_ZEN4);   /* Genoa: family 19h model 11h, no 1197/1293 quirks */
	run_op(IBS_COUNT_OPS, 3);
	const struct ibs_hist *hh = &cp.ibs.h;
	assert_int_equal(hh->samples, 3 * NSPEC);
	assert_int_equal(cp.ibs.rearms, 3 * NSPEC);
	assert_int_equal(cp.ibs.polls, 2 * 3 * NSPEC + 1);
	assert_int_equal(hh->mem_ops, 3 * 7);
	assert_int_equal(hh->loads, 3 * 5);
	assert_int_equal(hh->stores, 3 * 2);
	assert_int_equal(hh->uc, 3);
	assert_int_equal(hh->wc, 3);
	assert_int_equal(ibs_uc_wc_permille(hh), 286);      /* 2 of 7 */
	assert_int_equal(hh->dc_miss, 3 * 4);               /* UC miss not counted */
	assert_int_equal(hh->l2_miss, 3);
	assert_int_equal(hh->rip_invalid, 3);
	assert_int_equal(hh->dc_miss_lat_sum, 3 * (100 + 40 + 3000));
	static const uint64_t lat[IBS_LAT_BUCKETS] = { 0, 3, 3, 0, 0, 0, 0, 3 };  /* 40, 100, 3000 */
	for (int b = 0; b < IBS_LAT_BUCKETS; b++)
		assert_int_equal(hh->dc_miss_lat[b], lat[b]);
	assert_int_equal(hh->data_src[3], 3);
	assert_int_equal(hh->data_src[2], 3);
	assert_int_equal(hh->data_src[8], 3);
	assert_int_equal(hh->rmt_node, 3);
	assert_string_equal(ibs_data_src_name(8, 1), "extension_memory");
	/* never touched: IbsCtl (LVT offset) - the APIC extended LVT stays as firmware left it */
	for (int i = 0; i < m.nlog; i++)
		assert_int_not_equal(m.log[i].id, IbsCtl);
	char buf[4096];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	json_str(&j, "type", "ibs");
	corepmu_json_ibs(&j, &cp);
	json_end(&j);
	assert_true(json_check_object(buf, strlen(buf)));
	assert_non_null(strstr(buf, "\"data_src\":{\"near_ccx_cache\":3,\"dram\":3,\"extension_memory\":3}"));
	assert_non_null(strstr(buf, "\"uc_wc_share\":0.286"));
	assert_non_null(strstr(buf, "\"counts\":[0,3,3,0,0,0,0,3]"));
	assert_int_equal(corepmu_restore(&h, &cp), HW_OK);
	assert_int_equal(msr(IbsOpCtl), CTL_ORIG);
}

static void test_cycle_mode_drops_random_bits_and_effective_period(void **state)
{
	(void)state;
	ibs_model(0x00A10F11, CAPS_ZEN4);
	run_op(IBS_COUNT_CYCLES, 1);
	/* ls_not_halted_cyc counted 1000 per model tick, one tick per sample */
	char buf[4096];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	corepmu_json_ibs(&j, &cp);
	json_end(&j);
	assert_non_null(strstr(buf, "\"effective_period\":1000"));
	corepmu_restore(&h, &cp);
}

static int produce_fetch(uint64_t bits, uint64_t linad)
{
	uint64_t c = msr(IbsFetchCtl);
	if (!(c & FETCH_EN) || (c & FETCH_VAL))
		return 0;
	set(IbsFetchCtl, c | FETCH_VAL | bits);
	set(IbsFetchLinAd, linad);
	return 1;
}

static void test_fetch_sampler_and_fam19h_m01_errata(void **state)
{
	(void)state;
	ibs_model(0x00A00F11, CAPS_ZEN4 & ~IBS_CAPS_ZEN4);   /* Milan: family 19h model 01h */
	char err[160];
	assert_int_equal(setup("", IBS_MODE_FETCH, 0x1000, IBS_COUNT_CYCLES, err), 0);
	assert_true(cp.ibs.quirks & IBS_Q_1197_LINAD0);
	corepmu_start(&h, &cp, 0, 0);
	assert_int_equal(msr(IbsFetchCtl), 0x0201000000000100ull);   /* MaxCnt 0x100 | RandEn | En */
	int n0 = m.nlog;
	/* IbsFetchCtl: IbsFetchLat [47:32], IbsFetchComp [50], IbsIcMiss [51], IbsL1TlbMiss [55],
	 * IbsL2TlbMiss [56], IbsFetchL2Miss [58] */
	produce_fetch(0x008C001400000000ull, 0x1000);   /* Comp, IcMiss, L1TlbMiss, lat 20 */
	corepmu_tick(&h, &cp, 0);
	/* re-arm: 0, then cfg | En */
	assert_int_equal(m.nlog, n0 + 2);
	assert_int_equal(m.log[n0].value, 0);
	assert_int_equal(m.log[n0 + 1].value, 0x0201000000000100ull);
	produce_fetch(0x0504012C00000000ull, 0x2000);   /* Comp, L2TlbMiss, FetchL2Miss, lat 300 */
	corepmu_tick(&h, &cp, 0);
	produce_fetch(0x0004000500000000ull, 0);        /* Comp, lat 5; #1197: linear address 0 -> dropped */
	corepmu_tick(&h, &cp, 0);
	corepmu_stop(&h, &cp, 0);
	const struct ibs_hist *hh = &cp.ibs.h;
	assert_int_equal(hh->samples, 3);
	assert_int_equal(hh->dropped, 1);
	assert_int_equal(hh->fetch_comp, 2);
	assert_int_equal(hh->ic_miss, 0);                 /* #1238: unreliable on this model */
	assert_int_equal(hh->ic_miss_unreliable, 1);
	assert_int_equal(hh->l1tlb_miss, 1);
	assert_int_equal(hh->l2tlb_miss, 1);
	assert_int_equal(hh->fetch_l2_miss, 1);
	assert_int_equal(hh->fetch_lat_sum, 320);
	assert_int_equal(hh->fetch_lat[0], 1);
	assert_int_equal(hh->fetch_lat[4], 1);
	corepmu_restore(&h, &cp);
	assert_int_equal(msr(IbsFetchCtl), CTL_ORIG);
}

/* Fam10h #420: stop writes the control with MaxCnt cleared first, then En clear. Fam15h
 * m00-1Fh #718: IbsOpData3 zeroed before every re-arm, and restored afterwards. */
static void test_fam10h_420_and_fam15h_718(void **state)
{
	(void)state;
	ibs_model(0x00100F42, 0x7);            /* family 10h */
	char err[160];
	assert_int_equal(setup("", IBS_MODE_OP, 0x1000, IBS_COUNT_CYCLES, err), 0);
	corepmu_start(&h, &cp, 0, 0);
	int n0 = m.nlog;
	corepmu_stop(&h, &cp, 0);
	assert_int_equal(m.log[n0].id, IbsOpCtl);
	assert_int_equal(m.log[n0].value, OPCTL_EN);  /* cfg | En without MaxCnt */
	assert_int_equal(m.log[n0 + 1].value, 0);
	corepmu_restore(&h, &cp);

	ibs_model(0x00600F12, 0x1F | IBS_CAPS_AVAIL);  /* family 15h model 01h */
	set(IbsOpData3, 0xABC);
	assert_int_equal(setup("", IBS_MODE_OP, 0x1000, IBS_COUNT_OPS, err), 0);
	assert_true(cp.ibs.quirks & IBS_Q_718_OPDATA3);
	corepmu_start(&h, &cp, 0, 0);
	produce_op(&op_specs[0]);
	n0 = m.nlog;
	corepmu_tick(&h, &cp, 0);
	assert_int_equal(m.log[n0].id, IbsOpData3);
	assert_int_equal(m.log[n0].value, 0);
	assert_int_equal(m.log[n0 + 1].id, IbsOpCtl);
	corepmu_stop(&h, &cp, 0);
	corepmu_restore(&h, &cp);
	assert_int_equal(msr(IbsOpData3), 0xABC);
}

/* The pure decoders on literal samples, field by field (positions as in the header comment). */
static void test_decode_literal_fields(void **state)
{
	(void)state;
	struct ibs_hist hh;
	memset(&hh, 0, sizeof(hh));
	/* pre-Zen 4: DataSrc is 3 bits, IbsOpData2[7:6] ignored: 0xC3 -> src 3 (DRAM) */
	ibs_decode_op(&hh, 0, 0x7, 0, 0xC3, 0x0000000000000001ull);
	assert_int_equal(hh.data_src[3], 1);
	/* Zen 4: the same value is src 0x1B (no name) */
	ibs_decode_op(&hh, 0, IBS_CAPS_ZEN4, 0, 0xC3, 0x0000000000000001ull);
	assert_int_equal(hh.data_src[0x1B], 1);
	/* IbsDcL1TlbMiss [2], IbsDcL2TlbMiss [3], IbsDcLockedOp [15], IbsSwPf [21] on a load */
	ibs_decode_op(&hh, 0, 0x7, 0, 0, 0x000000000020800Dull);
	assert_int_equal(hh.dc_l1tlb_miss, 1);
	assert_int_equal(hh.dc_l2tlb_miss, 1);
	assert_int_equal(hh.locked, 1);
	assert_int_equal(hh.swpf, 1);
	/* Fam19h m<10h #1293: with IbsDcMissNoMabAlloc [16], IbsOpData2 and IbsL2Miss [20] are invalid */
	ibs_decode_op(&hh, IBS_Q_1293_OPDATA2, 0x7, 0, 0x03, 0x0000000000110081ull);
	assert_int_equal(hh.data2_invalid, 1);
	assert_int_equal(hh.l2_miss, 0);
	assert_int_equal(hh.data_src[3], 1);
	/* Zen 4 fetch: IbsFetchOcMiss [60], IbsFetchL3Miss [61]; ignored without the capability */
	ibs_decode_fetch(&hh, 0, IBS_CAPS_ZEN4, 0x3000000000000000ull, 1);
	ibs_decode_fetch(&hh, 0, 0x7, 0x3000000000000000ull, 1);
	assert_int_equal(hh.oc_miss, 1);
	assert_int_equal(hh.fetch_l3_miss, 1);
	/* IbsFetchL2Miss [58] counts only with IbsFetchComp [50] */
	ibs_decode_fetch(&hh, 0, 0x7, 0x0400000000000000ull, 1);
	assert_int_equal(hh.fetch_l2_miss, 0);
	ibs_decode_fetch(&hh, 0, 0x7, 0x0404000000000000ull, 1);
	assert_int_equal(hh.fetch_l2_miss, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_period_validation),
		cmocka_unit_test(test_decode_literal_fields),
		cmocka_unit_test(test_op_sampler_histograms_exact),
		cmocka_unit_test(test_cycle_mode_drops_random_bits_and_effective_period),
		cmocka_unit_test(test_fetch_sampler_and_fam19h_m01_errata),
		cmocka_unit_test(test_fam10h_420_and_fam15h_718),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
