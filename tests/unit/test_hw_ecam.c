/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ECAM backend (arch/hw_ecam.c) against the config-space model's ECAM window:
 * address = base + (bus << 20 | device << 15 | function << 12 | offset) (PCIe 6.0 7.2.2,
 * Table 7-1), base being the MCFG Base Address (bus 0 of the segment); accesses outside every
 * segment go to the inner backend's PCI op; everything else is forwarded.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/hw_ecam.h"
#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"
#include "tests/model/pci_model.h"

#define ECAM_BASE 0xb0000000ull
#define ECAM_SIZE (256ull << 20)     /* buses 0..255 */

static struct pci_model m;
static struct hw_ecam e;

/* The PCIe 6.0 Table 7-1 formula, written out independently of the backend. */
static uint64_t spec_address(uint64_t base, unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	return base + bus * 0x100000ull + dev * 0x8000ull + fn * 0x1000ull + off;
}

static void test_address_arithmetic(void **state)
{
	(void)state;
	const struct ecam_segment s = { ECAM_BASE, 0, 0, 255 };
	static const unsigned cases[][4] = {
		{ 0, 0, 0, 0 }, { 0, 1, 0, 0x10 }, { 3, 0, 1, 0x100 }, { 255, 31, 7, 0xffc },
		{ 0x80, 0x1f, 0, 0x34 }, { 1, 2, 3, 0x44 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hw_pci_addr a = { 0, (uint8_t)cases[i][0], (uint8_t)cases[i][1], (uint8_t)cases[i][2] };
		assert_int_equal(hw_ecam_address(&s, a, (uint16_t)cases[i][3]),
				 spec_address(ECAM_BASE, cases[i][0], cases[i][1], cases[i][2], cases[i][3]));
	}
}

static void test_reads_through_mmio(void **state)
{
	(void)state;
	pci_model_init(&m);
	pci_model_ecam(&m, ECAM_BASE, ECAM_SIZE, 0);
	struct pci_model_func *f = pci_model_add(&m, 0, 3, 2, 1, 0x8086, 0x29c0, 0x060000, 0);
	pci_model_w32(f, 0x1f8, 0xcafef00d);
	const struct ecam_segment seg = { ECAM_BASE, 0, 0, 255 };
	struct hw h = hw_ecam_wrap(&e, pci_model_hw(&m), &seg, 1);

	uint32_t v;
	struct hw_pci_addr a = { 0, 3, 2, 1 };
	assert_int_equal(hw_pci_read32(&h, a, 0, &v), HW_OK);
	assert_int_equal(v, 0x29c08086);
	assert_int_equal(m.last_mmio, spec_address(ECAM_BASE, 3, 2, 1, 0));
	assert_int_equal(hw_pci_read32(&h, a, 0x1f8, &v), HW_OK);
	assert_int_equal(v, 0xcafef00d);
	assert_int_equal(m.last_mmio, spec_address(ECAM_BASE, 3, 2, 1, 0x1f8));
	assert_int_equal(m.mmio_reads, 2);
	assert_int_equal(m.pci_reads, 0);

	assert_int_equal(hw_pci_write32(&h, a, 0x40, 0x12345678), HW_OK);
	assert_int_equal(m.mmio_writes, 1);
	assert_int_equal(pci_model_r32(f, 0x40), 0x12345678);

	/* alignment and range: refused before any access */
	assert_int_equal(hw_pci_read32(&h, a, 0x1002, &v), HW_BAD_ARG);
	assert_int_equal(hw_pci_read32(&h, a, 0x1000, &v), HW_BAD_ARG);
	assert_int_equal(hw_pci_read32(&h, a, 0x41, &v), HW_BAD_ARG);
	struct hw_pci_addr bad_dev = { 0, 3, 32, 0 };
	assert_int_equal(hw_pci_read32(&h, bad_dev, 0, &v), HW_BAD_ARG);
	assert_int_equal(m.mmio_reads, 2);
}

/* An allocation starting at bus 0x80: base is still bus 0's address (MCFG semantics). */
static void test_segment_starting_above_bus_0(void **state)
{
	(void)state;
	pci_model_init(&m);
	pci_model_ecam(&m, ECAM_BASE, ECAM_SIZE, 2);
	pci_model_add(&m, 2, 0x81, 0, 0, 0x10de, 0x22b2, 0x060400, 1);
	const struct ecam_segment seg = { ECAM_BASE, 2, 0x80, 0xff };
	struct hw h = hw_ecam_wrap(&e, pci_model_hw(&m), &seg, 1);
	uint32_t v;
	assert_int_equal(hw_pci_read32(&h, (struct hw_pci_addr){ 2, 0x81, 0, 0 }, 0, &v), HW_OK);
	assert_int_equal(v, 0x22b210de);
	assert_int_equal(m.last_mmio, ECAM_BASE + (0x81ull << 20));
	/* bus 0x7f is outside the allocation: forwarded to the inner PCI op */
	assert_int_equal(hw_pci_read32(&h, (struct hw_pci_addr){ 2, 0x7f, 0, 0 }, 0, &v), HW_OK);
	assert_int_equal(m.pci_reads, 1);
	assert_int_equal(m.mmio_reads, 1);
}

/* Another segment, or a bus past the range, goes to the inner backend (the glue's
 * EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL); enumeration sees the union. */
static void test_forwarding_and_enumeration(void **state)
{
	(void)state;
	pci_model_init(&m);
	pci_model_ecam(&m, ECAM_BASE, 16ull << 20, 0);     /* window covers buses 0..15 */
	pci_model_add(&m, 0, 0, 0, 0, 0x8086, 0x29c0, 0x060000, 0);
	pci_model_add(&m, 0, 0x20, 1, 0, 0x1b36, 0x0010, 0x010802, 0);   /* only via the pci op */
	pci_model_add(&m, 1, 0, 0, 0, 0x1af4, 0x1041, 0x020000, 0);      /* segment 1: pci op */
	const struct ecam_segment seg = { ECAM_BASE, 0, 0, 15 };
	struct hw h = hw_ecam_wrap(&e, pci_model_hw(&m), &seg, 1);

	uint32_t v;
	assert_int_equal(hw_pci_read32(&h, (struct hw_pci_addr){ 0, 0x20, 1, 0 }, 0, &v), HW_OK);
	assert_int_equal(v, 0x00101b36);
	assert_int_equal(m.pci_reads, 1);
	assert_int_equal(m.mmio_reads, 0);
	assert_int_equal(hw_pci_write32(&h, (struct hw_pci_addr){ 1, 0, 0, 0 }, 0x10, 1), HW_OK);
	assert_int_equal(m.pci_writes, 1);

	static struct pcie_func funcs[8];
	struct pcie_scan s;
	const struct pcie_bus_range r[2] = { { 0, 0, 0x20 }, { 1, 0, 0 } };
	pcie_scan_init(&s, funcs, 8);
	assert_int_equal(pcie_enumerate(&h, &s, r, 2), 3);
	assert_int_equal(funcs[0].vendor, 0x8086);
	assert_int_equal(funcs[1].vendor, 0x1b36);
	assert_int_equal(funcs[2].vendor, 0x1af4);
	assert_true(m.mmio_reads > 0 && m.pci_reads > 0);
}

/* Non-PCI ops pass through unchanged, and too many segments are counted. */
static hw_status fake_mmio_read64(void *ctx, uint64_t a, uint64_t *v)
{
	(void)ctx;
	*v = a + 1;
	return HW_OK;
}

static void test_other_ops_and_bound(void **state)
{
	(void)state;
	static const struct hw_ops ops = { .name = "fake", .mmio_read64 = fake_mmio_read64 };
	static struct ecam_segment segs[HW_ECAM_MAX_SEGMENTS + 2];
	for (int i = 0; i < HW_ECAM_MAX_SEGMENTS + 2; i++)
		segs[i] = (struct ecam_segment){ ECAM_BASE + ((uint64_t)i << 28), (uint16_t)i, 0, 255 };
	struct hw h = hw_ecam_wrap(&e, (struct hw){ .ops = &ops, .ctx = NULL }, segs, HW_ECAM_MAX_SEGMENTS + 2);
	assert_int_equal(e.nsegs, HW_ECAM_MAX_SEGMENTS);
	assert_int_equal(e.dropped, 2);
	uint64_t v;
	assert_int_equal(hw_mmio_read64(&h, 0x1000, &v), HW_OK);
	assert_int_equal(v, 0x1001);
	uint64_t msr;
	assert_int_equal(hw_rdmsr(&h, 0x10, &msr), HW_UNSUPPORTED);
	uint32_t d;
	/* inner has no pci op: a bus outside every segment is unsupported */
	assert_int_equal(hw_pci_read32(&h, (struct hw_pci_addr){ HW_ECAM_MAX_SEGMENTS + 1, 0, 0, 0 }, 0, &d),
			 HW_UNSUPPORTED);
	assert_non_null(hw_ecam_find(&e, (struct hw_pci_addr){ 5, 7, 0, 0 }));
	assert_null(hw_ecam_find(&e, (struct hw_pci_addr){ HW_ECAM_MAX_SEGMENTS, 7, 0, 0 }));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_address_arithmetic),
		cmocka_unit_test(test_reads_through_mmio),
		cmocka_unit_test(test_segment_starting_above_bus_0),
		cmocka_unit_test(test_forwarding_and_enumeration),
		cmocka_unit_test(test_other_ops_and_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
