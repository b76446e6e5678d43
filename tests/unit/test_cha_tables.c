/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CHA platform tables and encoder: every CHA's MSR addresses on every platform (against the
 * public sources' values, restated here), CPU model -> platform, the uncore manuals' tables reproduced
 * exactly, encodings against values Intel publishes, and errors that name the field.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/uncore/intel_cha.h"

static const struct cha_platform *P(const char *name)
{
	const struct cha_platform *p = cha_platform_by_name(name);
	assert_non_null(p);
	return p;
}

/* Linux HSWEP_C0_MSR_PMON_BOX_CTL 0xe00 + HSWEP_CBO_MSR_OFFSET 0x10, PCM src/types.h: SKX CHA n at 0xE00 + 0x10 n: CTL0 +1, FILTER0 +5, FILTER1 +6, CTR0 +8; 28 CHAs */
static void test_skx_addresses(void **state)
{
	(void)state;
	const struct cha_platform *p = P("SKX");
	assert_int_equal(p->box.max_boxes, 28);
	for (unsigned n = 0; n < 28; n++) {
		assert_int_equal(cha_box_ctl(p, n), 0xE00 + 0x10 * n);
		for (unsigned i = 0; i < 4; i++) {
			assert_int_equal(cha_ctl_msr(p, n, i), 0xE01 + 0x10 * n + i);
			assert_int_equal(cha_ctr_msr(p, n, i), 0xE08 + 0x10 * n + i);
		}
		assert_int_equal(cha_filter_msr(p, n, 0), 0xE05 + 0x10 * n);
		assert_int_equal(cha_filter_msr(p, n, 1), 0xE06 + 0x10 * n);
	}
	assert_int_equal(cha_box_ctl(p, 27), 0xFB0);
}

/* Linux icx_cha_msr_offsets[] (+0xb60), PCM ICX_CHA_MSR_PMON_BOX_CTL[]: ICX stride 0xE; CHA 17 -> 18 jumps 0x1C; CHA 34 drops to 0xB60; no FILTER1 */
static void test_icx_addresses(void **state)
{
	(void)state;
	const struct cha_platform *p = P("ICX");
	assert_int_equal(p->box.max_boxes, 40);
	for (unsigned n = 0; n < 40; n++) {
		uint32_t want = n < 18 ? 0xE00 + 0xE * n : n < 34 ? 0xF0A + 0xE * (n - 18) : 0xB60 + 0xE * (n - 34);
		assert_int_equal(cha_box_ctl(p, n), want);
		assert_int_equal(cha_ctl_msr(p, n, 0), want + 1);
		assert_int_equal(cha_filter_msr(p, n, 0), want + 5);
		assert_int_equal(cha_filter_msr(p, n, 1), 0);
		assert_int_equal(cha_ctr_msr(p, n, 3), want + 0xB);
	}
	/* PCM's table rows, verbatim */
	assert_int_equal(cha_box_ctl(p, 17), 0xEEE);
	assert_int_equal(cha_box_ctl(p, 18), 0xF0A);
	assert_int_equal(cha_box_ctl(p, 18) - cha_box_ctl(p, 17), 0x1C);
	assert_int_equal(cha_box_ctl(p, 33), 0xFDC);
	assert_int_equal(cha_box_ctl(p, 34), 0xB60);
	assert_int_equal(cha_box_ctl(p, 39), 0xBA6);
	assert_int_equal(cha_ctr_msr(p, 39, 0), 0xBAE);
	assert_int_equal(cha_ctr_msr(p, 18, 0), 0xF12);
}

/* Linux SPR_C0_MSR_PMON_BOX_CTL 0x2000, PCM SPR_CHA0_MSR_PMON_*: SPR/EMR/GNR 0x2000 + 0x10 n: CTL0 +2, CTR0 +8, FILTER0 +0xE; up to 60 */
static void test_spr_addresses(void **state)
{
	(void)state;
	const char *names[] = { "SPR", "EMR", "GNR" };
	for (int k = 0; k < 3; k++) {
		const struct cha_platform *p = P(names[k]);
		assert_int_equal(p->box.max_boxes, 60);
		for (unsigned n = 0; n < p->box.max_boxes; n++) {
			assert_int_equal(cha_box_ctl(p, n), 0x2000 + 0x10 * n);
			assert_int_equal(cha_ctl_msr(p, n, 0), 0x2002 + 0x10 * n);
			assert_int_equal(cha_ctr_msr(p, n, 0), 0x2008 + 0x10 * n);
			assert_int_equal(cha_filter_msr(p, n, 0), 0x200E + 0x10 * n);
			assert_int_equal(cha_filter_msr(p, n, 1), 0);
		}
		assert_int_equal(p->box.global_ctl, 0x2FF0);
	}
	assert_int_equal(P("SPR")->cbo_count_msr, 0x2FFE);
	assert_int_equal(P("GNR")->cbo_count_msr, 0x3FED);
}

static void test_models(void **state)
{
	(void)state;
	static const struct { uint32_t model; const char *name; } m[] = {
		{ 0x55, "SKX" }, { 0x6A, "ICX" }, { 0x6C, "ICX" }, { 0x8F, "SPR" }, { 0xCF, "EMR" },
		{ 0xAD, "GNR" }, { 0xAE, "GNR" },
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		assert_string_equal(cha_platform_for_cpu(6, m[i].model)->name, m[i].name);
	assert_null(cha_platform_for_cpu(6, 0x3F));   /* Haswell-EP: not covered */
	assert_null(cha_platform_for_cpu(6, 0));
	assert_null(cha_platform_for_cpu(0x17, 0x55));
	/* box/CTL bits: Linux SNBEP_PMON_BOX_CTL_FRZ, SNBEP_PMON_CTL_EN, GENERIC_PMON_BOX_CTL_FRZ */
	assert_int_equal(P("SKX")->box.box_frz, 0x100);
	assert_int_equal(P("SKX")->box.ctl_en, 0x400000);
	assert_int_equal(P("SPR")->box.box_frz, 0x1);
	assert_int_equal(P("SPR")->box.ctl_en, 0);
	assert_int_equal(P("SKX")->box.global_ctl, 0x700);
	assert_int_equal(P("SKX")->box.global_unfreeze, 1ull << 61);
}

static struct cha_encoding enc(const struct cha_platform *p, const char *s)
{
	struct cha_encoding e;
	char why[160];
	int rc = cha_encode(p, s, strlen(s), &e, why, sizeof(why));
	if (rc)
		fail_msg("%s: %s", s, why);
	return e;
}

static const struct cha_event *ev(const struct cha_platform *p, const char *name)
{
	const struct cha_event *e = cha_event_find(p, name, strlen(name));
	if (!e)
		fail_msg("%s has no %s", p->name, name);
	return e;
}

/* Intel Skylake-SP uncore performance monitoring reference manual (2017), CHA TOR_INSERTS and
 * opcode match tables: TOR_INSERTS 0x35, IO umask 0x34 and the seven FILTER1 opcodes. */
static void test_manual_skx_opcodes(void **state)
{
	(void)state;
	static const struct { const char *opc; uint16_t code; } manual[] = {
		{ "RDCUR", 0x21E }, { "DRD", 0x202 }, { "CRD", 0x201 }, { "ITOM", 0x248 },
		{ "RFO", 0x200 }, { "PRD", 0x207 }, { "WIL", 0x20F },
	};
	const struct cha_platform *p = P("SKX");
	assert_int_equal(ev(p, "TOR_INSERTS.IO")->event, 0x35);
	assert_int_equal(ev(p, "TOR_INSERTS.IO")->umask, 0x34);
	for (size_t i = 0; i < 7; i++) {
		char name[64];
		snprintf(name, sizeof(name), "TOR_INSERTS.%s_%s", i < 5 ? "IO" : "IA", manual[i].opc);
		const struct cha_event *e = ev(p, name);
		assert_int_equal(e->event, 0x35);
		assert_int_equal(e->opc, manual[i].code);
		if (i < 5)
			assert_int_equal(e->umask, 0x34);     /* manual: umask b00110100 */
		struct cha_encoding x = enc(p, (snprintf(name, sizeof(name), "cha/%s/", e->name), name));
		assert_int_equal((x.filter[1] >> 9) & 0x3FF, manual[i].code);   /* FILTER1 opc0 [18:9] */
		assert_true(x.uses & 2);
	}
}

/* Intel Ice Lake-SP uncore performance monitoring reference manual (2021), Table 2-132:
 * TOR_INSERTS umask b00000100 with these umask_ext codes, exactly. */
static void test_manual_icx_tor_table(void **state)
{
	(void)state;
	static const struct { const char *name; uint32_t ext; } manual[] = {
		{ "IO_MISS_PCIRDCUR", 0xC8F3FE }, { "IO_HIT_ITOMCACHENEAR", 0xCD43FD },
		{ "IO_MISS_ITOM", 0xCC43FE }, { "IO_HIT_PCIRDCUR", 0xC8F3FD }, { "IO_HIT_RFO", 0xC803FD },
		{ "IO_MISS_RFO", 0xC803FE }, { "IO_MISS_ITOMCACHENEAR", 0xCD43FE }, { "IO_HIT_ITOM", 0xCC43FD },
		{ "IO_PCIRDCUR", 0xC8F3FF }, { "IO", 0xC001FF }, { "IO_HIT", 0xC001FD }, { "IO_MISS", 0xC001FE },
	};
	const char *plats[] = { "ICX", "SPR", "EMR", "GNR" };
	for (int k = 0; k < 4; k++) {
		const struct cha_platform *p = P(plats[k]);
		for (size_t i = 0; i < sizeof(manual) / sizeof(manual[0]); i++) {
			char name[64];
			snprintf(name, sizeof(name), "TOR_INSERTS.%s", manual[i].name);
			const struct cha_event *e = ev(p, name);
			assert_int_equal(e->event, 0x35);
			assert_int_equal(e->umask, 0x04);
			assert_int_equal(e->umask_ext, manual[i].ext);
			snprintf(name, sizeof(name), "cha/TOR_INSERTS.%s/", manual[i].name);
			struct cha_encoding x = enc(p, name);
			assert_int_equal(x.ctl, 0x35 | 0x04 << 8 | (uint64_t)manual[i].ext << 32 | p->box.ctl_en);
		}
	}
}

/* Register values Intel publishes (perfmon JSON; PCM src/pcm-pcie.h). */
static void test_published_encodings(void **state)
{
	(void)state;
	const struct cha_platform *skx = P("SKX"), *icx = P("ICX"), *spr = P("SPR");
	struct cha_encoding e = enc(skx, "cha/TOR_INSERTS.IO_MISS_RDCUR/");
	assert_int_equal(e.ctl, 0x402435);                  /* PCM CTL incl. EN */
	assert_int_equal(e.filter[1], 0x43C33);             /* perfmon FILTER_VALUE 0x43C33 */
	e = enc(skx, "cha/TOR_INSERTS.IO_HIT_ITOM/");
	assert_int_equal(e.ctl, 0x401435);
	assert_int_equal(e.filter[1], 0x49033);
	e = enc(skx, "cha/TOR_INSERTS.IO_MISS_RFO/");
	assert_int_equal(e.filter[1], 0x40033);
	e = enc(skx, "cha/TOR_INSERTS.IA_MISS_PRD/");
	assert_int_equal(e.ctl, 0x402135);
	assert_int_equal(e.filter[1], 0x40040E33);          /* PCM PRd, nc */
	e = enc(skx, "cha/TOR_INSERTS.IA_HIT_WIL/");
	assert_int_equal(e.ctl, 0x401135);
	assert_int_equal(e.filter[1], 0x40041E33);
	e = enc(skx, "cha/TOR_INSERTS.IO/");
	assert_int_equal(e.filter[1], 0x3B);                /* no opcode: all_opc default */
	e = enc(skx, "cha/event=0x35,umask=0x34,filter_opc=0x21e/");
	assert_int_equal(e.ctl, 0x403435);
	assert_int_equal(e.filter[1], 0x43C33);
	/* ICX: EN set; SPR+: EN reserved (Intel SPR uncore guide, CTL bit 22 reserved; Linux
	 * spr_uncore_msr_enable_event writes the raw config) */
	e = enc(icx, "cha/event=0x35,umask=0x4,umask_ext=0xC8F3FE/");
	assert_int_equal(e.ctl, 0x00C8F3FE00400435ull);
	assert_int_equal(e.uses, 0);
	/* the README's cha_events examples name this event twice: raw above, by name here (perfmon
	 * icelakex_uncore.json UNC_CHA_TOR_INSERTS.IO_MISS_PCIRDCUR: UMask 0xc8f3fe04) */
	assert_int_equal(enc(icx, "cha/TOR_INSERTS.IO_MISS_PCIRDCUR/").ctl, 0x00C8F3FE00400435ull);
	assert_int_equal(enc(spr, "cha/TOR_INSERTS.IO_HIT_PCIRDCUR/").ctl, 0x00C8F3FD00000435ull);
	assert_int_equal(enc(spr, "cha/TOR_INSERTS.IA_MISS_WCILF/").ctl, 0x00C867FE00000135ull);
	/* perfmon ICX/events/icelakex_uncore.json (intel/perfmon), read directly:
	 * UNC_CHA_TOR_INSERTS.IO_ITOMCACHENEAR UMask 0x04 UMaskExt 0xCD43FF, IO_HIT_ 0xCD43FD,
	 * IO_MISS_ 0xCD43FE, UNC_CHA_TOR_INSERTS.IA UMask 0x01 UMaskExt 0xC001FF, IA_MISS 0xC001FE */
	assert_int_equal(enc(icx, "cha/TOR_INSERTS.IO_ITOMCACHENEAR/").ctl, 0x00CD43FF00400435ull);
	assert_int_equal(enc(icx, "cha/TOR_INSERTS.IO_HIT_ITOMCACHENEAR/").ctl, 0x00CD43FD00400435ull);
	assert_int_equal(enc(icx, "cha/TOR_INSERTS.IO_MISS_ITOMCACHENEAR/").ctl, 0x00CD43FE00400435ull);
	assert_int_equal(enc(icx, "cha/TOR_INSERTS.IA/").ctl, 0x00C001FF00400135ull);
	assert_int_equal(enc(icx, "cha/TOR_INSERTS.IA_MISS/").ctl, 0x00C001FE00400135ull);
	/* SKX LLC_LOOKUP needs FILTER0.STATE (perfmon "CHAFilter0[26:17]"): every state */
	e = enc(skx, "cha/LLC_LOOKUP.ANY/");
	assert_int_equal(e.ctl, 0x401134);
	assert_int_equal(e.filter[0], 0x3FFull << 17);
	assert_int_equal(e.uses, 1);
}

/* SPR, EMR and GNR umask_ext is CTL bits 63:32, all 32 bits (Linux uncore_snbep.c umask_ext5
 * config:32-63). The literal events are Intel's (perfmon SPR/EMR sapphirerapids/emeraldrapids
 * _uncore_experimental.json, GNR graniterapids_uncore*.json): event, umask, umask_ext as published,
 * CTL = event | umask << 8 | umask_ext << 32 (no EN on these parts). */
static void test_umask_ext_32_bits(void **state)
{
	(void)state;
	static const struct { const char *plat, *spec; uint64_t ctl; } lit[] = {
		{ "GNR", "cha/event=0x35,umask=0x01,umask_ext=0x10C81782/", 0x10C8178200000135ull },
		{ "GNR", "cha/TOR_INSERTS.IA_MISS_DRD_CXL_ACC/", 0x10C8178200000135ull },
		{ "SPR", "cha/TOR_INSERTS.IA_MISS_DRD_CXL_ACC/", 0x10C8178200000135ull },
		{ "SPR", "cha/event=0x35,umask=0x00,umask_ext=0x1000000/", 0x0100000000000035ull },
		{ "SPR", "cha/TOR_INSERTS.NONCOH/", 0x0100000000000035ull },
		{ "EMR", "cha/TOR_INSERTS.NONCOH/", 0x0100000000000035ull },
		{ "GNR", "cha/event=0x35,umask=0x20,umask_ext=0x78CC6FFE/", 0x78CC6FFE00002035ull },
		{ "GNR", "cha/TOR_INSERTS.CXL_MISS_MEMPUSHWR/", 0x78CC6FFE00002035ull },
		{ "SPR", "cha/event=0x35,umask_ext=0xffffffff/", 0xFFFFFFFF00000035ull },
	};
	for (size_t i = 0; i < sizeof(lit) / sizeof(lit[0]); i++) {
		struct cha_encoding e = enc(P(lit[i].plat), lit[i].spec);
		if (e.ctl != lit[i].ctl)
			fail_msg("%s %s: CTL 0x%llx, want 0x%llx", lit[i].plat, lit[i].spec, (unsigned long long)e.ctl,
				 (unsigned long long)lit[i].ctl);
	}
}

/* Every event of every platform encodes, and its perf-style string encodes the same. */
static void test_every_event_round_trips(void **state)
{
	(void)state;
	unsigned total = 0;
	for (size_t k = 0; k < cha_nplatforms; k++) {
		const struct cha_platform *p = &cha_platforms[k];
		for (const struct cha_event *e = p->events; e->name; e++) {
			char named[96], spec[128];
			snprintf(named, sizeof(named), "cha/%s/", e->name);
			cha_event_spec(p, e, spec, sizeof(spec));
			struct cha_encoding a = enc(p, named), b = enc(p, spec);
			assert_int_equal(a.ctl, b.ctl);
			assert_int_equal(a.uses, b.uses);
			for (int f = 0; f < 2; f++)
				if (a.uses & (1u << f))
					assert_int_equal(a.filter[f], b.filter[f]);
			assert_ptr_equal(a.named, e);
			assert_non_null(e->source);
			assert_int_equal(a.ctl & 0xFF, e->event);
			assert_true(e->event || e->kind == CHA_K_CLOCK);   /* event 0: the clock alone */
			total++;
		}
		for (uint8_t i = 0; i < p->ndefault; i++)
			ev(p, p->default_events[i]);
	}
	assert_true(total >= 100);
}

static void expect_error(const char *plat, const char *s, const char *words)
{
	struct cha_encoding e;
	char why[200] = "";
	assert_int_equal(cha_encode(P(plat), s, strlen(s), &e, why, sizeof(why)), -1);
	if (!strstr(why, words))
		fail_msg("%s on %s: \"%s\" lacks \"%s\"", s, plat, why, words);
}

static void test_errors_name_the_field(void **state)
{
	(void)state;
	expect_error("SKX", "cha/event=0x35,umask_ext=0x1/", "umask_ext: not a field of CHA on SKX (fields: event umask");
	expect_error("ICX", "cha/event=0x35,filter_opc=0x21e/", "filter_opc: not a field of CHA on ICX");
	expect_error("SKX", "cha/event=0x100/", "event=0x100: out of range 0..0xff");
	expect_error("ICX", "cha/event=0x35,umask_ext=0x4000000/", "umask_ext=0x4000000: out of range 0..0x3ffffff");
	expect_error("SPR", "cha/event=0x35,umask_ext=0x100000000/", "umask_ext=0x100000000: out of range 0..0xffffffff");
	expect_error("GNR", "cha/event=0x35,umask_ext=0x100000000/", "umask_ext=0x100000000: out of range 0..0xffffffff");
	expect_error("SKX", "cha/event=0x35,filter_opc=0x400/", "filter_opc=0x400: out of range 0..0x3ff");
	expect_error("SKX", "cha/event=0x35,event=0x36/", "event: given twice");
	expect_error("SKX", "cha/TOR_INSERTS.IO,umask=0x14,umask=0x24/", "umask: given twice");
	expect_error("ICX", "cha/event=0x35,umask_ext=0x4000000/", "on CHA on ICX");
	expect_error("SKX", "cha/umask=0x34/", "no event");
	expect_error("SKX", "cha/event=0x35,,umask=1/", "empty term");
	expect_error("SKX", "cha/event=zz/", "not a number");
	expect_error("SKX", "cha/event=0x/", "not a number");
	expect_error("SKX", "cha/event=99999999999999999999999/", "not a number");
	expect_error("SKX", "event=0x35", "not of the form cha/");
	expect_error("SKX", "cha/event=0x35", "missing the closing '/'");
	expect_error("SKX", "imc/event=0x35/", "imc: not a PMU of CHA on SKX (cha)");
	expect_error("ICX", "cha/TOR_INSERTS.IO_RDCUR/", "no such named event");
	expect_error("SKX", "cha/umask=1,TOR_INSERTS.IO/", "must be the first term");
	/* accepted forms */
	struct cha_encoding e;
	char why[100];
	const char *ok = "cha/event=53,umask=0x34,thresh=1,inv=1,edge=1/";
	assert_int_equal(cha_encode(P("SKX"), ok, strlen(ok), &e, why, sizeof(why)), 0);
	assert_int_equal(e.ctl, 0x35 | 0x34 << 8 | 1u << 18 | 1u << 22 | 1u << 23 | 1ull << 24);
	/* a field after a named event overrides it (perf): TOR_INSERTS.IO with the hit umask, the
	 * FILTER1 default kept */
	ok = "cha/TOR_INSERTS.IO,umask=0x14/";
	assert_int_equal(cha_encode(P("SKX"), ok, strlen(ok), &e, why, sizeof(why)), 0);
	assert_int_equal(e.ctl, 0x401435);
	assert_int_equal(e.filter[1], 0x3B);
	assert_non_null(e.named);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skx_addresses),
		cmocka_unit_test(test_icx_addresses),
		cmocka_unit_test(test_spr_addresses),
		cmocka_unit_test(test_models),
		cmocka_unit_test(test_manual_skx_opcodes),
		cmocka_unit_test(test_manual_icx_tor_table),
		cmocka_unit_test(test_published_encodings),
		cmocka_unit_test(test_umask_ext_32_bits),
		cmocka_unit_test(test_every_event_round_trips),
		cmocka_unit_test(test_errors_name_the_field),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
