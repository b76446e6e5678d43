/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A device's IIO part counts as its self_check (pmu/uncore/iio_attrib.c) on the IIO register
 * model (tests/model/intel_uncore_model.c) with a scripted SKX machine: MSR 0x300
 * CPU_BUS_NUMBER 0x800000005D3A1700 (bit 63 valid; root buses 00, 17, 3a, 5d of IIO boxes 0-3,
 * laid out as Linux arch/x86/events/intel/uncore_snbep.c SKX_MSR_CPU_BUS_NUMBER reads it), an
 * NVMe at 3b:00.0 behind root port 3a:01.0 (stack 2, part 1), another device behind 17:00.0
 * (stack 1, part 0). DMA of the NVMe: per tick 25 DW read and 40 DW written on stack 2 part 1;
 * other traffic on stack 2 part 0 and stack 1 part 1 must not be counted for it. Expected bytes
 * are worked out here: 100 ticks x 25 x 4 = 10000 read, 100 x 40 x 4 = 16000 written.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/intel_uncore_model.h"
#include "pmu/uncore/iio_attrib.h"

#define VALID_MAP 0x800000005D3A1700ull
#define IIO_IN 0x83          /* DATA_REQ_OF_CPU (Intel perfmon skylakex_uncore v1.37) */
#define UMASK_RD 0x04
#define UMASK_WR 0x01

static struct intel_uncore_model u;
static struct hw h;
static struct intel_pci_fn fns[64];
static uint32_t nfns;
static struct iio_map maps[1];
static struct unc_request req;
static struct unc_result res;

static uint64_t window(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)arg;
	(void)slice;
	(void)nslices;
	hw_model_tick(&u.m, 100);
	return 100000;
}

static void bridge(uint8_t bus, uint8_t dev, uint8_t sec)
{
	pci_model_set_bridge(pci_model_add(&u.pci, 0, bus, dev, 0, 0x8086, 0x2030, 0x060400, 0x01), bus, sec, sec);
}

static void machine(uint64_t cpubusno)
{
	iu_model_init(&u, IU_SKX);
	iu_model_iio(&u, 6, cpubusno);
	pci_model_add(&u.pci, 0, 0x00, 0, 0, 0x8086, 0x2020, 0x060000, 0x00);
	bridge(0x17, 0, 0x18);
	pci_model_add(&u.pci, 0, 0x3A, 5, 0, 0x8086, 0x2034, 0x088000, 0x00);
	bridge(0x3A, 1, 0x3B);
	pci_model_add(&u.pci, 0, 0x5D, 5, 0, 0x8086, 0x2034, 0x088000, 0x00);
	pci_model_add(&u.pci, 0, 0x18, 0, 0, 0x144D, 0xA808, 0x010802, 0x00);
	pci_model_add(&u.pci, 0, 0x3B, 0, 0, 0x144D, 0xA809, 0x010802, 0x00);
	h = iu_model_hw(&u);
	nfns = intel_pci_scan(&h, 0, 0, 0xFF, fns, 64);
	uint32_t cpu[1] = { 0 };
	intel_iio_maps(&h, intel_uncore_platform_by_name("SKX"), fns, nfns, cpu, 1, maps);
}

static void traffic(uint8_t stack, uint8_t part, uint8_t umask, uint64_t dw)
{
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, stack, part, IIO_IN, umask, dw });
}

static const struct hw_pci_addr NVME = { 0, 0x3B, 0, 0 };

static void measure(const struct iio_place *pl)
{
	char why[200];
	if (iio_device_request(intel_uncore_platform_by_name("SKX"), pl, 0, &req, why, sizeof(why)))
		fail_msg("request: %s", why);
	unc_measure(&h, &req, window, NULL, &res);
}

static void test_device_on_stack2_part1(void **state)
{
	(void)state;
	machine(VALID_MAP);
	traffic(2, 1, UMASK_RD, 25);
	traffic(2, 1, UMASK_WR, 40);
	traffic(2, 0, UMASK_RD, 1000);     /* another part of the same stack */
	traffic(1, 1, UMASK_WR, 3000);     /* the same part number on another stack */
	struct iio_place pl;
	iio_place_device(maps, 1, NVME, &pl);
	assert_true(pl.placed);
	assert_int_equal(pl.socket, 0);
	assert_int_equal(pl.stack, 2);
	assert_int_equal(pl.part, 1);
	assert_int_equal(pl.port.bus, 0x3A);
	assert_int_equal(pl.port.dev, 1);
	measure(&pl);
	assert_int_equal(res.status, 0);
	assert_int_equal(req.npkgs, 1);
	assert_int_equal(req.first_box[0], 2);
	struct self_check_bytes expected = { 10000, 16000, 1, 1 };
	struct self_check sc;
	iio_device_self_check(&req, &res, &pl, &expected, &sc);
	assert_int_equal(sc.state, SELF_CHECK_OK);
	assert_int_equal(sc.counted_read, 10000);
	assert_int_equal(sc.counted_write, 16000);
	assert_int_equal(sc.ratio_read_milli, 1000);
	/* doubled traffic on the device's part: off, never ok */
	traffic(2, 1, UMASK_RD, 25);
	measure(&pl);
	iio_device_self_check(&req, &res, &pl, &expected, &sc);
	assert_int_equal(sc.state, SELF_CHECK_OFF);
	assert_int_equal(sc.counted_read, 20000);
	/* every IIO register as found */
	for (int i = 0; i < u.m.nregs; i++)
		if (!iu_model_is_counter_msr(&u, u.m.regs[i].id) && u.m.regs[i].id != 0x300)
			assert_int_equal(u.m.regs[i].value, 0);
}

/* Counters that never move while the device moved bytes (QEMU's TCG): not-advancing, not 0. */
static void test_not_advancing(void **state)
{
	(void)state;
	machine(VALID_MAP);
	struct iio_place pl;
	iio_place_device(maps, 1, NVME, &pl);
	measure(&pl);
	struct self_check_bytes expected = { 10000, 16000, 1, 1 };
	struct self_check sc;
	iio_device_self_check(&req, &res, &pl, &expected, &sc);
	assert_int_equal(sc.state, SELF_CHECK_NOT_ADVANCING);
}

static void test_unplaceable_device(void **state)
{
	(void)state;
	struct iio_place pl;
	struct self_check sc;
	struct self_check_bytes expected = { 10000, 16000, 1, 1 };
	/* bus c5 is in stack 3's range (5d-ff) but behind none of its root ports */
	machine(VALID_MAP);
	iio_place_device(maps, 1, (struct hw_pci_addr){ 0, 0xC5, 0, 0 }, &pl);
	assert_false(pl.placed);
	assert_non_null(strstr(pl.why, "0000:c5:00.0: on IIO stack 3 of socket 0"));
	iio_device_self_check(NULL, NULL, &pl, &expected, &sc);
	assert_int_equal(sc.state, SELF_CHECK_ABSENT);
	assert_non_null(strstr(sc.why, "0000:c5:00.0"));
	char why[200];
	assert_int_equal(iio_device_request(intel_uncore_platform_by_name("SKX"), &pl, 0, &req, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "0000:c5:00.0"));
	/* no map (QEMU: MSR 0x300 reads 0, valid bit clear): the BDF and the map's reason */
	machine(VALID_MAP & ~(1ull << 63));
	iio_place_device(maps, 1, NVME, &pl);
	assert_false(pl.placed);
	assert_non_null(strstr(pl.why, "0000:3b:00.0: no IIO stack map"));
	assert_non_null(strstr(pl.why, "bit 63"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_on_stack2_part1),
		cmocka_unit_test(test_not_advancing),
		cmocka_unit_test(test_unplaceable_device),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
