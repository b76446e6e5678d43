/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outside oracle for AMD Zen 5 (Family 1Ah) named core events: Linux perf's
 * tools/perf/pmu-events/arch/x86/amdzen5/execution.json, load-store.json and decode.json, as
 * tests/oracle/linux-perf/amd_core_named.txt holds them (EventName, EventCode, UMask; provenance
 * in that folder's README.md). libpfm4 4.13 has no Family 1Ah table, so test_core_pfm.c cannot
 * check these rows.
 *
 * Every name efiperf offers on Zen (each amd_core_events row of X86_GEN_ZEN or X86_GEN_ZEN5):
 *   - the JSON has it: on Zen 5 it must encode to the JSON's EventCode (bits [7:0] -> PERF_CTL
 *     [7:0], bits [11:8] -> PERF_CTL[35:32]) and UMask (-> PERF_CTL[15:8]): AMD APM Vol.2
 *     section 13.2.1 "PerfEvtSeln", the layout written out here, not efiperf's macros;
 *   - the JSON lacks it: core_events must refuse it on Zen 5 naming the event and the CPU.
 * Served models (test_zen5_per_model): Linux's mapfile.csv regular expressions
 * (tests/unit/linux_mapfile.h) say which family/models are amdzen5; each of them, probed from a
 * register model whose CPUID signature is that family/model, must get the Zen 5 rows and the
 * JSON's encodings through corepmu_configure; no other AMD model may get X86_GEN_ZEN5.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/core/x86_event.h"
#include "pmu/core/x86_corepmu.h"
#include "tests/model/hw_model.h"
#include "tests/unit/linux_mapfile.h"
#include "tests/unit/oracle_file.h"
#include "tests/unit/amd_perfctl.h"

#define MAX_ROWS 64

static struct { char name[96]; unsigned code; int umask; } js[MAX_ROWS];   /* umask -1: none */
static int njs;

static int load_named(void)
{
	FILE *f = oracle_open("linux-perf/amd_core_named.txt");
	if (!f)
		return 0;
	char line[256], dir[32], file[64], name[96], code[16], umask[16];
	njs = 0;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && sscanf(line, "%31s %63s %95s %15s %15s", dir, file, name, code, umask) == 5 &&
		    !strcmp(dir, "amdzen5") && njs < MAX_ROWS) {
			snprintf(js[njs].name, sizeof(js[0].name), "%s", name);
			js[njs].code = (unsigned)strtoul(code, NULL, 16);
			js[njs].umask = strcmp(umask, "-") ? (int)strtol(umask, NULL, 16) : -1;
			njs++;
		}
	fclose(f);
	return njs;
}

static int setup(void **state)
{
	(void)state;
	return load_named() > 0 && linux_mapfile_load() > 0 ? 0 : -1;
}

static int json_row(const char *name)
{
	for (int i = 0; i < njs; i++)
		if (!strcmp(js[i].name, name))
			return i;
	return -1;
}

/* PERF_CTL field bits from the JSON row (tests/unit/amd_perfctl.h). */
static uint64_t json_config(int i)
{
	return amd_perfctl_fields(js[i].code, (uint64_t)(js[i].umask < 0 ? 0 : js[i].umask));
}

/* The names efiperf offers on Zen 2 .. Zen 5 (row index), in table order, each once. */
static int zen_name(unsigned i)
{
	if (!(amd_core_events[i].gens & (X86_GEN_ZEN | X86_GEN_ZEN5)))
		return 0;
	for (unsigned k = 0; k < i; k++)
		if (!strcmp(amd_core_events[k].name, amd_core_events[i].name))
			return 0;
	return 1;
}

static int zen_names(void)
{
	int n = 0;
	for (unsigned i = 0; i < amd_core_nevents; i++)
		n += zen_name(i);
	return n;
}

static int present, absent, failures;

/* One name on a CPU of caps: the JSON encoding, or a refusal naming the event and the CPU. */
static void check_name(const struct x86_event_caps *caps, const char *name, const char *cpu)
{
	struct x86_event ev;
	char err[192] = "";
	int r = x86_event_parse(name, strlen(name), caps, &ev, err, sizeof(err));
	int j = json_row(name);
	if (j >= 0) {
		present++;
		if (r || ev.config != json_config(j)) {
			printf("%s on %s: efiperf %s 0x%llx, Linux amdzen5 0x%llx\n", name, cpu, r ? err : "",
			       (unsigned long long)(r ? 0 : ev.config), (unsigned long long)json_config(j));
			failures++;
		}
	} else {
		absent++;
		if (!r || !strstr(err, name) || !strstr(err, "Family 1Ah")) {
			printf("%s on %s: Linux amdzen5 lacks it, efiperf %s '%s'\n", name, cpu, r ? "refuses with" : "accepts",
			       err);
			failures++;
		}
	}
}

static void test_zen5_rows_equal_linux(void **state)
{
	(void)state;
	present = absent = failures = 0;
	struct x86_event_caps caps = { .vendor = X86_EV_AMD, .gens = X86_GEN_ZEN5 };
	for (unsigned i = 0; i < amd_core_nevents; i++)
		if (zen_name(i))
			check_name(&caps, amd_core_events[i].name, "Zen 5");
	printf("Linux amdzen5 oracle: %d Zen names encoded as the JSON gives them, %d refused (not in the JSON), "
	       "%d failures\n", present, absent, failures);
	assert_int_equal(failures, 0);
	assert_true(present > 0);
	assert_int_equal(present + absent, zen_names());   /* every name checked, none skipped */
}

/* A CPUID signature for AMD family/model (AMD APM Vol.3, CPUID Fn0000_0001_EAX: BaseFamily 0Fh +
 * ExtFamily [27:20], ExtModel [19:16], BaseModel [7:4]). */
static uint32_t amd_signature(unsigned family, unsigned model)
{
	return ((uint32_t)(family - 0xF) << 20) | ((uint32_t)(model >> 4) << 16) | (0xFu << 8) | ((model & 0xF) << 4);
}

static void probe_model(struct hw_model *m, struct hw *h, struct corepmu *cp, unsigned family, unsigned model)
{
	hw_model_init(m);
	*h = hw_model_hw(m);
	hw_model_cpuid(m, 0, 0, 0x10, 0x68747541, 0x444d4163, 0x69746e65);   /* AuthenticAMD */
	hw_model_cpuid(m, 1, 0, amd_signature(family, model), 0, 0, 0);
	assert_int_equal(corepmu_probe(h, cp), 0);
	assert_int_equal(cp->family, family);
	assert_int_equal(cp->model, model);
}

static void test_zen5_per_model(void **state)
{
	(void)state;
	static const unsigned fams[] = { 0x17, 0x19, 0x1A, 0x1B };
	static struct hw_model m;
	static struct corepmu cp;
	struct hw h;
	int served = 0, bad = 0;
	present = absent = failures = 0;
	for (size_t f = 0; f < sizeof(fams) / sizeof(fams[0]); f++)
		for (unsigned mod = 0; mod <= 0xFF; mod++) {
			const char *dir = linux_mapfile_dir(fams[f], mod);
			int zen5 = dir && !strcmp(dir, "amdzen5");
			uint16_t gens = corepmu_x86_gens("AuthenticAMD", fams[f], mod);
			if (zen5 != !!(gens & X86_GEN_ZEN5)) {
				if (bad++ < 8)
					printf("AuthenticAMD family 0x%x model 0x%02x: perf mapfile.csv %s, efiperf generations 0x%x\n",
					       fams[f], mod, dir ? dir : "none", gens);
				continue;
			}
			if (!zen5)
				continue;
			served++;
			probe_model(&m, &h, &cp, fams[f], mod);
			char cpu[48];
			snprintf(cpu, sizeof(cpu), "family 0x%x model 0x%02x", fams[f], mod);
			for (unsigned i = 0; i < amd_core_nevents; i++)
				if (zen_name(i))
					check_name(&cp.caps, amd_core_events[i].name, cpu);
		}
	printf("Linux amdzen5 oracle: %d family/models served by amdzen5, each probed: %d encodings compared, "
	       "%d refusals, %d failures\n", served, present, absent, failures);
	assert_int_equal(bad, 0);
	assert_int_equal(failures, 0);
	/* the mapfile serves the build machine's Zen 5 (Family 1Ah model 02h); nothing else is amdzen5 */
	assert_string_equal(linux_mapfile_dir(26, 0x02), "amdzen5");
	assert_true(served >= 1);
	assert_int_equal(present + absent, served * zen_names());   /* every name on every served model */
}

/* The refusal of an event of another generation names the event and the CPU. */
static void test_refusal_names_event_and_cpu(void **state)
{
	(void)state;
	struct x86_event_caps zen1 = { .vendor = X86_EV_AMD, .gens = X86_GEN_ZEN1 };
	struct x86_event_caps zen5 = { .vendor = X86_EV_AMD, .gens = X86_GEN_ZEN5 };
	struct x86_event ev;
	char err[288];
	const char *s = "ex_ret_fused_instr";   /* Zen 2+: Linux amdzen1/core.json lacks it */
	assert_int_equal(x86_event_parse(s, strlen(s), &zen1, &ev, err, sizeof(err)), -1);
	/* the whole text, as README.md's "Event strings, tables and their oracles" quotes it */
	assert_string_equal(err, "unknown event 'ex_ret_fused_instr' for this CPU, AMD Zen/Zen+ (Family 17h 00h-2Fh, "
				 "Hygon 18h): not an event of its generation (or cpu/event=..../) (closest: ex_ret_instr, "
				 "ex_ret_brn_misp, ex_ret_ops)");   /* edit distances 6, 9, 10 (first of the 10s) */
	s = "ex_no_such_event";
	assert_int_equal(x86_event_parse(s, strlen(s), &zen5, &ev, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'ex_no_such_event'"));
	assert_non_null(strstr(err, "AMD Zen 5 (Family 1Ah, amdzen5 models)"));
	/* through the configure path: the core_events error keeps the whole text */
	static struct hw_model m;
	static struct corepmu cp;
	struct hw h;
	probe_model(&m, &h, &cp, 0x1A, 0x02);
	struct corepmu_config cfg = { .core_events = "ex_ret_instr ex_no_such_event" };
	char cerr[224];
	assert_int_equal(corepmu_configure(&cp, &cfg, cerr, sizeof(cerr)), -1);
	assert_non_null(strstr(cerr, "event 2: unknown event 'ex_no_such_event' for this CPU, AMD Zen 5 (Family 1Ah, amdzen5 models)"));
	assert_non_null(strstr(cerr, "(or cpu/event=..../)"));   /* the end: not truncated */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zen5_rows_equal_linux),
		cmocka_unit_test(test_zen5_per_model),
		cmocka_unit_test(test_refusal_names_event_and_cpu),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
