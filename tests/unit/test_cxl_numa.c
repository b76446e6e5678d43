/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Firmware-committed CXL memory as a NUMA node (efi/fw/cxl_numa.c) from crafted tables, parsed
 * by efiperf's own SRAT and CEDT parsers from bytes laid out here as the specifications give
 * them: SRAT (ACPI 6.5 5.2.16: 48-byte header, Memory Affinity Structure type 1 length 40:
 * domain @2, base @8, length @16, flags @28 with Enabled bit 0, Hot Pluggable bit 1,
 * Non-Volatile bit 2), CEDT (CXL 3.1 9.18.1: CHBS type 0 length 32: _UID @4, CXL version @8,
 * base @16, length @24; CFMWS type 1 length 36 + 4 x ways: base @8, size @16, ENIW @24,
 * HBIG @28, restrictions @32, targets @36), and a memory map's EFI_MEMORY_SP ranges.
 * A real platform's layout: DRAM node 0 at 0..2 GiB, a CXL window at 4 GiB + 4 GiB, the
 * firmware's CXL node 1 at 4 GiB + 1 GiB, marked SP, and SP memory at 6 GiB no SRAT names.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/fw/acpi_parsers.h"
#include "efi/fw/acpi_cedt.h"
#include "efi/fw/cxl_numa.h"
#include "efi/fw/numa.h"

#define GIB (1ull << 30)

static void put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint8_t srat_raw[48 + 3 * 40], cedt_raw[36 + 32 + 40];
static struct acpi_srat srat;
static struct acpi_cedt cedt;

static void mem_aff(uint8_t *e, uint32_t dom, uint64_t base, uint64_t len, uint32_t flags)
{
	e[0] = 1;
	e[1] = 40;
	put(e + 2, dom, 4);
	put(e + 8, base, 8);
	put(e + 16, len, 8);
	put(e + 28, flags, 4);
}

static void tables(uint32_t cxl_flags)
{
	memset(srat_raw, 0, sizeof(srat_raw));
	memcpy(srat_raw, "SRAT", 4);
	put(srat_raw + 4, sizeof(srat_raw), 4);
	srat_raw[8] = 3;                                          /* revision 3: 32-bit domains */
	mem_aff(srat_raw + 48, 0, 0, 2 * GIB, 1);                 /* DRAM, enabled */
	mem_aff(srat_raw + 88, 1, 4 * GIB, 1 * GIB, cxl_flags);   /* the firmware's CXL node */
	mem_aff(srat_raw + 128, 2, 9 * GIB, 1 * GIB, 1);          /* past the window's end */
	memset(&srat, 0, sizeof(srat));
	acpi_parse_srat(srat_raw, sizeof(srat_raw), &srat);
	assert_int_equal(srat.nmem, 3);

	memset(cedt_raw, 0, sizeof(cedt_raw));
	memcpy(cedt_raw, "CEDT", 4);
	put(cedt_raw + 4, sizeof(cedt_raw), 4);
	cedt_raw[8] = 1;
	uint8_t *h = cedt_raw + 36, *w = cedt_raw + 68;
	h[0] = 0;
	put(h + 2, 32, 2);
	put(h + 4, 7, 4);                 /* _UID 7 */
	put(h + 8, 1, 4);                 /* CXL 2.0 */
	put(h + 16, 0xFE000000, 8);
	put(h + 24, 0x10000, 8);
	w[0] = 1;
	put(w + 2, 40, 2);
	put(w + 8, 4 * GIB, 8);
	put(w + 16, 4 * GIB, 8);
	put(w + 32, 0x6, 2);              /* volatile + persistent */
	put(w + 36, 7, 4);                /* target _UID 7 */
	memset(&cedt, 0, sizeof(cedt));
	acpi_parse_cedt(cedt_raw, sizeof(cedt_raw), &cedt);
	assert_int_equal(cedt.ncfmws, 1);
	assert_string_equal(cedt.cfmws[0].defect, "");
}

static void test_srat_node_in_window(void **state)
{
	(void)state;
	tables(1);
	static const struct memrange sp[] = { { 4 * GIB, 5 * GIB }, { 6 * GIB, 6 * GIB + (256ull << 20) } };
	struct cxl_numa_node n[CXL_NUMA_MAX];
	assert_int_equal(cxl_numa_nodes(&srat, &cedt, sp, 2, n, CXL_NUMA_MAX), 2);
	assert_int_equal(n[0].domain, 1);
	assert_int_equal(n[0].window, 0);
	assert_int_equal(n[0].base, 4 * GIB);
	assert_int_equal(n[0].size, 1 * GIB);
	assert_int_equal(n[0].sp, 1);
	assert_int_equal(n[0].hot_pluggable, 0);
	/* SP memory inside the window with no SRAT entry: listed, domain -1 */
	assert_int_equal(n[1].domain, -1);
	assert_int_equal(n[1].base, 6 * GIB);
	assert_int_equal(n[1].size, 256ull << 20);
	assert_int_equal(n[1].sp, 1);
}

static void test_flags_and_no_sp(void **state)
{
	(void)state;
	tables(1 | 2);   /* enabled, hot pluggable */
	struct cxl_numa_node n[CXL_NUMA_MAX];
	assert_int_equal(cxl_numa_nodes(&srat, &cedt, NULL, 0, n, CXL_NUMA_MAX), 1);
	assert_int_equal(n[0].domain, 1);
	assert_int_equal(n[0].hot_pluggable, 1);
	assert_int_equal(n[0].sp, 0);   /* the map does not mark it specific-purpose */
	/* an SP range overlapping the SRAT node is that node, not a second entry */
	static const struct memrange sp[] = { { 4 * GIB + 4096, 4 * GIB + 8192 } };
	assert_int_equal(cxl_numa_nodes(&srat, &cedt, sp, 1, n, CXL_NUMA_MAX), 1);
	assert_int_equal(n[0].sp, 0);   /* part of it only */
}

static void test_no_cedt_or_partly_inside(void **state)
{
	(void)state;
	tables(1);
	struct cxl_numa_node n[CXL_NUMA_MAX];
	assert_int_equal(cxl_numa_nodes(&srat, NULL, NULL, 0, n, CXL_NUMA_MAX), 0);
	assert_int_equal(cxl_numa_nodes(NULL, &cedt, NULL, 0, n, CXL_NUMA_MAX), 0);
	/* a range running past the window's end is no memory of that window */
	put(srat_raw + 88 + 16, 5 * GIB, 8);
	memset(&srat, 0, sizeof(srat));
	acpi_parse_srat(srat_raw, sizeof(srat_raw), &srat);
	assert_int_equal(cxl_numa_nodes(&srat, &cedt, NULL, 0, n, CXL_NUMA_MAX), 0);
	/* max bounds the list */
	tables(1);
	static const struct memrange sp[] = { { 6 * GIB, 7 * GIB } };
	assert_int_equal(cxl_numa_nodes(&srat, &cedt, sp, 1, n, 1), 1);
}

/* Buffer placement (efi/fw/numa.c numa_domain_ranges, numa_place): the firmware's CXL node 1
 * marked hot-pluggable in the SRAT (as firmware marks CXL memory an OS may offline) is placed
 * like any node because its range lies in the CFMWS window; a hot-pluggable range outside
 * every window (node 2 at 9 GiB) and a non-volatile CXL range are not. The memory map's free
 * memory: 0..1 GiB and the first 512 MiB of the CXL node; a 2 MiB buffer goes at the highest
 * 4 KiB-aligned place of the node: 4 GiB + 512 MiB - 2 MiB. */
static void test_hot_pluggable_cxl_placed(void **state)
{
	(void)state;
	tables(1 | 2);
	put(srat_raw + 128 + 28, 1 | 2, 4);   /* node 2 hot-pluggable too */
	memset(&srat, 0, sizeof(srat));
	acpi_parse_srat(srat_raw, sizeof(srat_raw), &srat);
	struct memrange r[4];
	assert_int_equal(numa_domain_ranges(&srat, &cedt, 1, r, 4), 1);
	assert_true(r[0].start == 4 * GIB && r[0].end == 5 * GIB);
	assert_int_equal(numa_domain_ranges(&srat, NULL, 1, r, 4), 0);   /* no CEDT: not known as CXL */
	assert_int_equal(numa_domain_ranges(&srat, &cedt, 2, r, 4), 0);
	assert_int_equal(numa_domain_ranges(&srat, &cedt, 0, r, 4), 1);
	assert_int_equal(numa_domain_ranges(&srat, &cedt, 1, r, 4), 1);
	static const struct memrange free_mem[] = { { 0, 1 * GIB }, { 4 * GIB, 4 * GIB + (512ull << 20) } };
	uint64_t a = 0;
	assert_int_equal(numa_place(free_mem, 2, r, 1, 2ull << 20, &a), 0);
	assert_true(a == 4 * GIB + (510ull << 20));
	tables(1 | 2 | 4);                    /* non-volatile CXL memory: never a buffer's */
	assert_int_equal(numa_domain_ranges(&srat, &cedt, 1, r, 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_srat_node_in_window),
		cmocka_unit_test(test_flags_and_no_sp),
		cmocka_unit_test(test_no_cedt_or_partly_inside),
		cmocka_unit_test(test_hot_pluggable_cxl_placed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
