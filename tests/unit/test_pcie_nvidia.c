/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NVIDIA root-complex map DVSEC (vendor 0x10de, DVSEC ID 0x4) and CXL DVSEC names.
 *
 * The oracle is the 21-line "Example output" of Linux
 * Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst ("Mapping the RC# to lspci segment
 * number"), copied verbatim. Each line's root port is built as
 * a synthetic config space: a Root Port with a PCI Express capability, AER, L1 PM Substates and
 * a DVSEC of another vendor and ID before the NVIDIA one, at offsets that vary per port, so the
 * extended-capability walk and the byte reads at +0xc..+0x10 are what produce the line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"
#include "tests/model/pci_model.h"
#include "tests/unit/json_check.h"

static const char *const doc_lines[] = {
	"0001:00:00.0: Bus=00, Segment=01, RP=00, RC=00, Socket=00",
	"0002:80:00.0: Bus=80, Segment=02, RP=01, RC=01, Socket=00",
	"0002:a0:00.0: Bus=a0, Segment=02, RP=02, RC=01, Socket=00",
	"0002:c0:00.0: Bus=c0, Segment=02, RP=03, RC=01, Socket=00",
	"0002:e0:00.0: Bus=e0, Segment=02, RP=04, RC=01, Socket=00",
	"0003:00:00.0: Bus=00, Segment=03, RP=00, RC=02, Socket=00",
	"0004:00:00.0: Bus=00, Segment=04, RP=00, RC=03, Socket=00",
	"0005:00:00.0: Bus=00, Segment=05, RP=00, RC=04, Socket=00",
	"0005:40:00.0: Bus=40, Segment=05, RP=01, RC=04, Socket=00",
	"0005:c0:00.0: Bus=c0, Segment=05, RP=02, RC=04, Socket=00",
	"0006:00:00.0: Bus=00, Segment=06, RP=00, RC=05, Socket=00",
	"0009:00:00.0: Bus=00, Segment=09, RP=00, RC=00, Socket=01",
	"000a:80:00.0: Bus=80, Segment=0a, RP=01, RC=01, Socket=01",
	"000a:a0:00.0: Bus=a0, Segment=0a, RP=02, RC=01, Socket=01",
	"000a:e0:00.0: Bus=e0, Segment=0a, RP=03, RC=01, Socket=01",
	"000b:00:00.0: Bus=00, Segment=0b, RP=00, RC=02, Socket=01",
	"000c:00:00.0: Bus=00, Segment=0c, RP=00, RC=03, Socket=01",
	"000d:00:00.0: Bus=00, Segment=0d, RP=00, RC=04, Socket=01",
	"000d:40:00.0: Bus=40, Segment=0d, RP=01, RC=04, Socket=01",
	"000d:c0:00.0: Bus=c0, Segment=0d, RP=02, RC=04, Socket=01",
	"000e:00:00.0: Bus=00, Segment=0e, RP=00, RC=05, Socket=01",
};
#define NDOC ((int)(sizeof(doc_lines) / sizeof(doc_lines[0])))

#define NV_RP_DEVICE 0x22b2u    /* any device ID: the map does not depend on it */
#define NV_GPU_DEVICE 0x2901u
#define CLASS_PCI_BRIDGE 0x060400u
#define CLASS_3D 0x030200u
#define OTHER_VENDOR 0x1234u

static struct pci_model m;
static struct hw h;
static struct pcie_func funcs[PCIE_MAX_FUNCS];

struct rp { unsigned seg, bus, b, s, rp, rc, sock; };

static void parse(const char *line, struct rp *r)
{
	assert_int_equal(sscanf(line, "%x:%x:00.0: Bus=%x, Segment=%x, RP=%x, RC=%x, Socket=%x",
				&r->seg, &r->bus, &r->b, &r->s, &r->rp, &r->rc, &r->sock), 7);
}

/* One Tegra410-like root port; i varies the layout so every port has its DVSEC elsewhere. */
static void build_root_port(int i, const struct rp *r)
{
	struct pci_model_func *f = pci_model_add(&m, (uint16_t)r->seg, (uint8_t)r->bus, 0, 0,
						 PCI_VENDOR_ID_NVIDIA, NV_RP_DEVICE, CLASS_PCI_BRIDGE,
						 PCI_HEADER_TYPE_BRIDGE);
	assert_non_null(f);
	pci_model_set_bridge(f, (uint8_t)r->bus, (uint8_t)(r->bus + 1), (uint8_t)(r->bus + 0x1f));
	pci_model_add_cap(f, 0x40, PCI_CAP_ID_PM);
	pci_model_add_exp(f, 0x60, PCI_EXP_TYPE_ROOT_PORT, 5, 8, 5, 8, 0x1f);
	pci_model_add_cap(f, 0xa0, PCI_CAP_ID_MSIX);
	uint16_t off = PCI_EXT_CAP_START;
	pci_model_add_ext_cap(f, off, PCI_EXT_CAP_ID_AER, 2);
	off = (uint16_t)(off + 0x48);
	if (i % 2) {
		pci_model_add_ext_cap(f, off, PCI_EXT_CAP_ID_L1SS, 1);
		off = (uint16_t)(off + 0x10);
	}
	/* another vendor's DVSEC, and an NVIDIA DVSEC with another ID, before the map */
	pci_model_add_dvsec(f, off, OTHER_VENDOR, 0, 0x10, 0x4);
	off = (uint16_t)(off + 0x10 + 4 * (i % 5));
	pci_model_add_dvsec(f, off, PCI_VENDOR_ID_NVIDIA, 0, 0x10, 0x1);
	off = (uint16_t)(off + 0x20 + 0x40 * (i % 3));
	pci_model_add_dvsec(f, off, PCI_VENDOR_ID_NVIDIA, 1, 0x14, NV_DVSEC_ID_RC_MAP);
	pci_model_w8(f, off + NV_DVSEC_BUS, (uint8_t)r->b);
	pci_model_w8(f, off + NV_DVSEC_SEGMENT, (uint8_t)r->s);
	pci_model_w8(f, off + NV_DVSEC_RP, (uint8_t)r->rp);
	pci_model_w8(f, off + NV_DVSEC_RC, (uint8_t)r->rc);
	pci_model_w8(f, off + NV_DVSEC_SOCKET, (uint8_t)r->sock);
	pci_model_w8(f, off + NV_DVSEC_SOCKET + 1, 0xee); /* a neighbour byte that must not leak */
	pci_model_add_ext_cap(f, (uint16_t)(off + 0x20), PCI_EXT_CAP_ID_PL_16GT, 1);
}

static void test_seed_example_output(void **state)
{
	(void)state;
	struct pcie_bus_range ranges[16];
	int nranges = 0;

	pci_model_init(&m);
	h = pci_model_hw(&m);
	for (int i = 0; i < NDOC; i++) {
		struct rp r;
		parse(doc_lines[i], &r);
		build_root_port(i, &r);
		if (nranges == 0 || ranges[nranges - 1].segment != r.seg)
			ranges[nranges++] = (struct pcie_bus_range){ (uint16_t)r.seg, 0x00, 0xff };
	}
	/* a GPU behind the first port of segment 2: NVIDIA vendor, no DVSEC, no line */
	struct pci_model_func *gpu = pci_model_add(&m, 2, 0x81, 0, 0, PCI_VENDOR_ID_NVIDIA,
						   NV_GPU_DEVICE, CLASS_3D, PCI_HEADER_TYPE_NORMAL);
	pci_model_add_exp(gpu, 0x40, PCI_EXP_TYPE_ENDPOINT, 5, 16, 5, 16, 0x1f);

	struct pcie_scan s;
	pcie_scan_init(&s, funcs, PCIE_MAX_FUNCS);
	assert_int_equal(pcie_enumerate(&h, &s, ranges, nranges), NDOC + 1);
	assert_int_equal(s.overflow, 0);

	int k = 0;
	for (int i = 0; i < s.n; i++) {
		char line[128];
		const struct pcie_func *f = &s.funcs[i];
		assert_int_equal(f->ndefects, 0);
		if (!pcie_nvidia_map_line(f, line, sizeof(line))) {
			assert_int_equal(f->device, NV_GPU_DEVICE);
			assert_int_equal(f->parent_addr.bus, 0x80);
			continue;
		}
		assert_true(k < NDOC);
		assert_string_equal(line, doc_lines[k]);
		assert_int_equal(f->ndvsec, 3);
		k++;
	}
	assert_int_equal(k, NDOC);
}

/* JSON of one mapped port: valid, with the nvidia object and the DVSEC header fields. */
static void test_nvidia_json(void **state)
{
	(void)state;
	struct pcie_func f;
	char buf[8192];
	struct strbuf sb;
	struct json j;
	struct rp r;

	pci_model_init(&m);
	h = pci_model_hw(&m);
	parse(doc_lines[12], &r);
	build_root_port(12, &r);
	assert_int_equal(pcie_probe_func(&h, (struct hw_pci_addr){ 0xa, 0x80, 0, 0 }, &f), HW_OK);
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	json_str(&j, "type", "pcie");
	pcie_func_to_json(&f, &j);
	json_end(&j);
	assert_false(sb.overflow);
	assert_true(json_check_object(buf, sb.len));
	assert_non_null(strstr(buf, "\"vendor\":\"0x10de\",\"id\":\"0x4\",\"rev\":1,\"length\":20"));
	assert_non_null(strstr(buf, "\"name\":\"NVIDIA RC map\""));
	assert_non_null(strstr(buf, "\"nvidia\":{\"bus\":128,\"segment\":10,\"rp\":1,\"rc\":1,\"socket\":1}"));
}

/* CXL 3.1 Table 8-2 "CXL DVSEC ID Assignment". */
static void test_cxl_names(void **state)
{
	(void)state;
	static const struct { uint16_t id; const char *name; } t[] = {
		{ 0x0, "CXL PCIe DVSEC for CXL Devices" },
		{ 0x2, "CXL Non-CXL Function Map" },
		{ 0x3, "CXL Extensions DVSEC for Ports" },
		{ 0x4, "CXL GPF DVSEC for CXL Ports" },
		{ 0x5, "CXL GPF DVSEC for CXL Devices" },
		{ 0x7, "CXL PCIe DVSEC for Flex Bus Port" },
		{ 0x8, "CXL Register Locator" },
		{ 0x9, "CXL MLD DVSEC" },
		{ 0xa, "CXL PCIe DVSEC for Test Capability" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_string_equal(pcie_dvsec_name(PCI_VENDOR_ID_CXL, t[i].id), t[i].name);
	assert_null(pcie_dvsec_name(PCI_VENDOR_ID_CXL, 0x1));
	assert_null(pcie_dvsec_name(PCI_VENDOR_ID_CXL, 0x6));
	assert_null(pcie_dvsec_name(PCI_VENDOR_ID_CXL, 0xb));
	assert_null(pcie_dvsec_name(OTHER_VENDOR, 0x8));
	assert_string_equal(pcie_dvsec_name(PCI_VENDOR_ID_NVIDIA, NV_DVSEC_ID_RC_MAP), "NVIDIA RC map");
}

/* A CXL root port as QEMU's cxl-rp builds it: DVSEC IDs 3, 4, 7, 8 found with their headers. */
static void test_cxl_root_port(void **state)
{
	(void)state;
	static const uint16_t ids[] = { 3, 4, 7, 8 };
	static const uint16_t lens[] = { 0x28, 0x10, 0x20, 0x24 };
	struct pcie_func f;
	pci_model_init(&m);
	h = pci_model_hw(&m);
	struct pci_model_func *p = pci_model_add(&m, 0, 0x35, 0, 0, 0x8086, 0x7075, CLASS_PCI_BRIDGE,
						 PCI_HEADER_TYPE_BRIDGE);
	pci_model_add_exp(p, 0x40, PCI_EXP_TYPE_ROOT_PORT, 4, 16, 4, 16, 0x0f);
	pci_model_add_ext_cap(p, 0x100, PCI_EXT_CAP_ID_AER, 2);
	for (int i = 0; i < 4; i++)
		pci_model_add_dvsec(p, (uint16_t)(0x200 + 0x40 * i), PCI_VENDOR_ID_CXL, i == 2 ? 2 : 0, lens[i], ids[i]);
	assert_int_equal(pcie_probe_func(&h, p->addr, &f), HW_OK);
	assert_int_equal(f.ndvsec, 4);
	assert_int_equal(f.next, 5);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(f.dvsec[i].vendor, PCI_VENDOR_ID_CXL);
		assert_int_equal(f.dvsec[i].id, ids[i]);
		assert_int_equal(f.dvsec[i].length, lens[i]);
		assert_int_equal(f.dvsec[i].offset, 0x200 + 0x40 * i);
		assert_int_equal(f.dvsec[i].has_nvidia, 0);
	}
	assert_int_equal(f.dvsec[2].rev, 2);
	assert_int_equal(f.ndefects, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_example_output),
		cmocka_unit_test(test_nvidia_json),
		cmocka_unit_test(test_cxl_names),
		cmocka_unit_test(test_cxl_root_port),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
