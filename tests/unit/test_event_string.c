/* SPDX-License-Identifier: BSD-2-Clause */
/* pmu/event_string.c with grammars written here from the manuals' field layouts (not from
 * efiperf's tables): Intel IA32_PERFEVTSELx (SDM Vol.3B Figure 20-6: event [7:0], umask [15:8],
 * edge [18], AnyThread [21], inv [23], cmask [31:24]); AMD PERF_CTL (AMD APM Vol.2 13.2.1:
 * EventSelect [7:0] and [35:32], GuestOnly [40], HostOnly [41]); a two-register uncore control
 * with a 32-bit umask_ext at [63:32] (Linux arch/x86/events/intel/uncore_snbep.c, SPR CHA
 * format "umask_ext5" config:32-63). Expected register values are literals. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/event_string.h"

#define CAP_ANY 1u

static const struct ev_field intel_f[] = {
	{ "event", 0, 0, 8, 0, 0, 0, 0, NULL },
	{ "umask", 0, 8, 8, 0, 0, 0, 0, NULL },
	{ "edge", 0, 18, 1, 0, 0, 0, 0, NULL },
	{ "any", 0, 21, 1, 0, 0, 0, CAP_ANY, "AnyThread is deprecated on this CPU" },
	{ "inv", 0, 23, 1, 0, 0, 0, 0, NULL },
	{ "cmask", 0, 24, 8, 0, 0, 0, 0, NULL },
};
static const struct ev_field amd_f[] = {
	{ "event", 0, 0, 8, 32, 4, 0, 0, NULL },
	{ "umask", 0, 8, 8, 0, 0, 0, 0, NULL },
	{ "guest", 0, 40, 1, 0, 0, 0, 0, NULL },
	{ "host", 0, 41, 1, 0, 0, 0, 0, NULL },
};
static const struct ev_field unc_f[] = {
	{ "event", 0, 0, 8, 0, 0, 0, 0, NULL },
	{ "umask", 0, 8, 8, 0, 0, 0, 0, NULL },
	{ "umask_ext", 0, 32, 32, 0, 0, 0, 0, NULL },
	{ "filter_opc", 1, 9, 10, 0, 0, 0x3FFull << 9, 0, NULL },
};

/* Named events of the test grammar: one, with the literal fields libpfm4's icl table gives
 * UOPS_ISSUED.ANY (event 0x0E, umask 0x01). */
static const void *lookup(const struct ev_grammar *g, const char *name, size_t len, struct ev_terms *t,
			  char *err, size_t n)
{
	static const char uops[] = "UOPS_ISSUED.ANY";
	if (len != sizeof(uops) - 1 || memcmp(name, uops, len))
		return NULL;
	if (ev_set_named(g, t, "event", 0x0E, err, n) || ev_set_named(g, t, "umask", 0x01, err, n))
		return NULL;
	return uops;
}

static const struct ev_grammar intel = { { "cpu", "core", NULL }, intel_f, 6, 1, "Intel core", lookup, NULL, NULL };
static const struct ev_grammar amd = { { "core", "cpu", NULL }, amd_f, 4, 0, "AMD core", NULL, NULL, NULL };
static const struct ev_grammar unc = { { "cha", NULL, NULL }, unc_f, 4, 0, "CHA", NULL, NULL, NULL };

static int enc(const struct ev_grammar *g, const char *s, uint32_t caps, uint64_t regs[EV_MAX_REGS], char *err)
{
	struct ev_terms t;
	if (ev_parse(g, s, strlen(s), caps, &t, err, 160))
		return -1;
	ev_encode(g, &t, regs);
	return 0;
}

static void test_intel_fields(void **state)
{
	(void)state;
	uint64_t r[EV_MAX_REGS] = { 0 };
	char err[160];
	assert_int_equal(enc(&intel, "cpu/event=0xC0,umask=0x0,cmask=1,inv=1,edge=1/", 0, r, err), 0);
	assert_int_equal(r[0], 0x18400C0ull);
	memset(r, 0, sizeof(r));
	assert_int_equal(enc(&intel, "UOPS_ISSUED.ANY", 0, r, err), 0);
	assert_int_equal(r[0], 0x10Eull);
	memset(r, 0, sizeof(r));
	/* a named event with a field overriding and one adding */
	assert_int_equal(enc(&intel, "core/UOPS_ISSUED.ANY,umask=0x2,cmask=1/", 0, r, err), 0);
	assert_int_equal(r[0], 0x100020Eull);
}

static void test_amd_split_event(void **state)
{
	(void)state;
	uint64_t r[EV_MAX_REGS] = { 0 };
	char err[160];
	assert_int_equal(enc(&amd, "core/event=0x1CF,umask=0x1,host=1/", 0, r, err), 0);
	assert_int_equal(r[0], 0x201000001CFull);
	assert_int_equal(enc(&amd, "core/event=0x1000/", 0, r, err), -1);
	assert_string_equal(err, "event=0x1000: out of range 0..0xfff on AMD core");
	assert_int_equal(enc(&amd, "INST_RETIRED", 0, r, err), -1);   /* no bare names on this grammar */
}

static void test_uncore_two_registers(void **state)
{
	(void)state;
	uint64_t r[EV_MAX_REGS] = { 1ull << 22, 0x3FFull << 9 };  /* enable bit; filter default all-ones opc */
	char err[160];
	assert_int_equal(enc(&unc, "cha/event=0x35,umask=0x4,umask_ext=0xC8F3FE/", 0, r, err), 0);
	assert_int_equal(r[0], 0xC8F3FE00400435ull);
	assert_int_equal(r[1], 0x3FFull << 9);              /* filter not set: default kept */
	uint64_t q[EV_MAX_REGS] = { 0, 0x3FFull << 9 };
	/* 31-bit umask_ext as Intel's GNR perfmon file has it (TOR_INSERTS.IA_MISS_DRD_CXL_ACC) */
	assert_int_equal(enc(&unc, "cha/event=0x35,umask=0x1,umask_ext=0x78CC6FFE,filter_opc=0x21e/", 0, q, err), 0);
	assert_int_equal(q[0], 0x78CC6FFE00000135ull);
	assert_int_equal(q[1], 0x21Eull << 9);               /* clears the default, then the value */
}

static void test_errors_name_the_field(void **state)
{
	(void)state;
	uint64_t r[EV_MAX_REGS] = { 0 };
	char err[160];
	assert_int_equal(enc(&intel, "cpu/event=0xC0,any=1/", 0, r, err), -1);
	assert_string_equal(err, "any: AnyThread is deprecated on this CPU");
	assert_int_equal(enc(&intel, "cpu/event=0xC0,any=1/", CAP_ANY, r, err), 0);
	assert_int_equal(enc(&intel, "cpu/event=0xC0,umask=1,umask=2/", 0, r, err), -1);
	assert_string_equal(err, "umask: given twice");
	assert_int_equal(enc(&intel, "cpu/event=0xC0,cmask=256/", 0, r, err), -1);
	assert_string_equal(err, "cmask=0x100: out of range 0..0xff on Intel core");
	assert_int_equal(enc(&intel, "cpu/event=0xC0,frob=1/", 0, r, err), -1);
	assert_string_equal(err, "frob: not a field of Intel core (fields: event umask edge any inv cmask)");
	assert_int_equal(enc(&intel, "cpu/umask=1/", 0, r, err), -1);
	assert_string_equal(err, "no event: give event=0x.. or a named event");
	assert_int_equal(enc(&intel, "cpu/event=0xC0,UOPS_ISSUED.ANY/", 0, r, err), -1);
	assert_string_equal(err, "UOPS_ISSUED.ANY: a named event must be the first term, once");
	assert_int_equal(enc(&intel, "cpu/NOPE/", 0, r, err), -1);
	assert_string_equal(err, "NOPE: no such named event on Intel core, and not field=value");
	assert_int_equal(enc(&intel, "uncore/event=1/", 0, r, err), -1);
	assert_string_equal(err, "uncore: not a PMU of Intel core (cpu or core)");
	assert_int_equal(enc(&intel, "cpu/event=1", 0, r, err), -1);
	assert_string_equal(err, "\"cpu/event=1\": missing the closing '/'");
	assert_int_equal(enc(&intel, "cpu/event=1,,umask=1/", 0, r, err), -1);
	assert_string_equal(err, "empty term at byte 12");
	assert_int_equal(enc(&intel, "cpu/event=1,/", 0, r, err), -1);
	assert_int_equal(enc(&intel, "cpu/event=zz/", 0, r, err), -1);
	assert_string_equal(err, "event=zz: value is not a number (0x hex or decimal, 64 bits)");
	assert_int_equal(enc(&unc, "event=1", 0, r, err), -1);
	assert_string_equal(err, "\"event=1\": not of the form cha/TERM,.../");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intel_fields),
		cmocka_unit_test(test_amd_split_event),
		cmocka_unit_test(test_uncore_two_registers),
		cmocka_unit_test(test_errors_name_the_field),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
