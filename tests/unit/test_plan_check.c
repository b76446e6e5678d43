/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The run plan's PCI checks (efi/measure/plan_check.c) on the PCI model: each key naming a PCI
 * function is resolved against its configuration space before any window. The IDs are QEMU's
 * (docs/specs/edu.rst: edu 1234:11e8, registers in BAR0; docs/specs/nvme.rst / pci-ids.rst:
 * 1b36:0010 NVMe), class codes from the PCI Code and ID Assignment specification (01 08 02 NVM
 * Express, 01 06 01 AHCI). Every register is as found afterwards (BAR sizing puts them back).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/pci_model.h"
#include "efi/measure/plan_check.h"
#include "efi/config/config.h"
#include "efi/pcie/pcie_regs.h"

static struct pci_model m;
static struct hw h;
static struct efiperf_config cfg;
static struct pci_model_func *edu, *nvme, *ahci;

static void machine(void)
{
	pci_model_init(&m);
	h = pci_model_hw(&m);
	edu = pci_model_add(&m, 0, 0, 6, 0, 0x1234, 0x11e8, 0x00ff00, 0);
	pci_model_set_bar(edu, 0, 0xfea00000, 1 << 20, 0);
	nvme = pci_model_add(&m, 0, 0, 7, 0, 0x1b36, 0x0010, 0x010802, 0);
	pci_model_set_bar(nvme, 0, 0xfeb00000, 0x4000, 0x4);
	ahci = pci_model_add(&m, 0, 0, 0x1f, 2, 0x8086, 0x2922, 0x010601, 0);
	pci_model_w32(ahci, 0x10 + 4 * 4, 0xc041);           /* BAR4: an I/O BAR */
	pci_model_set_bar(ahci, 5, 0xfebd0000, 0x1000, 0);
}

static int check(const char *text, struct plan_errors *e)
{
	struct cfg_errors errs = { 0 };
	cfg_defaults(&cfg);
	assert_int_equal(cfg_parse_text(&cfg, text, strlen(text), "efiperf.cfg", &errs), 0);
	memset(e, 0, sizeof(*e));
	uint8_t before[3][256];
	memcpy(before[0], edu->cfg, 256);
	memcpy(before[1], nvme->cfg, 256);
	memcpy(before[2], ahci->cfg, 256);
	int n = plan_check_pci(&h, &cfg, e);
	assert_memory_equal(before[0], edu->cfg, 256);
	assert_memory_equal(before[1], nvme->cfg, 256);
	assert_memory_equal(before[2], ahci->cfg, 256);
	return n;
}

static void test_good_plan(void **state)
{
	(void)state;
	struct plan_errors e;
	machine();
	assert_int_equal(check("dma_engine = 00:06.0\nmmio_bdf = 00:1f.2\nmmio_bar = 5\nnvme = 00:07.0\n"
			       "dma_blockio = 00:07.0\nddio_sweep = 64K,1M\ndma_cpu_traffic = triad\n", &e), 0);
	assert_int_equal(check("", &e), 0);   /* defaults name no hardware */
}

static void test_dma_engine(void **state)
{
	(void)state;
	struct plan_errors e;
	machine();
	assert_int_equal(check("dma_engine = 00:07.0\n", &e), 1);
	assert_int_equal(e.e[0].key, CFG_DMA_ENGINE);
	assert_string_equal(e.e[0].msg, "0000:00:07.0 is 1b36:0010, not a DMA engine efiperf knows");
	assert_int_equal(check("dma_engine = 00:08.0\n", &e), 1);
	assert_string_equal(e.e[0].msg, "0000:00:08.0: no PCI function there");
	pci_model_w32(edu, 0x10, 0);                          /* BAR0 decodes nothing */
	edu->bar_wmask[0] = 0;
	assert_int_equal(check("dma_engine = 00:06.0\n", &e), 1);
	assert_int_equal(e.e[0].key, CFG_DMA_ENGINE);
	assert_non_null(strstr(e.e[0].msg, "register BAR0"));
}

static void test_mmio_bar(void **state)
{
	(void)state;
	struct plan_errors e;
	machine();
	assert_int_equal(check("mmio_bdf = 00:1f.2\nmmio_bar = 4\n", &e), 1);
	assert_int_equal(e.e[0].key, CFG_MMIO_BAR);
	assert_string_equal(e.e[0].msg, "0000:00:1f.2 BAR4 (mmio_bdf 0000:00:1f.2): I/O BAR");
	assert_int_equal(check("mmio_bdf = 00:1f.2\nmmio_bar = 2\n", &e), 1);
	assert_non_null(strstr(e.e[0].msg, "no such BAR"));
	assert_int_equal(check("mmio_bdf = 00:03.0\n", &e), 1);
	assert_int_equal(e.e[0].key, CFG_MMIO_BDF);
}

static void test_nvme_and_needs(void **state)
{
	(void)state;
	struct plan_errors e;
	machine();
	assert_int_equal(check("nvme = 00:07.0,00:1f.2,00:09.0\n", &e), 2);
	assert_int_equal(e.e[0].key, CFG_NVME);
	assert_string_equal(e.e[0].msg, "0000:00:1f.2 is not an NVMe controller (class code 010601, NVMe is 010802)");
	assert_string_equal(e.e[1].msg, "0000:00:09.0: no PCI function there");
	assert_int_equal(check("nvme = all\n", &e), 0);       /* all: the measurement finds them */
	assert_int_equal(check("nvme = 00:07.0\nnvme_rw = write\n", &e), 1);
	assert_int_equal(e.e[0].key, CFG_NVME_RW);
	assert_int_equal(check("ddio_sweep = 64K\ndma_cpu_traffic = copy\n", &e), 2);
	assert_int_equal(e.e[0].key, CFG_DDIO_SWEEP);
	assert_int_equal(e.e[1].key, CFG_DMA_CPU_TRAFFIC);
	assert_non_null(strstr(e.e[0].msg, "dma_blockio"));
	/* the config records where each key was set: the caller names file:line */
	assert_string_equal(cfg.origin[CFG_DMA_CPU_TRAFFIC], "efiperf.cfg:2");
	assert_string_equal(cfg_key_name(CFG_DMA_CPU_TRAFFIC), "dma_cpu_traffic");
}

static void test_overflow(void **state)
{
	(void)state;
	struct plan_errors e = { 0 };
	for (int i = 0; i < PLAN_MAX_ERRORS + 3; i++)
		plan_error_add(&e, CFG_NVME, "error %d", i);
	assert_int_equal(e.n, PLAN_MAX_ERRORS + 3);
	assert_string_equal(e.e[PLAN_MAX_ERRORS - 1].msg, "error 7");
}

/* pcie_pmu_rp: the NVIDIA DVSEC RC map of nvidia-tegra410-pmu.rst's example line
 * "0002:80:00.0: Bus=80, Segment=02, RP=01, RC=01, Socket=00" */
static struct pci_model_func *nv_root_port(uint16_t seg, uint8_t bus, uint8_t map_bus, int with_dvsec)
{
	struct pci_model_func *f = pci_model_add(&m, seg, bus, 0, 0, 0x10de, 0x22b2, 0x060400, 1);
	pci_model_add_cap(f, 0x40, 0x10);
	pci_model_add_exp(f, 0x40, PCI_EXP_TYPE_ROOT_PORT, 4, 8, 4, 8, 0x0f);
	pci_model_add_ext_cap(f, 0x100, 0x0001, 2);
	if (with_dvsec) {
		pci_model_add_dvsec(f, 0x150, 0x10de, 1, 0x14, 0x4);
		pci_model_w8(f, 0x150 + 0xc, map_bus);
		pci_model_w8(f, 0x150 + 0xd, (uint8_t)seg);
		pci_model_w8(f, 0x150 + 0xe, 1);
		pci_model_w8(f, 0x150 + 0xf, 1);
		pci_model_w8(f, 0x150 + 0x10, 0);
	}
	return f;
}

static void test_pcie_pmu_rp(void **state)
{
	(void)state;
	struct plan_errors e;
	machine();
	nv_root_port(2, 0x80, 0x80, 1);
	nv_root_port(2, 0xa0, 0xa0, 0);          /* a root port without the RC map */
	nv_root_port(3, 0x00, 0x40, 1);          /* a map naming another bus */
	assert_int_equal(check("pcie_pmu_rp = 0002:80:00.0\n", &e), 0);
	assert_int_equal(check("pcie_pmu_rp = 0002:a0:00.0\n", &e), 1);
	assert_int_equal(e.e[0].key, CFG_PCIE_PMU_RP);
	assert_string_equal(e.e[0].msg, "0002:a0:00.0 (10de:22b2) is not an NVIDIA root port: no DVSEC vendor 0x10de ID 0x4 (RC map)");
	assert_int_equal(check("pcie_pmu_rp = 00:07.0\n", &e), 1);
	assert_string_equal(e.e[0].msg, "0000:00:07.0 (1b36:0010) is not a PCI Express Root Port");
	assert_int_equal(check("pcie_pmu_rp = 0003:00:00.0\n", &e), 1);
	assert_non_null(strstr(e.e[0].msg, "says segment 03 bus 40"));
	assert_int_equal(check("pcie_pmu_rp = 0002:c0:00.0\n", &e), 1);
	assert_string_equal(e.e[0].msg, "0002:c0:00.0: no PCI function there");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_plan),
		cmocka_unit_test(test_dma_engine),
		cmocka_unit_test(test_mmio_bar),
		cmocka_unit_test(test_nvme_and_needs),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_pcie_pmu_rp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
