/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86 core counter multiplexing (pmu/core/x86_mux.h, x86_corepmu_pack.c) on the register model:
 * group packing on Intel (with and without general-counter TopDown) and AMD (4 and 6 counters,
 * with and without topdown = on), rotation on a fake timer (1 tick = 1 us: slice 100 ticks) with
 * every MSR write of each rotation, each group's running time, scaled counts against values
 * worked out by hand, a group that never ran reported not-counted, and the record's fields.
 * MSR numbers are the SDM's (Vol.4 Table 2-2: IA32_PERFEVTSEL0 186H, IA32_PMC0 C1H,
 * IA32_PERF_GLOBAL_CTRL 38FH) and the APM's (Vol.2 13.2: PerfEvtSel0 C001_0000h, PERF_CTL0
 * C001_0200h), written as literals; an event select = event | umask << 8 | USR (16) | OS (17) |
 * EN (22).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/test_intel_model.h"
#include "tests/unit/json_check.h"
#include "pmu/core/x86_corepmu.h"
#include "efi/out/pmu_json.h"

static struct corepmu cp;
static char err[224];
#define HZ 1000000u   /* fake timer: 1 tick = 1 us = 1000 ns */

static int configure(const struct hw *h, const char *events, int topdown)
{
	struct corepmu_config cfg = { .core_events = events, .topdown = topdown, .multiplex = 1 };
	assert_int_equal(corepmu_probe(h, &cp), 0);
	return corepmu_configure(&cp, &cfg, err, sizeof(err));
}

/* ---- Intel --------------------------------------------------------------------------------- */
static const uint64_t zero[4];
static struct hw_model tref;   /* the Intel model as initialised */

static const char *const five = "cpu/event=0xc0,umask=0x0/ cpu/event=0x3c,umask=0x0/ cpu/event=0xc4,umask=0x0/ "
				"cpu/event=0xc5,umask=0x0/ cpu/event=0x2e,umask=0x41/";

static void test_intel_packing(void **state)
{
	(void)state;
	/* no TopDown, 4 general counters, 10 events: groups of 4, 4, 2 on IA32_PERFEVTSEL0-3 */
	static const struct tm_cpu c4 = { .model = 0x5E, .version = 4, .ngp = 4, .nfixed = 3, .pdcm = 1 };
	tm_init(&c4, zero, NULL);
	char list[10 * 27 + 1] = "";
	for (int i = 0; i < 10; i++)
		strcat(list, "cpu/event=0xc0,umask=0x0/ ");
	assert_int_equal(configure(&tmh, list, 0), 0);
	assert_int_equal(cp.mux.ngroups, 3);
	static const uint8_t g10[10] = { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2 };
	static const uint32_t s10[10] = { 0x186, 0x187, 0x188, 0x189, 0x186, 0x187, 0x188, 0x189, 0x186, 0x187 };
	for (int i = 0; i < 10; i++) {
		assert_int_equal(cp.ic.gp[i].group, g10[i]);
		assert_int_equal(cp.ic.gp[i].sel_msr, s10[i]);
		assert_int_equal(cp.ic.gp[i].ctr_msr, s10[i] - 0x186 + 0xC1);
		assert_int_equal(cp.ic.gp[i].state, CTR_COUNTED);
	}
	/* four events on four counters: one group, not multiplexed */
	list[4 * 26] = '\0';
	assert_int_equal(configure(&tmh, list, 0), 0);
	assert_int_equal(cp.mux.ngroups, 1);
	/* Skylake TopDown on 8 counters takes 4 (UOPS_ISSUED.ANY, UOPS_RETIRED.RETIRE_SLOTS,
	 * IDQ_UOPS_NOT_DELIVERED.CORE, INT_MISC.RECOVERY_CYCLES), pinned; 6 events: groups of 4 and 2
	 * on counters 4-7 */
	static const struct tm_cpu skl8 = { .model = 0x5E, .version = 4, .ngp = 8, .nfixed = 3, .pdcm = 1 };
	tm_init(&skl8, zero, NULL);
	list[6 * 26] = '\0';
	strcpy(list, "cpu/event=0xc0,umask=0x0/ cpu/event=0xc0,umask=0x0/ cpu/event=0xc0,umask=0x0/ "
		     "cpu/event=0xc0,umask=0x0/ cpu/event=0xc0,umask=0x0/ cpu/event=0xc0,umask=0x0/");
	assert_int_equal(configure(&tmh, list, 1), 0);
	assert_int_equal(cp.ic.ngp_used, 10);
	assert_int_equal(cp.mux.ngroups, 2);
	for (int i = 0; i < 4; i++)
		assert_int_equal(cp.ic.gp[i].group, X86_PINNED);
	static const uint8_t g6[6] = { 0, 0, 0, 0, 1, 1 };
	static const uint32_t s6[6] = { 0x18A, 0x18B, 0x18C, 0x18D, 0x18A, 0x18B };
	for (int i = 0; i < 6; i++) {
		assert_int_equal(cp.ic.gp[4 + i].group, g6[i]);
		assert_int_equal(cp.ic.gp[4 + i].sel_msr, s6[i]);
	}
	/* TopDown on 4 counters takes all four: the events are absent with why (not multiplexed) */
	static const struct tm_cpu skl4 = { .model = 0x5E, .version = 4, .ngp = 4, .nfixed = 3, .pdcm = 1 };
	tm_init(&skl4, zero, NULL);
	assert_int_equal(configure(&tmh, "cpu/event=0xc0,umask=0x0/", 1), 0);
	assert_int_equal(cp.mux.ngroups, 1);
	assert_int_equal(cp.ic.gp[4].state, CTR_ABSENT);
	assert_string_equal(cp.ic.gp[4].why, "no free general counter (4, CPUID.0AH:EAX[15:8])");
	/* one counter: 17 events need 17 groups, more than 16 */
	static const struct tm_cpu one = { .model = 0x5E, .version = 4, .ngp = 1, .nfixed = 3, .pdcm = 1 };
	tm_init(&one, zero, NULL);
	char l17[17 * 27 + 1] = "";
	for (int i = 0; i < 17; i++)
		strcat(l17, "cpu/event=0xc0,umask=0x0/ ");
	assert_int_equal(configure(&tmh, l17, 0), -1);
	assert_string_equal(err, "core_events: 17 events in groups of 1 counters need 17 groups: efiperf rotates at "
				 "most 16 (X86_MUX_MAX_GROUPS)");
	l17[16 * 26] = '\0';
	assert_int_equal(configure(&tmh, l17, 0), 0);
	assert_int_equal(cp.mux.ngroups, 16);
}

/* The MSR writes logged from index from on: id and value pairs, compared with want[n][2]. */
static void expect_writes(int from, const uint64_t (*want)[2], int n, const char *when)
{
	int k = 0;
	for (int i = from; i < tm.nlog; i++, k++) {
		if (k >= n)
			fail_msg("%s: extra write 0x%x = 0x%llx", when, tm.log[i].id, (unsigned long long)tm.log[i].value);
		if (tm.log[i].id != want[k][0] || tm.log[i].value != want[k][1])
			fail_msg("%s: write %d is 0x%x = 0x%llx, expected 0x%llx = 0x%llx", when, k, tm.log[i].id,
				 (unsigned long long)tm.log[i].value, (unsigned long long)want[k][0],
				 (unsigned long long)want[k][1]);
	}
	assert_int_equal(k, n);
}

/* Five events on 2 counters: {A B} {C D} {E}; PMC0 steps 3 a model tick, PMC1 5. */
static void intel_five(void)
{
	static const struct tm_cpu c2 = { .model = 0x5E, .version = 4, .ngp = 2, .nfixed = 3, .pdcm = 1 };
	static const uint64_t fx[4] = { 7, 11, 13, 0 }, gp[2] = { 3, 5 };
	tm_init(&c2, fx, gp);
	tref = tm;
	assert_int_equal(configure(&tmh, five, 0), 0);
	assert_int_equal(cp.mux.ngroups, 3);
}

/* The record fill writes of cp (corepmu_json_counters, corepmu_json_topdown), checked to be one
 * JSON object. */
static const char *record_of(void (*fill)(struct json *, const struct corepmu *))
{
	static char buf[8192];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	fill(&j, &cp);
	json_end(&j);
	assert_true(json_check_object(buf, strlen(buf)));
	return buf;
}

static const char *record(void) { return record_of(corepmu_json_counters); }

static void has(const char *r, const char *text)
{
	if (!strstr(r, text))
		fail_msg("record lacks %s: %s", text, r);
}

static void test_intel_rotation(void **state)
{
	(void)state;
	intel_five();
	assert_int_equal(corepmu_start(&tmh, &cp, 0, HZ), HW_OK);
	tm_tick(10);
	int n0 = tm.nlog;
	corepmu_tick(&tmh, &cp, 50);                  /* 50 us < 100 us slice: no rotation */
	assert_int_equal(tm.nlog, n0);
	tm_tick(10);
	corepmu_tick(&tmh, &cp, 100);                 /* group 0 ran 100 us: switch to group 1 */
	/* GLOBAL_CTRL: the fixed counters alone (bits 32-34; firmware's PMC1 bit 1 is ours, off),
	 * C and D selected, then PMC0-1 on again */
	const uint64_t r1[][2] = { { 0x38F, 0x700000000 }, { 0x186, 0x4300C4 }, { 0x187, 0x4300C5 }, { 0x38F, 0x700000003 } };
	expect_writes(n0, r1, 4, "rotation 1");
	tm_tick(20);
	n0 = tm.nlog;
	corepmu_tick(&tmh, &cp, 250);                 /* group 1 ran 150 us: switch to group 2 (E alone) */
	const uint64_t r2[][2] = { { 0x38F, 0x700000000 }, { 0x186, 0x43412E }, { 0x38F, 0x700000001 } };
	expect_writes(n0, r2, 3, "rotation 2");
	tm_tick(5);
	corepmu_tick(&tmh, &cp, 300);
	tm_tick(5);
	assert_int_equal(corepmu_stop(&tmh, &cp, 400), HW_OK);   /* group 2 ran 150 us */
	assert_int_equal(corepmu_restore(&tmh, &cp), HW_OK);
	assert_int_equal(cp.mux.rotations, 2);
	assert_int_equal(cp.mux.enabled, 400);
	assert_int_equal(cp.mux.running[0], 100);
	assert_int_equal(cp.mux.running[1], 150);
	assert_int_equal(cp.mux.running[2], 150);
	/* raw: A 20 ticks x 3, B 20 x 5, C 20 x 3, D 20 x 5, E 10 x 3; scaled x 400 / running */
	static const uint64_t raw[5] = { 60, 100, 60, 100, 30 }, scaled[5] = { 240, 400, 160, 266, 80 };
	for (int i = 0; i < 5; i++) {
		assert_int_equal(cp.ic.gp[i].acc, raw[i]);
		assert_int_equal(cp.ic.gp[i].scaled, scaled[i]);
		assert_int_equal(cp.ic.gp[i].state, CTR_COUNTED);
	}
	/* the fixed counters ran all along: 10 + 10 + 20 + 5 + 5 = 50 ticks x 7 */
	assert_int_equal(cp.ic.fx[0].acc, 350);
	uint32_t id = 0;
	if (hw_model_plain_diff(&tm, &tref, NULL, &id))
		fail_msg("register 0x%x not restored", id);
	assert_int_equal(tm_msr(0x38F), TM_GLOBAL_ORIG);
	assert_int_equal(tm_msr(0x186), 0);
	assert_int_equal(tm_msr(0x187), 0);
	const char *r = record();
	has(r, "\"multiplexed\":true,\"group_count\":3,\"rotations\":2,\"window_ns\":400000,\"slice_ns\":100000,");
	has(r, "{\"event\":\"cpu/event=0xc5,umask=0x0/\",\"config\":\"0xc5\",\"state\":\"counted\",\"reads\":2,\"group\":1,"
	       "\"time_enabled\":400000,\"time_running\":150000,\"raw\":100,\"scaled\":266,\"delta\":266}");
	has(r, "{\"event\":\"INST_RETIRED.ANY\",\"state\":\"counted\",\"reads\":2,\"time_enabled\":400000,"
	       "\"time_running\":400000,\"raw\":350,\"scaled\":350,\"delta\":350}");
	has(r, "\"groups\":[{\"events\":[\"cpu/event=0xc0,umask=0x0/\",\"cpu/event=0x3c,umask=0x0/\"],"
	       "\"running_ns\":100000,\"fraction\":0.250},");
}

static void test_intel_group_never_ran(void **state)
{
	(void)state;
	intel_five();
	assert_int_equal(corepmu_start(&tmh, &cp, 1000, HZ), HW_OK);
	tm_tick(4);
	corepmu_tick(&tmh, &cp, 1050);   /* before the first slice ends: no rotation */
	assert_int_equal(corepmu_stop(&tmh, &cp, 1080), HW_OK);
	corepmu_restore(&tmh, &cp);
	assert_int_equal(cp.ic.gp[0].state, CTR_COUNTED);
	assert_int_equal(cp.ic.gp[0].scaled, 12);        /* ran all along: 4 x 3, not scaled */
	for (int i = 2; i < 5; i++) {
		assert_int_equal(cp.ic.gp[i].state, CTR_NOT_COUNTED);
		assert_string_equal(ctr_state_name(cp.ic.gp[i].state), "not-counted");
	}
	assert_string_equal(cp.ic.gp[4].why, "not counted: its group 2 never ran; the window had 0 rotations");
	const char *r = record();
	has(r, "{\"event\":\"cpu/event=0xc4,umask=0x0/\",\"config\":\"0xc4\",\"state\":\"not-counted\",\"group\":1,"
	       "\"time_enabled\":80000,\"time_running\":0,\"why\":\"not counted: its group 1 never ran; the window had 0 rotations\"}");
	/* the next window where every group runs: counted again, the why gone */
	assert_int_equal(corepmu_start(&tmh, &cp, 0, HZ), HW_OK);
	for (uint64_t t = 100; t <= 300; t += 100) {
		tm_tick(1);
		corepmu_tick(&tmh, &cp, t);
	}
	corepmu_stop(&tmh, &cp, 400);
	corepmu_restore(&tmh, &cp);
	assert_int_equal(cp.mux.rotations, 3);
	assert_int_equal(cp.ic.gp[4].state, CTR_COUNTED);
	assert_string_equal(cp.ic.gp[4].why, "");
}

/* Skylake general-counter TopDown on counters 0-3, pinned: a rotation leaves them counting; six
 * events rotate on counters 4-7 (groups of 4 and 2). Counter i steps i + 1 a model tick. */
static void test_intel_topdown_pinned(void **state)
{
	(void)state;
	static const struct tm_cpu skl8 = { .model = 0x5E, .version = 4, .ngp = 8, .nfixed = 3, .pdcm = 1 };
	static const uint64_t fx[4] = { 7, 11, 13, 0 }, gp[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	tm_init(&skl8, fx, gp);
	tref = tm;
	assert_int_equal(configure(&tmh, "cpu/event=0xc0,umask=0x0/ cpu/event=0xc0,umask=0x0/ cpu/event=0xc0,umask=0x0/ "
				   "cpu/event=0xc0,umask=0x0/ cpu/event=0xc4,umask=0x0/ cpu/event=0xc5,umask=0x0/", 1), 0);
	assert_int_equal(corepmu_start(&tmh, &cp, 0, HZ), HW_OK);
	tm_tick(10);
	int n0 = tm.nlog;
	corepmu_tick(&tmh, &cp, 100);
	/* GLOBAL_CTRL: fixed counters and the TopDown counters 0-3 keep counting; counters 4-5 take
	 * group 1; then 0-5 on */
	const uint64_t r1[][2] = { { 0x38F, 0x70000000F }, { 0x18A, 0x4300C4 }, { 0x18B, 0x4300C5 }, { 0x38F, 0x70000003F } };
	expect_writes(n0, r1, 4, "rotation with TopDown pinned");
	tm_tick(10);
	assert_int_equal(corepmu_stop(&tmh, &cp, 200), HW_OK);
	assert_int_equal(corepmu_restore(&tmh, &cp), HW_OK);
	uint32_t id = 0;
	if (hw_model_plain_diff(&tm, &tref, NULL, &id))
		fail_msg("register 0x%x not restored", id);
	for (int i = 0; i < 4; i++) {   /* pinned: 20 ticks, raw = scaled */
		assert_int_equal(cp.ic.gp[i].acc, 20 * (uint64_t)(i + 1));
		assert_int_equal(cp.ic.gp[i].scaled, 20 * (uint64_t)(i + 1));
	}
	/* group 0 on counters 4-7 and group 1 on 4-5: 10 ticks each of 200, scaled x 2 */
	static const uint64_t raw[6] = { 50, 60, 70, 80, 50, 60 };
	for (int i = 0; i < 6; i++) {
		assert_int_equal(cp.ic.gp[4 + i].acc, raw[i]);
		assert_int_equal(cp.ic.gp[4 + i].scaled, 2 * raw[i]);
	}
	has(record_of(corepmu_json_topdown), "\"inputs_multiplexed\":false");
	has(record(), "{\"event\":\"UOPS_ISSUED.ANY\",\"config\":\"0x10e\",\"state\":\"counted\",\"reads\":2,"
		       "\"time_enabled\":200000,\"time_running\":200000,\"raw\":20,\"scaled\":20,\"delta\":20}");
}

/* ---- AMD ----------------------------------------------------------------------------------- */
static struct hw_model am;
static struct hw amh;

/* CPUID 1 signature sig; layout: 0 legacy (4 counters), 1 PerfCtrExtCore (6), 2 PerfMonV2 (6);
 * counter i steps step[i] a tick while its EN (bit 22) and, PerfMonV2, PerfCntrGlobalCtl bit i
 * (C000_0301h) are set. */
static void amd(uint32_t sig, int layout, const uint64_t step[6])
{
	hw_model_init(&am);
	amh = hw_model_hw(&am);
	hw_model_cpuid(&am, 0, 0, 0x10, 0x68747541, 0x444d4163, 0x69746e65);   /* AuthenticAMD */
	hw_model_cpuid(&am, 1, 0, sig, 0, 0, 0);
	hw_model_cpuid(&am, 0x80000000, 0, 0x80000022, 0, 0, 0);
	hw_model_cpuid(&am, 0x80000001, 0, 0, 0, layout ? 1u << 23 : 0, 0);
	hw_model_cpuid(&am, 0x80000022, 0, layout == 2, layout == 2 ? 6 : 0, 0, 0);
	if (layout == 2)
		hw_model_reg(&am, HWM_MSR, 0xC0000301, HWM_PLAIN, 0);
	unsigned n = layout ? 6 : 4;
	uint32_t ctl = layout ? 0xC0010200 : 0xC0010000, stride = layout ? 2 : 1;
	for (uint32_t i = 0; i < n; i++) {
		hw_model_reg(&am, HWM_MSR, ctl + stride * i, HWM_PLAIN, 0);
		struct hw_model_reg *r = hw_model_reg(&am, HWM_MSR, ctl + stride * i + (layout ? 1 : 4), HWM_COUNTER, 0);
		r->step = step[i];
		r->en_id = ctl + stride * i;
		r->en_mask = 1ull << 22;
		if (layout == 2) {
			r->en2_id = 0xC0000301;
			r->en2_mask = 1ull << i;
		}
	}
}

static const uint64_t hand[6] = { 100, 120, 150, 30, 250, 210 };

static void test_amd_packing(void **state)
{
	(void)state;
	const char *six = "core/event=0xC0/ core/event=0x76/ core/event=0xC2/ core/event=0xC3/ core/event=0xC4/ "
			  "core/event=0xC5/";
	/* legacy, 4 counters: six events in groups of 4 and 2 on PerfEvtSel0-3 */
	amd(0x00A00F11, 0, hand);
	assert_int_equal(configure(&amh, six, 0), 0);
	assert_int_equal(cp.mux.ngroups, 2);
	static const uint32_t sel4[6] = { 0xC0010000, 0xC0010001, 0xC0010002, 0xC0010003, 0xC0010000, 0xC0010001 };
	for (int i = 0; i < 6; i++) {
		assert_int_equal(cp.ac.c[i].sel_msr, sel4[i]);
		assert_int_equal(cp.ac.c[i].group, i / 4);
	}
	/* PerfCtrExtCore, 6 counters: six fit (one group); eight: 6 and 2 */
	amd(0x00A00F11, 1, hand);
	assert_int_equal(configure(&amh, six, 0), 0);
	assert_int_equal(cp.mux.ngroups, 1);
	char eight[200];
	snprintf(eight, sizeof(eight), "%s core/event=0xC0/ core/event=0x76/", six);
	assert_int_equal(configure(&amh, eight, 0), 0);
	assert_int_equal(cp.mux.ngroups, 2);
	assert_int_equal(cp.ac.c[6].sel_msr, 0xC0010200);
	assert_int_equal(cp.ac.c[7].sel_msr, 0xC0010202);
	assert_int_equal(cp.ac.c[7].group, 1);
	/* Zen 4 (family 19h model 11h), topdown = on: the six inputs take the six counters, so they are
	 * group 0 and two events group 1 on PERF_CTL0-1; without events: one group */
	amd(0x00A10F11, 2, hand);
	assert_int_equal(configure(&amh, "core/event=0xC0/ core/event=0x76/", 1), 0);
	assert_int_equal(cp.mux.ngroups, 2);
	for (int i = 0; i < 6; i++)
		assert_int_equal(cp.ac.c[i].group, 0);
	assert_int_equal(cp.ac.c[6].group, 1);
	assert_int_equal(cp.ac.c[6].sel_msr, 0xC0010200);
	assert_int_equal(cp.ac.c[7].sel_msr, 0xC0010202);
	assert_int_equal(configure(&amh, "", 1), 0);
	assert_int_equal(cp.mux.ngroups, 1);
	/* legacy 4 counters and topdown = on: no inputs (they need 6 at once), the events as without */
	amd(0x00A10F11, 0, hand);
	assert_int_equal(configure(&amh, six, 1), 0);
	assert_int_equal(cp.ac.nused, 6);
	assert_int_equal(cp.mux.ngroups, 2);
}

/* Zen 4 topdown = on + 2 events: group 0 the inputs (counters step hand[] a tick), group 1 the
 * events on counters 0 and 1 (steps 100, 120). */
static void test_amd_rotation_pipeline_group0(void **state)
{
	(void)state;
	amd(0x00A10F11, 2, hand);
	assert_int_equal(configure(&amh, "core/event=0xC0/ core/event=0x76/", 1), 0);
	assert_int_equal(corepmu_start(&amh, &cp, 0, HZ), HW_OK);
	uint64_t sel[6];
	for (int i = 0; i < 6; i++)
		sel[i] = hw_model_find(&am, HWM_MSR, 0xC0010200 + 2 * (uint32_t)i)->value;
	hw_model_tick(&am, 10);
	int n0 = am.nlog;
	corepmu_tick(&amh, &cp, 100);
	/* each input's PERF_CTL with EN (bit 22) off, then the two events with EN */
	assert_int_equal(am.nlog - n0, 8);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(am.log[n0 + i].id, 0xC0010200 + 2 * (uint32_t)i);
		assert_int_equal(am.log[n0 + i].value, sel[i] & ~(1ull << 22));
		assert_true(sel[i] & (1ull << 22));
	}
	assert_int_equal(am.log[n0 + 6].id, 0xC0010200);
	assert_int_equal(am.log[n0 + 6].value, 0x4300C0);
	assert_int_equal(am.log[n0 + 7].id, 0xC0010202);
	assert_int_equal(am.log[n0 + 7].value, 0x430076);
	hw_model_tick(&am, 20);
	assert_int_equal(corepmu_stop(&amh, &cp, 300), HW_OK);
	assert_int_equal(corepmu_restore(&amh, &cp), HW_OK);
	for (int i = 0; i < 6; i++)   /* every PERF_CTL and PerfCntrGlobalCtl back as found (0) */
		assert_int_equal(hw_model_find(&am, HWM_MSR, 0xC0010200 + 2 * (uint32_t)i)->value, 0);
	assert_int_equal(hw_model_find(&am, HWM_MSR, 0xC0000301)->value, 0);
	/* inputs: 10 ticks of 300 ran 100: raw x 3; events: 20 ticks, ran 200 of 300: x 1.5 */
	static const uint64_t in_scaled[6] = { 3000, 3600, 4500, 900, 7500, 6300 };
	for (int i = 0; i < 6; i++) {
		assert_int_equal(cp.ac.c[i].acc, in_scaled[i] / 3);
		assert_int_equal(cp.ac.c[i].scaled, in_scaled[i]);
	}
	assert_int_equal(cp.ac.c[6].acc, 2000);
	assert_int_equal(cp.ac.c[6].scaled, 3000);
	assert_int_equal(cp.ac.c[7].scaled, 3600);
	/* the ratios are those of the raw inputs (Linux amdzen4 PipelineL1, W = 6): frontend
	 * 3600 / 18000 = 20 %, backend 4500 / 18000 = 25 %, retiring 6300 / 18000 = 35 % */
	assert_true(cp.apl.valid);
	assert_int_equal(cp.apl.slots, 18000);
	assert_int_equal(cp.apl.milli_pct[APL_FRONTEND], 20000);
	assert_int_equal(cp.apl.milli_pct[APL_BACKEND], 25000);
	assert_int_equal(cp.apl.milli_pct[APL_RETIRING], 35000);
	has(record_of(corepmu_json_topdown), "\"inputs_multiplexed\":true,\"inputs_time_enabled\":300000,\"inputs_time_running\":100000,"
		 "\"counts\":{\"ls_not_halted_cyc\":3000,");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intel_packing),
		cmocka_unit_test(test_intel_rotation),
		cmocka_unit_test(test_intel_group_never_ran),
		cmocka_unit_test(test_intel_topdown_pinned),
		cmocka_unit_test(test_amd_packing),
		cmocka_unit_test(test_amd_rotation_pipeline_group0),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
