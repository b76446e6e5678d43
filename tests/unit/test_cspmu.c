/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Arm CoreSight PMU backend and the NVIDIA PMU table on the page-pair model
 * (tests/model/cspmu_model.c). Oracles are literals: PMIIDR values of Linux nvidia_cspmu.c's
 * match table (0x2CF20000 UCF, 0x10301000 PCIE, 0x10300000 Grace PCIE, implementer 0x36B), the
 * filter bits of Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst (src_loc_cpu = bit 1,
 * destination bits 11:8; PCIE src_rp_mask 7:0, BDF 23:8, BDF enable 24, destinations in
 * PMEVFILT2R 4:0; BDF 27:01.1 = 0x2781 as the document computes it) and the register offsets
 * of arm_cspmu.h as the model writes them. Scripted traffic gives exact counts and metrics in
 * every layout (32/64-bit counters, ATOMIC or hi-lo-hi, one or two pages); a carry between
 * the halves of a hi-lo-hi read is caught; every register is put back with a fault injected at
 * each access of the sequence; PMIIDR 0 falls back to the PMPIDR-built identity.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/cspmu_model.h"
#include "pmu/uncore/cspmu.h"
#include "pmu/uncore/nvidia_cspmu.h"

#define B0 0x40000000ull
#define B1 0x40010000ull
#define UCF_PMIIDR 0x2CF2036Bu
/* 8 event counters + cycle counter (N = 8), width 64 (SIZE = 63), CC: 0x4000 | 0x3F00 | 0x08 */
#define CFG64 0x7F08u
/* same with 32-bit counters (SIZE = 31): 0x4000 | 0x1F00 | 0x08 */
#define CFG32 0x5F08u

static struct cspmu_model m;
static struct cspmu_model before;
static struct hw h;
static struct cspmu_info info;
static struct nv_cspmu_req req;
static struct cspmu_run run;

static void setup(int dual, int hardware, int atomic, uint32_t cfg, uint32_t pmiidr)
{
	cspmu_model_init(&m, B0, B1, dual, hardware, atomic, cfg, pmiidr);
	h = cspmu_model_hw(&m);
}

static struct cspmu_node node(int dual, int atomic)
{
	return (struct cspmu_node){ .id = 7, .type = 3, .flags = (uint8_t)((dual ? 1 : 0) | (atomic ? 4 : 0)),
				    .base0 = B0, .base1 = B1 };
}

static void probe(int dual, int atomic)
{
	char why[160] = "";
	struct cspmu_node n = node(dual, atomic);
	assert_int_equal(cspmu_probe(&h, &n, &info, why, sizeof(why)), 0);
}

/* Two APMT nodes on one register page are one PMU (programmed once): page 0 against page 0,
 * and page 1 where DUAL_PAGE (flags bit 0) says page 1 is used; base1 is ignored without it. */
static void test_pages_shared(void **state)
{
	(void)state;
	struct cspmu_node a = { .id = 1, .base0 = 0x10000 }, b = { .id = 2, .base0 = 0x10000 };
	assert_true(cspmu_pages_shared(&a, &b));
	b.base0 = 0x10800;                        /* same 4 KiB page, other offset */
	assert_true(cspmu_pages_shared(&a, &b));
	b.base0 = 0x11000;                        /* the next page */
	assert_false(cspmu_pages_shared(&a, &b));
	b.base1 = 0x10000;                        /* page 1 = a's page 0, but b is single-page */
	assert_false(cspmu_pages_shared(&a, &b));
	b.flags = CSPMU_APMT_DUAL_PAGE;
	assert_true(cspmu_pages_shared(&a, &b));
	a = (struct cspmu_node){ .flags = CSPMU_APMT_DUAL_PAGE, .base0 = 0x20000, .base1 = 0x30000 };
	b = (struct cspmu_node){ .flags = CSPMU_APMT_DUAL_PAGE, .base0 = 0x40000, .base1 = 0x30000 };
	assert_true(cspmu_pages_shared(&a, &b));  /* page 1 shared only */
	b.base1 = 0x50000;
	assert_false(cspmu_pages_shared(&a, &b));
}

static void test_identity(void **state)
{
	(void)state;
	char why[160];
	setup(1, 1, 0, CFG64, UCF_PMIIDR);
	probe(1, 0);
	assert_int_equal(info.pmiidr, 0x2CF2036B);
	assert_int_equal(info.ident_src, CSPMU_ID_PMIIDR);
	assert_int_equal(info.nlogical, 9);
	assert_int_equal(info.nevcntr, 8);
	assert_int_equal(info.width, 64);
	assert_int_equal(info.cc, 1);
	assert_string_equal(nv_cspmu_match(info.pmiidr)->unit, "UCF");
	/* PMIIDR 0: PMPIDR0 0xCF (PART_0), PMPIDR1 0xB2 (DES_0 0xB, PART_1 0x2), PMPIDR2 0x26
	 * (REVISION 2, DES_1 6), PMPIDR3 0x00, PMPIDR4 0x03 (DES_2 3) -> 0x2CF2036B */
	setup(1, 1, 0, CFG64, 0);
	cspmu_model_set(&m, 0, 0xFE0, 0xCF);
	cspmu_model_set(&m, 0, 0xFE4, 0xB2);
	cspmu_model_set(&m, 0, 0xFE8, 0x26);
	cspmu_model_set(&m, 0, 0xFEC, 0x00);
	cspmu_model_set(&m, 0, 0xFD0, 0x03);
	probe(1, 0);
	assert_int_equal(info.ident_src, CSPMU_ID_PMPIDR);
	assert_int_equal(info.pmiidr, 0x2CF2036B);
	/* a non-zero impl_id overrides both */
	struct cspmu_node n = node(1, 0);
	n.impl_id = 0x1030136B;
	assert_int_equal(cspmu_probe(&h, &n, &info, why, sizeof(why)), 0);
	assert_int_equal(info.ident_src, CSPMU_ID_IMPL_ID);
	assert_string_equal(nv_cspmu_match(info.pmiidr)->unit, "PCIE");
	assert_string_equal(nv_cspmu_match(info.pmiidr)->soc, "Tegra410");
	assert_string_equal(nv_cspmu_match(0x1030036B)->soc, "Grace");
	assert_string_equal(nv_cspmu_match(0x2CF0036B)->unit, "SCF");
	assert_string_equal(nv_cspmu_match(0x1070036B)->unit, "PCIE-TGT");
	assert_string_equal(nv_cspmu_match(0x2CF2036A)->pmu, "arm_cspmu");   /* another implementer */
	assert_string_equal(nv_cspmu_match(0x9990036B)->pmu, "nvidia_uncore_pmu");   /* NVIDIA, unknown product */
	struct cspmu_event gev;
	const char *gs = "nvidia_uncore_pmu_3/event=0x7/";
	assert_int_equal(nv_cspmu_encode(nv_cspmu_match(0x9990036B), "nvidia_uncore_pmu_3", gs, strlen(gs), &gev, NULL,
					 why, sizeof(why)), 0);
	assert_int_equal(gev.filt, 0xFFFFFFFF);              /* Linux's default: all ones */
	assert_int_equal(gev.filt2, 0xFFFFFFFF);
	assert_int_equal(gev.use_filt2, 1);
	/* Grace SCF: socket_2_wr_access = 0x139 + 2 (nvidia-tegra241-pmu.rst event list) */
	gs = "nvidia_scf_pmu_0/socket_2_wr_access/";
	assert_int_equal(nv_cspmu_encode(nv_cspmu_match(0x2CF0036B), "nvidia_scf_pmu_0", gs, strlen(gs), &gev, NULL,
					 why, sizeof(why)), 0);
	assert_int_equal(gev.type, 0x13B);
	assert_int_equal(gev.filt, 0);
	/* an unaligned page and a faulting PMCFGR are errors naming the node */
	n.base0 = B0 + 4;
	assert_int_equal(cspmu_probe(&h, &n, &info, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "APMT node 7"));
	m.fail_at = m.naccess + 1;
	n = node(1, 0);
	assert_int_equal(cspmu_probe(&h, &n, &info, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "PMCFGR"));
}

static void test_event_strings(void **state)
{
	(void)state;
	char why[160] = "";
	struct cspmu_event ev;
	const struct nv_cspmu_desc *ucf = nv_cspmu_match(0x2CF2036B), *pcie = nv_cspmu_match(0x1030136B);
	const char *s = "nvidia_ucf_pmu_0/event=0x113,src_loc_cpu=1/";
	assert_int_equal(nv_cspmu_encode(ucf, "nvidia_ucf_pmu_0", s, strlen(s), &ev, NULL, why, sizeof(why)), 0);
	assert_int_equal(ev.type, 0x113);
	assert_int_equal(ev.filt, 0xF02);      /* src_loc_cpu, destinations defaulted to all */
	assert_int_equal(ev.cycles, 0);
	s = "nvidia_ucf_pmu_0/mem_bytes_wr,dst_rem=1/";
	assert_int_equal(nv_cspmu_encode(ucf, "nvidia_ucf_pmu_0", s, strlen(s), &ev, NULL, why, sizeof(why)), 0);
	assert_int_equal(ev.type, 0x124);
	assert_int_equal(ev.filt, 0x807);
	s = "nvidia_ucf_pmu_0/cycles/";
	assert_int_equal(nv_cspmu_encode(ucf, "nvidia_ucf_pmu_0", s, strlen(s), &ev, NULL, why, sizeof(why)), 0);
	assert_int_equal(ev.cycles, 1);
	assert_int_equal(ev.filt, 0xF07);
	s = "nvidia_pcie_pmu_0_rc_1/event=0x0,src_rp_mask=0x1/";
	assert_int_equal(nv_cspmu_encode(pcie, "nvidia_pcie_pmu_0_rc_1", s, strlen(s), &ev, NULL, why, sizeof(why)), 0);
	assert_int_equal(ev.type, 0);
	assert_int_equal(ev.filt, 0x1);
	assert_int_equal(ev.filt2, 0x1F);
	assert_int_equal(ev.use_filt2, 1);
	/* the README's uncore_events examples: rd_bytes is event 0x0, wr_bytes 0x1 (Linux
	 * pcie_v2_pmu_event_attrs, pcie_tgt_pmu_event_attrs); PCIE src_rp_mask config1:0-7 (PMEVFILTR),
	 * PCIE-TGT dst_rp_mask the root ports of PMEVFILT2R[7:0], PMEVFILTR never written */
	s = "nvidia_pcie_pmu_0_rc_1/rd_bytes,src_rp_mask=0x1/";
	assert_int_equal(nv_cspmu_encode(pcie, "nvidia_pcie_pmu_0_rc_1", s, strlen(s), &ev, NULL, why, sizeof(why)), 0);
	assert_int_equal(ev.type, 0x0);
	assert_int_equal(ev.filt, 0x1);
	s = "nvidia_pcie_tgt_pmu_0_rc_1/wr_bytes,dst_rp_mask=0x3/";
	assert_int_equal(nv_cspmu_encode(nv_cspmu_match(0x1070036B), "nvidia_pcie_tgt_pmu_0_rc_1", s, strlen(s), &ev, NULL,
					 why, sizeof(why)), 0);
	assert_int_equal(ev.type, 0x1);
	assert_int_equal(ev.filt2 & 0xFF, 0x3);
	assert_int_equal(ev.use_filt, 0);
	/* any other implementer: arm_cspmu_<APMT id>, event=N alone */
	s = "arm_cspmu_7/event=0x5/";
	assert_int_equal(nv_cspmu_encode(nv_cspmu_match(0x0000043B), "arm_cspmu_7", s, strlen(s), &ev, NULL, why,
					 sizeof(why)), 0);
	assert_int_equal(ev.type, 0x5);
	assert_int_equal(ev.cycles, 0);
	s = "nvidia_pcie_pmu_0_rc_1/rd_req,src_bdf=0x2781,src_bdf_en=1,dst_loc_cmem=1/";
	assert_int_equal(nv_cspmu_encode(pcie, "nvidia_pcie_pmu_0_rc_1", s, strlen(s), &ev, NULL, why, sizeof(why)), 0);
	assert_int_equal(ev.type, 2);
	assert_int_equal(ev.filt, 0x1278100);
	assert_int_equal(ev.filt2, 0x1);
	/* a BDF without its enable bit: the filter is not 0, so Linux keeps it as given (no root port) */
	s = "nvidia_pcie_pmu_0_rc_1/rd_req,src_bdf=0x100/";
	assert_int_equal(nv_cspmu_encode(pcie, "nvidia_pcie_pmu_0_rc_1", s, strlen(s), &ev, NULL, why, sizeof(why)), 0);
	assert_int_equal(ev.filt, 0x10000);
	assert_int_equal(ev.use_filt, 1);
	s = "nvidia_pcie_tgt_pmu_0_rc_1/rd_bytes/";
	assert_int_equal(nv_cspmu_encode(nv_cspmu_match(0x1070036B), "nvidia_pcie_tgt_pmu_0_rc_1", s, strlen(s), &ev, NULL,
					 why, sizeof(why)), 0);
	assert_int_equal(ev.use_filt, 0);                 /* PCIE-TGT: PMEVFILTR never written */
	assert_int_equal(ev.filt2, 0xFF);
	s = "nvidia_pcie_pmu_0_rc_1/rd_req,src_rp_mask=1,src_bdf_en=1/";
	assert_int_equal(nv_cspmu_encode(pcie, "nvidia_pcie_pmu_0_rc_1", s, strlen(s), &ev, NULL, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "mutually exclusive"));
	s = "nvidia_pcie_pmu_0_rc_1/rd_req,src_loc_cpu=1/";
	assert_int_equal(nv_cspmu_encode(pcie, "nvidia_pcie_pmu_0_rc_1", s, strlen(s), &ev, NULL, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "src_loc_cpu"));
	/* two different BDFs on one PCIE PMU */
	setup(1, 1, 0, CFG64, 0x1030136B);
	probe(1, 0);
	assert_int_equal(nv_cspmu_request(pcie, "nvidia_pcie_pmu_0_rc_1", &info,
					  "nvidia_pcie_pmu_0_rc_1/rd_req,src_bdf=0x100,src_bdf_en=1/;"
					  "nvidia_pcie_pmu_0_rc_1/wr_req,src_bdf=0x200,src_bdf_en=1/", &req, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "one BDF filter"));
	/* a string for another PMU only: this one is left out */
	assert_int_equal(nv_cspmu_request(pcie, "nvidia_pcie_pmu_0_rc_1", &info, "nvidia_ucf_pmu_0/cycles/", &req, why,
					  sizeof(why)), 1);
	char name[48];
	nv_cspmu_name(pcie, 0, 1, 9, name, sizeof(name));
	assert_string_equal(name, "nvidia_pcie_pmu_0_rc_1");
	nv_cspmu_name(ucf, 1, 0, 9, name, sizeof(name));
	assert_string_equal(name, "nvidia_ucf_pmu_1");
}

/* Program the default UCF set, count scripted traffic, stop, restore. */
static int run_ucf(uint64_t *raw_rd, uint64_t *raw_wr, uint64_t *cycles)
{
	char why[160] = "";
	const struct nv_cspmu_desc *d = nv_cspmu_match(info.pmiidr);
	assert_int_equal(nv_cspmu_request(d, "nvidia_ucf_pmu_0", &info, "", &req, why, sizeof(why)), 0);
	int rc = cspmu_start(&h, &info, req.ev, req.nev, &run);
	if (!rc) {
		cspmu_model_tick(&m, 1000);
		rc = cspmu_stop(&h, &info, req.ev, req.nev, &run);
	}
	int rr = cspmu_restore(&h, &info, &run);
	for (uint32_t i = 0; i < req.nev; i++) {
		if (req.evname[i] && !strcmp(req.evname[i], "mem_bytes_rd"))
			*raw_rd = run.raw[i];
		if (req.evname[i] && !strcmp(req.evname[i], "mem_bytes_wr"))
			*raw_wr = run.raw[i];
		if (req.ev[i].cycles)
			*cycles = run.raw[i];
	}
	return rc ? rc : rr;
}

static void layout(int dual, int atomic, uint32_t cfg)
{
	setup(dual, 1, atomic, cfg, UCF_PMIIDR);
	cspmu_model_add(&m, 0x123, 0x2, 64);      /* mem_bytes_rd from the local CPU */
	cspmu_model_add(&m, 0x124, 0x0, 32);      /* mem_bytes_wr */
	m.cycles_per_tick = 10;
	/* counters hold values of someone before: the reset clears them, restore puts them back */
	for (unsigned c = 0; c < 8; c++)
		cspmu_model_set_counter(&m, c, 0x1000 + c);
	cspmu_model_set_counter(&m, 31, 0x77);
	cspmu_model_set(&m, 0, 0x400, 0x55);      /* PMEVTYPER0 as found */
	probe(dual, atomic);
	before = m;
	uint64_t rd = 0, wr = 0, cyc = 0;
	assert_int_equal(run_ucf(&rd, &wr, &cyc), 0);
	assert_int_equal(req.nev, 9);
	assert_int_equal(rd, 64000);
	assert_int_equal(wr, 32000);
	assert_int_equal(cyc, 10000);
	assert_int_equal(run.reset, 1);
	assert_memory_equal(m.page, before.page, sizeof(m.page));
	struct nv_cspmu_metrics mt;
	nv_cspmu_metrics(&req, run.raw, 2000, &mt);
	int seen = 0;
	for (uint32_t i = 0; i < mt.n; i++) {
		if (!strcmp(mt.m[i].name, "mem_bytes_rd_gbps")) {
			assert_int_equal(mt.m[i].milli, 32000);    /* 64000 B / 2000 ns */
			seen++;
		}
		if (!strcmp(mt.m[i].name, "freq_ghz")) {
			assert_int_equal(mt.m[i].milli, 5000);     /* 10000 cycles / 2000 ns */
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	assert_int_equal(mt.bytes, 96000);                 /* mem bytes: the self-check's numerator */
	/* the cycle counter sits on index 31: page 1 at +0x7C (32-bit) or +0xF8 (64-bit) */
	assert_int_equal(cspmu_counter_addr(&info, 31), (dual ? B1 : B0) + (cfg == CFG32 ? 0x7C : 0xF8));
}

static void test_layouts(void **state)
{
	(void)state;
	layout(1, 0, CFG64);
	layout(1, 1, CFG64);
	layout(0, 0, CFG64);
	layout(0, 1, CFG64);
	layout(1, 0, CFG32);
	layout(0, 0, CFG32);
}

static void test_sequence_order(void **state)
{
	(void)state;
	setup(1, 1, 0, CFG64, UCF_PMIIDR);
	probe(1, 0);
	uint64_t a = 0, b = 0, c = 0;
	assert_int_equal(run_ucf(&a, &b, &c), 0);
	/* writes in order: counters zeroed, PMCR = C|P (0x6), per counter PMEVTYPER / PMEVFILTR,
	 * PMCNTENSET, PMCR = E; stop: PMCR = 0, PMCNTENCLR */
	int pmcr6 = -1, enset = -1, pmcr1 = -1, pmcr0 = -1, enclr = -1, type0 = -1;
	for (uint32_t i = 0; i < m.nlog; i++) {
		const struct cspmu_model_access *x = &m.log[i];
		if (!x->write)
			continue;
		if (x->addr == B0 + 0xE04 && x->value == 6 && pmcr6 < 0)
			pmcr6 = (int)i;
		if (x->addr == B0 + 0x400 && type0 < 0)
			type0 = (int)i;
		if (x->addr == B0 + 0xC00 && enset < 0)
			enset = (int)i;
		if (x->addr == B0 + 0xE04 && x->value == 1 && pmcr1 < 0)
			pmcr1 = (int)i;
		if (x->addr == B0 + 0xE04 && x->value == 0 && pmcr1 >= 0 && pmcr0 < 0)
			pmcr0 = (int)i;
		if (x->addr == B0 + 0xC20 && x->value && enclr < 0)
			enclr = (int)i;
	}
	assert_true(pmcr6 >= 0 && pmcr6 < type0 && type0 < enset && enset < pmcr1 && pmcr1 < pmcr0 && pmcr0 < enclr);
	/* the cycle counter (index 31) and 8 event counters enabled */
	for (uint32_t i = 0; i < m.nlog; i++)
		if (m.log[i].write && m.log[i].addr == B0 + 0xC00 && m.log[i].value)
			assert_int_equal(m.log[i].value, 0x800000FF);
}

static void test_hilohi_carry(void **state)
{
	(void)state;
	setup(1, 1, 0, CFG64, UCF_PMIIDR);
	probe(1, 0);
	cspmu_model_set_counter(&m, 0, 0xFFFFFFF0ull);
	m.bump_after = m.naccess + 1;             /* after the first high read */
	m.bump_idx = 0;
	m.bump = 0x20;
	uint64_t v = 0;
	uint8_t retries = 0;
	assert_int_equal(cspmu_read_counter(&h, &info, 0, &v, &retries), HW_OK);
	assert_int_equal(v, 0x100000010ull);
	assert_int_equal(retries, 1);
	/* ATOMIC: one 64-bit read; a model without 64-bit access would fault */
	setup(1, 1, 1, CFG64, UCF_PMIIDR);
	probe(1, 1);
	cspmu_model_set_counter(&m, 3, 0x123456789ull);
	uint32_t n0 = m.naccess;
	assert_int_equal(cspmu_read_counter(&h, &info, 3, &v, NULL), HW_OK);
	assert_int_equal(v, 0x123456789ull);
	assert_int_equal(m.naccess - n0, 1);
	assert_int_equal(m.log[m.nlog - 1].wide, 1);
}

static void test_faults(void **state)
{
	(void)state;
	uint64_t a, b, c;
	setup(1, 1, 0, CFG64, UCF_PMIIDR);
	probe(1, 0);
	uint32_t start = m.naccess;
	assert_int_equal(run_ucf(&a, &b, &c), 0);
	uint32_t total = m.naccess - start;
	assert_true(total > 40);
	for (int sticky = 0; sticky < 2; sticky++)
		for (uint32_t k = 1; k <= total; k++) {
			setup(1, 1, 0, CFG64, UCF_PMIIDR);
			for (unsigned i = 0; i < 8; i++)
				cspmu_model_set_counter(&m, i, 0x100 * (i + 1));
			probe(1, 0);
			before = m;
			m.fail_at = m.naccess + k;
			m.fail_sticky = (uint8_t)sticky;
			int rc = run_ucf(&a, &b, &c);
			assert_int_equal(rc, -1);
			struct saveset_report r = { 0 };
			saveset_report_add(&run.save, &r);
			if (!r.nfailed)
				assert_memory_equal(m.page, before.page, sizeof(m.page));
			else
				assert_true(sticky || r.nfailed == 1);   /* a single fault loses one write-back */
			assert_int_equal(cspmu_model_reg(&m, 0, 0xC00) & (r.nfailed ? 0 : 0xFFFFFFFF), 0);
		}
}

static void test_plain_memory_and_busy(void **state)
{
	(void)state;
	uint64_t a, b, c;
	/* an ivshmem BAR: the backing memory ends as it started */
	setup(1, 0, 0, CFG64, UCF_PMIIDR);
	probe(1, 0);
	before = m;
	assert_int_equal(run_ucf(&a, &b, &c), 0);
	assert_memory_equal(m.page, before.page, sizeof(m.page));
	/* PMCR.E set by someone: nothing written */
	setup(1, 1, 0, CFG64, UCF_PMIIDR);
	cspmu_model_set(&m, 0, 0xE04, 1);
	probe(1, 0);
	uint32_t n0 = m.nlog;
	assert_int_equal(run_ucf(&a, &b, &c), -1);
	assert_int_equal(run.busy, 1);
	for (uint32_t i = n0; i < m.nlog; i++)
		assert_int_equal(m.log[i].write, 0);
}

static void test_tgt_slots(void **state)
{
	(void)state;
	char why[160] = "";
	struct nv_addr_range r[2] = { { 0x10000, 0x100 }, { 0x4000000000ull, 0x100000000ull } };
	struct nv_tgt_slot s[NV_TGT_SLOTS];
	assert_int_equal(nv_tgt_slots_from_ranges(r, 2, s, why, sizeof(why)), 0);
	assert_int_equal(s[0].base, 0x10000);
	assert_int_equal(s[0].mask, 0xFFFFFFFFFFFFFF00ull);
	assert_int_equal(s[1].mask, 0xFFFFFFFF00000000ull);
	struct nv_addr_range bad = { 0x10000, 0x180 };
	assert_int_equal(nv_tgt_slots_from_ranges(&bad, 1, s + 2, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "power-of-two"));
	assert_int_equal(nv_tgt_filt2(0x3, 1u << 2), 0x403);
	setup(0, 0, 0, CFG64, 0);
	struct saveset ss;
	struct saved_reg sr[16];
	saveset_init(&ss, sr, 16);
	before = m;
	assert_int_equal(nv_tgt_program_slots(&h, &ss, B0, s, 2), HW_OK);
	/* slot 1 at 0xD38 + 0x14: CTRL 0xD4C, BASE_LO 0xD50, BASE_HI 0xD54, MASK_LO 0xD58, MASK_HI 0xD5C */
	assert_int_equal(cspmu_model_reg(&m, 0, 0xD38), 1);
	assert_int_equal(cspmu_model_reg(&m, 0, 0xD3C), 0x10000);
	assert_int_equal(cspmu_model_reg(&m, 0, 0xD44), 0xFFFFFF00);
	assert_int_equal(cspmu_model_reg(&m, 0, 0xD4C), 1);
	assert_int_equal(cspmu_model_reg(&m, 0, 0xD54), 0x40);
	assert_int_equal(cspmu_model_reg(&m, 0, 0xD5C), 0xFFFFFFFF);
	assert_int_equal(cspmu_model_reg(&m, 0, 0xD58), 0);
	assert_int_equal(saveset_restore(&h, &ss), HW_OK);
	assert_memory_equal(m.page, before.page, sizeof(m.page));
}

/* A PCIE-TGT PMU with its address-filter block (a third MMIO region of the model): slots
 * programmed before the PMU, both restored after it; with a fault injected at every access
 * (once, or from there on) everything written is put back, or named as failed. */
#define FB 0x40020000ull
static int run_tgt(struct saveset *ss)
{
	char why[160] = "";
	const struct nv_cspmu_desc *d = nv_cspmu_match(info.pmiidr);
	assert_int_equal(nv_cspmu_request(d, "nvidia_pcie_tgt_pmu_0_rc_1", &info,
		"nvidia_pcie_tgt_pmu_0_rc_1/rd_bytes,dst_addr_en=1,dst_addr_base=0x10000,dst_addr_mask=0xFFF00/;"
		"nvidia_pcie_tgt_pmu_0_rc_1/wr_bytes,dst_addr_en=1,dst_addr_base=0x8000000000,"
		"dst_addr_mask=0xFFFFFFFFFFF00000/;nvidia_pcie_tgt_pmu_0_rc_1/cycles/", &req, why, sizeof(why)), 0);
	static struct saved_reg sr[5 * NV_TGT_SLOTS];
	saveset_init(ss, sr, 5 * NV_TGT_SLOTS);
	int rc = nv_tgt_program_slots(&h, ss, FB, req.slot, req.nslots) == HW_OK ? 0 : -1;
	if (!rc)
		rc = cspmu_start(&h, &info, req.ev, req.nev, &run);
	if (!rc) {
		cspmu_model_tick(&m, 10);
		rc = cspmu_stop(&h, &info, req.ev, req.nev, &run);
	}
	int rr = cspmu_restore(&h, &info, &run);
	int rs = saveset_restore(&h, ss) == HW_OK ? 0 : -1;
	return rc ? rc : rr ? rr : rs;
}

static void test_tgt_filter_faults(void **state)
{
	(void)state;
	struct saveset ss;
	setup(1, 1, 0, CFG64, 0x1070036B);
	m.filt_base = FB;
	for (uint32_t off = 0; off < 4096; off += 4)
		cspmu_model_set(&m, CSPMU_MODEL_FILTER, off, 0xA5000000u | off);   /* what was there */
	probe(1, 0);
	before = m;
	uint32_t start = m.naccess;
	assert_int_equal(run_tgt(&ss), 0);
	uint32_t total = m.naccess - start;
	/* during the window: slot 0 = base 0x10000 mask 0xFFF00, slot 1 = 0x80_0000_0000 / ~0xFFFFF,
	 * written BASE, MASK first and CTRL last; PMEVFILT2R0 = 0x100, PMEVFILT2R1 = 0x200 */
	uint32_t seen = 0;
	for (uint32_t i = 0; i < m.nlog; i++) {
		const struct cspmu_model_access *x = &m.log[i];
		if (!x->write)
			continue;
		if (x->addr == FB + 0xD3C && x->value == 0x10000) seen |= 1;
		if (x->addr == FB + 0xD44 && x->value == 0xFFF00) seen |= 2;
		if (x->addr == FB + 0xD38 && x->value == 1)
			assert_int_equal(seen & 3, 3);     /* slot 0 enabled after its BASE and MASK */
		if (x->addr == FB + 0xD54 && x->value == 0x80) seen |= 4;
		if (x->addr == FB + 0xD58 && x->value == 0xFFF00000) seen |= 8;
		if (x->addr == FB + 0xD38 && x->value == 1) seen |= 16;
		if (x->addr == FB + 0xD4C && x->value == 1) seen |= 32;
		if (x->addr == B0 + 0x800 && x->value == 0x100) seen |= 64;
		if (x->addr == B0 + 0x804 && x->value == 0x200) seen |= 128;
	}
	assert_int_equal(seen, 255);
	assert_memory_equal(m.page, before.page, sizeof(m.page));
	assert_true(total > 40);
	for (int sticky = 0; sticky < 2; sticky++)
		for (uint32_t k = 1; k <= total; k++) {
			setup(1, 1, 0, CFG64, 0x1070036B);
			m.filt_base = FB;
			for (uint32_t off = 0; off < 4096; off += 4)
				cspmu_model_set(&m, CSPMU_MODEL_FILTER, off, 0xA5000000u | off);
			probe(1, 0);
			before = m;
			m.fail_at = m.naccess + k;
			m.fail_sticky = (uint8_t)sticky;
			assert_int_equal(run_tgt(&ss), -1);
			struct saveset_report r = { 0 };
			saveset_report_add(&run.save, &r);
			saveset_report_add(&ss, &r);
			if (!r.nfailed) {
				assert_memory_equal(m.page, before.page, sizeof(m.page));
			} else {
				assert_true(sticky || r.nfailed == 1);
				/* only the register named as failed differs (a 64-bit counter: 2 words) */
				uint32_t diff = 0;
				for (int pg = 0; pg < 3; pg++)
					for (uint32_t off = 0; off < 4096; off += 4)
						diff += cspmu_model_reg(&m, pg, off) != cspmu_model_reg(&before, pg, off);
				if (!sticky)
					assert_true(diff <= 2);
			}
		}
}

/* PCIE: the default set, pcie_pmu_rp's root-port bit, and the latency formulas of
 * nvidia-tegra410-pmu.rst (AVG_LATENCY_IN_CYCLES = RD_CUM_OUTS / RD_REQ, FREQ_IN_GHZ = CYCLES /
 * ELAPSED_TIME_IN_NS, AVERAGE_LATENCY_IN_NS = cycles latency / FREQ_IN_GHZ) */
static void test_pcie_rp_and_latency(void **state)
{
	(void)state;
	char why[160] = "";
	setup(1, 1, 0, CFG64, 0x1030136B);
	probe(1, 0);
	const struct nv_cspmu_desc *d = nv_cspmu_match(info.pmiidr);
	assert_int_equal(nv_cspmu_request(d, "nvidia_pcie_pmu_0_rc_1", &info, "", &req, why, sizeof(why)), 0);
	assert_int_equal(req.nev, 6);
	assert_int_equal(nv_cspmu_set_rp(&req, 2), 0);
	uint64_t raw[CSPMU_MAX_EVENTS] = { 0 };
	for (uint32_t i = 0; i < req.nev; i++) {
		if (!req.ev[i].cycles) {
			assert_int_equal(req.ev[i].filt, 0x4);
			assert_int_equal(req.ev[i].filt2, 0x1F);
		}
		const char *n = req.evname[i];
		raw[i] = !strcmp(n, "rd_cum_outs") ? 5000 : !strcmp(n, "rd_req") ? 100 : !strcmp(n, "cycles") ? 2000
			 : !strcmp(n, "rd_bytes") ? 6400 : 0;
	}
	struct nv_cspmu_metrics mt;
	nv_cspmu_metrics(&req, raw, 1000, &mt);
	uint64_t want[4][2] = { { 0 } };
	const char *names[4] = { "rd_cum_outs_latency_cycles", "rd_cum_outs_latency_ns", "freq_ghz", "rd_bytes_gbps" };
	const uint64_t lit[4] = { 50000, 25000, 2000, 6400 };
	for (uint32_t k = 0; k < mt.n; k++)
		for (int q = 0; q < 4; q++)
			if (!strcmp(mt.m[k].name, names[q])) {
				want[q][0] = 1;
				want[q][1] = mt.m[k].milli;
			}
	for (int q = 0; q < 4; q++) {
		assert_int_equal(want[q][0], 1);
		assert_int_equal(want[q][1], lit[q]);
	}
	/* the DMA self-check's bytes: rd_bytes is memory read by the device, wr_bytes written */
	struct self_check_bytes c;
	for (uint32_t i = 0; i < req.nev; i++)
		raw[i] = !strcmp(req.evname[i], "wr_bytes") ? 4096 : raw[i];
	nv_cspmu_bytes(&req, raw, &c);
	assert_int_equal(c.read, 6400);
	assert_int_equal(c.write, 4096);
	assert_true(c.have_read && c.have_write);
	struct self_check sc;
	struct self_check_bytes moved = { 6400, 4096, 1, 1 };
	self_check_compute(&moved, &c, 0, NULL, &sc);
	assert_int_equal(sc.state, SELF_CHECK_OK);
	/* PCIE-TGT: the root-port mask is PMEVFILT2R[7:0]; the cycles event is type 0x4 */
	d = nv_cspmu_match(0x1070036B);
	assert_int_equal(nv_cspmu_request(d, "nvidia_pcie_tgt_pmu_0_rc_1", &info,
					  "nvidia_pcie_tgt_pmu_0_rc_1/event=0x4/;nvidia_pcie_tgt_pmu_0_rc_1/wr_bytes/", &req,
					  why, sizeof(why)), 0);
	assert_int_equal(req.ev[0].cycles, 1);
	assert_int_equal(req.ev[0].counter, 31);
	assert_int_equal(req.ev[1].filt2, 0xFF);
	assert_int_equal(nv_cspmu_set_rp(&req, 5), 0);
	assert_int_equal(req.ev[1].filt2, 0x20);
	/* address filters from the event strings (Linux pcie_tgt format: dst_addr_en=config:11,
	 * dst_addr_base=config1, dst_addr_mask=config2; nvidia-tegra410-pmu.rst's example base
	 * 0x10000 mask 0xFFF00): one slot per distinct pair, PMEVFILT2R[15:8] = 1 << slot, no root
	 * port unless dst_rp_mask names some, then pcie_pmu_rp's */
	assert_int_equal(nv_cspmu_request(d, "nvidia_pcie_tgt_pmu_0_rc_1", &info,
		"nvidia_pcie_tgt_pmu_0_rc_1/event=0x1,dst_addr_base=0x10000,dst_addr_mask=0xFFF00,dst_addr_en=0x1/;"
		"nvidia_pcie_tgt_pmu_0_rc_1/rd_bytes,dst_addr_en=1,dst_addr_base=0x4000000000,"
		"dst_addr_mask=0xFFFFFFFF00000000,dst_rp_mask=0x3/;"
		"nvidia_pcie_tgt_pmu_0_rc_1/rd_req,dst_addr_en=1,dst_addr_base=0x100AB,dst_addr_mask=0xFFF00/;"
		"nvidia_pcie_tgt_pmu_0_rc_1/wr_req/;nvidia_pcie_tgt_pmu_0_rc_1/cycles/;"
		"nvidia_pcie_tgt_pmu_0_rc_1/wr_bytes,dst_addr_en=1,dst_addr_base=0x10000,dst_addr_mask=0xFFF00/",
		&req, why, sizeof(why)), 0);
	assert_int_equal(req.ev[5].filt2, 0x100);     /* slot 0's pair again: slot 0 */
	assert_int_equal(req.nslots, 3);
	assert_int_equal(req.slot[0].base, 0x10000);
	assert_int_equal(req.slot[0].mask, 0xFFF00);
	assert_int_equal(req.slot[1].base, 0x4000000000ull);
	assert_int_equal(req.slot[1].mask, 0xFFFFFFFF00000000ull);
	assert_int_equal(req.ev[0].filt2, 0x100);
	assert_int_equal(req.ev[1].filt2, 0x203);
	assert_int_equal(req.ev[2].filt2, 0x400);     /* another base (as given), another slot */
	assert_int_equal(req.slot[2].base, 0x100AB);
	assert_int_equal(req.ev[3].filt2, 0xFF);      /* no address filter: all root ports */
	assert_int_equal(nv_cspmu_set_rp(&req, 1), 0);
	assert_int_equal(req.ev[0].filt2, 0x102);
	assert_int_equal(req.ev[1].filt2, 0x202);
	/* no companion block: the PMU runs without the filter, root ports back to the default */
	assert_int_equal(nv_cspmu_request(d, "nvidia_pcie_tgt_pmu_0_rc_1", &info,
		"nvidia_pcie_tgt_pmu_0_rc_1/wr_bytes,dst_addr_en=1,dst_addr_base=0x10000,dst_addr_mask=0xFFF00/;"
		"nvidia_pcie_tgt_pmu_0_rc_1/rd_bytes,dst_addr_en=1,dst_rp_mask=0x4,dst_addr_mask=0xF0/", &req, why,
		sizeof(why)), 0);
	nv_cspmu_drop_slots(&req);
	assert_int_equal(req.nslots, 0);
	assert_int_equal(req.ev[0].filt2, 0xFF);
	assert_int_equal(req.ev[1].filt2, 0x4);
	/* nine distinct pairs: the ninth names the 8 slots */
	char many[1200];
	size_t o = 0;
	for (int i = 0; i < 9; i++)
		o += (size_t)snprintf(many + o, sizeof(many) - o,
				      "nvidia_pcie_tgt_pmu_0_rc_1/rd_bytes,dst_addr_en=1,dst_addr_base=0x%x00,"
				      "dst_addr_mask=0xFFF00/;", i + 1);
	info.nevcntr = 16;
	assert_int_equal(nv_cspmu_request(d, "nvidia_pcie_tgt_pmu_0_rc_1", &info, many, &req, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "8 address-filter slots"));
	/* UCF has no root-port filter */
	assert_int_equal(nv_cspmu_set_rp(&(struct nv_cspmu_req){ .d = nv_cspmu_match(UCF_PMIIDR) }, 1), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pages_shared),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_event_strings),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_sequence_order),
		cmocka_unit_test(test_hilohi_carry),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_plain_memory_and_busy),
		cmocka_unit_test(test_tgt_slots),
		cmocka_unit_test(test_tgt_filter_faults),
		cmocka_unit_test(test_pcie_rp_and_latency),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
