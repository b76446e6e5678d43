/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi/pcie/link_limit.c: the path from a device to its Root Port, the bottleneck link and the
 * effective rate after TLP overhead. Expected figures are worked out by hand from the PCIe Base
 * Specification, never with the code's constants:
 *   8 GT/s x4, 128b/130b: 8 x 4 x 128/130 / 8 = 3.938 GB/s raw per direction
 *   MPS 256, 4 DW header: overhead 16 + 4 (STP token with sequence number) + 4 (LCRC) = 24
 *     bytes, 3.938 x 256 / 280 = 3.601 GB/s
 *   2.5 GT/s x1, 8b/10b: 2.5 x 8/10 / 8 = 0.250 GB/s; MPS 128, 3 DW header: overhead 12 + 1
 *     (STP) + 2 (sequence number) + 4 (LCRC) + 1 (END) = 20 bytes, 0.250 x 128 / 148 = 0.216
 *   16 GT/s x16: 31.508 GB/s raw; MPS 512, 4 DW: 31.508 x 512 / 536 = 30.097
 *   reads: completions of min(MPS 256, MRRS 512) = 256 bytes, 3 DW: 3.938 x 256 / 276 = 3.653
 * The topology is the QEMU one the integration test boots: root port, switch upstream and
 * downstream ports, an NVMe endpoint whose own LnkSta says 2.5 GT/s x1 while its port says more.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/pci_model.h"
#include "efi/pcie/link_limit.h"
#include "efi/pcie/pcie_regs.h"
#include "efi/out/dma_json.h"
#include "tests/unit/json_check.h"

#define CLASS_BRIDGE 0x060400u
#define CLASS_NVME 0x010802u
#define SP_2_5 1
#define SP_8 3
#define SP_16 4
#define DEVCTL 0x08            /* Device Control, offset in the PCI Express capability */

static struct pci_model m;
static struct link_limit ll;

/* The link_limit object as written, checked as JSON. */
static const char *to_json(void)
{
	static char buf[2048];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	link_limit_json(&j, "link_limit", &ll);
	json_end(&j);
	assert_true(json_check_object(buf, strlen(buf)));
	return buf;
}

static void test_raw_and_effective_figures(void **state)
{
	(void)state;
	assert_int_equal(pcie_link_mgbps(8000, 4), 3938);
	assert_int_equal(link_effective_mgbps(8000, 4, 256, 16), 3601);
	assert_int_equal(link_effective_mgbps(2500, 1, 128, 12), 216);
	assert_int_equal(link_effective_mgbps(16000, 16, 512, 16), 30097);
	assert_int_equal(link_effective_mgbps(8000, 4, 256, 12), 3653);   /* completions of 256 */
	/* 5 GT/s x8 (8b/10b): 4.000 raw; MPS 128, 4 DW: 4 x 128 / 152 = 3.368 */
	assert_int_equal(link_effective_mgbps(5000, 8, 128, 16), 3368);
	/* Flit Mode is not modelled: no figure rather than a wrong one */
	assert_int_equal(link_effective_mgbps(64000, 4, 256, 16), 0);
}

static struct pci_model_func *bridge(uint8_t bus, uint8_t dev, uint8_t type, uint8_t sec, uint8_t sub, uint8_t sp,
				     uint8_t w)
{
	struct pci_model_func *f = pci_model_add(&m, 0, bus, dev, 0, 0x1b36, 0x000c, CLASS_BRIDGE, PCI_HEADER_TYPE_BRIDGE);
	pci_model_set_bridge(f, bus, sec, sub);
	pci_model_add_exp(f, 0x40, type, SP_16, 8, sp, w, 0x1f);
	return f;
}

/* 00:01.0 Root Port (8 GT/s x4) -> 01:00.0 switch upstream -> 02:00.0 downstream (LnkSta says
 * 16 GT/s x8) -> 03:00.0 NVMe (LnkSta 2.5 GT/s x1); a decoy bridge 00:02.0 to bus 4. */
static void switched(void)
{
	pci_model_init(&m);
	bridge(0, 1, PCI_EXP_TYPE_ROOT_PORT, 1, 3, SP_8, 4);
	bridge(0, 2, PCI_EXP_TYPE_ROOT_PORT, 4, 4, SP_16, 8);
	bridge(1, 0, PCI_EXP_TYPE_UPSTREAM, 2, 3, SP_8, 4);
	bridge(2, 0, PCI_EXP_TYPE_DOWNSTREAM, 3, 3, SP_16, 8);
	struct pci_model_func *e = pci_model_add(&m, 0, 3, 0, 0, 0x1b36, 0x0010, CLASS_NVME, 0);
	pci_model_add_exp(e, 0x80, PCI_EXP_TYPE_ENDPOINT, SP_2_5, 1, SP_2_5, 1, 0x01);
}

static const struct pcie_bus_range all = { 0, 0, 0xff };

static void test_switched_path_bottleneck(void **state)
{
	(void)state;
	switched();
	struct hw h = pci_model_hw(&m);
	assert_int_equal(link_limit_for(&h, &all, 1, (struct hw_pci_addr){ 0, 3, 0, 0 }, 0, &ll), 0);
	assert_int_equal(ll.npath, 4);
	const uint8_t bus[] = { 0, 1, 2, 3 }, dev[] = { 1, 0, 0, 0 };
	for (int i = 0; i < 4; i++) {
		assert_int_equal(ll.path[i].addr.bus, bus[i]);
		assert_int_equal(ll.path[i].addr.dev, dev[i]);
	}
	assert_int_equal(ll.nlinks, 2);               /* RP-USP and DSP-EP; USP-DSP is inside the switch */
	assert_int_equal(ll.links[0].mgts, 8000);
	assert_int_equal(ll.links[0].width, 4);
	assert_int_equal(ll.bottleneck, 1);
	assert_int_equal(ll.links[1].mgts, 2500);
	assert_int_equal(ll.links[1].width, 1);
	assert_true(ll.links[1].ends_disagree);
	assert_int_equal(ll.raw_mgbps, 250);
	/* the model's DevCtl: MPS 128, MRRS 512 */
	assert_int_equal(ll.mps, 128);
	assert_int_equal(ll.mrrs, 512);
	assert_int_equal(ll.eff_write_mgbps, 216);
	assert_int_equal(ll.eff_read_mgbps, 216);    /* completions of 128, 3 DW: same as writes */

	/* 2,000,000 bytes written by the device in 10 ms: 0.200 of 0.216 GB/s = 0.925 */
	link_limit_rate(&ll, 0, 2000000, 10000000);
	assert_true(ll.have_fraction);
	assert_int_equal(ll.dir, LINK_DIR_WRITE);
	assert_int_equal(ll.fraction_milli, 925);
	assert_false(ll.impossible);
	/* twice that: 0.400 GB/s through a 0.216 GB/s link cannot happen on real hardware */
	link_limit_rate(&ll, 0, 4000000, 10000000);
	assert_int_equal(ll.fraction_milli, 1850);
	assert_true(ll.impossible);

	const char *buf = to_json();
	assert_non_null(strstr(buf, "\"path\":[\"0000:00:01.0\",\"0000:01:00.0\",\"0000:02:00.0\",\"0000:03:00.0\"]"));
	assert_non_null(strstr(buf, "\"bottleneck\":{\"port\":\"0000:02:00.0\",\"device\":\"0000:03:00.0\",\"gts\":2.500,\"width\":1}"));
	assert_non_null(strstr(buf, "\"impossible\":\"emulated link or counting error\""));
	assert_non_null(strstr(buf, "\"raw_gbps\":0.250"));
}

static void test_mps_256_reads_and_64bit_writes(void **state)
{
	(void)state;
	pci_model_init(&m);
	struct pci_model_func *rp = bridge(0, 1, PCI_EXP_TYPE_ROOT_PORT, 1, 1, SP_8, 4);
	struct pci_model_func *e = pci_model_add(&m, 0, 1, 0, 0, 0x8086, 0x0953, CLASS_NVME, 0);
	pci_model_add_exp(e, 0x80, PCI_EXP_TYPE_ENDPOINT, SP_8, 4, SP_8, 4, 0x07);
	/* DevCtl Max_Payload_Size 256 (001b at 7:5), Max_Read_Request_Size 512 (010b at 14:12) */
	pci_model_w16(rp, 0x40 + DEVCTL, 0x2020);
	pci_model_w16(e, 0x80 + DEVCTL, 0x2020);
	struct hw h = pci_model_hw(&m);
	assert_int_equal(link_limit_for(&h, &all, 1, (struct hw_pci_addr){ 0, 1, 0, 0 }, 1, &ll), 0);
	assert_int_equal(ll.npath, 2);
	assert_int_equal(ll.raw_mgbps, 3938);
	assert_int_equal(ll.mps, 256);
	assert_int_equal(ll.eff_write_mgbps, 3601);
	assert_int_equal(ll.eff_read_mgbps, 3653);
	/* a read of 3.0 GB/s by the device: 3.0 / 3.653 = 0.821 */
	link_limit_rate(&ll, 3000000, 0, 1000000);
	assert_int_equal(ll.dir, LINK_DIR_READ);
	assert_int_equal(ll.fraction_milli, 821);
	/* both directions at once: the slower one bounds the window (writes 3.5 / 3.601 = 0.972) */
	link_limit_rate(&ll, 3000000, 3500000, 1000000);
	assert_int_equal(ll.dir, LINK_DIR_WRITE);
	assert_int_equal(ll.fraction_milli, 972);
}

static void test_root_bus_device_has_no_link(void **state)
{
	(void)state;
	pci_model_init(&m);
	pci_model_add(&m, 0, 0, 4, 0, 0x1234, 0x11e8, 0x00ff00, 0);   /* QEMU's edu on the root bus */
	struct hw h = pci_model_hw(&m);
	assert_int_equal(link_limit_for(&h, &all, 1, (struct hw_pci_addr){ 0, 0, 4, 0 }, 0, &ll), -1);
	assert_non_null(strstr(ll.why, "root bus"));
	link_limit_rate(&ll, 0, 4096, 1000);
	assert_false(ll.have_fraction);
	assert_int_equal(link_limit_for(&h, &all, 1, (struct hw_pci_addr){ 0, 0, 5, 0 }, 0, &ll), -1);
	assert_non_null(strstr(ll.why, "no function"));
	const char *buf = to_json();
	assert_non_null(strstr(buf, "\"status\":\"absent\""));
	assert_non_null(strstr(buf, "\"fraction\":null"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_and_effective_figures),
		cmocka_unit_test(test_switched_path_bottleneck),
		cmocka_unit_test(test_mps_256_reads_and_64bit_writes),
		cmocka_unit_test(test_root_bus_device_has_no_link),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
