/* SPDX-License-Identifier: BSD-2-Clause */
/* PPTT parser (efi/fw/acpi_pptt.c) on tables assembled by hand from ACPI 6.5 section 5.2.30:
 * a two-package table with a cluster, threads and a cache, and malformed ones (a parent outside
 * the table, a loop in the parents, a parent that is a cache, a node too short for its private
 * resources), each reported as a defect that withholds the topology. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_parsers.h"

/* Little-endian u32 as four bytes. */
#define U32(v) (uint8_t)((v) & 0xff), (uint8_t)(((v) >> 8) & 0xff), (uint8_t)(((v) >> 16) & 0xff), (uint8_t)((v) >> 24)
/* 5.2.30.1 Processor Hierarchy Node: Type 0, Length, Reserved[2], Flags, Parent, ACPI Processor
 * ID, Number of Private Resources (then that many 4-byte offsets). Flags: bit 0 Physical
 * package, bit 1 ACPI Processor ID valid, bit 2 Processor is a Thread, bit 3 Node is a Leaf. */
#define NODE(flags, parent, id) 0, 20, 0, 0, U32(flags), U32(parent), U32(id), U32(0)

/* ACPI 6.5 5.2.6 header (checksum not checked by the table parser: acpi.c validates it first),
 * then the structures at these offsets:
 *    36  package, ID not valid (tag = offset 36)
 *    56  cache type structure (5.2.30.2, 24 bytes: Type 1, Length 24, Reserved, Flags, Next
 *        Level, Size, Number of Sets, Associativity, Attributes, Line Size)
 *    80  package, ID valid = 7, one private resource: the cache at 56
 *   104  cluster under package 36, ID not valid
 *   124  processor UID 0, leaf, parent 104
 *   144  processor UID 1, leaf, parent 104
 *   164  core under package 80, ID valid = 5
 *   184  thread UID 2, parent 164
 *   204  thread UID 3, parent 164
 *   224  end (Length) */
#define PPTT_LEN 224
static const uint8_t good[PPTT_LEN] = {
	'P', 'P', 'T', 'T', U32(PPTT_LEN), 2, 0, 'E', 'F', 'I', 'P', 'R', 'F',
	'E', 'F', 'I', 'P', 'P', 'T', 'T', ' ', U32(1), 'E', 'F', 'P', 'F', U32(1),
	/* 36 */ NODE(0x1, 0, 0),
	/* 56 */ 1, 24, 0, 0, U32(0x7f), U32(0), U32(1u << 20), U32(1024), 16, 0x0a, 64, 0,
	/* 80 */ 0, 24, 0, 0, U32(0x3), U32(0), U32(7), U32(1), U32(56),
	/* 104 */ NODE(0x0, 36, 0),
	/* 124 */ NODE(0xa, 104, 0),
	/* 144 */ NODE(0xa, 104, 1),
	/* 164 */ NODE(0x2, 80, 5),
	/* 184 */ NODE(0xe, 164, 2),
	/* 204 */ NODE(0xe, 164, 3),
};

static struct acpi_pptt p;

static void test_two_packages(void **state)
{
	(void)state;
	acpi_parse_pptt(good, sizeof(good), &p);
	assert_string_equal(p.defect, "");
	assert_int_equal(p.revision, 2);
	assert_int_equal(p.nnodes, 8);
	assert_int_equal(p.ncaches, 1);
	assert_int_equal(p.ncpu, 4);
	assert_int_equal(p.npackages, 2);
	static const struct { uint32_t uid, package, cluster, core, thread; } want[] = {
		{ 0, 36, 104, 0, 0 }, { 1, 36, 104, 1, 0 }, { 2, 7, 7, 5, 1 }, { 3, 7, 7, 5, 1 },
	};
	for (unsigned i = 0; i < 4; i++) {
		int k = acpi_pptt_find(&p, want[i].uid);
		assert_true(k >= 0);
		assert_int_equal(p.cpu[k].package, want[i].package);
		assert_int_equal(p.cpu[k].cluster, want[i].cluster);
		assert_int_equal(p.cpu[k].core, want[i].core);
		assert_int_equal(p.cpu[k].thread, want[i].thread);
	}
	assert_int_equal(acpi_pptt_find(&p, 4), -1);
	assert_int_equal(acpi_pptt_find(NULL, 0), -1);

	/* Without the Leaf flag (revision 1 tables): a processor is a node no other names as
	 * parent. UID 0 without Leaf is still a processor; the cluster (no ID) is not. */
	uint8_t t[PPTT_LEN];
	memcpy(t, good, sizeof(t));
	t[124 + 4] = 0x2;
	acpi_parse_pptt(t, sizeof(t), &p);
	assert_string_equal(p.defect, "");
	assert_int_equal(p.ncpu, 4);
	/* the cluster given a valid ID has children: still not a processor */
	t[104 + 4] = 0x2;
	acpi_parse_pptt(t, sizeof(t), &p);
	assert_int_equal(p.ncpu, 4);
	assert_int_equal(p.cpu[acpi_pptt_find(&p, 0)].cluster, 0);   /* its ACPI Processor ID now */
}

static void put32(uint8_t *t, uint32_t off, uint32_t v)
{
	uint8_t b[4] = { U32(v) };
	memcpy(t + off, b, 4);
}

static void test_malformed(void **state)
{
	(void)state;
	static const struct { uint32_t at, value; const char *says; } bad[] = {
		{ 144 + 8, 0x1000, "node @0x90: parent 0x1000 outside the table (Length 224)" },
		{ 144 + 8, 30, "parent 0x1e outside the table" },          /* inside the header */
		{ 144 + 8, 56, "parent 0x38 is not a processor hierarchy node" },   /* the cache */
		{ 104 + 8, 124, "processor @0x7c: loop in parents at node 0x7c" },   /* cluster -> CPU 0 */
		{ 36 + 4, 0x0, "processor @0x7c: no physical package above it" },
		{ 164 + 16, 2, "node @0xa4: Length 20 too short for its 2 private resources" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t t[PPTT_LEN];
		memcpy(t, good, sizeof(t));
		put32(t, bad[i].at, bad[i].value);
		acpi_parse_pptt(t, sizeof(t), &p);
		if (!strstr(p.defect, bad[i].says))
			fail_msg("case %u: defect '%s' does not say '%s'", i, p.defect, bad[i].says);
		assert_int_equal(acpi_pptt_find(&p, 2), -1);   /* a defect withholds the whole topology */
	}
	/* a loop between two nodes above the CPU: cluster -> CPU 1 -> cluster */
	uint8_t t[PPTT_LEN];
	memcpy(t, good, sizeof(t));
	put32(t, 104 + 8, 144);
	acpi_parse_pptt(t, sizeof(t), &p);
	assert_non_null(strstr(p.defect, "loop in parents"));
	/* a structure Length past the table's end, and a table cut inside a structure header */
	memcpy(t, good, sizeof(t));
	t[204 + 1] = 40;
	acpi_parse_pptt(t, sizeof(t), &p);
	assert_string_equal(p.defect, "structure @0xcc: Length 40 invalid");
	acpi_parse_pptt(good, PPTT_LEN - 18, &p);
	assert_string_equal(p.defect, "structure @0xcc: header runs past Length 206");
	acpi_parse_pptt(good, PPTT_LEN - 22, &p);
	assert_string_equal(p.defect, "structure @0xb8: Length 20 invalid");   /* 184 + 20 > 202 */
}

/* The per-CPU mapping mp.c uses: MADT order of UIDs -> packages numbered in order first seen. */
static void test_topology_for_madt_order(void **state)
{
	(void)state;
	acpi_parse_pptt(good, sizeof(good), &p);
	static const uint32_t uids[] = { 2, 0, 3, 1 };
	struct acpi_cpu_topo t[4];
	char why[96] = "";
	assert_int_equal(acpi_pptt_topology(&p, uids, 4, t, why, sizeof(why)), 2);
	static const struct acpi_cpu_topo want[] = { { 0, 7, 5 }, { 1, 104, 0 }, { 0, 7, 5 }, { 1, 104, 1 } };
	for (int i = 0; i < 4; i++) {
		assert_int_equal(t[i].package, want[i].package);
		assert_int_equal(t[i].cluster, want[i].cluster);
		assert_int_equal(t[i].core, want[i].core);
	}
	static const uint32_t more[] = { 0, 9 };
	assert_int_equal(acpi_pptt_topology(&p, more, 2, t, why, sizeof(why)), -1);
	assert_string_equal(why, "the PPTT has no processor with ACPI Processor UID 9");
	assert_int_equal(acpi_pptt_topology(NULL, uids, 4, t, why, sizeof(why)), -1);
	assert_string_equal(why, "no PPTT");
	uint8_t bad[PPTT_LEN];
	memcpy(bad, good, sizeof(bad));
	put32(bad, 104 + 8, 124);
	acpi_parse_pptt(bad, sizeof(bad), &p);
	assert_int_equal(acpi_pptt_topology(&p, uids, 4, t, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "PPTT defect: processor @0x7c: loop in parents"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_packages),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_topology_for_madt_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
