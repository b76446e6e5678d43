/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel IMC (PCI on SKX, MMIO on ICX) and IIO (MSR) on the register model
 * (tests/model/intel_uncore_model.c): encodings as literals from Linux's format attributes
 * (arch/x86/events/intel/uncore_snbep.c) and Intel's perfmon files, the units found in
 * configuration space, scripted traffic counted into exact metrics (per channel, per stack and
 * part, multiplexed IIO groups), the self-check against a copy's bytes, and every register
 * restored (or named) under fault injection at each access, once and from then on.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/intel_uncore_model.h"
#include "pmu/uncore/intel_uncore.h"
#include "pmu/uncore/intel_discovery.h"

static struct intel_uncore_model u;
static struct hw h;
static struct unc_request req;
static struct unc_result res;
static struct intel_pci_fn fns[256];
static uint32_t nfns;
static struct intel_unit units[32];
static uint32_t nunits;

static uint64_t window(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)arg;
	(void)slice;
	(void)nslices;
	hw_model_tick(&u.m, 100);
	return 1000;
}

static const struct intel_uncore_platform *plat(const char *name)
{
	const struct intel_uncore_platform *p = intel_uncore_platform_by_name(name);
	assert_non_null(p);
	return p;
}

static uint64_t enc(const char *pname, enum intel_box b, const char *spec, int *box)
{
	uint64_t ctl = 0;
	char why[160] = "";
	int bx;
	if (intel_uncore_encode(&plat(pname)->box[b], spec, strlen(spec), &ctl, &bx, NULL, why, sizeof(why)))
		fail_msg("%s: %s", spec, why);
	if (box)
		*box = bx;
	return ctl;
}

static void test_encodings(void **state)
{
	(void)state;
	int box;
	/* SKX IIO: ch_mask config:36-43, fc_mask 44-46, EN bit 22 */
	assert_int_equal(enc("SKX", INTEL_BOX_IIO, "DATA_REQ_OF_CPU.MEM_READ.PART0", &box), 0x0000701000400483ull);
	assert_int_equal(box, -1);
	assert_int_equal(enc("SKX", INTEL_BOX_IIO, "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART3", NULL), 0x0000708000400183ull);
	assert_int_equal(enc("SKX", INTEL_BOX_IIO, "uncore_iio_0/event=0x83,umask=0x4,ch_mask=0x1,fc_mask=0x7/", &box),
			 0x0000701000400483ull);
	assert_int_equal(box, 0);
	/* ICX IIO: ch_mask2 config:36-47, fc_mask2 48-50 */
	assert_int_equal(enc("ICX", INTEL_BOX_IIO, "DATA_REQ_OF_CPU.MEM_READ.PART0", NULL), 0x0007001000400483ull);
	assert_int_equal(enc("ICX", INTEL_BOX_IIO, "DATA_REQ_BY_CPU.MEM_WRITE.PART7", NULL), 0x00070800004001C0ull);
	assert_int_equal(enc("ICX", INTEL_BOX_IIO, "uncore_iio_5/event=0x83,umask=0x1,ch_mask=0xff,fc_mask=0x7/", &box),
			 0x00070FF000400183ull);
	assert_int_equal(box, 5);
	/* IMC CAS: SKX umask 0x03 / 0x0C, ICX 0x0F / 0x30 */
	assert_int_equal(enc("SKX", INTEL_BOX_IMC, "CAS_COUNT.RD", NULL), 0x400304);
	assert_int_equal(enc("SKX", INTEL_BOX_IMC, "CAS_COUNT.WR", NULL), 0x400C04);
	/* the README's uncore_events example, uncore_imc[_N]/event=0x4,umask=0x3/: CAS_COUNT.RD raw */
	assert_int_equal(enc("SKX", INTEL_BOX_IMC, "uncore_imc/event=0x4,umask=0x3/", &box), 0x400304);
	assert_int_equal(box, -1);
	assert_int_equal(enc("SKX", INTEL_BOX_IMC, "uncore_imc_1/event=0x4,umask=0x3/", &box), 0x400304);
	assert_int_equal(box, 1);
	assert_int_equal(enc("ICX", INTEL_BOX_IMC, "UNC_M_CAS_COUNT.RD", NULL), 0x400F04);
	assert_int_equal(enc("ICX", INTEL_BOX_IMC, "uncore_imc_2/event=0x4,umask=0x30/", &box), 0x403004);
	assert_int_equal(box, 2);
	assert_int_equal(enc("ICX", INTEL_BOX_IMC, "uncore_imc/event=0x4,umask=0xf,thresh=0x1,inv=1/", NULL), 0x01C00F04);
}

static void test_encode_errors(void **state)
{
	(void)state;
	char why[160];
	uint64_t ctl;
	int box;
	const struct intel_box_desc *iio = &plat("SKX")->box[INTEL_BOX_IIO];
	const char *s = "uncore_iio/event=0x83,ch_mask=0x100/";           /* SKX ch_mask is 8 bits */
	assert_int_equal(intel_uncore_encode(iio, s, strlen(s), &ctl, &box, NULL, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "ch_mask"));
	s = "uncore_iio_6/event=0x83/";                                   /* 6 stacks: 0..5 */
	assert_int_equal(intel_uncore_encode(iio, s, strlen(s), &ctl, &box, NULL, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "uncore_iio_6"));
	s = "uncore_imc/event=0x4/";
	assert_int_equal(intel_uncore_encode(iio, s, strlen(s), &ctl, &box, NULL, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "uncore_imc"));
	s = "uncore_imc/event=0x4,ch_mask=1/";
	assert_int_equal(intel_uncore_encode(&plat("SKX")->box[INTEL_BOX_IMC], s, strlen(s), &ctl, &box, NULL, why,
					     sizeof(why)), -1);
	assert_non_null(strstr(why, "ch_mask"));
}

static void test_tables(void **state)
{
	(void)state;
	assert_string_equal(intel_uncore_platform_for(6, 0x55)->name, "SKX");
	assert_string_equal(intel_uncore_platform_for(6, 0x6A)->name, "ICX");
	assert_string_equal(intel_uncore_platform_for(6, 0x6C)->name, "ICX");
	assert_string_equal(intel_uncore_platform_for(6, 0x8F)->name, "SPR");
	assert_string_equal(intel_uncore_platform_for(6, 0xCF)->name, "EMR");
	assert_string_equal(intel_uncore_platform_for(6, 0xAD)->name, "GNR");
	assert_string_equal(intel_uncore_platform_for(6, 0xAE)->name, "GNR-D");   /* GNR's events, no stack map */
	assert_string_equal(plat("GNR-D")->events_of, "GNR");
	assert_ptr_equal(plat("GNR-D")->box[INTEL_BOX_IMC].events, plat("GNR")->box[INTEL_BOX_IMC].events);
	assert_string_equal(intel_uncore_platform_for(6, 0xAF)->name, "SRF");
	assert_string_equal(intel_uncore_platform_for(6, 0xDD)->name, "CWF");
	assert_null(intel_uncore_platform_for(6, 0x8E));
	assert_null(intel_uncore_platform_for(0x19, 0x55));
	assert_int_equal(plat("SKX")->box[INTEL_BOX_IMC].nevents, intel_imc_skx_n);
	assert_int_equal(plat("ICX")->box[INTEL_BOX_IMC].nevents, intel_imc_icx_n);
	assert_int_equal(plat("SKX")->box[INTEL_BOX_IIO].nevents, intel_iio_skx_n);
	assert_int_equal(plat("ICX")->box[INTEL_BOX_IIO].nevents, intel_iio_icx_n);
}

/* SKX: two sockets (buses 0x3A and 0xAE: hypothetical uncore buses) with all six channels */
static void skx_imc_model(void)
{
	iu_model_init(&u, IU_SKX);
	static const uint8_t df[6][2] = { { 10, 2 }, { 10, 6 }, { 11, 2 }, { 12, 2 }, { 12, 6 }, { 13, 2 } };
	static const uint16_t did[6] = { 0x2042, 0x2046, 0x204A, 0x2042, 0x2046, 0x204A };
	for (int s = 0; s < 2; s++)
		for (int c = 0; c < 6; c++)
			iu_model_skx_channel(&u, s ? 0xAE : 0x3A, df[c][0], df[c][1], did[c]);
	h = iu_model_hw(&u);
}

static const uint32_t icx_mem[4] = { 0x1, 0x2, 0, 0x4 };     /* IMC 2 not populated */

static void icx_imc_model(void)
{
	iu_model_init(&u, IU_ICX);
	iu_model_icx_mc(&u, 0x7E, 0x1FC, icx_mem);                /* base 0x1FC << 23 = 0xFE000000 */
	h = iu_model_hw(&u);
}

static void find_imc(const char *pname)
{
	char why[160] = "";
	nfns = intel_pci_scan(&h, 0, 0, 0xFF, fns, 256);
	if (intel_imc_find(&h, plat(pname), fns, nfns, units, 32, &nunits, why, sizeof(why)))
		fail_msg("imc: %s", why);
}

static void request(const char *pname, enum intel_box b, const char *events)
{
	char why[160] = "";
	uint32_t cpu[2] = { 0, 2 };
	if (intel_uncore_request(plat(pname), b, units, nunits, cpu, events, &req, why, sizeof(why)))
		fail_msg("request: %s", why);
}

static void test_skx_imc_found_and_counted(void **state)
{
	(void)state;
	skx_imc_model();
	find_imc("SKX");
	assert_int_equal(nunits, 12);
	assert_int_equal(units[0].socket, 0);
	assert_int_equal(units[0].site.pci.bus, 0x3A);
	assert_int_equal(units[0].site.pci.dev, 10);
	assert_int_equal(units[11].socket, 1);
	assert_int_equal(units[11].unit, 5);
	assert_int_equal(units[11].site.pci.dev, 13);
	for (unsigned c = 0; c < 12; c++) {
		iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, (uint8_t)c, 0, 0x04, 0x03, 10 * (c + 1) });
		iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, (uint8_t)c, 0, 0x04, 0x0C, 5 * (c + 1) });
	}
	request("SKX", INTEL_BOX_IMC, NULL);
	assert_int_equal(req.nevents, 2);
	assert_int_equal(req.ngroups, 1);
	assert_int_equal(req.npkgs, 12);
	assert_int_equal(req.cpu[6], 2);                       /* socket 1's channels from CPU 2 */
	/* a copy of N bytes: 2N read, N written; counted = 3N */
	uint64_t rd = 0, wr = 0;
	for (unsigned c = 0; c < 12; c++) {
		rd += 10 * (c + 1) * 100 * 64ull;
		wr += 5 * (c + 1) * 100 * 64ull;
	}
	req.known_read_bytes = rd;
	req.known_write_bytes = wr;
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.state, UNC_STATE_COUNTING);
	for (unsigned c = 0; c < 12; c++) {
		assert_int_equal(res.raw[c][0], 10 * (c + 1) * 100);
		assert_int_equal(res.raw[c][1], 5 * (c + 1) * 100);
		assert_int_equal(res.m[c].dram_read_bytes, 10 * (c + 1) * 100 * 64ull);
	}
	assert_int_equal(res.total.dram_read_bytes, rd);
	assert_int_equal(res.total.dram_write_bytes, wr);
	assert_int_equal(res.total.dram_rw_bytes, rd + wr);
	assert_int_equal(res.total.dram_gbps_milli, (rd + wr) * 1000 / 1000);   /* bytes per ns x 1000 */
	assert_int_equal(res.total.self_check_state, UNC_CHECK_OK);
	assert_int_equal(res.total.self_check_milli, 1000);
	/* the box programmed through configuration space: CTL0 0xD8 holds CAS_COUNT.RD, restored to 0 */
	assert_int_equal(pci_model_r32(pci_model_find(&u.pci, units[0].site.pci), 0xD8), 0);
}

static void test_skx_imc_unit_and_absent(void **state)
{
	(void)state;
	skx_imc_model();
	find_imc("SKX");
	request("SKX", INTEL_BOX_IMC, "uncore_imc_4/event=0x4,umask=0x3/; uncore_imc_4/event=0x4,umask=0xc/");
	assert_int_equal(req.npkgs, 2);                        /* channel 4 of both sockets */
	assert_int_equal(req.first_box[0], 4);
	char why[160] = "";
	uint32_t cpu[2] = { 0, 2 };
	assert_int_equal(intel_uncore_request(plat("SKX"), INTEL_BOX_IMC, units, nunits, cpu,
					      "uncore_imc_1/event=0x4,umask=0x3/;uncore_imc_2/event=0x4,umask=0xc/", &req,
					      why, sizeof(why)), -1);
	assert_non_null(strstr(why, "uncore_imc_1"));
	/* no IMC function: absent, naming what was looked for */
	iu_model_init(&u, IU_SKX);
	h = iu_model_hw(&u);
	nfns = intel_pci_scan(&h, 0, 0, 0xFF, fns, 256);
	assert_int_equal(intel_imc_find(&h, plat("SKX"), fns, nfns, units, 32, &nunits, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "8086:2042 at device 10 function 2"));
	assert_int_equal(intel_imc_find(&h, plat("ICX"), fns, nfns, units, 32, &nunits, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "3451"));
}

static void test_icx_imc_mmio(void **state)
{
	(void)state;
	icx_imc_model();
	find_imc("ICX");
	assert_int_equal(nunits, 9);                           /* IMCs 0, 1, 3 x 3 channel boxes */
	assert_int_equal(units[0].site.mmio_base, 0xFE000000ull + 0x1000);
	assert_int_equal(units[1].site.mmio_base, 0xFE000000ull + 0x1000 + 0x4000);
	assert_int_equal(units[6].unit, 9);
	assert_int_equal(units[6].site.mmio_base, 0xFE000000ull + 0x4000);
	for (unsigned c = 0; c < 9; c++) {
		iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, (uint8_t)c, 0, 0x04, 0x0F, 7 * (c + 1) });
		iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, (uint8_t)c, 0, 0x04, 0x30, 3 });
	}
	request("ICX", INTEL_BOX_IMC, NULL);
	req.known_read_bytes = 2000;
	req.known_write_bytes = 1000;
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	uint64_t rd = 0;
	for (unsigned c = 0; c < 9; c++) {
		assert_int_equal(res.raw[c][0], 7 * (c + 1) * 100);
		assert_int_equal(res.raw[c][1], 300);
		rd += 7 * (c + 1) * 100 * 64ull;
	}
	assert_int_equal(res.total.dram_read_bytes, rd);
	assert_int_equal(res.total.dram_write_bytes, 9 * 300 * 64ull);
	assert_int_equal(res.total.self_check_milli, (rd + 9 * 300 * 64ull) * 1000 / 3000);
	/* the CTLs are 32-bit registers: the model refuses a 64-bit access there */
	assert_int_equal(iu_model_mmio(&u, 0xFE001000ull + 0x22800 + 0x40)->value, 0);
}

static void test_iio_skx_multiplexed(void **state)
{
	(void)state;
	iu_model_init(&u, IU_SKX);
	iu_model_iio(&u, 6, 0);
	h = iu_model_hw(&u);
	nunits = 6;
	for (unsigned s = 0; s < 6; s++)
		units[s] = (struct intel_unit){ 0, (uint16_t)s, { 0 } };
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, 2, 1, 0x83, 0x04, 1000 });   /* stack 2 part 1: device reads */
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, 0, 3, 0x83, 0x01, 250 });    /* stack 0 part 3: device writes */
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, 5, 0, 0xC0, 0x04, 8 });      /* stack 5: CPU MMIO reads */
	request("SKX", INTEL_BOX_IIO, NULL);
	assert_int_equal(req.nevents, 16);
	assert_int_equal(req.ngroups, 4);
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.window_ns, 4000);
	/* MEM_READ.PART1 is event 1; its group ran 1000 of 4000 ns: raw 1000 x 100, scaled x 4 */
	assert_int_equal(res.raw[2][1], 100000);
	assert_int_equal(res.scaled[2][1], 400000);
	assert_int_equal(res.m[2].io_read_bytes, 400000 * 4ull);
	assert_int_equal(res.m[2].part_bytes[0][1], 400000 * 4ull);
	assert_int_equal(res.m[2].io_write_bytes, 0);
	assert_int_equal(res.m[0].part_bytes[1][3], 25000 * 4 * 4ull);
	assert_int_equal(res.m[5].ob_read_bytes, 800 * 4 * 4ull);
	assert_int_equal(res.m[5].part_bytes[2][0], 800 * 4 * 4ull);
	assert_int_equal(res.total.io_read_bytes, 400000 * 4ull);
	assert_int_equal(res.total.self_check_state, UNC_CHECK_ABSENT);
	assert_non_null(strstr(res.total.self_check_why, "PCIe"));
}

/* 1 when the model's log has a write of v to MSR id. */
static int msr_written(uint32_t id, uint64_t v)
{
	for (int i = 0; i < u.m.nlog; i++)
		if (u.m.log[i].id == id && u.m.log[i].value == v)
			return 1;
	return 0;
}

static void test_iio_icx_one_stack(void **state)
{
	(void)state;
	iu_model_init(&u, IU_ICX);
	iu_model_iio(&u, 6, 0);
	h = iu_model_hw(&u);
	nunits = 6;
	for (unsigned s = 0; s < 6; s++)
		units[s] = (struct intel_unit){ 0, (uint16_t)s, { 0 } };
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, 3, 6, 0x83, 0x01, 9 });
	request("ICX", INTEL_BOX_IIO, "uncore_iio_3/event=0x83,umask=0x1,ch_mask=0xff,fc_mask=0x7/");
	assert_int_equal(req.npkgs, 1);
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.raw[0][0], 900);
	/* its box at 0xAE0: CTL0 0xAE8 was written with the event, then restored */
	assert_true(msr_written(0xAE8, 0x00070FF000400183ull));
	assert_int_equal(hw_model_find(&u.m, HWM_MSR, 0xAE8)->value, 0);
}

/* ---- IIO stack map --------------------------------------------------------------------------
 * No recorded register dump of a real machine is at hand: the values below are laid out as Linux
 * arch/x86/events/intel/uncore_snbep.c reads them (SKX_MSR_CPU_BUS_NUMBER: bit 63 valid, byte k
 * = root bus of IIO box k; SAD_CONTROL_CFG 0x3F4: stack id [6:4], socket [3:0]) with bus numbers
 * of a typical two-socket SKX layout (0x00, 0x17, 0x3A, 0x5D per socket 0 stack), and the tree
 * is built in the PCI model. */

static void add_bridge(uint8_t bus, uint8_t dev, uint8_t sec, uint8_t sub)
{
	struct pci_model_func *f = pci_model_add(&u.pci, 0, bus, dev, 0, 0x8086, 0x2030, 0x060400, 0x01);
	pci_model_set_bridge(f, bus, sec, sub);
}

static void add_endpoint(uint8_t bus, uint16_t did)
{
	pci_model_add(&u.pci, 0, bus, 0, 0, 0x144D, did, 0x010802, 0x00);
}

static void skx_tree(uint8_t nvme_bus)
{
	iu_model_init(&u, IU_SKX);
	iu_model_iio(&u, 6, 0);
	pci_model_add(&u.pci, 0, 0x00, 0, 0, 0x8086, 0x2020, 0x060000, 0x00);    /* DMI stack */
	pci_model_add(&u.pci, 0, 0x17, 5, 0, 0x8086, 0x2034, 0x088000, 0x00);    /* stack 1 VT-d */
	add_bridge(0x17, 0, 0x18, 0x18);                                          /* stack 1 part 0 */
	add_bridge(0x17, 2, 0x19, 0x19);                                          /* stack 1 part 2 */
	pci_model_add(&u.pci, 0, 0x3A, 5, 0, 0x8086, 0x2034, 0x088000, 0x00);
	add_bridge(0x3A, 1, nvme_bus, nvme_bus);                                  /* stack 2 part 1 */
	pci_model_add(&u.pci, 0, 0x5D, 5, 0, 0x8086, 0x2034, 0x088000, 0x00);
	add_endpoint(0x18, 0xA808);
	add_endpoint(nvme_bus, 0xA809);
	h = iu_model_hw(&u);
	nfns = intel_pci_scan(&h, 0, 0, 0xFF, fns, 256);
}

static void test_iio_map_skx(void **state)
{
	(void)state;
	struct iio_map m;
	skx_tree(0x3B);
	iio_map_from_cpubusno(plat("SKX"), 0x800000005D3A1700ull, &m);
	assert_true(m.valid);
	assert_int_equal(iio_map_check(plat("SKX"), fns, nfns, &m), 0);
	assert_true(m.stack[0].present && m.stack[1].present && m.stack[2].present && m.stack[3].present);
	assert_false(m.stack[4].present);                     /* bus 0 names only box 0 */
	assert_int_equal(m.stack[1].bus, 0x17);
	assert_int_equal(m.stack[1].bus_end, 0x39);
	assert_int_equal(m.stack[3].bus_end, 0xFF);
	assert_int_equal(m.stack[1].nports, 2);
	assert_int_equal(m.stack[1].port[1].part, 2);
	assert_int_equal(m.stack[2].port[0].part, 1);
	assert_int_equal(m.stack[2].port[0].secondary, 0x3B);
	assert_non_null(strstr(m.source, "MSR 0x300"));
	/* the valid bit clear (QEMU reads 0): no map, and why */
	iio_map_from_cpubusno(plat("SKX"), 0x5D3A1700ull, &m);
	assert_false(m.valid);
	assert_non_null(strstr(m.why, "bit 63"));
	assert_int_equal(iio_map_check(plat("SKX"), fns, nfns, &m), 0);
}

static void test_iio_map_inconsistent(void **state)
{
	(void)state;
	struct iio_map m;
	/* stack 2's root port leads to bus 0x60, which the map gives to stack 3 (root bus 0x5D) */
	skx_tree(0x60);
	iio_map_from_cpubusno(plat("SKX"), 0x800000005D3A1700ull, &m);
	assert_true(iio_map_check(plat("SKX"), fns, nfns, &m) >= 1);
	int found = 0;
	for (unsigned i = 0; i < m.ndefects && i < IIO_MAX_DEFECTS; i++)
		found |= strstr(m.defect[i], "60:00.0 is behind root port 3a:01.0 of IIO stack 2") &&
			 strstr(m.defect[i], "stack 3");
	assert_true(found);
	/* two stacks on one bus, and a stack whose root bus has nothing on it */
	skx_tree(0x3B);
	iio_map_from_cpubusno(plat("SKX"), 0x800000C05D3A3A00ull, &m);
	iio_map_check(plat("SKX"), fns, nfns, &m);
	int dup = 0, empty = 0;
	for (unsigned i = 0; i < m.ndefects && i < IIO_MAX_DEFECTS; i++) {
		dup |= strstr(m.defect[i], "stacks 1 and 2 both have root bus 3a") != NULL;
		empty |= strstr(m.defect[i], "stack 4: no function on its root bus c0") != NULL;
	}
	assert_true(dup);
	assert_true(empty);
}

static void test_iio_map_icx_sad(void **state)
{
	(void)state;
	struct iio_map m;
	/* SAD stack ids 0 (DMI -> PMON 5), 1 (-> 0), 4 (-> 3) on socket 0; a second function
	 * claiming SAD id 1 is a defect */
	uint8_t bus[4] = { 0x00, 0x15, 0x7E, 0x30 };
	uint32_t sad[4] = { 0x00, 0x10, 0x40, 0x10 };
	iio_map_from_sad(plat("ICX"), bus, sad, 3, &m);
	assert_true(m.valid);
	assert_int_equal(m.stack[5].bus, 0x00);
	assert_int_equal(m.stack[0].bus, 0x15);
	assert_int_equal(m.stack[3].bus, 0x7E);
	assert_false(m.stack[1].present);
	assert_int_equal(m.ndefects, 0);
	iio_map_from_sad(plat("ICX"), bus, sad, 4, &m);
	assert_int_equal(m.ndefects, 1);
	assert_non_null(strstr(m.defect[0], "both claim IIO stack 0"));
	iio_map_from_sad(plat("ICX"), bus, sad, 0, &m);
	assert_false(m.valid);
	assert_non_null(strstr(m.why, "09a2"));
	/* through the PCI scan: an 8086:09A2 function with SAD_CONTROL_CFG of socket 0 */
	iu_model_init(&u, IU_ICX);
	struct pci_model_func *f = pci_model_add(&u.pci, 0, 0x15, 0, 0, 0x8086, 0x09A2, 0x088000, 0x00);
	pci_model_w32(f, 0x3F4, 0x20);                       /* SAD id 2 -> PMON 1, socket 0 */
	h = iu_model_hw(&u);
	nfns = intel_pci_scan(&h, 0, 0, 0xFF, fns, 256);
	uint32_t cpu[1] = { 0 };
	intel_iio_maps(&h, plat("ICX"), fns, nfns, cpu, 1, &m);
	assert_true(m.valid);
	assert_int_equal(m.stack[1].bus, 0x15);
	assert_int_equal(m.ndefects, 0);
}

/* ---- SPR: units from the discovery table ----------------------------------------------------
 * The model's table (tests/model/intel_uncore_model.h) lists a CHA, IMC channels (MMIO) and IIO
 * stacks (MSR); the code reads it through the DVSEC and BAR as the firmware does (disc_read),
 * parses it and takes the units of each box type with the table's geometry. */

static struct disc_table dt;
static uint8_t tbuf[4096];
static struct uncore_box_type dty;

#define SPR_TABLE 0xFD000000ull
#define SPR_IMC 0xFC000000ull

static void spr_model(unsigned nimc, unsigned nstacks)
{
	iu_model_init(&u, IU_SPR);
	iu_model_spr_discovery(&u, 0x7E, SPR_TABLE, nimc, SPR_IMC, nstacks);
	h = iu_model_hw(&u);
	nfns = intel_pci_scan(&h, 0, 0, 0xFF, fns, 256);
}

/* Read and parse the table of the scan's discovery function; the units of box b. */
static int spr_units(const char *pname, enum intel_box b, char *why, size_t wn)
{
	size_t len = 0;
	uint64_t base = 0;
	const struct intel_pci_fn *f = NULL;
	for (uint32_t i = 0; i < nfns && !f; i++)
		if (fns[i].vendor == 0x8086 && fns[i].device == DISC_DEVICE)
			f = &fns[i];
	assert_non_null(f);
	assert_int_equal(disc_read(&h, f->a, tbuf, sizeof(tbuf), &len, &base, why, wn), 0);
	assert_int_equal(base, SPR_TABLE);
	assert_int_equal(disc_parse(tbuf, len, &dt), 0);
	return intel_disc_units(plat(pname), b, &dt, 0, units, 32, &nunits, &dty, why, wn);
}

static void request_spr(const char *pname, enum intel_box b, const char *events)
{
	char why[160] = "";
	uint32_t cpu[1] = { 0 };
	if (intel_uncore_request_as(plat(pname), b, &dty, units, nunits, cpu, events, &req, why, sizeof(why)))
		fail_msg("request: %s", why);
}

static void test_spr_imc_from_table(void **state)
{
	(void)state;
	char why[200] = "";
	spr_model(3, 2);
	assert_int_equal(spr_units("SPR", INTEL_BOX_IMC, why, sizeof(why)), 0);
	assert_int_equal(dt.nunits, 1 + 3 + 2);
	assert_int_equal(nunits, 3);
	assert_int_equal(units[2].unit, 2);
	assert_int_equal(units[2].site.mmio_base, SPR_IMC + 0x8000);
	assert_int_equal(dty.ctl0, 0x40);
	assert_int_equal(dty.ctr0, 0x08);
	assert_int_equal(dty.num_counters, 4);
	/* SPR CAS_COUNT.RD 0x05/0xCF, WR 0x05/0xF0 (perfmon sapphirerapids_uncore.json) */
	for (unsigned c = 0; c < 3; c++) {
		iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, (uint8_t)c, 0, 0x05, 0xCF, 5 * (c + 1) });
		iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, (uint8_t)c, 0, 0x05, 0xF0, 2 });
	}
	request_spr("SPR", INTEL_BOX_IMC, NULL);
	req.known_read_bytes = 600 * 64;
	req.known_write_bytes = 300 * 64;
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	for (unsigned c = 0; c < 3; c++) {
		assert_int_equal(res.raw[c][0], 5 * (c + 1) * 100);
		assert_int_equal(res.raw[c][1], 200);
	}
	assert_int_equal(res.total.dram_read_bytes, 3000 * 64ull);
	assert_int_equal(res.total.dram_write_bytes, 600 * 64ull);
	assert_int_equal(res.total.self_check_milli, (3000 + 600) * 1000 / 900);
	/* the box control and CTL0, written during the run, are back as found */
	assert_int_equal(iu_model_mmio(&u, SPR_IMC)->value, 0);
	assert_int_equal(iu_model_mmio(&u, SPR_IMC + 0x40)->value, 0);
}

static void test_spr_gnr_subchannels(void **state)
{
	(void)state;
	char why[200] = "";
	spr_model(2, 0);
	assert_int_equal(spr_units("GNR", INTEL_BOX_IMC, why, sizeof(why)), 0);
	/* GNR counts each subchannel with its own event: SCH0 0x05, SCH1 0x06 (graniterapids_uncore.json) */
	for (unsigned c = 0; c < 2; c++) {
		iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, (uint8_t)c, 0, 0x05, 0xCF, 3 });
		iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, (uint8_t)c, 0, 0x06, 0xCF, 4 });
		iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, (uint8_t)c, 0, 0x05, 0xF0, 1 });
		iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, (uint8_t)c, 0, 0x06, 0xF0, 2 });
	}
	request_spr("GNR", INTEL_BOX_IMC, NULL);
	assert_int_equal(req.nevents, 4);
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.total.dram_read_bytes, 2 * (300 + 400) * 64ull);
	assert_int_equal(res.total.dram_write_bytes, 2 * (100 + 200) * 64ull);
}

static void test_spr_iio_from_table(void **state)
{
	(void)state;
	char why[200] = "";
	spr_model(1, 4);
	assert_int_equal(spr_units("SPR", INTEL_BOX_IIO, why, sizeof(why)), 0);
	assert_int_equal(nunits, 4);
	assert_int_equal(units[3].site.msr_base, 0x3030);
	assert_int_equal(dty.ctl0, 8);
	assert_int_equal(dty.ctr0, 1);
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, 3, 5, 0x83, 0x04, 11 });
	request_spr("SPR", INTEL_BOX_IIO, "uncore_iio_3/DATA_REQ_OF_CPU.MEM_READ.PART5/");
	assert_int_equal(req.npkgs, 1);
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.raw[0][0], 1100);
	/* CTL0 of stack 3 (0x3038) got ch_mask bit 5 at config 36+, fc_mask 7 at 48, EN 22 */
	assert_true(msr_written(0x3038, 0x0007020000400483ull));
	assert_int_equal(hw_model_find(&u.m, HWM_MSR, 0x3038)->value, 0);
	/* the box control was frozen with bit 0 and unfrozen: written, then restored */
	assert_true(msr_written(0x3030, 1));
}

static void test_spr_no_table(void **state)
{
	(void)state;
	char why[200] = "";
	spr_model(0, 0);
	/* a table without IMC units: the reason names the box type and the socket */
	assert_int_equal(spr_units("SPR", INTEL_BOX_IMC, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no unit of box type 6 (IMC)"));
	/* a unit of the wrong access type is left out and named */
	dt.unit[0] = (struct disc_unit){ .box_type = 6, .box_id = 0, .access = DISC_MSR, .num_regs = 4, .bit_width = 48,
					 .ctl = 0x4000 };
	dt.unit[1] = (struct disc_unit){ .box_type = 6, .box_id = 1, .access = DISC_MMIO, .num_regs = 4, .bit_width = 48,
					 .ctl_offset = 0x40, .ctr_offset = 8, .ctl = SPR_IMC };
	dt.nunits = 2;
	assert_int_equal(intel_disc_units(plat("SPR"), INTEL_BOX_IMC, &dt, 0, units, 32, &nunits, &dty, why, sizeof(why)), 0);
	assert_int_equal(nunits, 1);
	assert_non_null(strstr(why, "IMC unit 0 left out: access type MSR"));
	/* no discovery function: the DVSEC walk finds nothing */
	iu_model_init(&u, IU_SPR);
	struct pci_model_func *f = pci_model_add(&u.pci, 0, 0x7E, 0, 1, 0x8086, 0x09A7, 0x088000, 0x00);
	(void)f;
	h = iu_model_hw(&u);
	size_t len;
	uint64_t base;
	assert_int_equal(disc_read(&h, (struct hw_pci_addr){ 0, 0x7E, 0, 1 }, tbuf, sizeof(tbuf), &len, &base, why,
				   sizeof(why)), -1);
	assert_non_null(strstr(why, "no PMON discovery DVSEC"));
}

/* After the MSM is in the model: a root port at root_bus:dev.0 leading to root_bus + 1 with an
 * endpoint there, a function on bus 0x80; then scan, read and parse the discovery table. */
static void msm_tree_scan(uint8_t root_bus, uint8_t dev)
{
	add_bridge(root_bus, dev, (uint8_t)(root_bus + 1), (uint8_t)(root_bus + 1));
	add_endpoint((uint8_t)(root_bus + 1), 0xA808);
	pci_model_add(&u.pci, 0, 0x80, 0, 0, 0x8086, 0x0B25, 0x088000, 0x00);
	h = iu_model_hw(&u);
	nfns = intel_pci_scan(&h, 0, 0, 0xFF, fns, 256);
	char why[200] = "";
	size_t len;
	uint64_t base;
	assert_int_equal(disc_read(&h, (struct hw_pci_addr){ 0, 0x7E, 0, 1 }, tbuf, sizeof(tbuf), &len, &base, why,
				   sizeof(why)), 0);
	assert_int_equal(disc_parse(tbuf, len, &dt), 0);
}

static void test_spr_iio_map(void **state)
{
	(void)state;
	struct iio_map m;
	spr_model(0, 10);
	/* CPU buses 0 (DMI -> PMON 1), 1 (-> 2) and 8 (-> 0) valid (PCM spr_xcc mapping); bus 0x00,
	 * 0x15 and 0x80; a root port on bus 0x15 (part 0 = device 1) with an endpoint on 0x16 */
	uint32_t busno[8] = { 0x00001500, 0, 0x00000080, 0, 0, 0, 0, 0 };
	iu_model_spr_msm(&u, 0x00, 0x103, busno, 0xC0);        /* chop 3: XCC */
	msm_tree_scan(0x15, 1);
	intel_iio_map_disc(&h, plat("SPR"), fns, nfns, &dt, 0, &m);
	assert_true(m.valid);
	assert_string_equal(iio_map_source_name(m.method), "discovery_table");
	assert_true(m.stack[1].present && m.stack[2].present && m.stack[0].present);
	assert_int_equal(m.stack[1].bus, 0x00);
	assert_int_equal(m.stack[2].bus, 0x15);
	assert_int_equal(m.stack[0].bus, 0x80);
	assert_int_equal(m.stack[2].nports, 1);
	assert_int_equal(m.stack[2].port[0].part, 0);
	assert_int_equal(m.ndefects, 0);
	assert_non_null(strstr(m.source, "XCC die"));
	/* the same buses on an MCC die (chop 1): CPU bus 0 -> PMON 0, 1 -> 1, 8 -> 3 (PCM
	 * spr_mcc_sad_to_pmu_id_mapping) */
	pci_model_w32(pci_model_find(&u.pci, (struct hw_pci_addr){ 0, 0x00, 0x1E, 3 }), 0x94, 0x40);
	intel_iio_map_disc(&h, plat("SPR"), fns, nfns, &dt, 0, &m);
	assert_true(m.valid);
	assert_non_null(strstr(m.source, "MCC die"));
	assert_int_equal(m.stack[0].bus, 0x00);
	assert_int_equal(m.stack[1].bus, 0x15);
	assert_int_equal(m.stack[3].bus, 0x80);
	assert_false(m.stack[2].present);
	/* a chop no map knows */
	pci_model_w32(pci_model_find(&u.pci, (struct hw_pci_addr){ 0, 0x00, 0x1E, 3 }), 0x94, 0x80);
	intel_iio_map_disc(&h, plat("SPR"), fns, nfns, &dt, 0, &m);
	assert_false(m.valid);
	assert_non_null(strstr(m.why, "chop 2"));
	/* CPU bus 9 (-> PMON 3) valid with a bus, but the table lists only boxes 0-2 now */
	dt.nunits = 1 + 3;                               /* CHA + IIO 0, 1, 2 */
	uint32_t b2[8] = { 0x00001500, 0, 0x00009080, 0, 0, 0, 0, 0 };
	iio_map_from_discovery(plat("SPR"), &dt, 3, 0x301, b2, &m);
	assert_int_equal(m.ndefects, 1);
	assert_non_null(strstr(m.defect[0], "IIO box 3, which the discovery table does not list"));
}

static int has_defect(const struct iio_map *m, const char *a, const char *b)
{
	for (unsigned i = 0; i < m->ndefects && i < IIO_MAX_DEFECTS; i++)
		if (strstr(m->defect[i], a) && (!b || strstr(m->defect[i], b)))
			return 1;
	return 0;
}

/* GNR: the values are PCM's (github intel/pcm, src/pcm-iio-topology.cpp at commit
 * 0fae0de1af65bc82f1c80dceb4e5bed25cc369da, BirchStreamPlatform): SRF_PE6_SAD_BUS_ID 0 ->
 * SRF_PE6_PMON_ID 0, SRF_PE0_SAD_BUS_ID 2 -> SRF_PE0_PMON_ID 3, SRF_HC0_SAD_BUS_ID 8 ->
 * SRF_HC0_PMON_ID 1, SAD id 9 a part of the HC0 stack, SRF_UBOXA_SAD_BUS_ID 30; root ports at
 * devices 2.. of a PCIe stack's bus, part = device - 2 (birchStreamPciStackProbe). */
static void test_gnr_iio_map(void **state)
{
	(void)state;
	struct iio_map m;
	spr_model(0, 15);
	/* CPU buses 0 -> bus 00, 2 -> 10, 8 -> 80, 9 -> 81, 30 -> fe */
	uint32_t busno[8] = { 0x00100000, 0, 0x00008180, 0, 0, 0, 0, 0x00FE0000 };
	iu_model_spr_msm(&u, 0x00, 0x40000305, busno, 0);
	msm_tree_scan(0x10, 3);                                /* device 3: part 1 on GNR */
	intel_iio_map_disc(&h, plat("GNR"), fns, nfns, &dt, 0, &m);
	assert_true(m.valid);
	assert_string_equal(iio_map_source_name(m.method), "discovery_table");
	assert_non_null(strstr(m.source, "GNR die"));
	assert_true(m.stack[0].present && m.stack[3].present && m.stack[1].present);
	assert_int_equal(m.stack[0].bus, 0x00);
	assert_int_equal(m.stack[3].bus, 0x10);
	assert_int_equal(m.stack[1].bus, 0x80);
	for (unsigned k = 0; k < IIO_MAX_STACKS; k++)      /* the HC sub-bus and UBOX are no stack */
		assert_true(!m.stack[k].present || (m.stack[k].bus != 0x81 && m.stack[k].bus != 0xFE));
	assert_int_equal(m.stack[3].nports, 1);
	assert_int_equal(m.stack[3].port[0].part, 1);
	assert_int_equal(m.ndefects, 0);
	/* inconsistent: CPU bus 6 (no IIO stack in PCM's map) valid, and CPU bus 12 (HC1 -> box 6)
	 * given bus 11, which is behind stack 3's root port */
	uint32_t b2[8] = { 0x00100000, 0x00110000, 0x00008180, 0x00000011, 0, 0, 0, 0x00FE0000 };
	iio_map_from_discovery(plat("GNR"), &dt, MSM_NO_CHOP, 0x40001345, b2, &m);
	assert_true(has_defect(&m, "CPU bus 6 (bus 11) is valid but belongs to no IIO PMON box", NULL));
	assert_int_equal(m.stack[6].bus, 0x11);
	iio_map_check(plat("GNR"), fns, nfns, &m);
	assert_true(has_defect(&m, "11:00.0 is behind root port 10:03.0 of IIO stack 3", "stack 6"));
	/* Granite Rapids-D and Clearwater Forest: PCM gives them no CPU-bus-to-box map, and
	 * efiperf does not borrow GNR's: the same registers give no map, and the why says so */
	static const char *const none[] = { "GNR-D", "CWF" };
	for (unsigned i = 0; i < 2; i++) {
		spr_model(0, 15);
		iu_model_spr_msm(&u, 0x00, 0x40000305, busno, 0);
		msm_tree_scan(0x10, 3);
		intel_iio_map_disc(&h, plat(none[i]), fns, nfns, &dt, 0, &m);
		assert_false(m.valid);
		assert_non_null(strstr(m.why, "no CPU-bus-to-IIO-box table"));
	}
}

/* ---- fault injection ----------------------------------------------------------------------- */

struct snap { struct reg_ref r; uint64_t v; };
static struct snap snaps[512];
static unsigned nsnap;

static uint64_t read_now(struct reg_ref r)
{
	if (r.space == REG_MSR)
		return hw_model_find(&u.m, HWM_MSR, (uint32_t)r.addr)->value;
	if (r.space == REG_PCI32)
		return pci_model_r32(pci_model_find(&u.pci, r.pci), (unsigned)r.addr);
	return iu_model_mmio(&u, r.addr)->value;
}

static void set_now(struct reg_ref r, uint64_t v)
{
	if (r.space == REG_MSR)
		hw_model_find(&u.m, HWM_MSR, (uint32_t)r.addr)->value = v;
	else if (r.space == REG_PCI32)
		pci_model_w32(pci_model_find(&u.pci, r.pci), (unsigned)r.addr, (uint32_t)v);
	else
		iu_model_mmio(&u, r.addr)->value = v;
}

/* every control register of the layout, with a found value */
static void snapshot(void)
{
	nsnap = 0;
	for (int i = 0; i < u.m.nregs; i++)
		if (u.m.regs[i].kind == HWM_PLAIN && !iu_model_is_counter_msr(&u, u.m.regs[i].id))
			snaps[nsnap++] = (struct snap){ reg_msr(u.m.regs[i].id), 0 };
	for (unsigned c = 0; u.layout == IU_SKX && c < u.nimc; c++) {
		snaps[nsnap++] = (struct snap){ reg_pci32(u.imc_fn[c], 0xF4), 0 };
		for (unsigned i = 0; i < 4; i++)
			snaps[nsnap++] = (struct snap){ reg_pci32(u.imc_fn[c], (uint16_t)(0xD8 + 4 * i)), 0 };
	}
	for (unsigned i = 0; u.layout != IU_SKX && i < u.nmmio; i++)
		if (!u.mmio[i].wide)
			snaps[nsnap++] = (struct snap){ reg_mmio32(u.mmio[i].addr), 0 };
	for (unsigned i = 0; i < nsnap; i++)
		snaps[i].v = 0x5A00 + i;     /* found values: none has FRZ (bit 8) with FRZ_EN */
}

static void put_found(void)
{
	for (unsigned i = 0; i < nsnap; i++)
		set_now(snaps[i].r, snaps[i].v);
}

static void fault_case(const char *what)
{
	snapshot();
	put_found();
	u.m.naccess = 0;
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	uint32_t clean = u.m.naccess;
	assert_true(clean > 0);
	for (unsigned i = 0; i < nsnap; i++)
		assert_int_equal(read_now(snaps[i].r), snaps[i].v);      /* a clean run leaves all as found */
	for (int sticky = 0; sticky < 2; sticky++)
		for (uint32_t k = 1; k <= clean; k++) {
			put_found();
			u.m.naccess = 0;
			u.m.fail_at = k;
			u.m.fail_sticky = (uint8_t)sticky;
			unc_measure(&h, &req, window, NULL, &res);
			u.m.fail_at = 0;
			assert_int_equal(res.status, -1);
			assert_true(res.why[0]);
			unsigned left = 0;
			for (unsigned i = 0; i < nsnap; i++) {
				uint64_t now = read_now(snaps[i].r);
				if (now == snaps[i].v)
					continue;
				left++;
				if (res.restore.nfailed > SAVESET_REPORT_FAILED)
					continue;     /* the record lists the first ones and counts all */
				int named = 0;
				for (uint32_t f = 0; f < res.restore.nfailed && f < SAVESET_REPORT_FAILED; f++)
					named |= reg_same(res.restore.failed[f], snaps[i].r);
				if (!named) {
					char n[48];
					reg_name(snaps[i].r, n, sizeof(n));
					fail_msg("%s fault at %u (sticky %d): %s left 0x%llx, was 0x%llx, not named", what, k, sticky,
						 n, (unsigned long long)now, (unsigned long long)snaps[i].v);
				}
			}
			assert_true(left <= res.restore.nfailed);
			if (!sticky)
				assert_true(res.restore.nfailed <= 1);
		}
}

static void test_faults(void **state)
{
	(void)state;
	skx_imc_model();
	find_imc("SKX");
	nunits = 3;                                 /* three channels keep the loop short */
	request("SKX", INTEL_BOX_IMC, NULL);
	fault_case("SKX IMC (PCI)");
	icx_imc_model();
	find_imc("ICX");
	nunits = 3;
	request("ICX", INTEL_BOX_IMC, NULL);
	fault_case("ICX IMC (MMIO)");
	iu_model_init(&u, IU_SKX);
	iu_model_iio(&u, 6, 0);
	h = iu_model_hw(&u);
	nunits = 2;
	units[0] = (struct intel_unit){ 0, 0, { 0 } };
	units[1] = (struct intel_unit){ 0, 4, { 0 } };
	request("SKX", INTEL_BOX_IIO, NULL);
	fault_case("SKX IIO (MSR, 4 groups)");
	iu_model_init(&u, IU_ICX);
	iu_model_iio(&u, 6, 0);
	h = iu_model_hw(&u);
	units[1] = (struct intel_unit){ 0, 3, { 0 } };
	request("ICX", INTEL_BOX_IIO, "DATA_REQ_OF_CPU.MEM_READ.PART0;DATA_REQ_OF_CPU.MEM_WRITE.PART0;"
				      "DATA_REQ_OF_CPU.MEM_READ.PART5;DATA_REQ_BY_CPU.MEM_READ.PART2");
	fault_case("ICX IIO (MSR, 2 groups)");
	char why[200] = "";
	spr_model(2, 3);
	assert_int_equal(spr_units("SPR", INTEL_BOX_IMC, why, sizeof(why)), 0);
	request_spr("SPR", INTEL_BOX_IMC, NULL);
	fault_case("SPR IMC (discovered MMIO)");
	assert_int_equal(spr_units("SPR", INTEL_BOX_IIO, why, sizeof(why)), 0);
	nunits = 2;
	request_spr("SPR", INTEL_BOX_IIO, "DATA_REQ_OF_CPU.MEM_READ.PART0;DATA_REQ_BY_CPU.MEM_WRITE.PART1");
	fault_case("SPR IIO (discovered MSR)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encodings),
		cmocka_unit_test(test_encode_errors),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_skx_imc_found_and_counted),
		cmocka_unit_test(test_skx_imc_unit_and_absent),
		cmocka_unit_test(test_icx_imc_mmio),
		cmocka_unit_test(test_iio_skx_multiplexed),
		cmocka_unit_test(test_iio_icx_one_stack),
		cmocka_unit_test(test_iio_map_skx),
		cmocka_unit_test(test_iio_map_inconsistent),
		cmocka_unit_test(test_iio_map_icx_sad),
		cmocka_unit_test(test_spr_imc_from_table),
		cmocka_unit_test(test_spr_gnr_subchannels),
		cmocka_unit_test(test_spr_iio_from_table),
		cmocka_unit_test(test_spr_no_table),
		cmocka_unit_test(test_spr_iio_map),
		cmocka_unit_test(test_gnr_iio_map),
		cmocka_unit_test(test_faults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
