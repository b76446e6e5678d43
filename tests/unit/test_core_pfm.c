/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outside oracle: libpfm4 (Debian libpfm4-dev 4.13, linked -lpfm through LIBS_test_core_pfm in
 * tests/unit.mk). Every named Intel and AMD core event of pmu/events/intel_core_events.c and
 * pmu/events/amd_core_events.c is encoded by libpfm4 for every libpfm4 PMU model of each
 * generation it is valid on (pfm_get_os_event_encoding, PFM_OS_NONE: no host PMU needed) and
 * must give the same register value as efiperf's encoder (x86_event_parse) plus USR|OS|EN.
 * libpfm4 also sets INT (bit 20, APIC interrupt on overflow), which efiperf never sets because
 * it polls: that one bit is masked out. The per-event features (cmask, inv, edge, AnyThread,
 * host, guest) are compared the same way against libpfm4's modifiers (:c= :i= :e= :t= :h= :g=).
 *
 * libpfm4 4.13 has no Alder Lake Golden Cove (adl_glc), Emerald/Granite Rapids or Zen 5 table:
 * those models are checked against Intel's perfmon files (test_core_perfmon.c), and Zen 5's rows
 * (X86_GEN_ZEN5) against Linux amdzen5 JSON (test_core_linux_zen5.c). An event libpfm4 does
 * not know on one of its PMUs is listed and must carry a `cite` of its own.
 *
 * Which AMD generation serves which model is checked model by model
 * (test_amd_generation_per_model): Linux perf's mapfile.csv (tests/unit/linux_mapfile.h) names
 * each family 17h/19h/1Ah model's directory; that directory's libpfm4 PMU must be one the
 * generation efiperf gives the model is compared against here (amdzen5, which libpfm4 lacks: the
 * generation must be X86_GEN_ZEN5, compared with Linux's JSON in test_core_linux_zen5.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <perfmon/pfmlib.h>

#include "pmu/core/x86_event.h"
#include "pmu/core/x86_corepmu.h"
#include "arch/regs/x86_msr.h"
#include "tests/unit/linux_mapfile.h"

#define MAX_PMUS 8
/* libpfm4 PMU models per generation (lib/pfmlib_intel_*.c, lib/pfmlib_amd64_*.c model lists). */
static const struct { uint16_t gen; const char *pmus[MAX_PMUS]; } gen_pmus[] = {
	/* not snb: see test_snb_all_branches_disagreement */
	{ X86_GEN_ARCH, { "hsw", "skl", "icl", "spr", NULL } },
	{ X86_GEN_SNB, { "snb", "snb_ep", "ivb", "ivb_ep", "hsw", "hsw_ep", "bdw", "bdw_ep" } },
	{ X86_GEN_SKL, { "skl", "skx", "clx", NULL } },
	{ X86_GEN_ICL, { "icl", "icx", NULL } },
	{ X86_GEN_GLC, { "spr", NULL } },
	{ X86_GEN_ZEN1, { "amd64_fam17h_zen1", NULL } },
	{ X86_GEN_ZEN, { "amd64_fam17h_zen2", "amd64_fam19h_zen3", "amd64_fam19h_zen4", NULL } },
	{ X86_GEN_ZEN4, { "amd64_fam19h_zen4", NULL } },   /* Zen 4 and 5 only rows: Zen 4's libpfm4 PMU */
};

static int compared, failures, not_in_oracle;

static int pfm_encode(const char *pmu, const char *ev, uint64_t *code)
{
	char s[256];
	snprintf(s, sizeof(s), "%s::%s", pmu, ev);
	pfm_pmu_encode_arg_t a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	int r = pfm_get_os_event_encoding(s, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &a);
	if (r != PFM_SUCCESS)
		return r;
	*code = a.codes[0];
	free(a.codes);
	return a.count == 1 ? PFM_SUCCESS : PFM_ERR_INVAL;
}

static int setup(void **state)
{
	(void)state;
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);  /* encode for PMUs this host does not have */
	return pfm_initialize() == PFM_SUCCESS && linux_mapfile_load() ? 0 : -1;
}

/* efiperf's value for `text` on a CPU of gens, as programmed (fields | USR | OS | EN). */
static uint64_t ours(uint8_t vendor, uint16_t gens, const char *text)
{
	struct x86_event_caps caps = { .vendor = vendor, .gens = (uint16_t)(gens | (vendor == X86_EV_INTEL ? X86_GEN_ARCH : 0)),
				       .any_ok = 1 };
	struct x86_event ev;
	char err[160];
	if (x86_event_parse(text, strlen(text), &caps, &ev, err, sizeof(err))) {
		print_error("efiperf rejects %s: %s\n", text, err);
		fail();
	}
	return ev.config | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN;
}

static void compare(const char *pmu, const char *pfm_ev, uint64_t mine, const char *what)
{
	uint64_t code = 0;
	int r = pfm_encode(pmu, pfm_ev, &code);
	if (r != PFM_SUCCESS) {
		print_error("libpfm4 %s::%s: %s (%s)\n", pmu, pfm_ev, pfm_strerror(r), what);
		failures++;
		return;
	}
	compared++;
	if ((code & ~EVTSEL_INT) != mine) {
		print_error("%s on %s: efiperf 0x%llx, libpfm4 %s 0x%llx\n", what, pmu, (unsigned long long)mine,
			    pfm_ev, (unsigned long long)(code & ~EVTSEL_INT));
		failures++;
	}
}

static void table(uint8_t vendor, const struct x86_named_event *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int pmus = 0;
		for (unsigned g = 0; g < sizeof(gen_pmus) / sizeof(gen_pmus[0]); g++) {
			if (!(t[i].gens & gen_pmus[g].gen))
				continue;
			for (int p = 0; p < MAX_PMUS && gen_pmus[g].pmus[p]; p++) {
				const char *pmu = gen_pmus[g].pmus[p];
				uint64_t dummy;
				const char *pfm = t[i].pfm;
				if (t[i].pfm_alt && pfm_encode(pmu, pfm, &dummy) != PFM_SUCCESS)
					pfm = t[i].pfm_alt;
				int r = pfm_encode(pmu, pfm, &dummy);
				if (r == PFM_ERR_NOTFOUND || r == PFM_ERR_ATTR) {
					printf("libpfm4 %s has no %s (%s): cited as %s\n", pmu, pfm, t[i].name,
					       t[i].cite ? t[i].cite : "NOTHING");
					not_in_oracle++;
					if (!t[i].cite)
						failures++;
					continue;
				}
				compare(pmu, pfm, ours(vendor, gen_pmus[g].gen, t[i].name), t[i].name);
				pmus++;
			}
		}
		if (!pmus && t[i].gens == X86_GEN_ZEN5) {
			/* Zen 5 alone: libpfm4 4.13 has no Family 1Ah table; test_core_linux_zen5 compares
			 * the row with Linux amdzen5 JSON */
			printf("%s: Zen 5 only, compared with Linux amdzen5 in test_core_linux_zen5\n", t[i].name);
		} else if (!pmus && !(t[i].gens & ~(X86_GEN_CMT | X86_GEN_DKT))) {
			/* Crestmont / Darkmont alone: libpfm4 4.13 has no table; test_core_perfmon compares
			 * the row with Intel's SRF / CWF core file */
			printf("%s: E-core server only, compared with Intel perfmon in test_core_perfmon\n", t[i].name);
		} else if (!pmus) {
			print_error("%s: no libpfm4 PMU model for its generations 0x%x\n", t[i].name, t[i].gens);
			failures++;
		}
	}
}

static void test_named_events_equal_libpfm4(void **state)
{
	(void)state;
	compared = failures = 0;
	table(X86_EV_INTEL, intel_core_events, intel_core_nevents);
	int intel = compared;
	table(X86_EV_AMD, amd_core_events, amd_core_nevents);
	printf("libpfm4 oracle: %d encodings compared (%d Intel over %u named events, %d AMD over %u), %d not in libpfm4, %d failures\n",
	       compared, intel, intel_core_nevents, compared - intel, amd_core_nevents, not_in_oracle, failures);
	assert_int_equal(failures, 0);
	assert_true(compared >= (int)(intel_core_nevents + amd_core_nevents));
	/* every PMU model listed exists in this libpfm4 (a missing one would skip silently) */
	for (unsigned g = 0; g < sizeof(gen_pmus) / sizeof(gen_pmus[0]); g++)
		for (int p = 0; p < MAX_PMUS && gen_pmus[g].pmus[p]; p++) {
			char s[64];
			snprintf(s, sizeof(s), "%s::%s", gen_pmus[g].pmus[p],
				 gen_pmus[g].gen & (X86_GEN_ZEN | X86_GEN_ZEN1 | X86_GEN_ZEN4) ? "RETIRED_INSTRUCTIONS" : "INST_RETIRED:ANY_P");
			assert_int_equal(pfm_find_event(s) >= 0, 1);
		}
}

/* Raw field syntax and every per-event feature, against libpfm4's modifiers. */
static const struct { uint8_t vendor, gen; const char *pmu, *mine, *pfm; } feature_cases[] = {
	{ X86_EV_INTEL, X86_GEN_SKL, "skl", "cpu/event=0x0E,umask=0x01,cmask=1,inv=1,edge=1/", "UOPS_ISSUED:ANY:c=1:i=1:e=1" },
	{ X86_EV_INTEL, X86_GEN_SKL, "skl", "cpu/UOPS_ISSUED.ANY,cmask=255/", "UOPS_ISSUED:ANY:c=255" },
	{ X86_EV_INTEL, X86_GEN_SKL, "skl", "cpu/event=0x0E,umask=0x01,any=1/", "UOPS_ISSUED:ANY:t=1" },
	{ X86_EV_INTEL, X86_GEN_SKL, "skl", "cpu/INST_RETIRED.ANY_P,inv=1,cmask=3/", "INST_RETIRED:ANY_P:i=1:c=3" },
	{ X86_EV_INTEL, X86_GEN_ICL, "icl", "cpu/event=0xC0,umask=0x0,cmask=1,inv=1,edge=1/", "INST_RETIRED:ANY_P:c=1:i=1:e=1" },
	{ X86_EV_INTEL, X86_GEN_ICL, "icl", "cpu/event=0x0d,umask=0x01,cmask=1,edge=1/", "INT_MISC:CLEARS_COUNT" },
	{ X86_EV_INTEL, X86_GEN_GLC, "spr", "cpu/UOPS_ISSUED.ANY,cmask=1,inv=1/", "UOPS_ISSUED:ANY:c=1:i=1" },
	{ X86_EV_INTEL, X86_GEN_GLC, "spr", "cpu/INT_MISC.RECOVERY_CYCLES,edge=1,cmask=1/", "INT_MISC:RECOVERY_CYCLES:e=1:c=1" },
	{ X86_EV_AMD, X86_GEN_ZEN1, "amd64_fam17h_zen1", "core/ls_dispatch.ld_dispatch,cmask=2,host=1/", "LS_DISPATCH:LD_DISPATCH:c=2:h=1:u=1:k=1" },
	{ X86_EV_AMD, X86_GEN_ZEN, "amd64_fam19h_zen4", "core/event=0x1D0,edge=1,guest=1/", "RETIRED_FUSED_INSTRUCTIONS:e=1:g=1:u=1:k=1" },
	{ X86_EV_AMD, X86_GEN_ZEN, "amd64_fam19h_zen3", "core/event=0xC0,umask=0x0,cmask=1,inv=1,edge=1,host=1/", "RETIRED_INSTRUCTIONS:c=1:i=1:e=1:h=1:u=1:k=1" },
	{ X86_EV_AMD, X86_GEN_ZEN, "amd64_fam19h_zen3", "core/event=0xC0,guest=1/", "RETIRED_INSTRUCTIONS:g=1:u=1:k=1" },
	{ X86_EV_AMD, X86_GEN_ZEN, "amd64_fam19h_zen3", "core/event=0x1CF,umask=0x1,cmask=255/", "TAGGED_IBS_OPS:IBS_TAGGED_OPS:c=255" },
	{ X86_EV_AMD, X86_GEN_ZEN, "amd64_fam17h_zen2", "cpu/ex_ret_fused_instr,edge=1,cmask=2/", "RETIRED_FUSED_INSTRUCTIONS:e=1:c=2" },
	{ X86_EV_AMD, X86_GEN_ZEN, "amd64_fam17h_zen2", "core/event=0x1D0,inv=1,cmask=4,host=1,guest=1/", "RETIRED_FUSED_INSTRUCTIONS:i=1:c=4:h=1:g=1:u=1:k=1" },
};

static void test_event_features_equal_libpfm4(void **state)
{
	(void)state;
	compared = failures = 0;
	for (unsigned i = 0; i < sizeof(feature_cases) / sizeof(feature_cases[0]); i++)
		compare(feature_cases[i].pmu, feature_cases[i].pfm,
			ours(feature_cases[i].vendor, feature_cases[i].gen, feature_cases[i].mine), feature_cases[i].mine);
	printf("libpfm4 oracle: %d per-event feature encodings compared, %d mismatches\n", compared, failures);
	assert_int_equal(failures, 0);
	assert_int_equal(compared, (int)(sizeof(feature_cases) / sizeof(feature_cases[0])));
}

/* libpfm4 refuses what the hardware field cannot hold; efiperf refuses it naming the field. */
static void test_out_of_range_rejected_by_both(void **state)
{
	(void)state;
	uint64_t code;
	assert_int_not_equal(pfm_encode("amd64_fam19h_zen3", "RETIRED_INSTRUCTIONS:c=256", &code), PFM_SUCCESS);
	struct x86_event_caps caps = { .vendor = X86_EV_AMD, .gens = X86_GEN_ZEN };
	struct x86_event ev;
	char err[160];
	const char *s = "core/event=0xC0,cmask=256/";
	assert_int_equal(x86_event_parse(s, strlen(s), &caps, &ev, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cmask"));
	assert_int_not_equal(pfm_encode("icl", "UOPS_ISSUED:ANY:t=1", &code), PFM_SUCCESS);
	struct x86_event_caps icl = { .vendor = X86_EV_INTEL, .gens = X86_GEN_ICL, .any_ok = 0 };
	s = "cpu/UOPS_ISSUED.ANY,any=1/";
	assert_int_equal(x86_event_parse(s, strlen(s), &icl, &ev, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "any"));
}

/* The one place the oracles disagree: libpfm4's snb table encodes BR_INST_RETIRED:ALL_BRANCHES
 * and BR_MISP_RETIRED:ALL_BRANCHES with umask 0x04 (Sandy Bridge's PEBS-capable flavour), where
 * the SDM's architectural-event table and Intel's sandybridge_core.json v19 give umask 0x00.
 * efiperf programs the architectural encoding (checked against the perfmon file in
 * test_core_perfmon.c); this pins the disagreement so a libpfm4 change is noticed. */
static void test_snb_all_branches_disagreement(void **state)
{
	(void)state;
	uint64_t code = 0;
	assert_int_equal(pfm_encode("snb", "BR_INST_RETIRED:ALL_BRANCHES", &code), PFM_SUCCESS);
	assert_int_equal(code & 0xFFFF, 0x04C4);
	assert_int_equal(ours(X86_EV_INTEL, X86_GEN_SNB, "BR_INST_RETIRED.ALL_BRANCHES") & 0xFFFF, 0x00C4);
}

/* Linux perf's AMD directories and libpfm4's PMU of the same generation (libpfm4
 * lib/pfmlib_amd64.c amd64_get_revision: Family 17h models 30h+ zen2; Family 19h 00h-0Fh and
 * 20h-5Fh zen3, the others zen4). amdzen5: no libpfm4 table; its generation's rows are compared
 * with the Linux JSON itself (json_gen, test_core_linux_zen5.c). */
static const struct { const char *dir, *pmu; uint16_t json_gen; } dir_pmu[] = {
	{ "amdzen1", "amd64_fam17h_zen1", 0 }, { "amdzen2", "amd64_fam17h_zen2", 0 },
	{ "amdzen3", "amd64_fam19h_zen3", 0 }, { "amdzen4", "amd64_fam19h_zen4", 0 },
	{ "amdzen5", NULL, X86_GEN_ZEN5 },
};

static int gen_has_pmu(uint16_t gens, const char *pmu)
{
	for (unsigned g = 0; g < sizeof(gen_pmus) / sizeof(gen_pmus[0]); g++)
		for (int p = 0; (gens & gen_pmus[g].gen) && p < MAX_PMUS && gen_pmus[g].pmus[p]; p++)
			if (!strcmp(gen_pmus[g].pmus[p], pmu))
				return 1;
	return 0;
}

/* Every AMD model efiperf gives named events: the generation's rows were compared with the
 * libpfm4 PMU of the directory Linux serves that model with, or (amdzen5) the generation is the
 * one compared with that directory's JSON. A model of no directory gets none. */
static void test_amd_generation_per_model(void **state)
{
	(void)state;
	static const unsigned fams[] = { 0x17, 0x19, 0x1A, 0x1B };
	int bad = 0, served = 0;
	for (size_t f = 0; f < sizeof(fams) / sizeof(fams[0]); f++)
		for (unsigned m = 0; m <= 0xFF; m++) {
			uint16_t gens = corepmu_x86_gens("AuthenticAMD", fams[f], m);
			const char *dir = linux_agreed_dir(fams[f], m), *pmu = NULL;
			uint16_t json_gen = 0;
			for (unsigned k = 0; dir && k < sizeof(dir_pmu) / sizeof(dir_pmu[0]); k++)
				if (!strcmp(dir_pmu[k].dir, dir)) {
					pmu = dir_pmu[k].pmu;
					json_gen = dir_pmu[k].json_gen;
				}
			int ok = pmu ? gen_has_pmu(gens, pmu) : gens == json_gen;
			if (!ok && bad++ < 8)
				printf("AuthenticAMD family 0x%x model 0x%02x: efiperf generations 0x%x, perf mapfile.csv %s, "
				       "libpfm4 %s\n", fams[f], m, gens, dir ? dir : "none", pmu ? pmu : "none");
			served += gens != 0;
		}
	printf("libpfm4/mapfile: %d AMD family/models get named events, each compared with its own libpfm4 PMU "
	       "(1Ah: Linux amdzen5 JSON)\n", served);
	assert_int_equal(bad, 0);
	assert_int_equal(served, 0x100 + 0x100 + 0x60);   /* all of 17h and 19h, 1Ah's Zen 5 models */
	/* Zen 6 (amdzen6 to both Linux sources) has no compared table: no named events */
	assert_string_equal(linux_agreed_dir(26, 0x50), "amdzen6");
	assert_int_equal(corepmu_x86_gens("AuthenticAMD", 0x1A, 0x50), 0);
	/* the check can fail: Zen 1's table on a Zen 2 part, Zen 3's PMU for a Genoa */
	assert_false(gen_has_pmu(X86_GEN_ZEN1, "amd64_fam17h_zen2"));
	assert_string_equal(linux_mapfile_dir(25, 0x11), "amdzen4");
	assert_int_equal(corepmu_x86_gens("AuthenticAMD", 0x17, 0x31), X86_GEN_ZEN);
	assert_int_equal(corepmu_x86_gens("AuthenticAMD", 0x17, 0x01), X86_GEN_ZEN1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named_events_equal_libpfm4),
		cmocka_unit_test(test_amd_generation_per_model),
		cmocka_unit_test(test_event_features_equal_libpfm4),
		cmocka_unit_test(test_out_of_range_rejected_by_both),
		cmocka_unit_test(test_snb_all_branches_disagreement),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
