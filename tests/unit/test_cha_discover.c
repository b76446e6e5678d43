/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CHA count discovery over synthetic PCI config spaces (tests/model/pci_model.c), an MMIO
 * discovery table and the register model for the cross-check MSR; then the metric formulas
 * and the `cha` record on their own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/out/pmu_json.h"
#include "tests/model/pci_model.h"
#include "tests/model/hw_model.h"
#include "tests/unit/cha_record.h"
#include "pmu/uncore/intel_cha.h"
#include "efi/out/jsonl.h"

static struct pci_model pm;
static struct hw_model hm;
static struct cha_disc_ws ws;   /* the discovery table's working set (the caller's) */
#define TABLE_BASE 0xF0000000ull
static uint64_t table[16];     /* MMIO discovery table */

static hw_status c_pci_read(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t *v)
{
	(void)ctx;
	struct hw h = pci_model_hw(&pm);
	return hw_pci_read32(&h, a, off, v);
}
static hw_status c_rdmsr(void *ctx, uint32_t msr, uint64_t *v)
{
	(void)ctx;
	struct hw h = hw_model_hw(&hm);
	return hw_rdmsr(&h, msr, v);
}
static hw_status c_run(void *ctx, uint32_t cpu, hw_cpu_fn fn, void *arg)
{
	(void)ctx;
	struct hw h = hw_model_hw(&hm);
	return hw_run_on_cpu(&h, cpu, fn, arg);
}
static hw_status c_mmio64(void *ctx, uint64_t a, uint64_t *v)
{
	(void)ctx;
	if (a < TABLE_BASE || a >= TABLE_BASE + sizeof(table) || a % 8)
		return HW_BAD_ARG;
	*v = table[(a - TABLE_BASE) / 8];
	return HW_OK;
}
static const struct hw_ops composite = {
	.name = "composite", .pci_read32 = c_pci_read, .rdmsr = c_rdmsr, .run_on_cpu = c_run, .mmio_read64 = c_mmio64,
};
static const struct hw H = { &composite, NULL };

static const struct cha_pci_scope all_buses = { 0, 0, 0xFF };

static void reset(void)
{
	pci_model_init(&pm);
	hw_model_init(&hm);
	hm.ncpus = 2;
	memset(table, 0, sizeof(table));
}

static const struct cha_platform *P(const char *n) { return cha_platform_by_name(n); }

static void test_skx_capid6(void **state)
{
	(void)state;
	reset();
	struct pci_model_func *s0 = pci_model_add(&pm, 0, 0x17, 30, 3, 0x8086, 0x2083, 0x088000, 0);
	struct pci_model_func *s1 = pci_model_add(&pm, 0, 0x85, 30, 3, 0x8086, 0x2083, 0x088000, 0);
	pci_model_w32(s0, 0x9C, 0xF0FFFFFF);   /* bits 31:28 are not CHAs: 24 */
	pci_model_w32(s1, 0x9C, 0x00000F0F);   /* 8 */
	struct cha_topology t;
	char why[200];
	assert_int_equal(cha_discover(&H, P("SKX"), &all_buses, 1, 2, &ws, &t, why, sizeof(why)), 0);
	assert_int_equal(t.ncha[0], 24);
	assert_int_equal(t.ncha[1], 8);
	assert_string_equal(t.how[0], "CAPID6 0000:17:1e.3 = 0xf0ffffff");
	/* one socket but two devices: no guess */
	assert_int_equal(cha_discover(&H, P("SKX"), &all_buses, 1, 1, &ws, &t, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "found 2 times"));
	/* QEMU: no such device */
	reset();
	assert_int_equal(cha_discover(&H, P("SKX"), &all_buses, 1, 1, &ws, &t, why, sizeof(why)), -1);
	assert_string_equal(why, "CAPID6 (device 30 function 3) device 8086:2083 not found on buses 00-ff of segment 0000");
	/* zero CHAs is not a count */
	s0 = pci_model_add(&pm, 0, 0x17, 30, 3, 0x8086, 0x2083, 0x088000, 0);
	assert_int_equal(cha_discover(&H, P("SKX"), &all_buses, 1, 1, &ws, &t, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "0 CHAs, outside 1..28"));
}

static void test_icx_capid6_7(void **state)
{
	(void)state;
	reset();
	struct pci_model_func *f = pci_model_add(&pm, 0, 0x7E, 30, 3, 0x8086, 0x345B, 0x088000, 0);
	pci_model_w32(f, 0x9C, 0xFFFFFFFF);
	pci_model_w32(f, 0xA0, 0xFF);
	struct cha_topology t;
	char why[200];
	assert_int_equal(cha_discover(&H, P("ICX"), &all_buses, 1, 1, &ws, &t, why, sizeof(why)), 0);
	assert_int_equal(t.ncha[0], 40);
	assert_non_null(strstr(t.how[0], "CAPID7 = 0x000000ff"));
	pci_model_w32(f, 0xA0, 0x1FF);        /* 41 > the 40 ICX has */
	assert_int_equal(cha_discover(&H, P("ICX"), &all_buses, 1, 1, &ws, &t, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "41 CHAs, outside 1..40"));
	/* the override */
	assert_int_equal(cha_topology_from_count(P("ICX"), 2, 4, &t, why, sizeof(why)), 0);
	assert_int_equal(t.ncha[1], 4);
	assert_string_equal(t.how[1], "config cha_count");
	assert_int_equal(cha_topology_from_count(P("SKX"), 1, 29, &t, why, sizeof(why)), -1);
}

/* SPR: DVSEC (0x23, ID 1) -> BAR -> table: global entry, then units (Linux uncore_discovery.h).
 * Unit q0: 4 counters | CTL0 at +2 << 8 | 48 bits << 16 | CTR0 at +8 << 24 (Intel SPR uncore
 * PMON manual: CHA 0 BOX_CTL 0x2000, CTL0 0x2002, CTR0 0x2008); IIO: CTL0 +8, CTR0 +1. */
#define Q0_CHA (4ull | 0x2ull << 8 | 48ull << 16 | 0x8ull << 24)
#define Q0_IIO (4ull | 0x8ull << 8 | 48ull << 16 | 0x1ull << 24)
static void spr_table(uint32_t box1_ctl)
{
	struct pci_model_func *f = pci_model_add(&pm, 0, 0x1E, 1, 0, 0x8086, 0x09A7, 0x088000, 0);
	pci_model_add_dvsec(f, 0x100, 0x8086, 0, 0x10, 1);
	pci_model_w32(f, 0x10C, 0);                           /* BIR 0 */
	pci_model_w32(f, 0x10, (uint32_t)TABLE_BASE | 0x4);   /* 64-bit memory BAR */
	pci_model_w32(f, 0x14, 0);
	table[0] = 4ull << 8 | 3ull << 16;                    /* stride 4 x 8 bytes, 3 units */
	table[4] = Q0_CHA, table[5] = 0x2000, table[6] = 0;             /* CHA 0 */
	table[8] = Q0_IIO, table[9] = 0x3000, table[10] = 1;            /* IIO: not a CHA */
	table[12] = Q0_CHA, table[13] = box1_ctl, table[14] = 1ull << 16;  /* CHA 1 */
}

static void test_spr_discovery_table(void **state)
{
	(void)state;
	struct cha_topology t;
	char why[200];
	uint32_t cpu[1] = { 1 };
	reset();
	spr_table(0x2010);
	hw_model_reg(&hm, HWM_MSR, 0x2FFE, HWM_PLAIN, 0);     /* EMR XCC: reads 0 */
	assert_int_equal(cha_discover_on(&H, P("SPR"), &all_buses, 1, 1, cpu, &ws, &t, why, sizeof(why)), 0);
	assert_int_equal(t.ncha[0], 2);
	assert_non_null(strstr(t.how[0], "MSR 0x2ffe reads 0, table used"));
	hw_model_reg(&hm, HWM_MSR, 0x2FFE, HWM_PLAIN, 2);
	assert_int_equal(cha_discover_on(&H, P("SPR"), &all_buses, 1, 1, cpu, &ws, &t, why, sizeof(why)), 0);
	assert_non_null(strstr(t.how[0], "agrees"));
	hw_model_reg(&hm, HWM_MSR, 0x2FFE, HWM_PLAIN, 3);     /* firmware bug: MSR wins (Linux) */
	assert_int_equal(cha_discover_on(&H, P("SPR"), &all_buses, 1, 1, cpu, &ws, &t, why, sizeof(why)), 0);
	assert_int_equal(t.ncha[0], 3);
	reset();
	spr_table(0x2020);                                    /* box 1 is not at 0x2010 */
	assert_int_equal(cha_discover_on(&H, P("SPR"), &all_buses, 1, 1, cpu, &ws, &t, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "CHA 1: BOX_CTL 0x2020"));
	/* CHA 1 as an MMIO unit: not where the platform's CHAs are */
	reset();
	spr_table(0x2010);
	table[12] |= 1ull << 62;
	assert_int_equal(cha_discover_on(&H, P("SPR"), &all_buses, 1, 1, cpu, &ws, &t, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "CHA 1: BOX_CTL 0x2010 (access type 1)"));
	/* a unit of 0 counters is a defect the parser names and passes over: one CHA left */
	reset();
	spr_table(0x2010);
	table[12] = 0x2ull << 8 | 48ull << 16;
	hw_model_reg(&hm, HWM_MSR, 0x2FFE, HWM_PLAIN, 0);
	assert_int_equal(cha_discover_on(&H, P("SPR"), &all_buses, 1, 1, cpu, &ws, &t, why, sizeof(why)), 0);
	assert_int_equal(t.ncha[0], 1);
	/* a table whose global entry claims 4 units, one more than can be read: no count */
	reset();
	spr_table(0x2010);
	table[0] = 4ull << 8 | 4ull << 16;
	assert_int_equal(cha_discover_on(&H, P("SPR"), &all_buses, 1, 1, cpu, &ws, &t, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "read of 0xf0000080"));
	/* a global entry of 0 */
	table[0] = 0;
	assert_int_equal(cha_discover_on(&H, P("SPR"), &all_buses, 1, 1, cpu, &ws, &t, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "discovery table at 0xf0000000: global entry reads 0x0"));
	reset();
	assert_int_equal(cha_discover(&H, P("GNR"), &all_buses, 1, 1, &ws, &t, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "uncore discovery device 8086:09a7 not found"));
}

static void test_metrics_formulas(void **state)
{
	(void)state;
	struct cha_request req;
	char why[160];
	memset(&req, 0, sizeof(req));
	req.plat = P("SKX");
	assert_int_equal(cha_request_events(&req, NULL, why, sizeof(why)), 0);
	uint64_t counts[CHA_MAX_EVENTS];
	/* defaults: {HIT, MISS} x RDCUR RFO CRD DRD ITOM, then IA PRD, WIL */
	for (uint32_t i = 0; i < req.nevents; i++)
		counts[i] = 10 * (i + 1);
	struct cha_metric_values m;
	cha_metrics(req.plat, &req, counts, 1000, &m);
	uint64_t rdcur = 10 + 20, rfo = 30 + 40, crd = 50 + 60, drd = 70 + 80, itom = 90 + 100;
	assert_int_equal(m.read_bytes, 64 * (rdcur + rfo + crd + drd));   /* PCM PurleyPlatform */
	assert_int_equal(m.write_bytes, 64 * (rfo + itom));
	assert_int_equal(m.mmio_reads, 110 + 120);
	assert_int_equal(m.mmio_writes, 130 + 140);
	assert_int_equal(m.hits, 10 + 30 + 50 + 70 + 90);
	assert_int_equal(m.misses, 20 + 40 + 60 + 80 + 100);
	assert_int_equal(m.hit_ratio_milli, (250 * 1000 + 300) / 550);
	assert_int_equal(m.read_gbps_milli, 64 * (rdcur + rfo + crd + drd) * 1000 / 1000);
	/* ICX: write = ItoM + ItoMCacheNear, read = PCIRdCur hit + miss (PCM WhitleyPlatform) */
	req.plat = P("ICX");
	assert_int_equal(cha_request_events(&req, "TOR_INSERTS.IO_HIT_PCIRDCUR;TOR_INSERTS.IO_MISS_PCIRDCUR;"
					    "TOR_INSERTS.IO_ITOM;TOR_INSERTS.IO_ITOMCACHENEAR;TOR_INSERTS.IO_HIT;"
					    "TOR_INSERTS.IO_MISS", why, sizeof(why)), 0);
	uint64_t c2[] = { 3, 1, 5, 7, 900, 100 };
	cha_metrics(req.plat, &req, c2, 2000, &m);
	assert_int_equal(m.read_bytes, 64 * 4);
	assert_int_equal(m.write_bytes, 64 * 12);
	assert_int_equal(m.hit_ratio_milli, 900);          /* IO_HIT / (IO_HIT + IO_MISS) preferred */
	assert_false(m.have_mmio_read);
	assert_non_null(strstr(m.why, "MMIO reads needs UCRdF"));
	assert_int_equal(req.ngroups, 2);                  /* six events > four counters */
}

static void test_record(void **state)
{
	(void)state;
	static struct cha_request req;
	static struct cha_result res;
	char why[160], buf[8192];
	memset(&req, 0, sizeof(req));
	memset(&res, 0, sizeof(res));
	req.plat = P("ICX");
	assert_int_equal(cha_request_events(&req, NULL, why, sizeof(why)), 0);
	assert_int_equal(cha_topology_from_count(req.plat, 1, 4, &req.topo, why, sizeof(why)), 0);
	res.nsockets = 1;
	res.window_ns = res.group_ns[0] = 5000;
	res.nslices = 1;
	res.sock[0].raw[0] = res.sock[0].scaled[0] = 77;
	cha_record(&req, &res, buf, sizeof(buf));
	struct strbuf sb;
	struct json j;
	assert_non_null(strstr(buf, "\"platform\":\"ICX\""));
	assert_non_null(strstr(buf, "\"cha_count\":4,\"cha_count_source\":\"config cha_count\""));
	assert_non_null(strstr(buf, "\"ctl\":\"0xc8f3fd00400435\""));
	assert_non_null(strstr(buf, "\"fraction\":1.000"));
	assert_non_null(strstr(buf, "\"raw\":77"));
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	cha_error_json(&req, "CAPID6 device 8086:345b not found", &j);
	json_end(&j);
	assert_true(json_check_object(buf, sb.len));
	assert_non_null(strstr(buf, "\"status\":\"error\""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skx_capid6),
		cmocka_unit_test(test_icx_capid6_7),
		cmocka_unit_test(test_spr_discovery_table),
		cmocka_unit_test(test_metrics_formulas),
		cmocka_unit_test(test_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
