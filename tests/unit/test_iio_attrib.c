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
 *
 * SPR (the IIO boxes at the uncore discovery table's addresses): the model's table lists IIO
 * units 0-3 with unit controls at MSR 0x3000 + 0x10 s (Intel SPR uncore PMON manual, IIO
 * MSRs; CTL i at +8 + i, CTR i at +1 + i), the MSM function's CPUBUSNO registers put IIO box 2
 * at bus 15 (CPU bus 1 of an XCC die, Intel PCM src/pcm-iio-pmu.h spr_xcc mapping), and an
 * NVMe at 16:00.0 sits behind root port 15:03.0 (part 2: the root port of part p is device
 * 1 + p). Its part must be counted at MSRs 0x3020-0x302f alone.
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
#include "pmu/uncore/intel_discovery.h"

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
static struct iio_units units;       /* what the IIO pass programs */

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
	const struct intel_uncore_platform *p = intel_uncore_platform_by_name("SKX");
	intel_iio_maps(&h, p, fns, nfns, cpu, 1, maps);
	/* SKX: the six stacks of socket 0 at the type's fixed MSRs (no site) */
	units.type = *p->box[INTEL_BOX_IIO].type;
	units.n = 6;
	for (uint16_t k = 0; k < 6; k++)
		units.unit[k] = (struct intel_unit){ 0, k, { 0 } };
}

static void traffic(uint8_t stack, uint8_t part, uint8_t umask, uint64_t dw)
{
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, stack, part, IIO_IN, umask, dw });
}

static const struct hw_pci_addr NVME = { 0, 0x3B, 0, 0 };

static void measure_on(const char *plat, const struct iio_place *pl)
{
	char why[200];
	if (iio_device_request(intel_uncore_platform_by_name(plat), &units, pl, 0, &req, why, sizeof(why)))
		fail_msg("request: %s", why);
	unc_measure(&h, &req, window, NULL, &res);
}

static void measure(const struct iio_place *pl)
{
	measure_on("SKX", pl);
}

/* The device's self_check from the last measurement: state and the bytes counted. */
static void assert_counted(const struct iio_place *pl, int state, uint64_t rd, uint64_t wr)
{
	struct self_check_bytes expected = { 10000, 16000, 1, 1 };
	struct self_check sc;
	iio_device_self_check(&req, &res, pl, &expected, &sc);
	assert_int_equal(sc.state, state);
	assert_int_equal(sc.counted_read, rd);
	assert_int_equal(sc.counted_write, wr);
	if (state == SELF_CHECK_OK)
		assert_int_equal(sc.ratio_read_milli, rd * 1000 / expected.read);
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
	assert_counted(&pl, SELF_CHECK_OK, 10000, 16000);
	struct self_check_bytes expected = { 10000, 16000, 1, 1 };
	struct self_check sc;
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
	assert_int_equal(iio_device_request(intel_uncore_platform_by_name("SKX"), &units, &pl, 0, &req, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "0000:c5:00.0"));
	/* no map (QEMU: MSR 0x300 reads 0, valid bit clear): the BDF and the map's reason */
	machine(VALID_MAP & ~(1ull << 63));
	iio_place_device(maps, 1, NVME, &pl);
	assert_false(pl.placed);
	assert_non_null(strstr(pl.why, "0000:3b:00.0: no IIO stack map"));
	assert_non_null(strstr(pl.why, "bit 63"));
}

/* ---- SPR: the stack's unit as the discovery table gives it ---------------------------------- */

#define SPR_TABLE 0xFD000000ull
#define SPR_BOX2 0x3020u              /* unit control of IIO unit 2 in the model's table */
static const struct hw_pci_addr SPR_NVME = { 0, 0x16, 0, 0 };
static struct disc_table dt;
static uint8_t tbuf[4096];

static void spr_machine(void)
{
	iu_model_init(&u, IU_SPR);
	iu_model_spr_discovery(&u, 0x7E, SPR_TABLE, 0, 0, 4);
	/* CPU buses 0 (-> IIO box 1), 1 (-> 2), 8 (-> 0) valid: buses 00, 15, 80; chop 3: XCC */
	uint32_t busno[8] = { 0x00001500, 0, 0x00000080, 0, 0, 0, 0, 0 };
	iu_model_spr_msm(&u, 0x00, 0x103, busno, 0xC0);
	pci_model_set_bridge(pci_model_add(&u.pci, 0, 0x15, 1, 0, 0x8086, 0x352A, 0x060400, 0x01), 0x15, 0x17, 0x17);
	pci_model_set_bridge(pci_model_add(&u.pci, 0, 0x15, 3, 0, 0x8086, 0x352C, 0x060400, 0x01), 0x15, 0x16, 0x16);
	pci_model_add(&u.pci, 0, 0x16, 0, 0, 0x144D, 0xA80A, 0x010802, 0x00);
	pci_model_add(&u.pci, 0, 0x17, 0, 0, 0x144D, 0xA808, 0x010802, 0x00);
	pci_model_add(&u.pci, 0, 0x80, 0, 0, 0x8086, 0x0B25, 0x088000, 0x00);
	h = iu_model_hw(&u);
	nfns = intel_pci_scan(&h, 0, 0, 0xFF, fns, 64);
	const struct intel_uncore_platform *p = intel_uncore_platform_by_name("SPR");
	size_t len = 0;
	uint64_t base = 0;
	char why[200] = "";
	assert_int_equal(disc_read(&h, (struct hw_pci_addr){ 0, 0x7E, 0, 1 }, tbuf, sizeof(tbuf), &len, &base, why,
				   sizeof(why)), 0);
	assert_int_equal(disc_parse(tbuf, len, &dt), 0);
	assert_int_equal(intel_disc_units(p, INTEL_BOX_IIO, &dt, 0, units.unit, UNC_MAX_PKGS, &units.n, &units.type, why,
					  sizeof(why)), 0);
	assert_int_equal(units.n, 4);
	intel_iio_map_disc(&h, p, fns, nfns, &dt, 0, &maps[0]);
	assert_true(maps[0].valid);
	assert_int_equal(maps[0].ndefects, 0);
}

static void test_spr_device_on_discovered_stack(void **state)
{
	(void)state;
	spr_machine();
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, 2, 2, IIO_IN, UMASK_RD, 25 });
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, 2, 2, IIO_IN, UMASK_WR, 40 });
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, 2, 0, IIO_IN, UMASK_RD, 1000 });   /* part 0, 17:00.0 */
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, 1, 2, IIO_IN, UMASK_WR, 3000 });   /* part 2 of box 1 */
	struct iio_place pl;
	iio_place_device(maps, 1, SPR_NVME, &pl);
	assert_true(pl.placed);
	assert_int_equal(pl.stack, 2);
	assert_int_equal(pl.part, 2);
	assert_int_equal(pl.port.bus, 0x15);
	assert_int_equal(pl.port.dev, 3);
	u.m.nlog = 0;
	measure_on("SPR", &pl);
	assert_int_equal(res.status, 0);
	assert_counted(&pl, SELF_CHECK_OK, 10000, 16000);
	struct self_check_bytes expected = { 10000, 16000, 1, 1 };
	struct self_check sc;
	/* written: the unit control (freeze bit 0) and CTL0/CTL1 of unit 2 alone; the read event on
	 * counter 0 with ch_mask bit 2 (config 38), fc_mask 7 (config 48-50), EN bit 22, 0x83/0x04 */
	assert_true(u.m.nlog > 0);
	for (int i = 0; i < u.m.nlog; i++)
		if (u.m.log[i].space == HWM_MSR && (u.m.log[i].id < SPR_BOX2 || u.m.log[i].id > SPR_BOX2 + 0xF))
			fail_msg("MSR 0x%x written, outside IIO unit 2 (0x3020-0x302f)", u.m.log[i].id);
	int ctl0 = 0, frz = 0;
	for (int i = 0; i < u.m.nlog; i++) {
		ctl0 |= u.m.log[i].id == SPR_BOX2 + 8 && u.m.log[i].value == 0x0007004000400483ull;
		frz |= u.m.log[i].id == SPR_BOX2 && (u.m.log[i].value & 1);
	}
	assert_true(ctl0);
	assert_true(frz);
	for (int i = 0; i < u.m.nregs; i++)
		if (!iu_model_is_counter_msr(&u, u.m.regs[i].id) && u.m.regs[i].kind == HWM_PLAIN &&
		    u.m.regs[i].id >= 0x3000 && u.m.regs[i].id < 0x3040)
			assert_int_equal(u.m.regs[i].value, 0);
	/* the stack's unit not among the units programmed (the table left it out): absent, the BDF */
	uint32_t keep = units.n;
	units.n = 2;
	char why[200];
	assert_int_equal(iio_device_request(intel_uncore_platform_by_name("SPR"), &units, &pl, 0, &req, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "0000:16:00.0"));
	assert_non_null(strstr(why, "IIO stack 2 of socket 0, which is not among the 2 IIO unit(s)"));
	units.n = keep;
	/* a device the map cannot place: bus 90 is on box 0's range, behind none of its root ports */
	iio_place_device(maps, 1, (struct hw_pci_addr){ 0, 0x90, 0, 0 }, &pl);
	assert_false(pl.placed);
	assert_non_null(strstr(pl.why, "0000:90:00.0: on IIO stack 0 of socket 0"));
	assert_int_equal(iio_device_request(intel_uncore_platform_by_name("SPR"), &units, &pl, 0, &req, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "0000:90:00.0"));
	iio_device_self_check(NULL, NULL, &pl, &expected, &sc);
	assert_int_equal(sc.state, SELF_CHECK_ABSENT);
	assert_non_null(strstr(sc.why, "0000:90:00.0"));
}

/* No discovery table (QEMU's SPR): the map is absent saying so, and the device's why names it. */
static void test_spr_no_table(void **state)
{
	(void)state;
	struct iio_map m = { .method = IIO_MAP_DISCOVERY };
	snprintf(m.why, sizeof(m.why), "no uncore discovery table found: no function 8086:09a7 in the PCI scan");
	struct iio_place pl;
	iio_place_device(&m, 1, SPR_NVME, &pl);
	assert_false(pl.placed);
	assert_non_null(strstr(pl.why, "0000:16:00.0: no IIO stack map to place it (no uncore discovery table found"));
}

/* Unit 2's control registers and the values they are found with (no freeze bit 0). */
static const uint32_t spr_regs[5] = { SPR_BOX2, SPR_BOX2 + 8, SPR_BOX2 + 9, SPR_BOX2 + 10, SPR_BOX2 + 11 };
static const uint64_t spr_found[5] = { 0x5A00, 0x5A01, 0x5A02, 0x5A03, 0x5A04 };

static void spr_put_found(void)
{
	for (int r = 0; r < 5; r++)
		hw_model_find(&u.m, HWM_MSR, spr_regs[r])->value = spr_found[r];
}

/* Every register as found, or named in the result's restore failures. */
static void spr_left_named(const char *what, uint32_t k)
{
	for (int r = 0; r < 5; r++) {
		uint64_t now = hw_model_find(&u.m, HWM_MSR, spr_regs[r])->value;
		int named = 0;
		for (uint32_t f = 0; f < res.restore.nfailed && f < SAVESET_REPORT_FAILED; f++)
			named |= reg_same(res.restore.failed[f], reg_msr(spr_regs[r]));
		if (now != spr_found[r] && !named)
			fail_msg("%s at %u: MSR 0x%x left 0x%llx, was 0x%llx, not named", what, k, spr_regs[r],
				 (unsigned long long)now, (unsigned long long)spr_found[r]);
	}
}

/* Every register of the SPR unit back as found, or named, with a fault at each access. */
static void test_spr_faults(void **state)
{
	(void)state;
	spr_machine();
	struct iio_place pl;
	iio_place_device(maps, 1, SPR_NVME, &pl);
	assert_true(pl.placed);
	char why[200];
	assert_int_equal(iio_device_request(intel_uncore_platform_by_name("SPR"), &units, &pl, 0, &req, why, sizeof(why)), 0);
	u.m.naccess = 0;
	spr_put_found();
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	uint32_t clean = u.m.naccess;
	assert_true(clean > 4);
	spr_left_named("clean run", 0);
	for (uint32_t k = 1; k <= 2 * clean; k++) {
		int sticky = k > clean;
		spr_put_found();
		u.m.naccess = 0;
		u.m.fail_at = sticky ? k - clean : k;
		u.m.fail_sticky = (uint8_t)sticky;
		unc_measure(&h, &req, window, NULL, &res);
		u.m.fail_at = 0;
		assert_int_equal(res.status, -1);
		assert_counted(&pl, SELF_CHECK_ABSENT, 0, 0);
		spr_left_named(sticky ? "sticky fault" : "fault", sticky ? k - clean : k);
		if (!sticky)
			assert_true(res.restore.nfailed <= 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_on_stack2_part1),
		cmocka_unit_test(test_not_advancing),
		cmocka_unit_test(test_unplaceable_device),
		cmocka_unit_test(test_spr_device_on_discovered_stack),
		cmocka_unit_test(test_spr_no_table),
		cmocka_unit_test(test_spr_faults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
