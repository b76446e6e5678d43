/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Arm PMUv3 multiplexing (pmu/core/core_mux.h) on the register model: more events than event
 * counters split into groups, each group's slices started, counted, stopped and restored in
 * turn, the raw counts and running times summed and scaled (perf's raw x enabled / running).
 * Every expected value below is worked out by hand from the model's scripted counts: event
 * counter k steps k + 1 per tick while enabled, the cycle counter 7, and a slice's time in ns is
 * its ticks. The default set (no core_events) that needs more counters goes through the same
 * groups. Then a fault at every register access of a multiplexed run (core_events, and the
 * default set): every register is back as found or named in the restore report.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/pmuv3_model.h"
#include "pmu/core/core_counters.h"
#include "pmu/core/core_mux.h"
#include "pmu/metrics.h"
#include "arch/regs/arm_sysreg.h"
#include "efi/out/pmu_json.h"
#include "tests/unit/json_check.h"

/* PMCR_EL0 with IMP 0x41 and N (bits [15:11], Arm ARM D23 PMCR_EL0) = 1, 2, 3, 6 and 7. */
#define PMCR_N1 0x41000800u
#define PMCR_N2 0x41001000u
#define PMCR_N3 0x41001800u
#define PMCR_N6 0x41003000u
#define PMCR_N7 0x41003800u
#define EVTYPER_ORIG 0x7u
#define CCFILTR_ORIG 0x08000000u

static struct hw_model m, ref;
static struct hw h;
static struct core_set acc, slice;
static uint64_t pmcr_orig;

static void model_ceid(uint64_t pmcr, uint64_t ceid0, uint64_t ceid1)
{
	const struct pmuv3_model_cfg c = { .pmcr = pmcr, .ceid0 = ceid0, .ceid1 = ceid1,
					   .evtyper = EVTYPER_ORIG, .ccfiltr = CCFILTR_ORIG, .cyc_step = 7, .ctr_start = 10 };
	pmuv3_model(&m, &c);
	pmcr_orig = pmcr;
	m.on_write = pmuv3_model_enables;
	h = hw_model_hw(&m);
	memset(&acc, 0, sizeof(acc));
	assert_int_equal(pmu_armv8_pmuv3.probe(&h, &acc), 0);
}

static void model(uint64_t pmcr)
{
	model_ceid(pmcr, 0xffffffffull, 0xffffffffull);
}

static uint64_t reg(uint32_t enc)
{
	return hw_model_find(&m, HWM_SYSREG, enc)->value;
}


/* The five-event set on N = 3 (a fresh model), configured and packed: groups {L1D_CACHE_REFILL,
 * L1D_CACHE}, {BR_MIS_PRED, MEM_ACCESS}, {BUS_ACCESS} on event counters 1 and 2. */
static void five_events_n3(void)
{
	char err[160] = "";
	model(PMCR_N3);
	assert_int_equal(armv8_pmuv3_configure(&acc, "L1D_CACHE_REFILL,L1D_CACHE,BR_MIS_PRED,MEM_ACCESS,BUS_ACCESS",
					       err, sizeof(err)), 0);
	core_mux_pack(&acc);
}
/* A CPU with five events of the default list, L1D_CACHE_REFILL (0x03), BR_MIS_PRED (0x10),
 * MEM_ACCESS (0x13), STALL_FRONTEND (0x23) and STALL_BACKEND (0x24), besides SW_INCR (0x00),
 * INST_RETIRED (0x08) and CPU_CYCLES (0x11): PMCEID0_EL0 bit n = event n, PMCEID1_EL0 bit n =
 * event 0x20 + n (Arm ARM D23 PMCEID0_EL0, PMCEID1_EL0). */
#define CEID0_DEF ((1ull << 0x00) | (1ull << 0x03) | (1ull << 0x08) | (1ull << 0x10) | (1ull << 0x11) | (1ull << 0x13))
#define CEID1_DEF ((1ull << (0x23 - 0x20)) | (1ull << (0x24 - 0x20)))

/* That CPU's default set on N = 3 (main.c's order: add the defaults, pack). Its five defaults in
 * list order need three groups of two: {L1D_CACHE_REFILL, STALL_FRONTEND}, {STALL_BACKEND,
 * BR_MIS_PRED}, {MEM_ACCESS, CPU_CYCLES}, CPU_CYCLES (0x11) being the filler of the last group's
 * free counter (0x00 SW_INCR is never one, 0x08 INST_RETIRED is on counter 0). */
static void default_set_n3(void)
{
	model_ceid(PMCR_N3, CEID0_DEF, CEID1_DEF);
	armv8_pmuv3_add_defaults(&acc);
	core_mux_pack(&acc);
}

/* Slices k = 0..n-1 of acc, slice k running ticks[k] ticks (= ns); after each, every register as
 * found when check is set. */
static void run(const unsigned *ticks, uint32_t n, int check)
{
	core_mux_begin(&acc, n / acc.ngroups);
	for (uint32_t k = 0; k < n; k++) {
		slice = acc;
		slice.group = core_mux_slice_group(&acc, k);
		pmu_armv8_pmuv3.start(&h, &slice);
		hw_model_tick(&m, ticks[k]);
		pmu_armv8_pmuv3.stop(&h, &slice);
		pmu_armv8_pmuv3.restore(&h, &slice);
		core_mux_add(&acc, &slice, ticks[k]);
		if (!check)
			continue;
		assert_int_equal(reg(SYSREG_PMCR_EL0), pmcr_orig);
		assert_int_equal(reg(SYSREG_PMCNTENSET_EL0), 0);
		assert_int_equal(reg(SYSREG_PMCCFILTR_EL0), CCFILTR_ORIG);
		for (uint32_t c = 0; c < acc.ngp; c++)
			assert_int_equal(reg(SYSREG_PMEVTYPER_EL0(c)), EVTYPER_ORIG);
	}
	core_mux_finish(&acc);
}

/* What a two-round run of three groups (six slices) must give, worked by hand: each event's raw
 * and scaled count (c[2..]), the groups' running times, the window (= INST_RETIRED on counter 0,
 * which steps 1) and the cycle counter's count. */
struct three_groups {
	uint64_t raw[6], scaled[6];
	int nev;
	uint64_t group_ns[3], window_ns, cycles;
};

/* Run acc's six slices of ticks[] (registers checked after each) and compare with x. */
static void run_three_groups(const unsigned *ticks, const struct three_groups *x)
{
	run(ticks, 6, 1);
	assert_int_equal(acc.nslices, 6);
	assert_int_equal(acc.rounds, 2);
	assert_int_equal(acc.window_ns, x->window_ns);
	for (int g = 0; g < 3; g++)
		assert_int_equal(acc.group_ns[g], x->group_ns[g]);
	for (int i = 0; i < x->nev; i++) {
		assert_int_equal(acc.c[2 + i].state, CTR_COUNTED);
		assert_int_equal(acc.c[2 + i].raw, x->raw[i]);
		assert_int_equal(acc.c[2 + i].delta, x->scaled[i]);
	}
	assert_int_equal(acc.c[ARMV8_C_INST].raw, x->window_ns);
	assert_int_equal(acc.c[ARMV8_C_INST].delta, x->window_ns);
	assert_int_equal(acc.c[ARMV8_C_CYCLES].delta, x->cycles);
	assert_int_equal(acc.restore.nfailed, 0);
	assert_int_equal(acc.restore.status, HW_OK);
}

static void test_scale_by_hand(void **state)
{
	(void)state;
	assert_int_equal(metric_mux_scale(100, 210, 50), 420);
	assert_int_equal(metric_mux_scale(7, 10, 3), 23);      /* 70 / 3 = 23.3: truncated */
	assert_int_equal(metric_mux_scale(5, 10, 0), 0);       /* never ran */
	assert_int_equal(metric_mux_scale(9, 10, 10), 9);      /* ran all along: exact */
	assert_int_equal(metric_mux_scale(9, 10, 12), 9);
	assert_int_equal(metric_mux_scale(1ull << 62, 4, 2), 1ull << 63);   /* no 64-bit overflow */
}

/* N = 3: two event counters besides INST_RETIRED's, five events: groups {0x03, 0x04}, {0x10,
 * 0x13}, {0x19}, two rounds = six slices of 10, 20, 30, 40, 50 and 60 ticks. Group 0 runs
 * slices 0 and 3 (50 ns), group 1 slices 1 and 4 (70), group 2 slices 2 and 5 (90); window 210.
 * Event counter 1 steps 2, counter 2 steps 3:
 *   L1D_CACHE_REFILL (g0, ctr 1) raw 2 x 50 = 100, scaled 100 x 210 / 50 = 420
 *   L1D_CACHE        (g0, ctr 2) raw 3 x 50 = 150, scaled 630
 *   BR_MIS_PRED      (g1, ctr 1) raw 2 x 70 = 140, scaled 140 x 210 / 70 = 420
 *   MEM_ACCESS       (g1, ctr 2) raw 3 x 70 = 210, scaled 630
 *   BUS_ACCESS       (g2, ctr 1) raw 2 x 90 = 180, scaled 180 x 210 / 90 = 420
 *   INST_RETIRED (counter 0, every slice) 1 x 210 = 210 exact, CPU_CYCLES 7 x 210 = 1470. */
static void test_five_events_on_two_counters(void **state)
{
	(void)state;
	five_events_n3();
	assert_int_equal(acc.ngroups, 3);
	assert_int_equal(acc.td_groups, 0);
	static const uint8_t group[] = { 0, 0, 1, 1, 2 }, ctr[] = { 1, 2, 1, 2, 1 };
	static const uint16_t code[] = { 0x03, 0x04, 0x10, 0x13, 0x19 };
	for (int i = 0; i < 5; i++) {
		assert_int_equal(acc.c[2 + i].group, group[i]);
		assert_int_equal(acc.c[2 + i].ctr, ctr[i]);
	}
	/* slice 1 (group 1) programs its two events on counters 1 and 2 and nothing else */
	slice = acc;
	slice.group = 1;
	int from = m.nlog;
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &slice), HW_OK);
	assert_int_equal(reg(SYSREG_PMEVTYPER_EL0(1)) & 0xffff, code[2]);
	assert_int_equal(reg(SYSREG_PMEVTYPER_EL0(2)) & 0xffff, code[3]);
	assert_int_equal(reg(SYSREG_PMCNTENSET_EL0), 0x80000000u | 0x7);   /* C (bit 31) | P0..P2 */
	pmu_armv8_pmuv3.stop(&h, &slice);
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &slice), HW_OK);
	assert_true(m.nlog > from);

	static const unsigned ticks[] = { 10, 20, 30, 40, 50, 60 };
	static const struct three_groups x = { { 100, 150, 140, 210, 180 }, { 420, 630, 420, 630, 420 }, 5,
					       { 50, 70, 90 }, 210, 1470 };
	run_three_groups(ticks, &x);
}

/* N = 7 (six event counters besides INST_RETIRED's): four core_events, then the six TopDown
 * inputs of Neoverse V2 (the model's MIDR_EL1). Added in that order they would straddle groups
 * 0 and 1; packed, the inputs share group 0 (counters 1-6) and the four others group 1
 * (counters 1-4). Four slices of 5, 15, 25, 35 ticks: group 0 ran 30 ns, group 1 50, window 80.
 *   group 0, counters 1..6 (steps 2..7): raw 60, 90, 120, 150, 180, 210; x 80 / 30 = 160, 240,
 *     320, 400, 480, 560
 *   group 1, counters 1..4 (steps 2..5): raw 100, 150, 200, 250; x 80 / 50 = 160, 240, 320, 400
 * With N = 6 the six inputs cannot share one group of five: td_groups 2. */
static void test_topdown_inputs_in_one_group(void **state)
{
	(void)state;
	model(PMCR_N7);
	char err[160] = "";
	assert_int_equal(armv8_pmuv3_configure(&acc, "L1D_CACHE_REFILL,L1D_CACHE,MEM_ACCESS,BUS_ACCESS", err, sizeof(err)), 0);
	armv8_pmuv3_add_topdown(&acc);
	assert_int_equal(acc.n, 12);
	assert_int_equal(acc.nleft, 0);
	assert_int_equal(acc.ngroups, 2);
	assert_int_equal(acc.c[8].group, 1);   /* before packing: STALL_SLOT straddles */
	core_mux_pack(&acc);
	assert_int_equal(acc.ngroups, 2);
	assert_int_equal(acc.td_groups, 1);
	static const char *const td[] = { "STALL_SLOT_FRONTEND", "STALL_SLOT_BACKEND", "STALL_SLOT", "OP_RETIRED",
					   "OP_SPEC", "BR_MIS_PRED" };
	for (int i = 0; i < 6; i++) {
		assert_string_equal(acc.c[6 + i].event, td[i]);
		assert_int_equal(acc.c[6 + i].group, 0);
		assert_int_equal(acc.c[6 + i].ctr, 1 + i);
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(acc.c[2 + i].group, 1);
		assert_int_equal(acc.c[2 + i].ctr, 1 + i);
	}
	static const unsigned ticks[] = { 5, 15, 25, 35 };
	run(ticks, 4, 1);
	static const uint64_t td_raw[] = { 60, 90, 120, 150, 180, 210 }, td_scaled[] = { 160, 240, 320, 400, 480, 560 };
	for (int i = 0; i < 6; i++) {
		assert_int_equal(acc.c[6 + i].raw, td_raw[i]);
		assert_int_equal(acc.c[6 + i].delta, td_scaled[i]);
	}
	static const uint64_t raw[] = { 100, 150, 200, 250 }, scaled[] = { 160, 240, 320, 400 };
	for (int i = 0; i < 4; i++) {
		assert_int_equal(acc.c[2 + i].raw, raw[i]);
		assert_int_equal(acc.c[2 + i].delta, scaled[i]);
	}
	assert_int_equal(acc.group_ns[0], 30);
	assert_int_equal(acc.group_ns[1], 50);
	/* TopDown takes the scaled counts, all from group 0; CPU_CYCLES is the cycle counter's 7 x 80 */
	struct arm_td_in in = { .f = arm_td_formula_for(acc.midr) };
	assert_int_equal(core_mux_topdown_in(&acc, &in), 1);
	static const uint64_t in_one[ATD_NINPUT] = { 560, 160, 240, 320, 400, 480, 560, 0 };
	assert_int_equal(in.have, 0x7f);
	for (int k = 0; k < ATD_NINPUT; k++)
		assert_int_equal(in.count[k], in_one[k]);

	/* N = 6: five inputs in group 0 (counters 1-5), BR_MIS_PRED first in group 1 with the four
	 * others. Same slices: group 0 steps 2..6 x 30 ns scaled x 80 / 30 = 160, 240, 320, 400, 480;
	 * BR_MIS_PRED on counter 1 of group 1: 2 x 50 = 100, x 80 / 50 = 160. Two groups. */
	model(PMCR_N6);
	assert_int_equal(armv8_pmuv3_configure(&acc, "L1D_CACHE_REFILL,L1D_CACHE,MEM_ACCESS,BUS_ACCESS", err, sizeof(err)), 0);
	armv8_pmuv3_add_topdown(&acc);
	core_mux_pack(&acc);
	assert_int_equal(acc.ngroups, 2);
	assert_int_equal(acc.td_groups, 2);
	run(ticks, 4, 1);
	in = (struct arm_td_in){ .f = arm_td_formula_for(acc.midr) };
	assert_int_equal(core_mux_topdown_in(&acc, &in), 2);
	static const uint64_t in_two[ATD_NINPUT] = { 560, 160, 240, 320, 400, 480, 160, 0 };
	for (int k = 0; k < ATD_NINPUT; k++)
		assert_int_equal(in.count[k], in_two[k]);
	struct arm_td_out o;
	arm_topdown(&in, &o);   /* Neoverse V2 (the model's MIDR_EL1): 8 slots from its table */
	for (int k = 0; k < ATD_NITEM; k++)
		assert_true(o.valid[k]);
}

/* N = 2: one event counter besides INST_RETIRED's, nine events: nine groups, two rounds = 18
 * slices of 1, 2, ..., 18 ticks. Group g runs slices g and g + 9: (g + 1) + (g + 10) = 2g + 11
 * ns of the 171. Every event is on counter 1 (steps 2): raw 2 x (2g + 11), from 22 (g = 0) to
 * 54 (g = 8), and scaled 2 x (2g + 11) x 171 / (2g + 11) = 342 each, the 2 x 171 counter 1 would
 * have counted over the whole window. N = 1: no event counter for any event, a config error. */
static void test_nine_events_on_one_counter(void **state)
{
	(void)state;
	model(PMCR_N2);
	char err[160] = "";
	assert_int_equal(armv8_pmuv3_configure(&acc, "L1D_CACHE_REFILL,L1D_CACHE,BR_MIS_PRED,MEM_ACCESS,BUS_ACCESS,"
					       "L1I_CACHE_REFILL,L1D_TLB_REFILL,INST_SPEC,BR_RETIRED", err, sizeof(err)), 0);
	core_mux_pack(&acc);
	assert_int_equal(acc.ngroups, 9);
	unsigned ticks[18];
	for (unsigned k = 0; k < 18; k++)
		ticks[k] = k + 1;
	run(ticks, 18, 1);
	assert_int_equal(acc.window_ns, 171);
	for (int g = 0; g < 9; g++) {
		assert_int_equal(acc.c[2 + g].group, g);
		assert_int_equal(acc.c[2 + g].ctr, 1);
		assert_int_equal(acc.group_ns[g], 2 * g + 11);
		assert_int_equal(acc.c[2 + g].raw, 2 * (2 * g + 11));
		assert_int_equal(acc.c[2 + g].delta, 342);
	}
	assert_int_equal(acc.c[ARMV8_C_INST].delta, 171);

	model(PMCR_N1);
	assert_int_equal(armv8_pmuv3_configure(&acc, "L1D_CACHE", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no event counter left (PMCR_EL0.N = 1"));
}

/* The default set of default_set_n3() multiplexed: two rounds = six slices of 3, 5, 7, 11, 13 and
 * 17 ticks. Group 0 runs slices 0 and 3 (3 + 11 = 14 ns), group 1 slices 1 and 4 (5 + 13 = 18),
 * group 2 slices 2 and 5 (7 + 17 = 24); window 56. Event counter 1 steps 2, counter 2 steps 3:
 *   L1D_CACHE_REFILL (g0, ctr 1) raw 2 x 14 = 28, scaled 28 x 56 / 14 = 112
 *   STALL_FRONTEND   (g0, ctr 2) raw 3 x 14 = 42, scaled 42 x 56 / 14 = 168
 *   STALL_BACKEND    (g1, ctr 1) raw 2 x 18 = 36, scaled 36 x 56 / 18 = 112
 *   BR_MIS_PRED      (g1, ctr 2) raw 3 x 18 = 54, scaled 54 x 56 / 18 = 168
 *   MEM_ACCESS       (g2, ctr 1) raw 2 x 24 = 48, scaled 48 x 56 / 24 = 112
 *   CPU_CYCLES       (g2, ctr 2) raw 3 x 24 = 72, scaled 72 x 56 / 24 = 168
 *   INST_RETIRED (counter 0) 56 and the cycle counter 7 x 56 = 392, exact.
 * The other eleven defaults are named as not implemented; none for want of a counter. */
static void test_default_set_multiplexed(void **state)
{
	(void)state;
	default_set_n3();
	assert_int_equal(acc.ngroups, 3);
	assert_int_equal(acc.td_groups, 0);
	assert_int_equal(acc.n, 8);
	static const char *const ev[] = { "L1D_CACHE_REFILL", "STALL_FRONTEND", "STALL_BACKEND", "BR_MIS_PRED",
					  "MEM_ACCESS", "CPU_CYCLES" };
	static const uint16_t code[] = { 0x03, 0x23, 0x24, 0x10, 0x13, 0x11 };
	static const uint8_t group[] = { 0, 0, 1, 1, 2, 2 }, ctr[] = { 1, 2, 1, 2, 1, 2 };
	for (int i = 0; i < 6; i++) {
		assert_string_equal(acc.c[2 + i].event, ev[i]);
		assert_int_equal(acc.c[2 + i].code, code[i]);
		assert_int_equal(acc.c[2 + i].group, group[i]);
		assert_int_equal(acc.c[2 + i].ctr, ctr[i]);
	}
	static const char *const left[] = { "L2D_CACHE_REFILL", "LL_CACHE_MISS_RD", "L1D_CACHE", "L2D_CACHE",
					    "BUS_ACCESS", "L1D_TLB_REFILL", "INST_SPEC", "L1I_CACHE_REFILL", "BR_RETIRED",
					    "LL_CACHE_RD", "L3D_CACHE_REFILL" };
	assert_int_equal(acc.nleft, 11);
	for (int i = 0; i < 11; i++) {
		assert_string_equal(acc.left[i].event, left[i]);
		assert_string_equal(acc.left[i].why, "not implemented (PMCEID0/1_EL0)");
	}
	/* slice 5 (group 2) programs MEM_ACCESS and CPU_CYCLES on event counters 1 and 2 */
	slice = acc;
	slice.group = core_mux_slice_group(&acc, 5);
	assert_int_equal(slice.group, 2);
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &slice), HW_OK);
	assert_int_equal(reg(SYSREG_PMEVTYPER_EL0(1)) & 0xffff, 0x13);
	assert_int_equal(reg(SYSREG_PMEVTYPER_EL0(2)) & 0xffff, 0x11);
	pmu_armv8_pmuv3.stop(&h, &slice);
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &slice), HW_OK);

	static const unsigned ticks[] = { 3, 5, 7, 11, 13, 17 };
	static const struct three_groups x = { { 28, 42, 36, 54, 48, 72 }, { 112, 168, 112, 168, 112, 168 }, 6,
					       { 14, 18, 24 }, 56, 392 };
	run_three_groups(ticks, &x);
}

/* The record of that multiplexed default set (efi/out/core_json.c) has the fields of a
 * multiplexed core_events set: event_set "default" (main.c names it), multiplexed, rounds,
 * window_ns, groups with running_ns and fraction (14 / 56 = 0.250, 18 / 56 = 0.321, 24 / 56 =
 * 0.429 rounded), each event's group, raw and scaled (= delta) and no before/after;
 * event_counters_used is N = 3, and the defaults the CPU lacks are in not_programmed. */
static void test_default_set_record(void **state)
{
	(void)state;
	static const unsigned ticks[] = { 3, 5, 7, 11, 13, 17 };
	default_set_n3();
	acc.event_set = "default";
	run(ticks, 6, 1);
	static char buf[8192];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	core_set_json(&j, &acc);
	json_end(&j);
	assert_false(j.error);
	assert_false(sb.overflow);
	assert_true(json_check_object(buf, sb.len));
	static const char *const want[] = {
		"{\"event\":\"CPU_CYCLES\",\"unit\":\"cycles\",\"state\":\"counted\",\"raw\":392,\"scaled\":392,\"delta\":392}",
		"{\"event\":\"INST_RETIRED\",\"unit\":\"instructions\",\"state\":\"counted\",\"raw\":56,\"scaled\":56,\"delta\":56}",
		"{\"event\":\"STALL_FRONTEND\",\"unit\":\"events\",\"state\":\"counted\",\"group\":0,\"raw\":42,\"scaled\":168,\"delta\":168}",
		"{\"event\":\"MEM_ACCESS\",\"unit\":\"events\",\"state\":\"counted\",\"group\":2,\"raw\":48,\"scaled\":112,\"delta\":112}",
		"\"event_set\":\"default\",\"event_counters\":3,\"event_counters_used\":3,\"multiplexed\":true,\"rounds\":2,"
		"\"window_ns\":56,\"topdown_groups\":0,\"groups\":[{\"events\":[\"L1D_CACHE_REFILL\",\"STALL_FRONTEND\"],"
		"\"running_ns\":14,\"fraction\":0.250},{\"events\":[\"STALL_BACKEND\",\"BR_MIS_PRED\"],\"running_ns\":18,"
		"\"fraction\":0.321},{\"events\":[\"MEM_ACCESS\",\"CPU_CYCLES\"],\"running_ns\":24,\"fraction\":0.429}],"
		"\"not_programmed\":[{\"event\":\"L2D_CACHE_REFILL\",\"why\":\"not implemented (PMCEID0/1_EL0)\"},",
	};
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(buf, want[i]))
			fail_msg("record lacks %s:\n%s", want[i], buf);
	assert_null(strstr(buf, "\"before\""));
}

/* A one-window user of the configured set (the load-source evidence) keeps one group: group 1
 * of the N = 3 set is BR_MIS_PRED (0x10) and MEM_ACCESS (0x13) on counters 1 and 2, now group 0;
 * an event added then needs a new group (1), which such a user refuses. */
static void test_keep_one_group(void **state)
{
	(void)state;
	five_events_n3();
	core_mux_keep_group(&acc, 1);
	assert_int_equal(acc.n, 4);
	assert_int_equal(acc.ngroups, 1);
	assert_string_equal(acc.c[2].event, "BR_MIS_PRED");
	assert_string_equal(acc.c[3].event, "MEM_ACCESS");
	assert_int_equal(acc.c[2].group, 0);
	assert_int_equal(acc.c[3].ctr, 2);
	assert_int_equal(pmu_armv8_pmuv3.start(&h, &acc), HW_OK);
	assert_int_equal(reg(SYSREG_PMEVTYPER_EL0(1)) & 0xffff, 0x10);
	assert_int_equal(reg(SYSREG_PMEVTYPER_EL0(2)) & 0xffff, 0x13);
	hw_model_tick(&m, 4);
	assert_int_equal(pmu_armv8_pmuv3.stop(&h, &acc), HW_OK);
	assert_int_equal(acc.c[3].delta, 12);   /* counter 2 steps 3 */
	assert_int_equal(pmu_armv8_pmuv3.restore(&h, &acc), HW_OK);
	char err[160] = "";
	assert_int_equal(armv8_pmuv3_configure(&acc, "BUS_ACCESS", err, sizeof(err)), 0);
	assert_int_equal(acc.c[4].group, 1);
	assert_int_equal(acc.ngroups, 2);
}

/* PMCNTENCLR_EL0 reads as the one enable mask: a change to it is PMCNTENSET_EL0's. */
static uint64_t alias(uint64_t id)
{
	return id == SYSREG_PMCNTENCLR_EL0 ? SYSREG_PMCNTENSET_EL0 : id;
}

static int named(uint32_t id)
{
	for (uint32_t i = 0; i < acc.restore.nfailed && i < SAVESET_REPORT_FAILED; i++)
		if (alias(acc.restore.failed[i].addr) == alias(id))
			return 1;
	return 0;
}

/* The six-slice, three-group run of a set setup() configures with register access k failing,
 * for every k of a clean run, once and from k on: every plain register is back as found or named
 * among the restore report's failed registers. */
static void fault_at_every_access(void (*setup)(void), const char *what)
{
	static const unsigned ticks[] = { 10, 20, 30, 40, 50, 60 };
	setup();
	assert_int_equal(acc.ngroups, 3);
	uint32_t first = m.naccess;
	ref = m;
	run(ticks, 6, 0);
	uint32_t n = m.naccess;
	assert_true(n > first + 6 * 10);
	unsigned runs = 0, named_regs = 0;
	for (int sticky = 0; sticky <= 1; sticky++)
		for (uint32_t k = first + 1; k <= n; k++) {
			setup();
			ref = m;
			m.fail_at = k;
			m.fail_sticky = (uint8_t)sticky;
			run(ticks, 6, 0);
			assert_true(m.nfailed > 0);
			for (int i = 0; i < m.nregs; i++) {
				const struct hw_model_reg *r = &m.regs[i];
				if (r->kind == HWM_COUNTER || r->value == ref.regs[i].value)
					continue;
				if (!named(r->id))
					fail_msg("%s, access %u failing%s: register 0x%x changed (0x%llx -> 0x%llx) and not named", what,
						 k, sticky ? " from then on" : "", r->id, (unsigned long long)ref.regs[i].value,
						 (unsigned long long)r->value);
				named_regs++;
			}
			runs++;
		}
	assert_true(named_regs > 0);   /* some faults do leave a register named */
	print_message("multiplexed PMUv3 %s: %u accesses, %u faulted runs, %u changed registers all named\n", what,
		      n - first, runs, named_regs);
}

/* The five core_events of test_five_events_on_two_counters. */
static void test_fault_at_every_access(void **state)
{
	(void)state;
	fault_at_every_access(five_events_n3, "core_events");
}

/* The default set of test_default_set_multiplexed. */
static void test_fault_default_set(void **state)
{
	(void)state;
	fault_at_every_access(default_set_n3, "default set");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale_by_hand),
		cmocka_unit_test(test_five_events_on_two_counters),
		cmocka_unit_test(test_topdown_inputs_in_one_group),
		cmocka_unit_test(test_keep_one_group),
		cmocka_unit_test(test_nine_events_on_one_counter),
		cmocka_unit_test(test_default_set_multiplexed),
		cmocka_unit_test(test_default_set_record),
		cmocka_unit_test(test_fault_at_every_access),
		cmocka_unit_test(test_fault_default_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
