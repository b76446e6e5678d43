/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outside oracle of the Arm PMUv3 tables: Arm's own machine-readable PMU data
 * (github.com/ARM-software/data, pmu/<name>.json; extract and provenance in tests/oracle/arm-data/).
 *   - every row of the common-event table (pmu/events/arm_common_events.c), which efiperf uses
 *     on every Arm core whatever its MIDR_EL1, has the same number in common_armv8.json and
 *     common_armv9.json (the Arm ARM's common events as Arm publishes them), and so has every
 *     Arm row of the load-source table (pmu/events/load_source_events.c ls_arm);
 *   - for every Neoverse core Arm publishes an event file for (neoverse-*.json, "cpuid" =
 *     implementer << 12 | PartNum), at revisions r0p0, r0p3 and r1p0: the TopDown row
 *     arm_td_formula_for() picks for its MIDR_EL1 is that core's (the file's "cpu" name), uses
 *     only events the core lists, with the common table's numbers, uses STALL_FRONTEND_FLUSH
 *     exactly where the core lists it, and is the "no TopDown L1" row exactly where the core
 *     lists no STALL_SLOT. A core with no row of its own gets the generic (Arm SBSA) form,
 *     printed with what it lacks: at run time PMCEID0/1_EL0 decide and the items name it;
 *   - every Neoverse core file's "cpuid" (implementer, PartNum) has a name in the MIDR_EL1 name
 *     table (arch/aarch64/cpuinfo_pure.c arm_part_name), and it is the file's "cpu" name;
 *   - that generic form, served to every core without a row of its own, against Linux's
 *     tools/perf/pmu-events/arch/arm64/sbsa.json (the Arm SBSA 7.0 platform design document
 *     D37-38) MetricExpr, typed here as C expressions and evaluated in double precision.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/unit/oracle_file.h"

#include "pmu/core/arm_topdown.h"
#include "pmu/events/arm_common_events.h"
#include "pmu/core/load_source.h"
#include "arch/aarch64/cpuinfo_pure.h"

struct row { char file[40], kind[8], name[48]; unsigned long code; };
static struct row rows[512];
static int nrows;

static int load(void **state)
{
	(void)state;
	FILE *f = oracle_open("arm-data/arm_pmu.txt");
	if (!f)
		return -1;
	char line[256], code[32];
	while (fgets(line, sizeof(line), f) && nrows < 512) {
		struct row *r = &rows[nrows];
		if (line[0] == '#' || sscanf(line, "%39s %7s %31s %47s", r->file, r->kind, code, r->name) != 4)
			continue;
		if (!strcmp(r->kind, "event")) {   /* <file> event <name> <code> */
			snprintf(r->name, sizeof(r->name), "%s", code);
			sscanf(line, "%*s %*s %*s %31s", code);
		}
		r->code = strtoul(code, NULL, 16);
		nrows++;
	}
	fclose(f);
	return nrows ? 0 : -1;
}

/* The code `file` gives event `name`, or -1 when the file does not list it. */
static long code_in(const char *file, const char *name)
{
	for (int i = 0; i < nrows; i++)
		if (!strcmp(rows[i].file, file) && !strcmp(rows[i].kind, "event") && !strcmp(rows[i].name, name))
			return (long)rows[i].code;
	return -1;
}

static void test_common_table_equals_arm_data(void **state)
{
	(void)state;
	static const char *const files[] = { "common_armv8.json", "common_armv9.json" };
	int compared = 0, bad = 0;
	for (unsigned i = 0; i < arm_ncommon_events; i++) {
		const struct arm_common_event *e = &arm_common_events[i];
		for (int k = 0; k < 2; k++) {
			long c = code_in(files[k], e->name);
			if (c != e->code) {
				printf("%s: efiperf 0x%04x, Arm data %s %s\n", e->name, e->code, files[k],
				       c < 0 ? "does not list it" : "gives another number");
				if (c >= 0)
					printf("  Arm data: 0x%04lx\n", (unsigned long)c);
				bad++;
			}
			compared++;
		}
	}
	/* the load-source table's Arm rows (programmed by name; the number is the record's) */
	for (int i = 0; i < ls_arm.n; i++)
		for (int k = 0; k < 2; k++, compared++)
			if (code_in(files[k], ls_arm.ev[i].name) != ls_arm.ev[i].event) {
				printf("load-source %s: efiperf 0x%04x, Arm data %s 0x%04lx\n", ls_arm.ev[i].name, ls_arm.ev[i].event,
				       files[k], (unsigned long)code_in(files[k], ls_arm.ev[i].name));
				bad++;
			}
	printf("Arm data: %u common events and %d load-source rows, %d comparisons, %d mismatches\n", arm_ncommon_events,
	       ls_arm.n, compared, bad);
	assert_int_equal(bad, 0);
	assert_int_equal(compared, 2 * (75 + 5));
}

#define MIDR(impl, rv, part) ((uint32_t)(impl) << 24 | (uint32_t)((rv) >> 4) << 20 | 0xFu << 16 | (uint32_t)(part) << 4 | ((rv) & 0xFu))
#define GENERIC "generic (Arm SBSA)"

/* One core file at one revision; returns the mismatches. */
static int check_core(const struct row *cpu, uint8_t rv, int *own)
{
	unsigned impl = (unsigned)(cpu->code >> 12), part = (unsigned)(cpu->code & 0xFFF);
	const struct arm_td_formula *f = arm_td_formula_for(MIDR(impl, rv, part));
	char name[48];
	snprintf(name, sizeof(name), "%s", cpu->name);
	for (char *p = name; *p; p++)
		if (*p == '_')
			*p = ' ';
	int bad = 0, slot = code_in(cpu->file, "STALL_SLOT") >= 0;
	if (!strcmp(f->core, GENERIC)) {
		uint32_t need = arm_td_inputs(f);
		printf("%s r%up%u (part 0x%03x): the generic form; the core lists", name, rv >> 4, rv & 0xF, part);
		for (int i = 0; i < ATD_NINPUT; i++)
			if ((need & (1u << i)) && code_in(cpu->file, arm_td_input_name[i]) < 0)
				printf(" no %s", arm_td_input_name[i]);
		printf("%s\n", slot ? " every input" : "");
		return 0;
	}
	(*own)++;
	if (strncmp(f->core, name, strlen(name)) || (f->core[strlen(name)] && f->core[strlen(name)] != ' ')) {
		printf("%s r%up%u (part 0x%03x): efiperf's row is %s\n", name, rv >> 4, rv & 0xF, part, f->core);
		return 1;
	}
	if (f->no_l1) {
		if (slot) {
			printf("%s: efiperf gives no TopDown L1, the core lists STALL_SLOT\n", f->core);
			bad++;
		}
		return bad;
	}
	if (!slot) {
		printf("%s: efiperf has a TopDown L1 formula, the core lists no STALL_SLOT\n", f->core);
		bad++;
	}
	uint32_t need = arm_td_inputs(f);
	for (int i = 0; i < ATD_NINPUT; i++) {
		if (!(need & (1u << i)))
			continue;
		const char *in = arm_td_input_name[i];
		const struct arm_common_event *e = arm_common_event_find(in, strlen(in));
		long c = code_in(cpu->file, in);
		if (!e || c != e->code) {
			printf("%s: input %s efiperf 0x%04x, %s %s 0x%04lx\n", f->core, in, e ? e->code : 0, cpu->file,
			       c < 0 ? "does not list it" : "gives", c < 0 ? 0ul : (unsigned long)c);
			bad++;
		}
	}
	int flush = code_in(cpu->file, "STALL_FRONTEND_FLUSH") >= 0;
	if ((f->x == ATD_STALL_FRONTEND_FLUSH) != flush) {
		printf("%s: efiperf's correction term %s, the core %s STALL_FRONTEND_FLUSH\n", f->core,
		       arm_td_input_name[f->x], flush ? "lists" : "does not list");
		bad++;
	}
	return bad;
}

static void test_per_core_rows_match_core_files(void **state)
{
	(void)state;
	static const uint8_t revs[] = { 0x00, 0x03, 0x10 };
	int bad = 0, own = 0, cores = 0;
	for (int i = 0; i < nrows; i++) {
		if (strcmp(rows[i].kind, "cpuid"))
			continue;
		cores++;
		for (size_t r = 0; r < sizeof(revs); r++)
			bad += check_core(&rows[i], revs[r], &own);
	}
	/* every row of the table is some published core's */
	for (unsigned k = 0; k < arm_td_nformulas; k++) {
		int found = 0;
		for (int i = 0; i < nrows; i++)
			found |= !strcmp(rows[i].kind, "cpuid") && (rows[i].code >> 12) == 0x41 &&
				 (rows[i].code & 0xFFF) == arm_td_formulas[k].part;
		if (!found) {
			printf("%s: part 0x%03x has no Arm data core file\n", arm_td_formulas[k].core, arm_td_formulas[k].part);
			bad++;
		}
	}
	printf("Arm data: %d Neoverse core files, %d (core, revision) pairs with a row of their own, %d mismatches\n",
	       cores, own, bad);
	assert_int_equal(bad, 0);
	assert_int_equal(own, 6 * 3);   /* N1, N2, N3, V1, V2, V3 at three revisions; E1, V3AE: generic */
}

/* The platform record's brand: arm_part_name() of every published Neoverse core is the name Arm's
 * file gives it ("Neoverse_N1" in the extract, "Neoverse-N1" in efiperf's table). */
static void test_part_names_match_core_files(void **state)
{
	(void)state;
	int bad = 0, cores = 0;
	for (int i = 0; i < nrows; i++) {
		if (strcmp(rows[i].kind, "cpuid"))
			continue;
		cores++;
		char want[48];
		snprintf(want, sizeof(want), "%s", rows[i].name);
		for (char *c = want; *c; c++)
			if (*c == '_')
				*c = '-';
		const char *got = arm_part_name((uint32_t)(rows[i].code >> 12), (uint32_t)(rows[i].code & 0xFFF));
		if (!got || strcmp(got, want)) {
			printf("%s: cpuid 0x%lx is %s to efiperf, %s to Arm\n", rows[i].file, rows[i].code,
			       got ? got : "unnamed", want);
			bad++;
		}
	}
	assert_true(cores >= 8);
	assert_int_equal(bad, 0);
}

/* The check can fail: N2's per-core row against a file without STALL_SLOT (N1's), and a common
 * number one off. */
static void test_oracle_can_fail(void **state)
{
	(void)state;
	assert_int_equal(code_in("common_armv9.json", "STALL_FRONTEND_FLUSH"), 0x8162);
	assert_int_not_equal(code_in("common_armv8.json", "CPU_CYCLES"), 0x10);
	for (int i = 0; i < nrows; i++)
		if (!strcmp(rows[i].kind, "cpuid") && !strcmp(rows[i].file, "neoverse-n1.json")) {
			struct row fake = rows[i];
			fake.code = 0x41d49;   /* N2's part, N1's events */
			snprintf(fake.name, sizeof(fake.name), "Neoverse_N2");
			int own = 0;
			assert_true(check_core(&fake, 0x00, &own) > 0);
			return;
		}
	fail_msg("no neoverse-n1.json in the extract");
}

/* sbsa.json: frontend_bound 100 * (stall_slot_frontend / (#slots * cpu_cycles)); backend_bound
 * 100 * (stall_slot_backend / (#slots * cpu_cycles)); retiring 100 * (op_retired / op_spec *
 * (1 - stall_slot / (#slots * cpu_cycles))); bad_speculation 100 * ((1 - op_retired / op_spec) *
 * (1 - stall_slot / (#slots * cpu_cycles))). */
static void test_generic_form_equals_sbsa(void **state)
{
	(void)state;
	static const struct { double S, cyc, ssf, ssb, ss, ore, os; } w[] = {
		{ 8, 1e6, 2e6, 3e6, 5e6, 2.4e6, 3e6 }, { 4, 1000, 600, 1000, 1800, 700, 1000 },
		{ 6, 123457, 211111, 98765, 333333, 400001, 512345 },
	};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		double sc = w[i].S * w[i].cyc;
		const double want[ATD_NITEM] = {
			[ATD_FRONTEND] = 100 * (w[i].ssf / sc), [ATD_BACKEND] = 100 * (w[i].ssb / sc),
			[ATD_RETIRING] = 100 * (w[i].ore / w[i].os * (1 - w[i].ss / sc)),
			[ATD_BAD_SPEC] = 100 * ((1 - w[i].ore / w[i].os) * (1 - w[i].ss / sc)),
		};
		struct arm_td_in in = { .slots = (uint32_t)w[i].S, .have = (1u << ATD_NINPUT) - 1, .f = arm_td_formula_for(0x510fd4f0u),
					.count = { [ATD_CPU_CYCLES] = (uint64_t)w[i].cyc, [ATD_STALL_SLOT_FRONTEND] = (uint64_t)w[i].ssf,
						   [ATD_STALL_SLOT_BACKEND] = (uint64_t)w[i].ssb, [ATD_STALL_SLOT] = (uint64_t)w[i].ss,
						   [ATD_OP_RETIRED] = (uint64_t)w[i].ore, [ATD_OP_SPEC] = (uint64_t)w[i].os,
						   [ATD_BR_MIS_PRED] = 99999, [ATD_STALL_FRONTEND_FLUSH] = 77777 } };
		assert_string_equal(in.f->core, GENERIC);
		struct arm_td_out o;
		arm_topdown(&in, &o);
		for (int k = 0; k < ATD_NITEM; k++) {
			double d = (double)o.milli_pct[k] - want[k] * 1000;
			if (!o.valid[k] || d > 0.5 || d < -0.5)
				fail_msg("window %zu %s: efiperf %lld milli-%%, sbsa.json %.3f %%", i, arm_td_item_name[k],
					 (long long)o.milli_pct[k], want[k]);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_common_table_equals_arm_data),
		cmocka_unit_test(test_per_core_rows_match_core_files),
		cmocka_unit_test(test_generic_form_equals_sbsa),
		cmocka_unit_test(test_part_names_match_core_files),
		cmocka_unit_test(test_oracle_can_fail),
	};
	return cmocka_run_group_tests(tests, load, NULL);
}
