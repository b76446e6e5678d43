/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uncore_events strings of the NVIDIA ACPI-namespace PMUs (pmu/uncore/nv_acpi_filter.c) on the
 * register model tests/model/nv_apmu_model.c: gpu_mask selects which GPU peers' instances are
 * summed (Linux drivers/perf/nvidia_t410_c2c_pmu.c, format gpu_mask = config1:0-1, bit p = the
 * instances of _DSD gpu<p>_en_mask), named events select what is read, bad strings are refused
 * naming what is wrong, and the overflow status registers (C2C_IN_STATUS 0x868,
 * C2C_OUT_STATUS 0x890; CMEM STATUS 0x810, literal from the Linux drivers) are read after the
 * window. Expected sums are worked out by hand from the scripted per-instance increments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/uncore/nv_acpi_pmu.h"
#include "tests/model/nv_apmu_model.h"

#define BASE 0x50000000ull
#define TICKS 10

static struct nv_apmu_model model;
static struct nv_apmu_result res;
static struct nv_apmu_dev dev;
static char why[200];

static uint64_t window(void *arg)
{
	nv_model_tick(arg, TICKS);
	return 1000;
}

/* 14 NVLink-C2C instances; instance i counts (i + 1) in_rd_req and 100 x (i + 1) in_rd_cum_outs
 * a tick, so each instance's share is visible in a sum. GPU 0 = instances 0, 1 (mask 0x3),
 * GPU 1 = instances 4, 5 (mask 0x30). */
static void gpu_dev(uint32_t gpu1)
{
	nv_model_init(&model, NVM_C2C, 14, BASE);
	for (uint32_t i = 0; i < 14; i++) {
		uint64_t inc[9] = { 500, 100 * (i + 1), i + 1, 0, 0, 0, 0, 0, 0 };
		memcpy(model.inc[i], inc, sizeof(inc));
	}
	uint64_t base[15];
	for (uint32_t i = 0; i < 15; i++)
		base[i] = BASE + (uint64_t)i * 0x1000;
	struct nv_apmu_props p = { .has_gpu_en = { 1, gpu1 != 0 }, .gpu_en = { 0x3, gpu1 } };
	assert_int_equal(nv_apmu_setup(&nv_nvlink_c2c_type, 0, base, 15, &p, &dev, why, sizeof(why)), 0);
}

/* in_rd_req (event 0x2) of the last measurement. */
static uint64_t in_rd_req(void)
{
	for (uint32_t k = 0; k < res.nev; k++)
		if (res.ev[k] == 2)
			return res.count[k];
	fail_msg("in_rd_req not read");
	return 0;
}

static void measure(const char *events)
{
	assert_int_equal(nv_apmu_filter(&dev, events, why, sizeof(why)), 0);
	struct hw hw = nv_model_hw(&model);
	assert_int_equal(nv_apmu_measure(&hw, &dev, window, &model, &res), 0);
}

static void test_gpu_mask_selects_instances(void **state)
{
	(void)state;
	/* default (no string): both GPUs, instances 0, 1, 4, 5: 10 x (1 + 2 + 5 + 6) = 140 */
	gpu_dev(0x30);
	measure("");
	assert_int_equal(dev.inst_mask, 0x33);
	assert_int_equal(dev.gpu_mask, 0x3);
	assert_false(dev.gpu_mask_given);
	assert_int_equal(in_rd_req(), 140);
	/* gpu_mask=0x1: GPU 0 alone, instances 0, 1: 10 x (1 + 2) = 30 */
	gpu_dev(0x30);
	measure("nvidia_nvlink_c2c_pmu_0/in_rd_req,gpu_mask=0x1/");
	assert_int_equal(dev.inst_mask, 0x3);
	assert_int_equal(in_rd_req(), 30);
	assert_int_equal(res.nev, 2);                   /* only what was asked is read: cycles, in_rd_req */
	assert_int_equal(res.inst[1][4], 0);            /* in_rd_req of instance 4 (GPU 1) not read */
	assert_int_equal(res.count[0], 5000);           /* cycles: instance 0, 10 x 500 */
	/* gpu_mask=2: GPU 1 alone, instances 4, 5: 10 x (5 + 6) = 110; cycles from instance 4 */
	gpu_dev(0x30);
	measure("cha/event=0x1/; nvidia_nvlink_c2c_pmu_0/in_rd_req,gpu_mask=2/");
	assert_int_equal(dev.inst_mask, 0x30);
	assert_int_equal(in_rd_req(), 110);
	assert_int_equal(res.inst[1][0], 0);            /* instance 0 not read */
	assert_int_equal(res.inst[1][4], 50);
	assert_int_equal(res.inst[0][4], 5000);         /* cycles: the first selected instance */
	/* gpu_mask=0 is Linux's default: every GPU */
	gpu_dev(0x30);
	measure("nvidia_nvlink_c2c_pmu_0/in_rd_req,gpu_mask=0/");
	assert_int_equal(in_rd_req(), 140);
	/* the same mask twice is fine; latency still has its inputs (cycles added to the selection) */
	gpu_dev(0x30);
	measure("nvidia_nvlink_c2c_pmu_0/in_rd_req,gpu_mask=3/;nvidia_nvlink_c2c_pmu_0/event=0x1,gpu_mask=0x3/");
	assert_int_equal(res.nev, 3);
	assert_int_equal(res.nlat, 1);
	/* in_rd: 10 x 100 x (1+2+5+6) / 140 = 100 cycles */
	assert_int_equal(res.lat[0].cycles_milli, 100000);
}

static void refused(const char *events, const char *part)
{
	assert_int_equal(nv_apmu_filter(&dev, events, why, sizeof(why)), -1);
	if (!strstr(why, part))
		fail_msg("'%s' -> '%s', expected '%s'", events, why, part);
}

static void test_bad_strings(void **state)
{
	(void)state;
	gpu_dev(0);                                     /* one GPU peer */
	refused("nvidia_nvlink_c2c_pmu_0/cycles,gpu_mask=0x2/", "gpu_mask=0x2 selects GPU peers beyond the 1 of "
							 "nvidia_nvlink_c2c_pmu_0");
	gpu_dev(0x30);
	refused("nvidia_nvlink_c2c_pmu_0/cycles,gpu_mask=0x4/", "gpu_mask");   /* wider than config1:0-1 */
	gpu_dev(0x30);
	refused("nvidia_nvlink_c2c_pmu_0/cycles,gpu_mask=1/;nvidia_nvlink_c2c_pmu_0/in_rd_req,gpu_mask=2/",
		"one gpu_mask per PMU");
	gpu_dev(0x30);
	refused("nvidia_nvlink_c2c_pmu_0/in_rd_bytes/", "unknown event 'in_rd_bytes'");
	gpu_dev(0x30);
	refused("nvidia_nvlink_c2c_pmu_0/event=0x9/", "event=0x9 is not an event of nvidia_nvlink_c2c_pmu_0");
	gpu_dev(0x30);
	refused("nvidia_nvlink_c2c_pmu_0/cycles,port=1/", "port");
	/* a CPU peer has no gpu_mask (Linux gives it no such format) and no write events */
	uint64_t base[13];
	for (uint32_t i = 0; i < 13; i++)
		base[i] = BASE + (uint64_t)i * 0x1000;
	struct nv_apmu_props cpu = { .has_cpu_en = 1, .cpu_en = 0xFFF };
	assert_int_equal(nv_apmu_setup(&nv_nvclink_type, 1, base, 13, &cpu, &dev, why, sizeof(why)), 0);
	refused("nvidia_nvclink_pmu_1/cycles,gpu_mask=1/", "gpu_mask applies to a GPU peer; nvidia_nvclink_pmu_1's peer is a CPU");
	refused("nvidia_nvclink_pmu_1/in_wr_req/", "in_wr_req is not counted on nvidia_nvclink_pmu_1");
	/* strings for another socket's device are not this one's */
	assert_int_equal(dev.ev_sel, 0);               /* refused strings changed nothing */
	assert_int_equal(nv_apmu_filter(&dev, "nvidia_nvclink_pmu_0/cycles,gpu_mask=1/", why, sizeof(why)), 0);
	assert_int_equal(dev.ev_sel, 0);
}

/* A window during which counters overflow: the status bits are set by the hardware. */
static uint64_t overflow_window(void *arg)
{
	window(arg);
	nv_model_set(&model, 4, 0x868, 0x4, 0);         /* instance 4: in_rd_req overflowed */
	nv_model_set(&model, 1, 0x890, 0x1, 0);         /* instance 1: out_rd_cum_outs overflowed */
	nv_model_set(&model, 7, 0x868, 0x1, 0);         /* instance 7 is not selected */
	return 1000;
}

/* The status registers of each selected instance are read after the window, never written.
 * (By Linux's offsets C2C_OUT_STATUS 0x890 is also the high half of the 64-bit IN_WR_REQ
 * counter at 0x88C; the model, like the offsets, does not tell them apart.) */
static void test_overflow_status(void **state)
{
	(void)state;
	gpu_dev(0x30);
	assert_int_equal(nv_apmu_filter(&dev, "", why, sizeof(why)), 0);
	struct hw hw0 = nv_model_hw(&model);
	assert_int_equal(nv_apmu_measure(&hw0, &dev, overflow_window, &model, &res), 0);
	assert_int_equal(res.nstatus, 2);
	assert_int_equal(res.ovf_status[4][0], 0x4);
	assert_int_equal(res.ovf_status[4][1], 0);
	assert_int_equal(res.ovf_status[1][1], 0x1);
	assert_int_equal(res.ovf_status[0][0] | res.ovf_status[0][1], 0);
	assert_int_equal(res.ovf_status[7][0], 0);      /* not read */
	assert_int_equal(nv_model_get(&model, 4, 0x868, 0), 0x4);   /* left as found */
	for (uint32_t w = 0; w < model.nlog; w++)                   /* never written */
		assert_true(model.log[w].addr % 0x1000 != 0x868 && model.log[w].addr % 0x1000 != 0x890);
	/* CMEM: one 64-bit STATUS per instance, all 14 read */
	nv_model_init(&model, NVM_CMEM, 14, BASE);
	uint64_t base[15];
	for (uint32_t i = 0; i < 15; i++)
		base[i] = BASE + (uint64_t)i * 0x1000;
	struct nv_apmu_props none = { 0 };
	assert_int_equal(nv_apmu_setup(&nv_cmem_latency_type, 0, base, 15, &none, &dev, why, sizeof(why)), 0);
	nv_model_set(&model, 13, 0x810, 1ull << 9, 1);  /* MC2 REQ overflow (CMEM's enable keeps it) */
	measure("nvidia_cmem_latency_pmu_0/rd_req/");
	assert_int_equal(res.nstatus, 1);
	assert_int_equal(res.ovf_status[13][0], 1ull << 9);
	assert_int_equal(res.nev, 2);                   /* rd_req and cycles */
	/* a fault on a status read is named */
	nv_model_init(&model, NVM_CMEM, 14, BASE);
	struct hw hw = nv_model_hw(&model);
	assert_int_equal(nv_apmu_measure(&hw, &dev, window, &model, &res), 0);
	uint32_t total = model.naccess, k = total;
	for (; k > 0; k--) {                            /* from the end: the last STATUS read */
		nv_model_init(&model, NVM_CMEM, 14, BASE);
		model.fail_at = k;
		hw = nv_model_hw(&model);
		if (nv_apmu_measure(&hw, &dev, window, &model, &res) && strstr(res.why, "overflow status"))
			break;
	}
	assert_true(k > 0);
	assert_non_null(strstr(res.why, "reading the overflow status of instance 13"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpu_mask_selects_instances),
		cmocka_unit_test(test_bad_strings),
		cmocka_unit_test(test_overflow_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
