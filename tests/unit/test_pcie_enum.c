/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Enumeration (efi/pcie_enum.c): multi-function devices, bridges and the buses behind them,
 * absent functions, the bound of the output array, and failing config reads.
 *
 *   0000:00:00.0  host bridge (single function; functions 1..7 alias it and must not be seen)
 *   0000:00:01.0  root port   -> bus 01..03
 *   0000:01:00.0  switch upstream port   -> bus 02..03
 *   0000:02:00.0  switch downstream port -> bus 03
 *   0000:03:00.0, .1, .3  multi-function endpoint (function 2 absent)
 *   0000:00:1f.0 vendor 0x0000 (absent)
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
#include "tests/unit/json_check.h"

#define CLASS_HOST 0x060000u
#define CLASS_PCI_BRIDGE 0x060400u
#define CLASS_NVME 0x010802u
#define CLASS_ETH 0x020000u

static struct pci_model m;
static struct hw h;
static struct pcie_func funcs[PCIE_MAX_FUNCS];
static const struct pcie_bus_range seg0 = { 0, 0x00, 0x03 };

static void topology(void)
{
	pci_model_init(&m);
	h = pci_model_hw(&m);
	pci_model_add(&m, 0, 0, 0, 0, 0x8086, 0x29c0, CLASS_HOST, PCI_HEADER_TYPE_NORMAL);
	for (uint8_t fn = 1; fn < 8; fn++) /* aliases of a single-function device */
		pci_model_add(&m, 0, 0, 0, fn, 0x8086, 0x29c0, CLASS_HOST, PCI_HEADER_TYPE_NORMAL);
	struct pci_model_func *rp = pci_model_add(&m, 0, 0, 1, 0, 0x1b36, 0x000c, CLASS_PCI_BRIDGE,
						  PCI_HEADER_TYPE_BRIDGE);
	pci_model_set_bridge(rp, 0, 1, 3);
	pci_model_add_exp(rp, 0x40, PCI_EXP_TYPE_ROOT_PORT, 4, 16, 4, 16, 0x0f);
	struct pci_model_func *up = pci_model_add(&m, 0, 1, 0, 0, 0x104c, 0x8232, CLASS_PCI_BRIDGE,
						  PCI_HEADER_TYPE_BRIDGE);
	pci_model_set_bridge(up, 1, 2, 3);
	pci_model_add_exp(up, 0x40, PCI_EXP_TYPE_UPSTREAM, 4, 16, 4, 16, 0x0f);
	struct pci_model_func *dn = pci_model_add(&m, 0, 2, 0, 0, 0x104c, 0x8233, CLASS_PCI_BRIDGE,
						  PCI_HEADER_TYPE_BRIDGE);
	pci_model_set_bridge(dn, 2, 3, 3);
	pci_model_add_exp(dn, 0x40, PCI_EXP_TYPE_DOWNSTREAM, 4, 16, 4, 16, 0x0f);
	struct pci_model_func *ep0 = pci_model_add(&m, 0, 3, 0, 0, 0x8086, 0x1572, CLASS_ETH,
						   PCI_HEADER_TYPE_NORMAL | PCI_HEADER_TYPE_MFD);
	pci_model_add_exp(ep0, 0xa0, PCI_EXP_TYPE_ENDPOINT, 3, 8, 3, 8, 0x07);
	struct pci_model_func *ep1 = pci_model_add(&m, 0, 3, 0, 1, 0x8086, 0x1572, CLASS_ETH,
						   PCI_HEADER_TYPE_NORMAL | PCI_HEADER_TYPE_MFD);
	pci_model_add_exp(ep1, 0xa0, PCI_EXP_TYPE_ENDPOINT, 3, 8, 3, 8, 0x07);
	pci_model_add(&m, 0, 3, 0, 3, 0x8086, 0x0a54, CLASS_NVME, PCI_HEADER_TYPE_NORMAL);
	pci_model_add(&m, 0, 0, 0x1f, 0, 0x0000, 0x0000, CLASS_HOST, PCI_HEADER_TYPE_NORMAL);
}

static int find(const struct pcie_scan *s, uint8_t bus, uint8_t dev, uint8_t fn)
{
	for (int i = 0; i < s->n; i++) {
		struct hw_pci_addr a = s->funcs[i].addr;
		if (a.segment == 0 && a.bus == bus && a.dev == dev && a.func == fn)
			return i;
	}
	return -1;
}

static void test_topology(void **state)
{
	(void)state;
	struct pcie_scan s;
	topology();
	pcie_scan_init(&s, funcs, PCIE_MAX_FUNCS);
	assert_int_equal(pcie_enumerate(&h, &s, &seg0, 1), 7);
	assert_int_equal(s.overflow, 0);
	assert_int_equal(s.read_errors, 0);
	/* scan order: bus, device, function */
	static const uint8_t order[7][3] = { { 0, 0, 0 }, { 0, 1, 0 }, { 1, 0, 0 }, { 2, 0, 0 },
					     { 3, 0, 0 }, { 3, 0, 1 }, { 3, 0, 3 } };
	for (int i = 0; i < 7; i++)
		assert_int_equal(find(&s, order[i][0], order[i][1], order[i][2]), i);
	assert_int_equal(find(&s, 0, 0, 1), -1);     /* not multi-function: aliases skipped */
	assert_int_equal(find(&s, 0, 0x1f, 0), -1);  /* vendor 0x0000 */

	const struct pcie_func *rp = &s.funcs[1];
	assert_int_equal(rp->primary, 0);
	assert_int_equal(rp->secondary, 1);
	assert_int_equal(rp->subordinate, 3);
	assert_int_equal(rp->parent, -1);
	assert_int_equal(s.funcs[0].parent, -1);
	assert_int_equal(s.funcs[2].parent, 1);      /* upstream port sits behind the root port */
	assert_int_equal(s.funcs[3].parent, 2);
	assert_int_equal(s.funcs[4].parent, 3);
	assert_int_equal(s.funcs[6].parent, 3);
	assert_int_equal(s.funcs[6].parent_addr.bus, 2);
	assert_int_equal(s.funcs[4].class_code, CLASS_ETH);
	assert_int_equal(s.funcs[4].revision, 1);
	assert_true(s.funcs[4].header_type & PCI_HEADER_TYPE_MFD);
	assert_string_equal(pcie_port_type_name(s.funcs[3].exp.port_type), "Downstream Switch Port");

	for (int i = 0; i < s.n; i++) {
		char buf[4096];
		struct strbuf sb;
		struct json j;
		sb_init(&sb, buf, sizeof(buf));
		json_begin(&j, &sb);
		json_str(&j, "type", "pcie");
		pcie_func_to_json(&s.funcs[i], &j);
		json_end(&j);
		assert_false(sb.overflow);
		assert_true(json_check_object(buf, sb.len));
		assert_int_equal(s.funcs[i].ndefects, 0);
	}
	char buf[4096];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	pcie_func_to_json(&s.funcs[6], &j);
	json_end(&j);
	assert_non_null(strstr(buf, "\"upstream\":\"0000:02:00.0\""));
	char line[256];
	pcie_func_line(&s.funcs[6], line, sizeof(line));
	assert_string_equal(line, "0000:03:00.3 8086:0a54 [0108] PCI");
}

/* Unconfigured bridges (secondary bus 0) lead nowhere. */
static void test_unconfigured_bridge(void **state)
{
	(void)state;
	struct pcie_scan s;
	topology();
	struct pci_model_func *b = pci_model_add(&m, 0, 2, 5, 0, 0x104c, 0x8233, CLASS_PCI_BRIDGE,
						 PCI_HEADER_TYPE_BRIDGE);
	pci_model_set_bridge(b, 0, 0, 0);
	pcie_scan_init(&s, funcs, PCIE_MAX_FUNCS);
	pcie_enumerate(&h, &s, &seg0, 1);
	assert_int_equal(s.funcs[0].parent, -1);
	assert_int_equal(s.funcs[1].parent, -1);
}

/* The output array bounds the record; the rest is counted. */
static void test_overflow(void **state)
{
	(void)state;
	struct pcie_scan s;
	topology();
	pcie_scan_init(&s, funcs, 3);
	assert_int_equal(pcie_enumerate(&h, &s, &seg0, 1), 3);
	assert_int_equal(s.overflow, 4);
	/* the multi-function bit is still honoured past the bound: 03:00.1 and .3 counted */
}

/* Ranges: only the given buses of the given segment are scanned. */
static void test_ranges(void **state)
{
	(void)state;
	struct pcie_scan s;
	topology();
	pci_model_add(&m, 1, 0x80, 2, 0, 0x10de, 0x22b2, CLASS_PCI_BRIDGE, PCI_HEADER_TYPE_BRIDGE);
	const struct pcie_bus_range r[2] = { { 0, 0x02, 0x02 }, { 1, 0x80, 0xff } };
	pcie_scan_init(&s, funcs, PCIE_MAX_FUNCS);
	assert_int_equal(pcie_enumerate(&h, &s, r, 2), 2);
	assert_int_equal(s.funcs[0].addr.bus, 2);
	assert_int_equal(s.funcs[1].addr.segment, 1);
	assert_int_equal(s.funcs[1].addr.dev, 2);
	/* an empty range (start > end) scans nothing */
	const struct pcie_bus_range empty = { 0, 5, 4 };
	pcie_scan_init(&s, funcs, PCIE_MAX_FUNCS);
	assert_int_equal(pcie_enumerate(&h, &s, &empty, 1), 0);
}

/* A backend whose config reads fail on bus 1 (e.g. a root bridge protocol error). */
static hw_status failing_read(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t *v)
{
	if (a.bus == 1) {
		*v = 0;
		return HW_ERROR;
	}
	return hw_pci_read32((const struct hw *)ctx, a, off, v);
}

static void test_read_errors(void **state)
{
	(void)state;
	static const struct hw_ops ops = { .name = "failing", .pci_read32 = failing_read };
	struct pcie_scan s;
	topology();
	struct hw inner = pci_model_hw(&m);
	struct hw bad = { .ops = &ops, .ctx = &inner };
	pcie_scan_init(&s, funcs, PCIE_MAX_FUNCS);
	assert_int_equal(pcie_enumerate(&bad, &s, &seg0, 1), 6);
	assert_int_equal(s.read_errors, 32);
	assert_int_equal(s.first_error, HW_ERROR);
	assert_int_equal(find(&s, 1, 0, 0), -1);
}

static void test_cfg_reads(void **state)
{
	(void)state;
	topology();
	struct hw_pci_addr a = { 0, 0, 1, 0 };
	uint8_t b;
	uint16_t w;
	uint32_t d;
	assert_int_equal(pcie_cfg_read8(&h, a, PCI_HEADER_TYPE, &b), HW_OK);
	assert_int_equal(b, PCI_HEADER_TYPE_BRIDGE);
	assert_int_equal(pcie_cfg_read16(&h, a, 2, &w), HW_OK);
	assert_int_equal(w, 0x000c);
	assert_int_equal(pcie_cfg_read8(&h, a, PCI_PRIMARY_BUS + 2, &b), HW_OK);
	assert_int_equal(b, 3);
	assert_int_equal(pcie_cfg_read32(&h, a, 0x1001, &d), HW_BAD_ARG);
	assert_int_equal(pcie_cfg_read32(&h, a, 0x1000, &d), HW_BAD_ARG);
	assert_int_equal(d, 0xffffffffu);
	struct hw_pci_addr none = { 0, 9, 9, 0 };
	assert_int_equal(pcie_cfg_read32(&h, none, 0, &d), HW_OK);
	assert_int_equal(d, 0xffffffffu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_unconfigured_bridge),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_cfg_reads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
