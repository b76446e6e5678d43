/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Intel UPI link layer on the register model: a 2-socket Skylake-SP whose UPI link
 * functions (8086:2058 at devices 14 and 15, function 0, of each socket's bus: Linux
 * arch/x86/events/intel/uncore_snbep.c skx_uncore_pci_ids "UPI0 Link 0/1") count data flits
 * from the model's cross-socket bytes, found by the PCI scan, programmed through the one box
 * sequence, and turned into per-link GB/s as worked by hand below; every register restored (or
 * named) under fault injection at each access; as a window attachment, a remote-node STREAM's
 * link bytes against the bytes it moved across nodes (ok, and off when the links count double). Register offsets written here from Linux
 * (SKX_UPI_PCI_PMON_BOX_CTL 0x378, _CTL0 0x350, _CTR0 0x318, CTL/CTR step 8 by
 * UNCORE_BOX_FLAG_CTL_OFFS8; box frozen by SNBEP_PMON_BOX_CTL_FRZ bit 8 with FRZ_EN bit 16;
 * event select EN bit 22), the flit events from Intel's perfmon (UNC_UPI_TxL_FLITS.ALL_DATA 0x02
 * / 0x0F, RxL 0x03 / 0x0F) and 9 flits per 64-byte line from the metric upi_data_transmit_bw's
 * "64 / 9.0" (SKX/metrics/perf/skylakex_metrics_perf.json).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/intel_uncore_model.h"
#include "pmu/uncore/intel_upi.h"
#include "efi/measure/box_attach.h"

#define BOX_CTL 0x378
#define CTL(i) (0x350 + 8 * (i))
#define CTR(i) (0x318 + 8 * (i))
#define NLINKS 2
static const uint8_t bus_of[2] = { 0x17, 0x85 };

static struct intel_uncore_model u;
static struct hw h;
static struct unc_request req;
static struct unc_result res;
static struct intel_pci_fn fns[256];
/* lines (64 bytes) socket s sends to the other socket per tick, spread evenly over its links */
static uint64_t lines_per_tick[2];
static uint64_t flits_per_line = 9;      /* 18: a model whose links count every byte twice */

static struct pci_model_func *link_fn(unsigned s, unsigned l)
{
	return pci_model_find(&u.pci, (struct hw_pci_addr){ 0, bus_of[s], (uint8_t)(14 + l), 0 });
}

static void add_flits(struct pci_model_func *f, uint8_t event, uint64_t flits)
{
	uint32_t box = pci_model_r32(f, BOX_CTL);
	if ((box & (1u << 8)) && (box & (1u << 16)))
		return;                              /* frozen */
	for (unsigned i = 0; i < 4; i++) {
		uint32_t ctl = pci_model_r32(f, CTL(i));
		if (!(ctl & (1u << 22)) || (ctl & 0xFF) != event || ((ctl >> 8) & 0xFF) != 0x0F)
			continue;
		uint64_t v = pci_model_r32(f, CTR(i)) | (uint64_t)pci_model_r32(f, CTR(i) + 4) << 32;
		v = (v + flits) & ((1ull << 48) - 1);
		pci_model_w32(f, CTR(i), (uint32_t)v);
		pci_model_w32(f, CTR(i) + 4, (uint32_t)(v >> 32));
	}
}

/* each line socket s sends leaves on one of its links as 9 data flits and arrives on the same
 * link number of the other socket */
static void upi_tick(struct hw_model *m, unsigned n, void *arg)
{
	(void)m;
	(void)arg;
	for (unsigned s = 0; s < 2; s++)
		for (unsigned l = 0; l < NLINKS; l++) {
			uint64_t flits = lines_per_tick[s] / NLINKS * flits_per_line * n;
			add_flits(link_fn(s, l), 0x02, flits);
			add_flits(link_fn(1 - s, l), 0x03, flits);
		}
}

static void model(void)
{
	iu_model_init(&u, IU_SKX);
	for (unsigned s = 0; s < 2; s++)
		for (unsigned l = 0; l < NLINKS; l++)
			pci_model_add(&u.pci, 0, bus_of[s], (uint8_t)(14 + l), 0, 0x8086, 0x2058, 0x088000, 0);
	u.m.tick_hook = upi_tick;
	u.m.tick_arg = &u;
	h = iu_model_hw(&u);
	lines_per_tick[0] = 18;                  /* socket 0 -> 1: 1,152 bytes per tick */
	lines_per_tick[1] = 6;                   /* socket 1 -> 0: 384 bytes per tick */
}

static uint64_t window(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)arg;
	(void)slice;
	(void)nslices;
	hw_model_tick(&u.m, 100);
	return 1000;                             /* 100 ticks in 1 us */
}

static void request(void)
{
	struct intel_unit links[8];
	uint32_t n = 0, nf = intel_pci_scan(&h, 0, 0, 0xFF, fns, 256);
	char why[160] = "";
	const struct upi_platform *p = upi_platform_by_name("SKX");
	assert_non_null(p);
	if (upi_find_links(p, fns, nf, links, 8, &n, why, sizeof(why)))
		fail_msg("%s", why);
	assert_int_equal(n, 4);
	for (unsigned k = 0; k < 4; k++) {       /* sockets by bus rank, links by device */
		assert_int_equal(links[k].socket, k / 2);
		assert_int_equal(links[k].unit, k % 2);
		assert_int_equal(links[k].site.pci.bus, bus_of[k / 2]);
	}
	static const uint32_t cpu[2] = { 0, 2 };
	if (upi_request(p, links, n, cpu, &req, why, sizeof(why)))
		fail_msg("%s", why);
	assert_int_equal(req.ev[0].ctl, 0x400F02);   /* TxL_FLITS.ALL_DATA | EN */
	assert_int_equal(req.ev[1].ctl, 0x400F03);
}

/* Hand-worked: socket 0 sends 18 lines a tick, 9 per link = 81 TX flits per link per tick;
 * 100 ticks: 8,100 flits = 8,100 x 64 / 9 = 57,600 bytes in 1,000 ns = 57.6 GB/s per link.
 * Socket 1 sends 6 lines a tick, 3 per link: 2,700 flits = 19,200 bytes = 19.2 GB/s. Socket 0's
 * links receive what socket 1's send and the other way round. */
static void test_bandwidth(void **state)
{
	(void)state;
	model();
	request();
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.window_ns, 1000);
	for (uint32_t k = 0; k < 4; k++) {
		struct upi_link_bw bw;
		upi_link_bw(&res, k, &bw);
		uint64_t tx = k < 2 ? 57600 : 19200, rx = k < 2 ? 19200 : 57600;
		assert_int_equal(res.raw[k][0], tx * 9 / 64);
		assert_int_equal(bw.tx_bytes, tx);
		assert_int_equal(bw.rx_bytes, rx);
		assert_int_equal(bw.tx_gbps_milli, tx);      /* bytes per ns x 1000 over 1,000 ns */
		assert_int_equal(bw.rx_gbps_milli, rx);
	}
	/* the cross-socket bytes the model moved, both directions, all on the links */
	uint64_t sum = 0;
	for (uint32_t k = 0; k < 4; k++) {
		struct upi_link_bw bw;
		upi_link_bw(&res, k, &bw);
		sum += bw.tx_bytes;
	}
	assert_int_equal(sum, 100 * (18 + 6) * 64);
	/* a link that moved nothing counts nothing: socket 1 silent */
	lines_per_tick[1] = 0;
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.raw[2][0], 0);
	assert_int_equal(res.raw[0][1], 0);
	assert_int_equal(res.raw[0][0], 8100);
}

static void test_flit_bytes(void **state)
{
	(void)state;
	assert_int_equal(upi_flits_bytes(9), 64);
	assert_int_equal(upi_flits_bytes(10), 71);      /* 640 / 9, rounded down */
	assert_int_equal(upi_milli_gbps(9000000, 1000000), 64000);  /* 64 MB in 1 ms: 64 GB/s */
	assert_int_equal(upi_milli_gbps(9, 0), 0);
}

static void test_spr_is_discovery(void **state)
{
	(void)state;
	const struct upi_platform *p = upi_platform_by_name("SPR");
	assert_non_null(p);
	assert_int_equal(p->disc_box_type, 8);             /* Linux UNCORE_SPR_UPI */
	uint32_t n = 1;
	char why[160] = "";
	struct intel_unit l[1];
	assert_int_equal(upi_find_links(p, fns, 0, l, 1, &n, why, sizeof(why)), -1);
	assert_int_equal(n, 0);
	assert_non_null(strstr(why, "discovery"));
	model();
	lines_per_tick[0] = lines_per_tick[1] = 0;
	h = iu_model_hw(&u);
	uint32_t nf = intel_pci_scan(&h, 0, 0, 0xFF, fns, 256);
	/* ICX's functions (8086:3441 at 2.1, 3.1, 4.1) are not SKX's */
	assert_int_equal(upi_find_links(upi_platform_by_name("ICX"), fns, nf, l, 1, &n, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "3441"));
}

/* Every register the sequence writes (BOX_CTL, CTL0-3 of each link) back to its found value,
 * or named as not restored, with a fault at each access, once and from then on. */
static void test_faults(void **state)
{
	(void)state;
	model();
	request();
	struct reg_ref r[4 * 5];
	uint32_t nr = 0;
	for (unsigned s = 0; s < 2; s++)
		for (unsigned l = 0; l < NLINKS; l++) {
			struct hw_pci_addr a = { 0, bus_of[s], (uint8_t)(14 + l), 0 };
			r[nr++] = reg_pci32(a, BOX_CTL);
			for (unsigned i = 0; i < 4; i++)
				r[nr++] = reg_pci32(a, (uint16_t)CTL(i));
		}
	u.m.naccess = 0;
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	uint32_t clean = u.m.naccess;
	assert_true(clean > 20);
	for (int sticky = 0; sticky < 2; sticky++)
		for (uint32_t k = 1; k <= clean; k++) {
			for (uint32_t i = 0; i < nr; i++)
				pci_model_w32(pci_model_find(&u.pci, r[i].pci), (unsigned)r[i].addr, 0x5A00 + i);
			u.m.naccess = 0;
			u.m.fail_at = k;
			u.m.fail_sticky = (uint8_t)sticky;
			unc_measure(&h, &req, window, NULL, &res);
			u.m.fail_at = 0;
			assert_int_equal(res.status, -1);
			for (uint32_t i = 0; i < nr; i++) {
				if (pci_model_r32(pci_model_find(&u.pci, r[i].pci), (unsigned)r[i].addr) == 0x5A00 + i)
					continue;
				int named = 0;
				char want[48], got[48];
				reg_name(r[i], want, sizeof(want));
				for (uint32_t f = 0; f < res.restore.nfailed && f < SAVESET_REPORT_FAILED; f++) {
					reg_name(res.restore.failed[f], got, sizeof(got));
					named |= !strcmp(want, got);
				}
				if (!named && res.restore.nfailed <= SAVESET_REPORT_FAILED)
					fail_msg("fault at %u (sticky %d): register %u left 0x%x, not named (%u named; %s / %s)", k, sticky, i, pci_model_r32(pci_model_find(&u.pci, r[i].pci), (unsigned)r[i].addr), res.restore.nfailed, res.why, res.restore_why);
			}
		}
}

/* A STREAM on socket 0's CPUs over socket 1's memory: per tick it reads 18 lines (1,152 bytes
 * cross 1 -> 0) and writes 6 (384 bytes cross 0 -> 1); 100 ticks: 115,200 read and 38,400
 * written across nodes, which the window knows. */
static void stream_window(uint64_t flits, struct upi_attach *x, struct self_check_bytes *expected)
{
	model();
	flits_per_line = flits;
	lines_per_tick[1] = 18;
	lines_per_tick[0] = 6;
	request();
	*expected = (struct self_check_bytes){ 115200, 38400, 1, 1 };
	*x = (struct upi_attach){ .box = { .req = &req, .res = &res }, .mem_socket = 1, .expected = expected };
	struct attachment a = { .ops = &upi_attach_ops, .self = x };
	struct attach_list l = { .a = &a, .n = 1, .hw = &h };
	assert_int_equal(attach_prepare_all(&l), 1);
	assert_int_equal(attach_run_slices(&l, window, NULL), 1000);
	assert_int_equal(attach_read_all(&l), 1);
	assert_int_equal(attach_restore_all(&l), 0);
	flits_per_line = 9;
}

static void test_attachment_self_check(void **state)
{
	(void)state;
	struct upi_attach x;
	struct self_check_bytes expected;
	stream_window(9, &x, &expected);
	assert_int_equal(x.tx_bytes[0], 115200);
	assert_int_equal(x.tx_bytes[1], 38400);
	assert_int_equal(x.sc.state, SELF_CHECK_OK);
	assert_int_equal(x.sc.ratio_read_milli, 1000);
	assert_int_equal(x.sc.ratio_write_milli, 1000);
	/* the BOX_CTL and CTLs are back as found (zero) after the window */
	for (unsigned s = 0; s < 2; s++)
		for (unsigned l = 0; l < NLINKS; l++) {
			assert_int_equal(pci_model_r32(link_fn(s, l), BOX_CTL), 0);
			assert_int_equal(pci_model_r32(link_fn(s, l), CTL(0)), 0);
		}
	stream_window(18, &x, &expected);                /* the links count every byte twice */
	assert_int_equal(x.tx_bytes[0], 230400);
	assert_int_equal(x.sc.state, SELF_CHECK_OFF);
	assert_int_equal(x.sc.ratio_read_milli, 2000);
	assert_non_null(strstr(x.sc.why, "read"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flit_bytes),
		cmocka_unit_test(test_bandwidth),
		cmocka_unit_test(test_spr_is_discovery),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_attachment_self_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
