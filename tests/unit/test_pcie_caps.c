/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Capability walks over well-formed and malformed config spaces: every malformed chain ends
 * with the defect that names it, never a hang (PCI 3.0 6.7, PCIe 6.0 7.6.3).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"
#include "tests/model/pci_model.h"

#define CLASS_NVME 0x010802u

static struct pci_model m;
static struct hw h;
static struct pcie_func f;

/* An endpoint with PM, PCIe (at 0x70), MSI-X and AER -> DSN -> DVSEC -> DOE. */
static struct pci_model_func *endpoint(void)
{
	pci_model_init(&m);
	h = pci_model_hw(&m);
	struct pci_model_func *p = pci_model_add(&m, 0, 1, 0, 0, 0x1b36, 0x0010, CLASS_NVME, 0);
	pci_model_add_cap(p, 0x40, PCI_CAP_ID_PM);
	pci_model_add_cap(p, 0x50, PCI_CAP_ID_MSI);
	pci_model_add_exp(p, 0x70, PCI_EXP_TYPE_ENDPOINT, 3, 4, 3, 4, 0x07);
	pci_model_add_cap(p, 0xb0, PCI_CAP_ID_MSIX);
	pci_model_add_ext_cap(p, 0x100, PCI_EXT_CAP_ID_AER, 2);
	pci_model_add_ext_cap(p, 0x148, PCI_EXT_CAP_ID_DSN, 1);
	pci_model_add_dvsec(p, 0x160, 0x1e98, 0, 0x3c, 0);
	pci_model_add_ext_cap(p, 0x200, PCI_EXT_CAP_ID_DOE, 1);
	return p;
}

static void probe(struct pci_model_func *p)
{
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
}

static void assert_defect(const char *want)
{
	for (int i = 0; i < f.ndefects && i < PCIE_MAX_DEFECTS; i++)
		if (strcmp(f.defects[i], want) == 0)
			return;
	print_error("defect \"%s\" not found; %d defects:\n", want, f.ndefects);
	for (int i = 0; i < f.ndefects && i < PCIE_MAX_DEFECTS; i++)
		print_error("  %s\n", f.defects[i]);
	fail();
}

static void test_well_formed(void **state)
{
	(void)state;
	probe(endpoint());
	static const uint16_t ids[] = { PCI_CAP_ID_PM, PCI_CAP_ID_MSI, PCI_CAP_ID_EXP, PCI_CAP_ID_MSIX };
	static const uint16_t offs[] = { 0x40, 0x50, 0x70, 0xb0 };
	assert_int_equal(f.ncaps, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(f.caps[i].id, ids[i]);
		assert_int_equal(f.caps[i].offset, offs[i]);
	}
	static const uint16_t xids[] = { PCI_EXT_CAP_ID_AER, PCI_EXT_CAP_ID_DSN, PCI_EXT_CAP_ID_DVSEC, PCI_EXT_CAP_ID_DOE };
	static const uint16_t xoffs[] = { 0x100, 0x148, 0x160, 0x200 };
	assert_int_equal(f.next, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(f.ext[i].id, xids[i]);
		assert_int_equal(f.ext[i].offset, xoffs[i]);
	}
	assert_int_equal(f.ext[0].version, 2);
	assert_int_equal(f.ndvsec, 1);
	assert_int_equal(f.ndefects, 0);
	assert_non_null(pcie_find_ext_cap(&f, PCI_EXT_CAP_ID_DOE));
	assert_null(pcie_find_cap(&f, PCI_CAP_ID_VNDR));
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(pcie_cap_name(0x01), "PM");
	assert_string_equal(pcie_cap_name(0x05), "MSI");
	assert_string_equal(pcie_cap_name(0x10), "PCIe");
	assert_string_equal(pcie_cap_name(0x11), "MSI-X");
	assert_null(pcie_cap_name(0x00));
	assert_null(pcie_cap_name(0x16));
	assert_null(pcie_cap_name(0xff));
	assert_string_equal(pcie_ext_cap_name(0x01), "AER");
	assert_string_equal(pcie_ext_cap_name(0x02), "VC");
	assert_string_equal(pcie_ext_cap_name(0x03), "DSN");
	assert_string_equal(pcie_ext_cap_name(0x10), "SR-IOV");
	assert_string_equal(pcie_ext_cap_name(0x23), "DVSEC");
	assert_string_equal(pcie_ext_cap_name(0x2e), "DOE");
	assert_null(pcie_ext_cap_name(0x0000));
	assert_null(pcie_ext_cap_name(0x0035));
	assert_null(pcie_ext_cap_name(0xffff));
}

static void test_no_cap_list(void **state)
{
	(void)state;
	pci_model_init(&m);
	h = pci_model_hw(&m);
	struct pci_model_func *p = pci_model_add(&m, 0, 0, 0, 0, 0x8086, 0x29c0, 0x060000, 0);
	pci_model_w8(p, PCI_CAPABILITY_LIST, 0x40); /* a pointer without Status bit 4: not followed */
	probe(p);
	assert_int_equal(f.ncaps, 0);
	assert_int_equal(f.next, 0);
	assert_int_equal(f.ndefects, 0);
	assert_false(f.exp.present);
}

static void test_standard_loop(void **state)
{
	(void)state;
	struct pci_model_func *p = endpoint();
	pci_model_w8(p, 0xb0 + PCI_CAP_LIST_NEXT, 0x50); /* MSI-X -> MSI again */
	probe(p);
	assert_int_equal(f.ncaps, 4);
	assert_defect("capability loop at 0x50");
	assert_true(f.exp.present); /* what was found before the loop is still decoded */
}

static void test_standard_self_loop(void **state)
{
	(void)state;
	struct pci_model_func *p = endpoint();
	pci_model_w8(p, 0x40 + PCI_CAP_LIST_NEXT, 0x40);
	probe(p);
	assert_int_equal(f.ncaps, 1);
	assert_defect("capability loop at 0x40");
}

static void test_standard_into_header(void **state)
{
	(void)state;
	struct pci_model_func *p = endpoint();
	pci_model_w8(p, 0x50 + PCI_CAP_LIST_NEXT, 0x20);
	probe(p);
	assert_int_equal(f.ncaps, 2);
	assert_defect("capability pointer 0x20 at 0x51 points into the header");
	assert_false(f.exp.present);
}

static void test_standard_unaligned(void **state)
{
	(void)state;
	struct pci_model_func *p = endpoint();
	pci_model_w8(p, 0x40 + PCI_CAP_LIST_NEXT, 0x52); /* masked to 0x50 as PCI 3.0 6.7 requires */
	probe(p);
	assert_defect("capability pointer 0x52 at 0x41 has reserved bits [1:0] set");
	assert_int_equal(f.ncaps, 4);
	assert_int_equal(f.caps[1].offset, 0x50);
}

static void test_ext_loop(void **state)
{
	(void)state;
	struct pci_model_func *p = endpoint();
	/* DOE (0x200) -> DSN (0x148) */
	pci_model_w32(p, 0x200, pci_model_r32(p, 0x200) | 0x148u << PCI_EXT_CAP_NEXT_SHIFT);
	probe(p);
	assert_int_equal(f.next, 4);
	assert_defect("extended capability loop at 0x148");
}

static void test_ext_self_loop(void **state)
{
	(void)state;
	struct pci_model_func *p = endpoint();
	pci_model_w32(p, 0x100, PCI_EXT_CAP_ID_AER | 1u << PCI_EXT_CAP_VER_SHIFT | 0x100u << PCI_EXT_CAP_NEXT_SHIFT);
	probe(p);
	assert_int_equal(f.next, 1);
	assert_defect("extended capability loop at 0x100");
}

static void test_ext_below_0x100(void **state)
{
	(void)state;
	struct pci_model_func *p = endpoint();
	pci_model_w32(p, 0x148, PCI_EXT_CAP_ID_DSN | 0x0c0u << PCI_EXT_CAP_NEXT_SHIFT);
	probe(p);
	assert_int_equal(f.next, 2);
	assert_defect("extended capability pointer 0x0c0 at 0x148 is below 0x100");
}

static void test_ext_unaligned(void **state)
{
	(void)state;
	struct pci_model_func *p = endpoint();
	pci_model_w32(p, 0x100, PCI_EXT_CAP_ID_AER | 0x14bu << PCI_EXT_CAP_NEXT_SHIFT);
	probe(p);
	assert_defect("extended capability pointer 0x14b at 0x100 has reserved bits [1:0] set");
	assert_int_equal(f.next, 4);
}

static void test_ext_zero_mid_chain(void **state)
{
	(void)state;
	struct pci_model_func *p = endpoint();
	pci_model_w32(p, 0x148, PCI_EXT_CAP_ID_DSN | 0x300u << PCI_EXT_CAP_NEXT_SHIFT); /* 0x300 is empty */
	probe(p);
	assert_int_equal(f.next, 2);
	assert_defect("zero extended capability header at 0x300");
}

static void test_ext_all_ones(void **state)
{
	(void)state;
	struct pci_model_func *p = endpoint();
	pci_model_w32(p, 0x100, 0xffffffffu); /* e.g. no ECAM: extended space unreachable */
	probe(p);
	assert_int_equal(f.next, 0);
	assert_defect("extended config space not reachable (0x100 reads all ones)");
}

/* The last dword of config space: a DVSEC there cannot hold its headers (past 4 KiB). */
static void test_ext_past_4k(void **state)
{
	(void)state;
	struct pci_model_func *p = endpoint();
	pci_model_w32(p, 0x200, PCI_EXT_CAP_ID_DOE | 0xffcu << PCI_EXT_CAP_NEXT_SHIFT);
	pci_model_w32(p, 0xffc, PCI_EXT_CAP_ID_DVSEC | 1u << PCI_EXT_CAP_VER_SHIFT);
	probe(p);
	assert_int_equal(f.next, 5);
	assert_int_equal(f.ext[4].offset, 0xffc);
	assert_defect("DVSEC at 0xffc runs past 4 KiB");
	assert_int_equal(f.ndvsec, 1);

	/* an NVIDIA DVSEC whose Socket# byte would be at 0x1000 */
	p = endpoint();
	pci_model_w32(p, 0x200, PCI_EXT_CAP_ID_DOE | 0xff0u << PCI_EXT_CAP_NEXT_SHIFT);
	pci_model_add_dvsec(p, 0xff0, PCI_VENDOR_ID_NVIDIA, 1, 0x14, NV_DVSEC_ID_RC_MAP);
	probe(p);
	assert_defect("NVIDIA DVSEC at 0xff0 runs past 4 KiB");
	assert_defect("DVSEC at 0xff0: length 0x14 runs past 4 KiB");
	assert_int_equal(f.ndvsec, 2);
	assert_false(f.dvsec[1].has_nvidia);
}

/* A conventional PCI function (no PCI Express capability) has no extended space to walk. */
static void test_no_ext_without_pcie(void **state)
{
	(void)state;
	pci_model_init(&m);
	h = pci_model_hw(&m);
	struct pci_model_func *p = pci_model_add(&m, 0, 0, 3, 0, 0x8086, 0x100e, 0x020000, 0);
	pci_model_add_cap(p, 0xdc, PCI_CAP_ID_PM);
	pci_model_add_ext_cap(p, 0x100, PCI_EXT_CAP_ID_AER, 1);
	probe(p);
	assert_int_equal(f.ncaps, 1);
	assert_int_equal(f.next, 0);
}

/* Defects beyond PCIE_MAX_DEFECTS are counted, not stored. */
static void test_defect_bound(void **state)
{
	(void)state;
	memset(&f, 0, sizeof(f));
	for (int i = 0; i < PCIE_MAX_DEFECTS + 3; i++)
		pcie_defect(&f, "defect %d", i);
	assert_int_equal(f.ndefects, PCIE_MAX_DEFECTS + 3);
	assert_string_equal(f.defects[PCIE_MAX_DEFECTS - 1], "defect 3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_well_formed),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_no_cap_list),
		cmocka_unit_test(test_standard_loop),
		cmocka_unit_test(test_standard_self_loop),
		cmocka_unit_test(test_standard_into_header),
		cmocka_unit_test(test_standard_unaligned),
		cmocka_unit_test(test_ext_loop),
		cmocka_unit_test(test_ext_self_loop),
		cmocka_unit_test(test_ext_below_0x100),
		cmocka_unit_test(test_ext_unaligned),
		cmocka_unit_test(test_ext_zero_mid_chain),
		cmocka_unit_test(test_ext_all_ones),
		cmocka_unit_test(test_ext_past_4k),
		cmocka_unit_test(test_no_ext_without_pcie),
		cmocka_unit_test(test_defect_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
