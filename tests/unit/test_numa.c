/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi/numa.c, against its contract in efi/numa.h and ACPI 6.5 5.2.16 (SRAT): a CPU's proximity
 * domain by APIC / x2APIC ID (x2APIC entry preferred) and on Arm by MPIDR -> MADT GICC ACPI
 * Processor UID -> SRAT GICC entry; a domain's ordinary memory (hot-pluggable and non-volatile
 * ranges, other domains, empty and overflowing ranges left out); and numa_place, the highest
 * 4 KiB-aligned address inside one free range and one node range, on hand-computed maps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "efi/fw/numa.h"

#define SENTINEL 0xa5a5a5a5u
#define HOT_PLUGGABLE (1u << 1)
#define NON_VOLATILE  (1u << 2)
#define ENABLED       (1u << 0)
#define N(a) (int)(sizeof(a) / sizeof((a)[0]))

static struct acpi_srat *srat_new(void)
{
	struct acpi_srat *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	s->present = 1;
	return s;
}

static void srat_cpu(struct acpi_srat *s, enum acpi_cpu_kind kind, uint32_t id, uint32_t domain)
{
	assert_true(s->ncpu < ACPI_MAX_SRAT_CPUS);
	s->cpu[s->ncpu++] = (struct acpi_srat_cpu){ .id = id, .domain = domain, .kind = (uint8_t)kind };
}

static void srat_mem(struct acpi_srat *s, uint64_t base, uint64_t length, uint32_t domain, uint32_t flags)
{
	assert_true(s->nmem < ACPI_MAX_SRAT_MEM);
	s->mem[s->nmem++] = (struct acpi_srat_mem){ .base = base, .length = length, .domain = domain, .flags = flags };
}

static void madt_cpu(struct acpi_madt *m, enum acpi_cpu_kind kind, uint64_t id, uint32_t uid)
{
	assert_true(m->ncpu < ACPI_MAX_CPU_IDS);
	m->cpu[m->ncpu++] = (struct acpi_cpu_id){ .id = id, .uid = uid, .kind = (uint8_t)kind };
}

/* numa_cpu_domain(s, madt, id) must find exactly domain. */
static void expect_domain(const struct acpi_srat *s, const struct acpi_madt *m, uint64_t id, uint32_t domain)
{
	uint32_t d = SENTINEL;
	if (numa_cpu_domain(s, m, id, &d) != 0)
		fail_msg("CPU 0x%llx: no domain, expected %u", (unsigned long long)id, domain);
	assert_int_equal(d, domain);
}

/* numa_cpu_domain(s, madt, id) must find none and leave *domain alone. */
static void expect_no_domain(const struct acpi_srat *s, const struct acpi_madt *m, uint64_t id)
{
	uint32_t d = SENTINEL;
	if (numa_cpu_domain(s, m, id, &d) != -1)
		fail_msg("CPU 0x%llx: domain %u, expected none", (unsigned long long)id, d);
	assert_int_equal(d, SENTINEL);
}

/* ---- numa_cpu_domain ----------------------------------------------------------------------- */

static void test_cpu_no_srat(void **state)
{
	(void)state;
	struct acpi_srat *s = srat_new();
	srat_cpu(s, ACPI_CPU_LAPIC, 0, 1);
	srat_cpu(s, ACPI_CPU_X2APIC, 0, 1);
	expect_no_domain(NULL, NULL, 0);
	s->present = 0;                             /* parsed nothing: entries are not looked at */
	expect_no_domain(s, NULL, 0);
	s->present = 1;
	expect_domain(s, NULL, 0, 1);
	free(s);
}

static void test_cpu_x2apic_preferred(void **state)
{
	(void)state;
	struct acpi_srat *s = srat_new();
	srat_cpu(s, ACPI_CPU_LAPIC, 5, 1);          /* the APIC entry comes first ... */
	srat_cpu(s, ACPI_CPU_X2APIC, 5, 2);         /* ... the x2APIC entry wins */
	srat_cpu(s, ACPI_CPU_LAPIC, 7, 3);          /* APIC entry only: fallback */
	srat_cpu(s, ACPI_CPU_X2APIC, 300, 4);       /* x2APIC IDs above 255 */
	srat_cpu(s, ACPI_CPU_X2APIC, 0xffffffffu, 6);
	srat_cpu(s, ACPI_CPU_GICC, 9, 5);           /* a GICC UID is not an APIC ID */
	expect_domain(s, NULL, 5, 2);
	expect_domain(s, NULL, 7, 3);
	expect_domain(s, NULL, 300, 4);
	expect_domain(s, NULL, 0xffffffffu, 6);
	expect_no_domain(s, NULL, 9);
	expect_no_domain(s, NULL, 8);
	expect_no_domain(s, NULL, 0x100000005ull);  /* 64-bit id does not match 32-bit entry 5 */
	expect_no_domain(s, NULL, 0x1000000ffffffffull);
	/* the x2APIC entry wins wherever it is */
	struct acpi_srat *r = srat_new();
	srat_cpu(r, ACPI_CPU_X2APIC, 5, 2);
	srat_cpu(r, ACPI_CPU_LAPIC, 5, 1);
	expect_domain(r, NULL, 5, 2);
	/* first matching entry of a kind */
	srat_cpu(r, ACPI_CPU_X2APIC, 5, 9);
	expect_domain(r, NULL, 5, 2);
	free(r);
	free(s);
}

static void test_cpu_entry_count(void **state)
{
	(void)state;
	struct acpi_srat *s = srat_new();
	srat_cpu(s, ACPI_CPU_X2APIC, 1, 1);
	srat_cpu(s, ACPI_CPU_X2APIC, 2, 2);
	s->ncpu = 1;                                /* entries past ncpu are not there */
	expect_domain(s, NULL, 1, 1);
	expect_no_domain(s, NULL, 2);
	/* an ncpu beyond the array is bounded by ACPI_MAX_SRAT_CPUS */
	s->ncpu = 0xffffffffu;
	s->cpu[ACPI_MAX_SRAT_CPUS - 1] = (struct acpi_srat_cpu){ 77, 3, ACPI_CPU_X2APIC };
	expect_domain(s, NULL, 77, 3);
	expect_no_domain(s, NULL, 78);
	free(s);
}

static void test_cpu_gicc(void **state)
{
	(void)state;
	struct acpi_srat *s = srat_new();
	struct acpi_madt *m = calloc(1, sizeof(*m));
	assert_non_null(m);
	m->present = 1;
	/* MPIDR affinity fields: Aff2.Aff1.Aff0 = 1.0.0, 1.1.0, 0.0.3; UIDs unrelated to them */
	madt_cpu(m, ACPI_CPU_GICC, 0x10000, 4);
	madt_cpu(m, ACPI_CPU_GICC, 0x10100, 5);
	madt_cpu(m, ACPI_CPU_GICC, 0x3, 0x20);
	madt_cpu(m, ACPI_CPU_GICC, 0x100000000ull, 6);   /* Aff3 = 1 */
	madt_cpu(m, ACPI_CPU_GICC, 0x20000, 7);          /* no SRAT entry for UID 7 */
	madt_cpu(m, ACPI_CPU_LAPIC, 0x30000, 8);         /* not a GICC: never used */
	srat_cpu(s, ACPI_CPU_GICC, 5, 1);
	srat_cpu(s, ACPI_CPU_GICC, 4, 0);
	srat_cpu(s, ACPI_CPU_GICC, 0x20, 3);
	srat_cpu(s, ACPI_CPU_GICC, 6, 2);
	srat_cpu(s, ACPI_CPU_GICC, 8, 9);
	expect_domain(s, m, 0x10000, 0);
	expect_domain(s, m, 0x10100, 1);
	expect_domain(s, m, 0x3, 3);
	expect_domain(s, m, 0x100000000ull, 2);
	expect_no_domain(s, m, 0x20000);            /* in MADT, not in SRAT */
	expect_no_domain(s, m, 0x30000);            /* only a LAPIC entry in MADT */
	expect_no_domain(s, m, 0x10200);            /* not in MADT */
	expect_no_domain(s, m, 4);                  /* a UID is not an MPIDR */
	expect_no_domain(s, NULL, 0x10000);         /* no MADT: no way from MPIDR to UID */
	/* MADT entries past ncpu are not there */
	m->ncpu = 1;
	expect_domain(s, m, 0x10000, 0);
	expect_no_domain(s, m, 0x10100);
	/* SRAT absent: nothing, even through MADT */
	m->ncpu = 5;
	s->present = 0;
	expect_no_domain(s, m, 0x10000);
	free(m);
	free(s);
}

/* ---- numa_domain_ranges -------------------------------------------------------------------- */

static void test_domain_ranges(void **state)
{
	(void)state;
	struct acpi_srat *s = srat_new();
	struct memrange r[8];
	srat_mem(s, 0, 0xa0000, 0, ENABLED);
	srat_mem(s, 0x100000, 0x7ff00000, 0, ENABLED);
	srat_mem(s, 0x80000000, 0x80000000, 1, ENABLED);                       /* other domain */
	srat_mem(s, 0x100000000, 0x100000000, 0, ENABLED | HOT_PLUGGABLE);     /* hot-pluggable */
	srat_mem(s, 0x200000000, 0x40000000, 0, ENABLED | NON_VOLATILE);       /* non-volatile */
	srat_mem(s, 0x240000000, 0x1000, 0, ENABLED | HOT_PLUGGABLE | NON_VOLATILE);
	srat_mem(s, 0x280000000, 0, 0, ENABLED);                               /* empty */
	srat_mem(s, 0xfffffffffffff000ull, 0x2000, 0, ENABLED);               /* wraps */
	srat_mem(s, 0x300000000, 0x10000000, 0, ENABLED | (1u << 3));          /* other flag bits: kept */
	srat_mem(s, 0x400000000, 0x10000000, 1, ENABLED);
	assert_int_equal(numa_domain_ranges(s, NULL, 0, r, N(r)), 3);
	assert_true(r[0].start == 0 && r[0].end == 0xa0000);
	assert_true(r[1].start == 0x100000 && r[1].end == 0x80000000);
	assert_true(r[2].start == 0x300000000 && r[2].end == 0x310000000);

	assert_int_equal(numa_domain_ranges(s, NULL, 1, r, N(r)), 2);
	assert_true(r[0].start == 0x80000000 && r[0].end == 0x100000000);
	assert_true(r[1].start == 0x400000000 && r[1].end == 0x410000000);

	assert_int_equal(numa_domain_ranges(s, NULL, 2, r, N(r)), 0);

	/* at most max, the first ones; nothing written past them */
	r[2] = (struct memrange){ 1, 2 };
	assert_int_equal(numa_domain_ranges(s, NULL, 0, r, 2), 2);
	assert_true(r[0].start == 0 && r[1].start == 0x100000);
	assert_true(r[2].start == 1 && r[2].end == 2);
	r[0] = (struct memrange){ 1, 2 };
	assert_int_equal(numa_domain_ranges(s, NULL, 0, r, 0), 0);
	assert_true(r[0].start == 1 && r[0].end == 2);

	/* a range that ends exactly at the top of the address space */
	struct acpi_srat *t = srat_new();
	srat_mem(t, 0xfffffffffffff000ull, 0xfff, 4, ENABLED);
	assert_int_equal(numa_domain_ranges(t, NULL, 4, r, N(r)), 1);
	assert_true(r[0].start == 0xfffffffffffff000ull && r[0].end == UINT64_MAX);

	/* entries past nmem are not there; no SRAT: nothing */
	s->nmem = 1;
	assert_int_equal(numa_domain_ranges(s, NULL, 0, r, N(r)), 1);
	assert_int_equal(numa_domain_ranges(s, NULL, 1, r, N(r)), 0);
	assert_int_equal(numa_domain_ranges(NULL, NULL, 0, r, N(r)), 0);
	free(t);
	free(s);
}

/* ---- numa_place ---------------------------------------------------------------------------- */

static void expect_place(const struct memrange *f, int nf, const struct memrange *n, int nn, uint64_t bytes,
			 uint64_t addr)
{
	uint64_t a = SENTINEL;
	if (numa_place(f, nf, n, nn, bytes, &a) != 0)
		fail_msg("0x%llx bytes: no place, expected 0x%llx", (unsigned long long)bytes, (unsigned long long)addr);
	if (a != addr)
		fail_msg("0x%llx bytes: at 0x%llx, expected 0x%llx", (unsigned long long)bytes, (unsigned long long)a,
			 (unsigned long long)addr);
}

static void expect_no_place(const struct memrange *f, int nf, const struct memrange *n, int nn, uint64_t bytes)
{
	uint64_t a = SENTINEL;
	if (numa_place(f, nf, n, nn, bytes, &a) != -1)
		fail_msg("0x%llx bytes: placed at 0x%llx, expected no place", (unsigned long long)bytes,
			 (unsigned long long)a);
	assert_int_equal(a, SENTINEL);
}

static const struct memrange whole[] = { { 0, 1ull << 40 } };

static void test_place_exact_and_zero(void **state)
{
	(void)state;
	static const struct memrange f[] = { { 0x10000, 0x20000 } };
	expect_place(f, 1, whole, 1, 0x10000, 0x10000);          /* exact fit */
	expect_place(f, 1, whole, 1, 0x1000, 0x1f000);           /* the top page */
	expect_place(f, 1, whole, 1, 1, 0x1f000);                /* one byte: still a page start */
	expect_place(f, 1, whole, 1, 0x1001, 0x1e000);
	expect_no_place(f, 1, whole, 1, 0x10001);                /* one byte too many */
	expect_no_place(f, 1, whole, 1, 0);                      /* bytes 0 */
	expect_no_place(f, 1, whole, 1, UINT64_MAX);
	expect_no_place(f, 0, whole, 1, 0x1000);                 /* no free memory */
	expect_no_place(f, 1, whole, 0, 0x1000);                 /* no node memory */
	/* the node range is the limit just as well */
	static const struct memrange nd[] = { { 0x14000, 0x18000 } };
	expect_place(f, 1, nd, 1, 0x4000, 0x14000);
	expect_place(f, 1, nd, 1, 0x2000, 0x16000);
	expect_no_place(f, 1, nd, 1, 0x4001);
}

static void test_place_unaligned(void **state)
{
	(void)state;
	/* free start not page-aligned: the first page start above it */
	static const struct memrange f1[] = { { 0x10001, 0x20000 } };
	expect_place(f1, 1, whole, 1, 0xf000, 0x11000);
	expect_no_place(f1, 1, whole, 1, 0xf001);
	expect_place(f1, 1, whole, 1, 0x1000, 0x1f000);
	/* free end not page-aligned: the last page start that still fits */
	static const struct memrange f2[] = { { 0x10000, 0x20800 } };
	expect_place(f2, 1, whole, 1, 0x1000, 0x1f000);
	expect_place(f2, 1, whole, 1, 0x800, 0x20000);
	expect_place(f2, 1, whole, 1, 0x10800, 0x10000);
	expect_no_place(f2, 1, whole, 1, 0x10801);
	/* a free range inside one page, not holding a page start */
	static const struct memrange f3[] = { { 0x10001, 0x10fff } };
	expect_no_place(f3, 1, whole, 1, 1);
	/* node start not page-aligned */
	static const struct memrange f4[] = { { 0, 0x20000 } };
	static const struct memrange n4[] = { { 0x10800, 0x30000 } };
	expect_place(f4, 1, n4, 1, 0x1000, 0x1f000);
	expect_place(f4, 1, n4, 1, 0xf000, 0x11000);
	expect_no_place(f4, 1, n4, 1, 0xf800);                   /* 0x10800.. would fit unaligned */
}

static void test_place_straddle(void **state)
{
	(void)state;
	/* the node range spans two adjacent free ranges: 0x50000 + 0xb0000 of the node in them */
	static const struct memrange f[] = { { 0x0f0000, 0x150000 }, { 0x150000, 0x210000 } };
	static const struct memrange n[] = { { 0x100000, 0x200000 } };
	expect_no_place(f, 2, n, 1, 0xc0000);                    /* fits the union, neither range */
	expect_no_place(f, 2, n, 1, 0x100000);                   /* the whole node */
	expect_place(f, 2, n, 1, 0xb0000, 0x150000);             /* exactly the upper part */
	expect_place(f, 2, n, 1, 0x50000, 0x1b0000);
	/* one free range spans two node ranges: neither node range alone holds the buffer */
	static const struct memrange f2[] = { { 0, 0x400000 } };
	static const struct memrange n2[] = { { 0x100000, 0x180000 }, { 0x180000, 0x200000 } };
	expect_no_place(f2, 1, n2, 2, 0x81000);
	expect_place(f2, 1, n2, 2, 0x80000, 0x180000);
	/* free memory only outside the node */
	static const struct memrange f3[] = { { 0, 0x100000 }, { 0x200000, 0x300000 } };
	expect_no_place(f3, 2, n, 1, 0x1000);
}

static void test_place_highest(void **state)
{
	(void)state;
	/* unsorted free ranges: the highest place wins, not the first or the largest */
	static const struct memrange f[] = {
		{ 0x1000, 0x9000 }, { 0x100000, 0x108000 }, { 0x50000, 0x60000 }, { 0x80000, 0x84000 },
	};
	expect_place(f, N(f), whole, 1, 0x4000, 0x104000);
	expect_place(f, N(f), whole, 1, 0x8000, 0x100000);
	expect_place(f, N(f), whole, 1, 0x9000, 0x57000);       /* only the largest range holds it */
	expect_place(f, N(f), whole, 1, 0x10000, 0x50000);
	expect_no_place(f, N(f), whole, 1, 0x10001);
	/* a node ending below the highest free range */
	static const struct memrange low[] = { { 0, 0x100000 } };
	expect_place(f, N(f), low, 1, 0x4000, 0x80000);
	expect_place(f, N(f), low, 1, 0x5000, 0x5b000);
	/* several node ranges, unsorted */
	static const struct memrange f2[] = { { 0x70000, 0x250000 } };
	static const struct memrange n2[] = { { 0x200000, 0x300000 }, { 0, 0x80000 } };
	expect_place(f2, 1, n2, 2, 0x10000, 0x240000);
	expect_place(f2, 1, n2, 2, 0x50000, 0x200000);
	expect_no_place(f2, 1, n2, 2, 0x50001);
	static const struct memrange n3[] = { { 0x240000, 0x300000 }, { 0, 0x90000 } };
	expect_place(f2, 1, n3, 2, 0x10000, 0x240000);
	expect_place(f2, 1, n3, 2, 0x10001, 0x7f000);            /* only the lower node holds it */
	expect_no_place(f2, 1, n3, 2, 0x20001);
}

static void test_place_top_of_memory(void **state)
{
	(void)state;
	/* the highest pages of the 64-bit space ([start, end) cannot hold UINT64_MAX itself) */
	static const struct memrange f[] = { { 0xffffffffffff0000ull, UINT64_MAX } };
	expect_place(f, 1, f, 1, 0x1000, 0xffffffffffffe000ull);
	expect_place(f, 1, f, 1, 0xf000, 0xffffffffffff0000ull);
	expect_no_place(f, 1, f, 1, 0x10000);
	/* a range above the last page start: rounding its start up must not wrap to 0 */
	static const struct memrange top[] = { { 0xffffffffffffff00ull, UINT64_MAX } };
	static const struct memrange all[] = { { 0, UINT64_MAX } };
	expect_no_place(top, 1, all, 1, 0x10);                   /* the free range is the one up there */
	expect_no_place(all, 1, top, 1, 0x10);                   /* the node range is the one up there */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_no_srat),
		cmocka_unit_test(test_cpu_x2apic_preferred),
		cmocka_unit_test(test_cpu_entry_count),
		cmocka_unit_test(test_cpu_gicc),
		cmocka_unit_test(test_domain_ranges),
		cmocka_unit_test(test_place_exact_and_zero),
		cmocka_unit_test(test_place_unaligned),
		cmocka_unit_test(test_place_straddle),
		cmocka_unit_test(test_place_highest),
		cmocka_unit_test(test_place_top_of_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
