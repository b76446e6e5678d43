/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi/pcie_partner.c: a link trains to what both ends support (PCIe 6.0 4.2.6), so it is
 * downtrained only below min(LnkCap of port, LnkCap of the device behind it). The QEMU case
 * (root port LnkCap 8 GT/s x4, NVMe LnkCap 2.5 GT/s x1, LnkSta 2.5 GT/s x1) is limited by the
 * partner, not downtrained; a real downtrain (both ends 16 GT/s x8, trained 8 GT/s x4) stays.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/pci_model.h"
#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"

#define CLASS_PCI_BRIDGE 0x060400u
#define CLASS_NVME 0x010802u
#define SPEED_2_5 1
#define SPEED_8 3
#define SPEED_16 4

static struct pci_model m;
static struct pcie_func funcs[8];
static struct pcie_scan s;

/* Root port 00:01.0 -> bus 1, endpoint 01:00.0 (functions 0 and 1). */
static void topology(uint8_t port_ms, uint8_t port_mw, uint8_t ep_ms, uint8_t ep_mw, uint8_t sp, uint8_t w)
{
	pci_model_init(&m);
	struct pci_model_func *p = pci_model_add(&m, 0, 0, 1, 0, 0x1b36, 0x000c, CLASS_PCI_BRIDGE,
						 PCI_HEADER_TYPE_BRIDGE);
	pci_model_set_bridge(p, 0, 1, 1);
	pci_model_add_exp(p, 0x40, PCI_EXP_TYPE_ROOT_PORT, port_ms, port_mw, sp, w, 0x0f);
	for (uint8_t fn = 0; fn < 2; fn++) {
		struct pci_model_func *e = pci_model_add(&m, 0, 1, 0, fn, 0x1b36, 0x0010, CLASS_NVME,
							 fn ? 0 : PCI_HEADER_TYPE_MFD);
		pci_model_add_exp(e, 0x80, PCI_EXP_TYPE_ENDPOINT, ep_ms, ep_mw, sp, w, 0);
	}
	struct hw h = pci_model_hw(&m);
	struct pcie_bus_range r = { 0, 0, 1 };
	pcie_scan_init(&s, funcs, 8);
	pcie_enumerate(&h, &s, &r, 1);
	assert_int_equal(s.n, 3);
}

static const struct pcie_link *link_of(int i) { return &s.funcs[i].exp.link; }

static int has_downtrained_defect(const struct pcie_func *f)
{
	for (int i = 0; i < f->ndefects && i < PCIE_MAX_DEFECTS; i++)
		if (!strncmp(f->defects[i], "downtrained:", 12))
			return 1;
	return 0;
}

static void test_limited_by_partner(void **state)
{
	(void)state;
	topology(SPEED_8, 4, SPEED_2_5, 1, SPEED_2_5, 1);
	const struct pcie_link *port = link_of(0);
	assert_false(port->downtrained);
	assert_true(port->limited_by_partner);
	assert_true(port->has_partner);
	assert_int_equal(port->partner.bus, 1);
	assert_int_equal(port->partner_max_mgts, 2500);
	assert_int_equal(port->partner_max_width, 1);
	assert_false(has_downtrained_defect(&s.funcs[0]));
	for (int i = 1; i < 3; i++) {          /* both endpoint functions see the port */
		assert_true(link_of(i)->has_partner);
		assert_int_equal(link_of(i)->partner.bus, 0);
		assert_false(link_of(i)->downtrained);
		assert_false(link_of(i)->limited_by_partner);  /* at its own LnkCap */
	}
}

static void test_real_downtrain_stays(void **state)
{
	(void)state;
	topology(SPEED_16, 8, SPEED_16, 8, SPEED_8, 4);
	for (int i = 0; i < 3; i++) {
		assert_true(link_of(i)->downtrained);
		assert_false(link_of(i)->limited_by_partner);
		assert_true(has_downtrained_defect(&s.funcs[i]));
	}
}

/* Partner limits the width but the speed is below both: still downtrained. */
static void test_partial_partner_limit_is_downtrain(void **state)
{
	(void)state;
	topology(SPEED_16, 8, SPEED_16, 4, SPEED_8, 4);
	assert_true(link_of(0)->downtrained);
	assert_true(has_downtrained_defect(&s.funcs[0]));
}

static void test_at_full_capability(void **state)
{
	(void)state;
	topology(SPEED_8, 4, SPEED_8, 4, SPEED_8, 4);
	for (int i = 0; i < 3; i++) {
		assert_false(link_of(i)->downtrained);
		assert_false(link_of(i)->limited_by_partner);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limited_by_partner),
		cmocka_unit_test(test_real_downtrain_stays),
		cmocka_unit_test(test_partial_partner_limit_is_downtrain),
		cmocka_unit_test(test_at_full_capability),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
