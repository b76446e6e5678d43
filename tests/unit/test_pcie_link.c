/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PCI Express capability and link decode (PCIe 6.0 7.5.3): speeds through the LnkCap2 vector,
 * raw bandwidth per direction (8b/10b, 128b/130b, 1b/1b), downtrained links, port types,
 * payload sizes, and the console line.
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

#define CLASS_PCI_BRIDGE 0x060400u
#define ALL_SPEEDS_64 0x3fu   /* 2.5 .. 64 GT/s */

static struct pci_model m;
static struct hw h;
static struct pcie_func f;

/* Bandwidths in milli-GB/s: GT/s * lanes * efficiency / 8, rounded. */
static void test_bandwidth_table(void **state)
{
	(void)state;
	assert_int_equal(pcie_link_mgbps(8000, 4), 3938);     /* 8 GT/s x4, 128b/130b: 3.938 GB/s */
	assert_int_equal(pcie_link_mgbps(2500, 1), 250);      /* 8b/10b */
	assert_int_equal(pcie_link_mgbps(5000, 16), 8000);
	assert_int_equal(pcie_link_mgbps(16000, 16), 31508);
	assert_int_equal(pcie_link_mgbps(32000, 16), 63015);
	assert_int_equal(pcie_link_mgbps(64000, 16), 128000); /* flit mode 1b/1b */
	assert_int_equal(pcie_link_mgbps(8000, 16), 15754);
	assert_int_equal(pcie_link_mgbps(0, 16), 0);
}

static void test_speed_encoding(void **state)
{
	(void)state;
	static const uint32_t want[] = { 0, 2500, 5000, 8000, 16000, 32000, 64000, 0 };
	for (uint8_t code = 0; code < 8; code++) {
		assert_int_equal(pcie_speed_mgts(code, 0), want[code]);           /* no LnkCap2 */
		assert_int_equal(pcie_speed_mgts(code, ALL_SPEEDS_64), want[code]);
	}
	/* A vector of 2.5/5/8 GT/s: code 4 (16 GT/s) is not supported -> unknown */
	assert_int_equal(pcie_speed_mgts(4, 0x07), 0);
	assert_int_equal(pcie_speed_mgts(3, 0x07), 8000);
	char s[8];
	pcie_speed_str(s, sizeof(s), 2500);
	assert_string_equal(s, "2.5");
	pcie_speed_str(s, sizeof(s), 16000);
	assert_string_equal(s, "16");
}

static struct pci_model_func *port(uint8_t type, uint8_t ms, uint8_t mw, uint8_t s, uint8_t w, uint8_t vec)
{
	pci_model_init(&m);
	h = pci_model_hw(&m);
	struct pci_model_func *p = pci_model_add(&m, 0, 0, 1, 0, 0x8086, 0x29c0, CLASS_PCI_BRIDGE,
						 PCI_HEADER_TYPE_BRIDGE);
	pci_model_set_bridge(p, 0, 1, 1);
	pci_model_add_exp(p, 0x40, type, ms, mw, s, w, vec);
	return p;
}

/* The QEMU case: pcie-root-port x-speed=8,x-width=4 with an NVMe behind it. */
static void test_root_port_8gt_x4(void **state)
{
	(void)state;
	struct pci_model_func *p = port(PCI_EXP_TYPE_ROOT_PORT, 3, 4, 3, 4, 0x07);
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	const struct pcie_link *l = &f.exp.link;
	assert_true(f.exp.present);
	assert_string_equal(pcie_port_type_name(f.exp.port_type), "Root Port");
	assert_true(l->present && l->up);
	assert_int_equal(l->max_mgts, 8000);
	assert_int_equal(l->mgts, 8000);
	assert_int_equal(l->max_width, 4);
	assert_int_equal(l->width, 4);
	assert_int_equal(l->mgbps, 3938);
	assert_int_equal(l->max_mgbps, 3938);
	assert_false(l->downtrained);
	assert_int_equal(f.ndefects, 0);
	assert_int_equal(f.exp.mps_supported, 512);
	assert_int_equal(f.exp.mps, 128);
	assert_int_equal(f.exp.mrrs, 512);
}

static void test_downtrained(void **state)
{
	(void)state;
	struct pci_model_func *p = port(PCI_EXP_TYPE_ROOT_PORT, 4, 8, 3, 4, 0x0f);
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	assert_true(f.exp.link.downtrained);
	assert_int_equal(f.exp.link.max_mgbps, 15754);
	assert_int_equal(f.exp.link.mgbps, 3938);
	assert_int_equal(f.ndefects, 1);
	assert_string_equal(f.defects[0], "downtrained: 8 GT/s x4 of 16 GT/s x8");

	/* width only */
	p = port(PCI_EXP_TYPE_ENDPOINT, 5, 16, 5, 8, 0x1f);
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	assert_true(f.exp.link.downtrained);
	assert_string_equal(f.defects[0], "downtrained: 32 GT/s x8 of 32 GT/s x16");

	/* speed only, 2.5 GT/s */
	p = port(PCI_EXP_TYPE_UPSTREAM, 2, 1, 1, 1, 0x03);
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	assert_string_equal(f.defects[0], "downtrained: 2.5 GT/s x1 of 5 GT/s x1");
}

/* An empty slot: link down is neither trained nor downtrained. */
static void test_link_down(void **state)
{
	(void)state;
	struct pci_model_func *p = port(PCI_EXP_TYPE_ROOT_PORT, 4, 16, 1, 0, 0x0f);
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	assert_true(f.exp.link.present);
	assert_false(f.exp.link.up);
	assert_false(f.exp.link.downtrained);
	assert_int_equal(f.ndefects, 0);
	char line[256];
	pcie_func_line(&f, line, sizeof(line));
	assert_string_equal(line, "0000:00:01.0 8086:29c0 [0604] PCIe Root Port  link down (max 16 GT/s x16)  caps: PCIe  bus 01-01");
}

/* RCiEPs have no link (LnkCap not applicable); neither has a port with LnkCap width 0. */
static void test_no_link(void **state)
{
	(void)state;
	struct pci_model_func *p = port(PCI_EXP_TYPE_RC_END, 3, 4, 3, 4, 0x07);
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	assert_true(f.exp.present);
	assert_false(f.exp.link.present);
	p = port(PCI_EXP_TYPE_ENDPOINT, 0, 0, 0, 0, 0);
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	assert_false(f.exp.link.present);
	assert_int_equal(f.ndefects, 0);
}

/* 64 GT/s in flit mode, x16 = 128 GB/s; version 1 capability has no LnkCap2. */
static void test_64gt_and_v1(void **state)
{
	(void)state;
	struct pci_model_func *p = port(PCI_EXP_TYPE_ENDPOINT, 6, 16, 6, 16, ALL_SPEEDS_64);
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	assert_int_equal(f.exp.link.mgbps, 128000);
	assert_int_equal(f.exp.link.speeds_vector, ALL_SPEEDS_64);

	p = port(PCI_EXP_TYPE_LEG_END, 1, 1, 1, 1, 0);
	pci_model_w16(p, 0x40 + PCI_EXP_FLAGS, 1u | PCI_EXP_TYPE_LEG_END << PCI_EXP_FLAGS_TYPE_SHIFT);
	pci_model_w32(p, 0x40 + PCI_EXP_LNKCAP2, 0x7eu); /* must be ignored: version 1 */
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	assert_int_equal(f.exp.version, 1);
	assert_int_equal(f.exp.link.speeds_vector, 0);
	assert_int_equal(f.exp.link.mgbps, 250);
	assert_string_equal(pcie_port_type_name(f.exp.port_type), "Legacy Endpoint");
}

/* LnkCap says 16 GT/s but the vector stops at 8: reported, speed unknown. */
static void test_speed_not_in_vector(void **state)
{
	(void)state;
	struct pci_model_func *p = port(PCI_EXP_TYPE_ROOT_PORT, 4, 4, 3, 4, 0x07);
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	assert_int_equal(f.exp.link.max_mgts, 0);
	assert_string_equal(f.defects[0], "LnkCap Max Link Speed 4 not in Supported Link Speeds 0x07");
}

/* A PCI Express capability too close to the end of the 256-byte space. */
static void test_exp_past_256(void **state)
{
	(void)state;
	pci_model_init(&m);
	h = pci_model_hw(&m);
	struct pci_model_func *p = pci_model_add(&m, 0, 0, 2, 0, 0x8086, 0x1234, 0x020000, 0);
	pci_model_add_cap(p, 0xf0, PCI_CAP_ID_EXP);
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	assert_string_equal(f.defects[0], "PCI Express capability at 0xf0 runs past 256 bytes");
	assert_false(f.exp.link.present);
}

static void test_port_type_names(void **state)
{
	(void)state;
	assert_string_equal(pcie_port_type_name(PCI_EXP_TYPE_ENDPOINT), "Endpoint");
	assert_string_equal(pcie_port_type_name(PCI_EXP_TYPE_RC_END), "RCiEP");
	assert_string_equal(pcie_port_type_name(PCI_EXP_TYPE_UPSTREAM), "Upstream Switch Port");
	assert_string_equal(pcie_port_type_name(PCI_EXP_TYPE_DOWNSTREAM), "Downstream Switch Port");
	assert_string_equal(pcie_port_type_name(PCI_EXP_TYPE_PCI_BRIDGE), "PCIe-to-PCI Bridge");
	assert_string_equal(pcie_port_type_name(PCI_EXP_TYPE_RC_EC), "RC Event Collector");
	assert_string_equal(pcie_port_type_name(0xf), "Reserved");
}

/* The console line and JSON of a downtrained root port with MSI-X, AER and a DVSEC. */
static void test_line_and_json(void **state)
{
	(void)state;
	struct pci_model_func *p = port(PCI_EXP_TYPE_ROOT_PORT, 4, 4, 3, 4, 0x0f);
	pci_model_add_cap(p, 0x80, PCI_CAP_ID_MSIX);
	pci_model_add_ext_cap(p, 0x100, PCI_EXT_CAP_ID_AER, 2);
	pci_model_add_dvsec(p, 0x200, 0x1e98, 0, 0x28, 3);
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	char line[256];
	pcie_func_line(&f, line, sizeof(line));
	assert_string_equal(line, "0000:00:01.0 8086:29c0 [0604] PCIe Root Port  8 GT/s x4 (max 16 GT/s x4)"
			    " DOWNTRAINED  caps: PCIe MSI-X AER DVSEC  bus 01-01  defects: 1");

	char buf[4096];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	json_str(&j, "type", "pcie");
	pcie_func_to_json(&f, &j);
	json_end(&j);
	assert_false(sb.overflow);
	assert_true(json_check_object(buf, sb.len));
	assert_non_null(strstr(buf, "\"bdf\":\"0000:00:01.0\",\"vendor_device\":\"8086:29c0\",\"class\":\"0x060400\""));
	assert_non_null(strstr(buf, "\"bridge\":{\"primary\":0,\"secondary\":1,\"subordinate\":1}"));
	assert_non_null(strstr(buf, "\"link\":{\"max_speed_gts\":16.000,\"max_width\":4,\"max_gbps\":7.877,"
			       "\"up\":true,\"speed_gts\":8.000,\"width\":4,\"gbps\":3.938,\"downtrained\":true"));
	assert_non_null(strstr(buf, "{\"name\":\"MSI-X\",\"id\":\"0x11\",\"offset\":\"0x80\"}"));
	assert_non_null(strstr(buf, "\"name\":\"CXL Extensions DVSEC for Ports\""));
	assert_non_null(strstr(buf, "\"defects\":[\"downtrained: 8 GT/s x4 of 16 GT/s x4\"]"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bandwidth_table),
		cmocka_unit_test(test_speed_encoding),
		cmocka_unit_test(test_root_port_8gt_x4),
		cmocka_unit_test(test_downtrained),
		cmocka_unit_test(test_link_down),
		cmocka_unit_test(test_no_link),
		cmocka_unit_test(test_64gt_and_v1),
		cmocka_unit_test(test_speed_not_in_vector),
		cmocka_unit_test(test_exp_past_256),
		cmocka_unit_test(test_port_type_names),
		cmocka_unit_test(test_line_and_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
