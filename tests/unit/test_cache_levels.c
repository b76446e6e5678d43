/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The cache-level decoders against values read on real CPUs, each with its public source:
 *  - CPUID leaf 4 of an Intel Xeon "Nehalem-EP" (signature 000106A2): InstLatx64's dump
 *    GenuineIntel00106A2_Nehalem-EP_CPUID.txt (users.atw.hu/instlatx64), sub-leaves 0-3;
 *  - CPUID leaf 4 of an Intel "Kaby Lake" (signature 000906E9): the AIDA64 dump in google/EXEgesis
 *    exegesis/x86/cpuid_test.cc;
 *  - CPUID 0x8000001D of an AMD Ryzen 5 5600G "Cezanne" (Zen 3, signature 00A50F00): the dump in
 *    Umio-Yasuno/cpuid_dump_rs dump_result/AMD_Ryzen_5_5600G_with_Radeon_Graphics_00A50F00.txt
 *    (its own decode reads L1D 8-way 32K, L2 8-way 512K, L3 16-way 16M);
 *  - CCSIDR of an Arm Cortex-A35: its Technical Reference Manual (Arm 100236_0100_00_en) Table
 *    B1-32 "CCSIDR encodings" (32KB L1 data 0x700FE01A, 32KB L1 instruction 0x201FE00A, 512KB L2
 *    0x707FE03A); CLIDR 0x0A200023 (separate L1, unified L2) as the Cortex-A53 TRM (ARM DDI
 *    0500) gives CLIDR_EL1 with an L2 cache.
 * Expected values are literals worked out by hand from the field layouts the SDM and the APM
 * give (ways x partitions x line x sets), never with efiperf's own decoder; where the source
 * prints a decode (cpuid_dump_rs, the Arm TRM table) they agree with it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/hw_model.h"
#include "arch/x86_64/cpuid_pure.h"
#include "arch/aarch64/cpuinfo_pure.h"
#include "arch/regs/arm_sysreg.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)

struct row { uint32_t a, b, c, d; };
struct want { uint32_t level; enum cache_type t; uint64_t bytes; uint32_t ways, sharing; };

static void check_rows(const struct row *r, const struct want *w, int n)
{
	for (int i = 0; i < n; i++) {
		struct cache_desc c;
		assert_int_equal(x86_cache_decode(r[i].a, r[i].b, r[i].c, &c), 0);
		assert_int_equal(c.level, w[i].level);
		assert_int_equal(c.type, w[i].t);
		assert_int_equal(c.bytes, w[i].bytes);
		assert_int_equal(c.ways, w[i].ways);
		assert_int_equal(c.line_bytes, 64);
		assert_int_equal(c.sharing, w[i].sharing);
	}
}

static const struct row nehalem[] = {
	{ 0x1C004121, 0x01C0003F, 0x0000003F, 0 }, { 0x1C004122, 0x00C0003F, 0x0000007F, 0 },
	{ 0x1C004143, 0x01C0003F, 0x000001FF, 0 }, { 0x1C03C163, 0x03C0003F, 0x00001FFF, 2 },
};

static void test_leaf4_nehalem(void **state)
{
	(void)state;
	static const struct want w[] = {
		{ 1, CACHE_DATA, 32 * KIB, 8, 2 }, { 1, CACHE_INST, 32 * KIB, 4, 2 },
		{ 2, CACHE_UNIFIED, 256 * KIB, 8, 2 }, { 3, CACHE_UNIFIED, 8 * MIB, 16, 16 },
	};
	check_rows(nehalem, w, 4);
	struct cache_desc c;
	assert_int_equal(x86_cache_decode(0, 0, 0, &c), -1);   /* type 0: no more caches */
}

static void test_leaf4_kabylake(void **state)
{
	(void)state;
	static const struct row r[] = {
		{ 0x1C004121, 0x01C0003F, 0x0000003F, 0 }, { 0x1C004122, 0x01C0003F, 0x0000003F, 0 },
		{ 0x1C004143, 0x00C0003F, 0x000003FF, 0 }, { 0x1C03C163, 0x02C0003F, 0x00000FFF, 6 },
	};
	static const struct want w[] = {
		{ 1, CACHE_DATA, 32 * KIB, 8, 2 }, { 1, CACHE_INST, 32 * KIB, 8, 2 },
		{ 2, CACHE_UNIFIED, 256 * KIB, 4, 2 }, { 3, CACHE_UNIFIED, 3 * MIB, 12, 16 },
	};
	check_rows(r, w, 4);
}

static const struct row cezanne[] = {
	{ 0x00004121, 0x01C0003F, 0x0000003F, 0 }, { 0x00004122, 0x01C0003F, 0x0000003F, 0 },
	{ 0x00004143, 0x01C0003F, 0x000003FF, 2 }, { 0x0002C163, 0x03C0003F, 0x00003FFF, 1 },
};

static void test_8000001d_cezanne(void **state)
{
	(void)state;
	static const struct want w[] = {
		{ 1, CACHE_DATA, 32 * KIB, 8, 2 }, { 1, CACHE_INST, 32 * KIB, 8, 2 },
		{ 2, CACHE_UNIFIED, 512 * KIB, 8, 2 }, { 3, CACHE_UNIFIED, 16 * MIB, 16, 12 },
	};
	check_rows(cezanne, w, 4);
}

static struct hw_model m;

static void x86_model(const char *vendor, const struct row *r, int n, uint32_t leaf, uint32_t ext_ecx)
{
	hw_model_init(&m);
	for (int i = 0; i < n; i++)
		hw_model_cpuid(&m, leaf, (uint32_t)i, r[i].a, r[i].b, r[i].c, r[i].d);
	hw_model_cpuid(&m, 0x80000001u, 0, 0, 0, ext_ecx, 0);
	(void)vendor;
}

static void test_x86_caches_picks_the_vendor_leaf(void **state)
{
	(void)state;
	struct cpu_info ci;
	/* Intel: leaf 4 until type 0 */
	x86_model("GenuineIntel", nehalem, 4, 4, 0);
	struct hw h = hw_model_hw(&m);
	memset(&ci, 0, sizeof(ci));
	strcpy(ci.vendor, "GenuineIntel");
	ci.max_leaf = 0xB;
	ci.max_ext_leaf = 0x80000008u;
	x86_caches(&h, &ci);
	assert_int_equal(ci.ncaches, 4);
	assert_string_equal(ci.cache_source, "CPUID.04H");
	assert_int_equal(cache_of_level(&ci, 3)->bytes, 8 * MIB);
	assert_int_equal(cache_of_level(&ci, 1)->type, CACHE_DATA);   /* the data cache, not the instruction one */
	assert_null(cache_of_level(&ci, 4));

	/* AMD with TopologyExtensions (0x80000001 ECX[22]): 0x8000001D */
	x86_model("AuthenticAMD", cezanne, 4, 0x8000001Du, 1u << 22);
	h = hw_model_hw(&m);
	memset(&ci, 0, sizeof(ci));
	strcpy(ci.vendor, "AuthenticAMD");
	ci.max_leaf = 0x10;
	ci.max_ext_leaf = 0x80000023u;
	x86_caches(&h, &ci);
	assert_int_equal(ci.ncaches, 4);
	assert_string_equal(ci.cache_source, "CPUID.8000001DH");
	assert_int_equal(cache_of_level(&ci, 2)->bytes, 512 * KIB);

	/* AMD without TopologyExtensions: neither leaf is used (leaf 4 is reserved on AMD) */
	x86_model("AuthenticAMD", cezanne, 4, 0x8000001Du, 0);
	h = hw_model_hw(&m);
	memset(&ci, 0, sizeof(ci));
	strcpy(ci.vendor, "AuthenticAMD");
	ci.max_leaf = 0x10;
	ci.max_ext_leaf = 0x80000023u;
	x86_caches(&h, &ci);
	assert_int_equal(ci.ncaches, 0);
	assert_null(ci.cache_source);
}

static void test_ccsidr_cortex_a35(void **state)
{
	(void)state;
	struct cache_desc c;
	arm_ccsidr_decode(0x700FE01A, 0, 1, CACHE_DATA, &c);
	assert_int_equal(c.bytes, 32 * KIB);
	assert_int_equal(c.ways, 4);
	assert_int_equal(c.sets, 128);
	assert_int_equal(c.line_bytes, 64);
	arm_ccsidr_decode(0x201FE00A, 0, 1, CACHE_INST, &c);
	assert_int_equal(c.bytes, 32 * KIB);
	assert_int_equal(c.ways, 2);
	arm_ccsidr_decode(0x707FE03A, 0, 2, CACHE_UNIFIED, &c);
	assert_int_equal(c.bytes, 512 * KIB);
	assert_int_equal(c.ways, 8);
	/* Table B1-32's other sizes */
	arm_ccsidr_decode(0x70FFE03A, 0, 2, CACHE_UNIFIED, &c);
	assert_int_equal(c.bytes, 1024 * KIB);
	arm_ccsidr_decode(0x7003E01A, 0, 1, CACHE_DATA, &c);
	assert_int_equal(c.bytes, 8 * KIB);
	/* FEAT_CCIDX layout (Arm ARM CCSIDR_EL1): 16 ways [23:3], 2048 sets [55:32], 64-byte lines */
	arm_ccsidr_decode((2047ull << 32) | (15u << 3) | 2u, 1, 2, CACHE_UNIFIED, &c);
	assert_int_equal(c.bytes, 2 * MIB);
	assert_int_equal(c.ways, 16);
}

static void test_clidr(void **state)
{
	(void)state;
	assert_int_equal(arm_clidr_ctype(0x0A200023, 1), 3);  /* separate I and D */
	assert_int_equal(arm_clidr_ctype(0x0A200023, 2), 4);  /* unified */
	assert_int_equal(arm_clidr_ctype(0x0A200023, 3), 0);
	assert_int_equal(arm_clidr_ctype(0x0A200023, 0), 0);
	assert_int_equal(arm_clidr_ctype(0x0A200023, 8), 0);
}

/* arm_caches through the model: CLIDR names L1 (separate) and L2 (unified); the model's CCSIDR
 * does not follow CSSELR, so every cache reads as the one value: what is checked is the walk
 * (three caches, in order) and that CSSELR_EL1 gets its value back. */
static void test_arm_caches_walk_restores_csselr(void **state)
{
	(void)state;
	struct cpu_info ci;
	hw_model_init(&m);
	struct hw h = hw_model_hw(&m);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_CLIDR_EL1, HWM_READONLY, 0x0A200023);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_CCSIDR_EL1, HWM_READONLY, 0x700FE01A);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_CSSELR_EL1, HWM_PLAIN, 0x5);
	memset(&ci, 0, sizeof(ci));
	arm_caches(&h, &ci);
	assert_int_equal(ci.ncaches, 3);
	assert_int_equal(ci.cache[0].type, CACHE_DATA);
	assert_int_equal(ci.cache[1].type, CACHE_INST);
	assert_int_equal(ci.cache[2].type, CACHE_UNIFIED);
	assert_int_equal(ci.cache[2].level, 2);
	assert_string_equal(ci.cache_source, "CLIDR_EL1/CCSIDR_EL1");
	assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_CSSELR_EL1)->value, 0x5);

	/* no CLIDR_EL1 (the access faults): nothing, and no CSSELR write */
	hw_model_init(&m);
	h = hw_model_hw(&m);
	memset(&ci, 0, sizeof(ci));
	arm_caches(&h, &ci);
	assert_int_equal(ci.ncaches, 0);
	assert_null(ci.cache_source);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leaf4_nehalem),
		cmocka_unit_test(test_leaf4_kabylake),
		cmocka_unit_test(test_8000001d_cezanne),
		cmocka_unit_test(test_x86_caches_picks_the_vendor_leaf),
		cmocka_unit_test(test_ccsidr_cortex_a35),
		cmocka_unit_test(test_clidr),
		cmocka_unit_test(test_arm_caches_walk_restores_csselr),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
