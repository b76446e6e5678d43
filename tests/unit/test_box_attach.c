/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Uncore boxes as window attachments (efi/measure/box_attach.c) on the register models: one SKX
 * socket whose hw_model carries both the IIO boxes and the stack map (tests/model/
 * intel_uncore_model.c, PCI tree as tests/unit/test_iio_attrib.c's) and four CHA boxes
 * (tests/model/cha_model.c), the way a DMA window (efi/measure/dma_window.c) runs them: the
 * IIO part of the device around the CHA set, the traffic in the CHA's slices. Expected values
 * are worked out by hand in the comments from the models' scripted traffic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/box_attach.h"
#include "tests/model/cha_model.h"
#include "tests/model/intel_uncore_model.h"

#define VALID_MAP 0x800000005D3A1700ull   /* MSR 0x300: stacks' buses 00, 17, 3a, 5d (valid bit 63) */
#define IIO_IN 0x83                       /* DATA_REQ_OF_CPU (Intel perfmon skylakex_uncore v1.37) */
#define UMASK_RD 0x04                     /* .MEM_READ: the device reads memory */
#define UMASK_WR 0x01                     /* .MEM_WRITE: the device writes memory */
#define OPC_RDCUR 0x21E                   /* SKX FILTER1 opcodes (Linux uncore_snbep.c, PCM pcm-pcie.h) */
#define OPC_ITOM 0x248
#define NBOX 4
#define TICKS 10                          /* per slice */
#define NS_PER_TICK 1000

static struct intel_uncore_model u;
static struct cha_model cm;
static struct hw h;
static struct intel_pci_fn fns[64];
static struct iio_map maps[1];
static struct iio_units units;
static struct iio_plan plan;
static struct unc_request ireq;
static struct unc_result ires;
static struct cha_request creq;
static struct cha_result cres;
static uint64_t snapshot[HW_MODEL_MAX_REGS];
static unsigned slices;

/* One hw_model carries both models: each tick runs the IIO model's hook, then the CHA's. */
static void (*iu_tick)(struct hw_model *, unsigned, void *), (*cha_tick)(struct hw_model *, unsigned, void *);
static void *iu_arg, *cha_arg;
static void both_ticks(struct hw_model *m, unsigned n, void *arg)
{
	(void)arg;
	iu_tick(m, n, iu_arg);
	cha_tick(m, n, cha_arg);
}

static void bridge(uint8_t bus, uint8_t dev, uint8_t sec)
{
	pci_model_set_bridge(pci_model_add(&u.pci, 0, bus, dev, 0, 0x8086, 0x2030, 0x060400, 0x01), bus, sec, sec);
}

static const struct hw_pci_addr NVME = { 0, 0x3B, 0, 0 };   /* behind root port 3a:01.0: stack 2, part 1 */

/* The machine, the IIO plan (map of socket 0, its six stacks) and the CHA request (the SKX
 * bandwidth set: 14 events, one FILTER1 opcode per group: 7 groups, so 7 slices). */
static void machine(void)
{
	iu_model_init(&u, IU_SKX);
	iu_model_iio(&u, 6, VALID_MAP);
	pci_model_add(&u.pci, 0, 0x00, 0, 0, 0x8086, 0x2020, 0x060000, 0x00);
	bridge(0x17, 0, 0x18);
	pci_model_add(&u.pci, 0, 0x3A, 5, 0, 0x8086, 0x2034, 0x088000, 0x00);
	bridge(0x3A, 1, 0x3B);
	pci_model_add(&u.pci, 0, 0x5D, 5, 0, 0x8086, 0x2034, 0x088000, 0x00);
	pci_model_add(&u.pci, 0, 0x18, 0, 0, 0x144D, 0xA808, 0x010802, 0x00);
	pci_model_add(&u.pci, 0, 0x3B, 0, 0, 0x144D, 0xA809, 0x010802, 0x00);
	iu_tick = u.m.tick_hook;
	iu_arg = u.m.tick_arg;
	cha_model_init(&cm, &u.m, CHA_MODEL_SKX, NBOX, 0);
	cha_tick = u.m.tick_hook;
	cha_arg = u.m.tick_arg;
	u.m.tick_hook = both_ticks;
	if (!u.m.ncpus)
		u.m.ncpus = 1;
	h = iu_model_hw(&u);
	uint32_t nfns = intel_pci_scan(&h, 0, 0, 0xFF, fns, 64), cpu[1] = { 0 };
	const struct intel_uncore_platform *p = intel_uncore_platform_by_name("SKX");
	intel_iio_maps(&h, p, fns, nfns, cpu, 1, maps);
	units.type = *p->box[INTEL_BOX_IIO].type;
	units.n = 6;
	for (uint16_t k = 0; k < 6; k++)
		units.unit[k] = (struct intel_unit){ 0, k, { 0 } };
	plan = (struct iio_plan){ p, &units, maps, 1, { 0 } };
	const struct cha_platform *cp = cha_platform_by_name("SKX");
	char why[200] = "", ev[1024];
	size_t k = 0;
	for (uint8_t i = 0; i < cp->ndefault; i++)
		k += (size_t)snprintf(ev + k, sizeof(ev) - k, "%s%s", i ? ";" : "", cp->default_events[i]);
	if (cha_prepare(&h, 6, 0x55, NULL, 0, 1, cpu, NBOX, ev, 1, &creq, why, sizeof(why)))
		fail_msg("cha_prepare: %s", why);
	/* the firmware's values, which must come back (as tests/unit/test_cha_model.c's): BOX_CTL
	 * 0x10000 (frz_en), CTL k 0x1234 + k, FILTER0/1 0x3B, the shared global control 0x5 */
	for (unsigned b = 0; b < NBOX; b++)
		for (unsigned r = 0; r < 7; r++)
			hw_model_find(&u.m, HWM_MSR, cha_model_msr(CHA_MODEL_SKX, b, r))->value =
				r == 0 ? 0x10000 : r <= 4 ? 0x1234 + r : 0x3B;
	hw_model_find(&u.m, HWM_MSR, 0x700)->value = 0x5;
	for (int i = 0; i < u.m.nregs; i++)
		snapshot[i] = u.m.regs[i].value;
	u.m.naccess = 0;
	u.m.nlog = 0;
	slices = 0;
}

/* The device's DMA: per tick it reads `rd` and writes `wr` cache lines per CHA weight unit (the
 * CHA model gives CHA n (n + 1) x per_tick: 1 + 2 + 3 + 4 = 10 x over the four boxes), and the
 * IIO part sees the same bytes in 4-byte units: 10 x 64 / 4 = 160 x rd dwords. */
static void dma_traffic(uint64_t rd, uint64_t wr)
{
	cha_model_add(&cm, (struct cha_model_traffic){ 0, 0, 0, OPC_RDCUR, 0, rd, 0 });
	cha_model_add(&cm, (struct cha_model_traffic){ 0, 0, 0, OPC_ITOM, 0, wr, 0 });
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, 2, 1, IIO_IN, UMASK_RD, 160 * rd });
	iu_model_add(&u, (struct iu_traffic){ IU_IIO, 0, 2, 1, IIO_IN, UMASK_WR, 160 * wr });
}

static uint64_t slice_traffic(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)arg;
	(void)slice;
	(void)nslices;
	slices++;
	hw_model_tick(&u.m, TICKS);
	return TICKS * NS_PER_TICK;
}

struct window {
	struct attachment a[2];
	struct iio_attach iio;
	struct cha_attach cha;
	struct iio_window_result ir;
	struct attach_list l;
};

/* The DMA window as dma_window_run runs it: IIO first (started first, stopped last), CHA. */
static void run_window(struct window *w, const struct self_check_bytes *expected)
{
	w->iio = (struct iio_attach){ .plan = &plan, .dev = NVME, .expected = expected, .box = { .res = &ires }, .req = &ireq,
				      .out = &w->ir };
	w->cha = (struct cha_attach){ .req = &creq, .res = &cres, .expected = expected };
	w->a[0] = (struct attachment){ .ops = &iio_attach_ops, .self = &w->iio };
	w->a[1] = (struct attachment){ .ops = &cha_attach_ops, .self = &w->cha };
	w->l = (struct attach_list){ .a = w->a, .n = 2, .hw = &h };
	attach_prepare_all(&w->l);
	attach_run_slices(&w->l, slice_traffic, NULL);
	attach_read_all(&w->l);
	attach_restore_all(&w->l);
}

/* 1 when MSR id was written and not put back by res's restore (its failed list). */
static int named(const struct saveset_report *r, uint32_t id)
{
	for (uint32_t i = 0; i < r->nfailed && i < SAVESET_REPORT_FAILED; i++)
		if (r->failed[i].space == REG_MSR && r->failed[i].addr == id)
			return 1;
	return r->nfailed > SAVESET_REPORT_FAILED;   /* more than the list holds: the why counts them */
}

static int is_counter(uint32_t id)
{
	for (unsigned b = 0; b < NBOX; b++)
		if (id >= cha_model_msr(CHA_MODEL_SKX, b, 8) && id <= cha_model_msr(CHA_MODEL_SKX, b, 11))
			return 1;
	return iu_model_is_counter_msr(&u, id);
}

/* Every register but the counters as found, or named by the CHA's or the IIO's restore. */
static void assert_restored_or_named(const char *when)
{
	for (int i = 0; i < u.m.nregs; i++) {
		const struct hw_model_reg *r = &u.m.regs[i];
		if (r->space != HWM_MSR || is_counter(r->id) || r->value == snapshot[i])
			continue;
		if (!named(&cres.restore, r->id) && !named(&ires.restore, r->id))
			fail_msg("%s: MSR 0x%x is 0x%llx, was 0x%llx, and no restore names it", when, r->id,
				 (unsigned long long)r->value, (unsigned long long)snapshot[i]);
	}
}

/* rd = wr = 1 line per weight unit per tick: 10 lines a tick over the boxes, 7 slices of 10
 * ticks = 70 ticks: the device read 700 x 64 = 44,800 bytes and wrote 44,800.
 *   CHA: RdCur's group ran 1 slice of 7: raw 100 lines, scaled x 70/10 = 700 lines = 44,800 B
 *        (reads are RdCur + RFO + CRd + DRd: only RdCur moved); ItoM the same for writes.
 *   IIO: one group, counting in every slice: 160 dwords x 70 ticks = 11,200 dw x 4 = 44,800 B.
 * Both ratios 1.000: ok. */
static void test_dma_window_ok(void **state)
{
	(void)state;
	machine();
	dma_traffic(1, 1);
	struct self_check_bytes expected = { 44800, 44800, 1, 1 };
	struct window w;
	run_window(&w, &expected);
	assert_int_equal(slices, 7);
	assert_int_equal(cres.status, 0);
	assert_int_equal(cres.nslices, 7);
	assert_int_equal(cres.window_ns, 70 * NS_PER_TICK);
	assert_int_equal(cres.total.read_bytes, 44800);
	assert_int_equal(cres.total.write_bytes, 44800);
	assert_int_equal(w.cha.sc.state, SELF_CHECK_OK);
	assert_int_equal(w.cha.sc.ratio_read_milli, 1000);
	assert_int_equal(w.cha.sc.ratio_write_milli, 1000);
	assert_int_equal(ires.status, 0);
	assert_true(w.ir.on && w.ir.place.placed);
	assert_int_equal(w.ir.place.stack, 2);
	assert_int_equal(w.ir.place.part, 1);
	assert_int_equal(w.ir.sc.counted_read, 44800);
	assert_int_equal(w.ir.sc.counted_write, 44800);
	assert_int_equal(w.ir.sc.state, SELF_CHECK_OK);
	assert_int_equal(cres.restore.nfailed + ires.restore.nfailed, 0);
	assert_restored_or_named("clean run");
}

/* The counters see twice what the device moved (rd = wr = 2): CHA 89,600 B each way, IIO
 * 22,400 dw x 4 = 89,600 B, against 44,800 expected: ratio 2.000, off (never ok). */
static void test_dma_window_doubled_off(void **state)
{
	(void)state;
	machine();
	dma_traffic(2, 2);
	struct self_check_bytes expected = { 44800, 44800, 1, 1 };
	struct window w;
	run_window(&w, &expected);
	assert_int_equal(cres.total.read_bytes, 89600);
	assert_int_equal(w.cha.sc.state, SELF_CHECK_OFF);
	assert_int_equal(w.cha.sc.ratio_read_milli, 2000);
	assert_int_equal(w.ir.sc.counted_read, 89600);
	assert_int_equal(w.ir.sc.state, SELF_CHECK_OFF);
	assert_restored_or_named("doubled");
}

/* Several devices' bytes in one window (skip_why): the IIO part is not programmed (no IIO MSR
 * written: every IIO control as found), its self-check absent with that why; the CHA counts. */
static void test_iio_skipped(void **state)
{
	(void)state;
	machine();
	dma_traffic(1, 1);
	struct self_check_bytes expected = { 44800, 44800, 1, 1 };
	struct window w;
	w.iio = (struct iio_attach){ .plan = &plan, .dev = NVME, .expected = &expected, .skip_why = "2 controllers",
				     .box = { .res = &ires }, .req = &ireq, .out = &w.ir };
	w.cha = (struct cha_attach){ .req = &creq, .res = &cres, .expected = &expected };
	w.a[0] = (struct attachment){ .ops = &iio_attach_ops, .self = &w.iio };
	w.a[1] = (struct attachment){ .ops = &cha_attach_ops, .self = &w.cha };
	w.l = (struct attach_list){ .a = w.a, .n = 2, .hw = &h };
	assert_int_equal(attach_prepare_all(&w.l), 1);
	attach_run_slices(&w.l, slice_traffic, NULL);
	attach_read_all(&w.l);
	assert_int_equal(attach_restore_all(&w.l), 0);
	assert_int_equal(w.ir.sc.state, SELF_CHECK_ABSENT);
	assert_string_equal(w.ir.sc.why, "2 controllers");
	assert_int_equal(w.cha.sc.state, SELF_CHECK_OK);
	for (int i = 0; i < u.m.nlog; i++)
		assert_false(u.m.log[i].id >= 0xA40 && u.m.log[i].id < 0xB00);   /* no IIO box MSR written */
}

/* A fault at each register access of a clean window in turn (setup, every slice's run and
 * pause, the group switches, the reads, the restore), once and sticky: every register is back
 * as found or named by the CHA's or the IIO's restore, and a fault fails one of them. */
static void test_fault_at_every_access(void **state)
{
	(void)state;
	struct self_check_bytes expected = { 44800, 44800, 1, 1 };
	struct window w;
	machine();
	dma_traffic(1, 1);
	run_window(&w, &expected);
	uint32_t clean = u.m.naccess;
	/* IIO: 1 box (the device's stack) x (BOX_CTL + 2 CTLs) + the global; CHA: 4 boxes x (BOX_CTL,
	 * 2 CTLs, FILTER1) + the global (as test_cha_model's count with two counters) */
	assert_true(clean > 7 * 2 * (NBOX + 1));
	unsigned restore_faults = 0;
	for (int sticky = 0; sticky < 2; sticky++)
		for (uint32_t k = 1; k <= clean; k++) {
			char when[48];
			snprintf(when, sizeof(when), "fault at access %u (sticky %d)", k, sticky);
			machine();
			dma_traffic(1, 1);
			u.m.fail_at = k;
			u.m.fail_sticky = (uint8_t)sticky;
			run_window(&w, &expected);
			assert_true(u.m.nfailed >= 1);
			if (cres.status != -1 && ires.status != -1)
				fail_msg("%s: neither the CHA nor the IIO failed", when);
			if (w.cha.sc.state == SELF_CHECK_OK && w.ir.sc.state == SELF_CHECK_OK)
				fail_msg("%s: both self-checks ok", when);
			assert_restored_or_named(when);
			restore_faults += cres.restore.nfailed + ires.restore.nfailed > 0;
		}
	assert_true(restore_faults > 0);   /* the restore's own writes were faulted too */
	printf("fault injection: %u clean accesses, %u faulted runs, %u with a register not restored\n", clean,
	       2 * clean, restore_faults);
}

/* ---- an uncore-box window: the copy's DRAM traffic on SKX IMC channels ---- */

static struct unc_request mreq;
static struct unc_result mres;

static uint64_t copy_traffic(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)arg;
	(void)slice;
	(void)nslices;
	slices++;
	hw_model_tick(&u.m, 100);
	return 100 * NS_PER_TICK;
}

/* One socket's six IMC channels (SKX: PCI functions on bus 0x3A, Linux skx_uncore_imc) around a
 * copy: per tick each channel reads 2 x mult and writes 1 x mult lines, 100 ticks, one slice
 * (CAS_COUNT.RD and .WR fit one group). */
static void imc_window(unsigned mult)
{
	static const uint8_t df[6][2] = { { 10, 2 }, { 10, 6 }, { 11, 2 }, { 12, 2 }, { 12, 6 }, { 13, 2 } };
	static const uint16_t did[6] = { 0x2042, 0x2046, 0x204A, 0x2042, 0x2046, 0x204A };
	iu_model_init(&u, IU_SKX);
	if (!u.m.ncpus)
		u.m.ncpus = 1;
	for (int c = 0; c < 6; c++)
		iu_model_skx_channel(&u, 0x3A, df[c][0], df[c][1], did[c]);
	h = iu_model_hw(&u);
	struct intel_unit iu[16];
	uint32_t n = 0, nfns = intel_pci_scan(&h, 0, 0, 0xFF, fns, 64), cpu[1] = { 0 };
	char why[160] = "";
	const struct intel_uncore_platform *p = intel_uncore_platform_by_name("SKX");
	if (intel_imc_find(&h, p, fns, nfns, iu, 16, &n, why, sizeof(why)) ||
	    intel_uncore_request(p, INTEL_BOX_IMC, iu, n, cpu, NULL, &mreq, why, sizeof(why)))
		fail_msg("imc: %s", why);
	assert_int_equal(mreq.npkgs, 6);
	for (uint8_t c = 0; c < 6; c++) {
		iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, c, 0, 0x04, 0x03, 2 * mult });   /* CAS_COUNT.RD */
		iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, c, 0, 0x04, 0x0C, 1 * mult });   /* CAS_COUNT.WR */
	}
	/* a copy of N bytes reads 2N (source + write-allocate) and writes N: 6 channels x 2 lines x
	 * 100 ticks x 64 = 76,800 = 2N, so N = 38,400 */
	mreq.known_read_bytes = 76800;
	mreq.known_write_bytes = 38400;
	struct unc_attach ua = { .req = &mreq, .res = &mres };
	struct attachment a = { .ops = &unc_attach_ops, .self = &ua };
	struct attach_list l = { .a = &a, .n = 1, .hw = &h };
	slices = 0;
	assert_int_equal(attach_prepare_all(&l), 1);
	attach_run_slices(&l, copy_traffic, NULL);
	assert_int_equal(attach_read_all(&l), 1);
	assert_int_equal(attach_restore_all(&l), 0);
	assert_int_equal(slices, 1);
}

/* mult 1: DRAM 76,800 read + 38,400 written = 115,200 = 3N: self-check 1.000, ok; every box
 * control back as found (CTL0 at PCI offset 0xD8 of the first channel: 0). */
static void test_uncore_box_window_ok(void **state)
{
	(void)state;
	imc_window(1);
	assert_int_equal(mres.status, 0);
	assert_int_equal(mres.state, UNC_STATE_COUNTING);
	assert_int_equal(mres.total.dram_read_bytes, 76800);
	assert_int_equal(mres.total.dram_write_bytes, 38400);
	assert_int_equal(mres.window_ns, 100 * NS_PER_TICK);
	assert_int_equal(mres.total.self_check_state, UNC_CHECK_OK);
	assert_int_equal(mres.total.self_check_milli, 1000);
	assert_int_equal(mres.restore.nfailed, 0);
	assert_int_equal(pci_model_r32(pci_model_find(&u.pci, (struct hw_pci_addr){ 0, 0x3A, 10, 2 }), 0xD8), 0);
}

/* mult 2: 230,400 counted against 115,200 moved: the ratio says 2.000 (an uncore box's
 * self-check is the ratio itself, pmu/uncore/uncore.h: UNC_CHECK_OK means computed). */
static void test_uncore_box_window_doubled(void **state)
{
	(void)state;
	imc_window(2);
	assert_int_equal(mres.total.dram_rw_bytes, 230400);
	assert_int_equal(mres.total.self_check_state, UNC_CHECK_OK);
	assert_int_equal(mres.total.self_check_milli, 2000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dma_window_ok),
		cmocka_unit_test(test_dma_window_doubled_off),
		cmocka_unit_test(test_iio_skipped),
		cmocka_unit_test(test_fault_at_every_access),
		cmocka_unit_test(test_uncore_box_window_ok),
		cmocka_unit_test(test_uncore_box_window_doubled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
