/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A misspelt event name, in every grammar that takes names (core events Intel and AMD, CHA,
 * Intel IMC/IIO, AMD DF/L3/UMC, and uncore_events' plan check), is an error that names it and
 * lists the closest names the CPU's table knows (ev_closest_names, pmu/event_string.h). The
 * expected names are the tables' own spellings as Intel's perfmon and Linux's perf JSON give
 * them, written out here; the distance arithmetic is checked on hand-counted cases.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/event_string.h"
#include "pmu/core/x86_event.h"
#include "pmu/uncore/amd_uncore.h"
#include "pmu/uncore/intel_cha.h"
#include "pmu/uncore/intel_cha_regs.h"
#include "pmu/uncore/intel_uncore.h"
#include "pmu/uncore/uncore_names.h"

static const char *const words[] = { "CAS_COUNT.RD", "CAS_COUNT.WR", "CAS_COUNT.ALL", "CLOCKTICKS", "ACT_COUNT.RD", NULL };
static const char *word_at(const struct ev_grammar *g, size_t i)
{
	(void)g;
	return words[i];
}

static void test_closest_by_edit_distance(void **state)
{
	(void)state;
	struct ev_grammar g = { .what = "test", .name_at = word_at };
	char err[160] = "unknown";
	/* CAS_COUNT.RDD: 1 edit from CAS_COUNT.RD, 2 from CAS_COUNT.WR, 3 from CAS_COUNT.ALL */
	ev_closest_names(&g, "CAS_COUNT.RDD", 13, err, sizeof(err));
	assert_string_equal(err, "unknown (closest: CAS_COUNT.RD, CAS_COUNT.WR, CAS_COUNT.ALL)");
	/* case does not count as an edit */
	strcpy(err, "x");
	ev_closest_names(&g, "clockticks", 10, err, sizeof(err));
	assert_string_equal(err, "x (closest: CLOCKTICKS)");
	/* nothing within len / 2 + 2 edits: no list */
	strcpy(err, "x");
	ev_closest_names(&g, "ZZZZ", 4, err, sizeof(err));
	assert_string_equal(err, "x");
	/* a grammar without names adds nothing; a short buffer is cut, not overrun */
	struct ev_grammar none = { .what = "test" };
	ev_closest_names(&none, "CAS_COUNT.RDD", 13, err, sizeof(err));
	assert_string_equal(err, "x");
	char small[12] = "abc";
	ev_closest_names(&g, "CAS_COUNT.RDD", 13, small, sizeof(small));
	assert_int_equal(strlen(small), sizeof(small) - 1);
}

static void test_core_events(void **state)
{
	(void)state;
	struct x86_event_caps glc = { .vendor = X86_EV_INTEL, .gens = X86_GEN_ARCH | X86_GEN_GLC };
	struct x86_event ev;
	char err[256];
	assert_int_equal(x86_event_parse("INST_RETIRD.ANY_P", 17, &glc, &ev, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'INST_RETIRD.ANY_P'"));
	assert_non_null(strstr(err, "(closest: INST_RETIRED.ANY_P"));
	struct x86_event_caps zen5 = { .vendor = X86_EV_AMD, .gens = X86_GEN_ZEN5 };
	assert_int_equal(x86_event_parse("ex_ret_instrr", 13, &zen5, &ev, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "(closest: ex_ret_instr"));
}

static void test_uncore_grammars(void **state)
{
	(void)state;
	char err[256];
	uint64_t ctl;
	/* Intel IMC on ICX (icelakex_uncore.json UNC_M_CAS_COUNT.RD) */
	const struct intel_uncore_platform *icx = intel_uncore_platform_by_name("ICX");
	assert_int_equal(intel_uncore_encode(&icx->box[INTEL_BOX_IMC], "CAS_COUNT.RDD", 13, &ctl, NULL, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "(closest: CAS_COUNT.RD"));
	/* AMD L3 on Zen 5 (amdzen5/l3-cache.json) */
	const struct amd_uncore_family *z5 = amd_uncore_family_by_name("Zen5");
	const char *s = "amd_l3/l3_lookup_state.l3_mis/";
	assert_int_equal(amd_uncore_encode(&z5->box[AMD_BOX_L3], s, strlen(s), &ctl, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "(closest: l3_lookup_state.l3_miss"));
	/* CHA on ICX (icelakex_uncore.json UNC_CHA_TOR_INSERTS.IO_HIT) */
	const struct cha_platform *cha = cha_platform_by_name("ICX");
	struct cha_encoding enc;
	s = "cha/TOR_INSERTS.IO_HITT/";
	assert_int_equal(cha_encode(cha, s, strlen(s), &enc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "(closest: TOR_INSERTS.IO_HIT"));
	strcpy(err, "no such");
	cha_closest_names(cha, "LLC_LOOKUP.MISS_AL", 18, err, sizeof(err));
	assert_non_null(strstr(err, "(closest: LLC_LOOKUP.MISS_ALL"));
}

static void test_uncore_events_plan_check(void **state)
{
	(void)state;
	char why[200];
	/* ICX (6/0x6A): a misspelt IMC name fails, naming it and the closest names */
	assert_int_equal(uncore_names_check("GenuineIntel", 6, 0x6A, "CAS_COUNT.RD; CAS_COUNT.RDD", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "'CAS_COUNT.RDD': no uncore event of ICX by that name (closest: CAS_COUNT.RD"));
	/* correct names, names with their perfmon prefix, and PMU/terms pass */
	assert_int_equal(uncore_names_check("GenuineIntel", 6, 0x6A, "CAS_COUNT.RD;UNC_M_CAS_COUNT.WR;uncore_iio/event=0x83/",
					    why, sizeof(why)), 0);
	/* Zen 6: its L3 and UMC names; a DF name of Zen 5 is none of Zen 6's */
	assert_int_equal(uncore_names_check("AuthenticAMD", 0x1A, 0x50, "umc_cas_cmd.rd;l3_lookup_state.l3_hit", why,
					    sizeof(why)), 0);
	assert_int_equal(uncore_names_check("AuthenticAMD", 0x1A, 0x50, "local_or_remote_socket_read_data_beats_dram_0", why,
					    sizeof(why)), -1);
	assert_non_null(strstr(why, "no uncore event of Zen6"));
	/* a CPU without such tables (NVIDIA, APMT PMUs) is not checked here */
	assert_int_equal(uncore_names_check("ARM", 8, 0, "nvidia_nvlink_c2c0_pmu/cycles/;whatever", why, sizeof(why)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closest_by_edit_distance),
		cmocka_unit_test(test_core_events),
		cmocka_unit_test(test_uncore_grammars),
		cmocka_unit_test(test_uncore_events_plan_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
