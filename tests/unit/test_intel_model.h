/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel CPUs on the register model for the core-PMU tests (test_intel_core.c, test_topdown.c):
 * CPUID leaves 0, 1, 7, 0xA, 0xB, 0x1A as the SDM lays them out, IA32_PERF_CAPABILITIES, the
 * global and fixed control registers, fixed counters that advance only while enabled in
 * IA32_PERF_GLOBAL_CTRL[32+i] and IA32_FIXED_CTR_CTRL (SDM Vol.3B 20.2.2), and general counters
 * that advance while IA32_PERFEVTSELx.EN[22] and IA32_PERF_GLOBAL_CTRL[x] are set.
 * PERF_METRICS is derived from "true" per-category slots by the test (tm_tick).
 */
#ifndef EFIPERF_TEST_INTEL_MODEL_H
#define EFIPERF_TEST_INTEL_MODEL_H

#include "tests/model/hw_model.h"
#include "arch/regs/x86_msr.h"
#include "pmu/core/intel_topdown.h"

#define TM_GLOBAL_ORIG 0x2ull          /* firmware left PMC1 enabled: must survive */
#define TM_FIXED_CTRL_ORIG 0x800ull    /* PMI bit of fixed counter 2 set by someone else */
#define TM_METRICS_ORIG 0x11223344ull  /* stale PERF_METRICS: restored as found */
#define TM_WIDTH 48

struct tm_cpu {
	uint32_t model, version, ngp, nfixed;
	int pdcm, metrics_bit, fw_write, smt, anythread_deprecated, hybrid, pcore;
};

/* True TopDown shares (in 1/255) the model splits SLOTS by; acc since the last FC3 reset. */
struct tm_truth {
	uint32_t share[TD_NCAT];
	uint64_t acc[TD_NCAT], total, fc3_seen;
};

static struct hw_model tm;
static struct hw tmh;
static struct tm_truth truth;

static inline uint64_t tm_msr(uint32_t id) { return hw_model_find(&tm, HWM_MSR, id)->value; }

static void tm_on_write(struct hw_model *m, uint8_t space, uint32_t id, uint64_t value)
{
	(void)m;
	if (space == HWM_MSR && id == IA32_FIXED_CTR3) {
		memset(truth.acc, 0, sizeof(truth.acc));
		truth.total = 0;
		truth.fc3_seen = value;
	}
}

static struct hw_model_reg *tm_counter(uint32_t id, uint64_t start, uint64_t step, uint32_t en_id,
				       uint64_t en_mask, uint32_t en2_id, uint64_t en2_mask)
{
	struct hw_model_reg *r = hw_model_reg(&tm, HWM_MSR, id, HWM_COUNTER, start);
	r->step = step;
	r->width_mask = (1ull << TM_WIDTH) - 1;
	r->en_id = en_id;
	r->en_mask = en_mask;
	r->en2_id = en2_id;
	r->en2_mask = en2_mask;
	return r;
}

/* fixed_steps: FC0..FC3 per tick; gp_steps: PMC0..n per tick. */
static void tm_init(const struct tm_cpu *c, const uint64_t fixed_steps[4], const uint64_t *gp_steps)
{
	hw_model_init(&tm);
	tmh = hw_model_hw(&tm);
	memset(&truth, 0, sizeof(truth));
	tm.on_write = tm_on_write;
	hw_model_cpuid(&tm, 0, 0, 0x1b, 0x756e6547, 0x6c65746e, 0x49656e69);  /* GenuineIntel */
	uint32_t sig = (0x6u << 8) | ((c->model & 0xF) << 4) | ((c->model >> 4) << 16) | 1;
	hw_model_cpuid(&tm, CPUID_SIGNATURE, 0, sig, 0, c->pdcm ? CPUID_1_ECX_PDCM : 0, 0);
	hw_model_cpuid(&tm, CPUID_EXT_FEATURES, 0, 0, 0, 0, c->hybrid ? CPUID_7_EDX_HYBRID : 0);
	hw_model_cpuid(&tm, CPUID_HYBRID, 0, (c->pcore ? CPUID_1A_CORE_TYPE_CORE : 0x20u) << 24, 0, 0, 0);
	hw_model_cpuid(&tm, CPUID_ARCH_PERFMON, 0, (8u << 24) | (TM_WIDTH << 16) | (c->ngp << 8) | c->version, 0,
		       c->version >= 5 ? (1u << c->nfixed) - 1 : 0,
		       (c->anythread_deprecated ? CPUID_0A_EDX_ANY_DEPRECATED : 0) | (TM_WIDTH << 5) | c->nfixed);
	hw_model_cpuid(&tm, CPUID_EXT_TOPOLOGY, 0, 1, c->smt ? 2 : 1, CPUID_TOPO_LEVEL_SMT << 8, 0);
	if (c->pdcm)
		hw_model_reg(&tm, HWM_MSR, IA32_PERF_CAPABILITIES, HWM_READONLY,
			     (c->metrics_bit ? PERF_CAP_PERF_METRICS : 0) | (c->fw_write ? PERF_CAP_FW_WRITE : 0));
	hw_model_reg(&tm, HWM_MSR, IA32_PERF_GLOBAL_CTRL, HWM_PLAIN, TM_GLOBAL_ORIG);
	hw_model_reg(&tm, HWM_MSR, IA32_FIXED_CTR_CTRL, HWM_PLAIN, TM_FIXED_CTRL_ORIG);
	hw_model_reg(&tm, HWM_MSR, IA32_PERF_METRICS, HWM_PLAIN, TM_METRICS_ORIG);
	static const uint32_t fixed[4] = { IA32_FIXED_CTR0, IA32_FIXED_CTR1, IA32_FIXED_CTR2, IA32_FIXED_CTR3 };
	for (uint32_t i = 0; i < c->nfixed && i < 4; i++)
		tm_counter(fixed[i], 1000 * i + 5, fixed_steps[i], IA32_PERF_GLOBAL_CTRL,
			   1ull << (PERF_GLOBAL_CTRL_FIXED_SHIFT + i), IA32_FIXED_CTR_CTRL,
			   (uint64_t)FIXED_CTR_CTRL_EN_ALL << (FIXED_CTR_CTRL_BITS * i));
	if (c->nfixed > 3)
		truth.fc3_seen = tm_msr(IA32_FIXED_CTR3);
	for (uint32_t i = 0; i < c->ngp; i++) {
		hw_model_reg(&tm, HWM_MSR, IA32_PERFEVTSEL0 + i, HWM_PLAIN, 0);
		tm_counter((c->fw_write ? IA32_A_PMC0 : IA32_PMC0) + i, 77 * i, gp_steps ? gp_steps[i] : 0,
			   IA32_PERFEVTSEL0 + i, EVTSEL_EN, IA32_PERF_GLOBAL_CTRL, 1ull << i);
	}
}

/* Advance n ticks; split the SLOTS fixed counter 3 gained by the true shares; derive
 * PERF_METRICS from the shares accumulated since the last reset: level-1 bytes sum to 0xff
 * (Linux tools/perf/Documentation/topdown.txt), largest remainders rounded up; level-2 bytes rounded to nearest. */
static inline void tm_tick(unsigned n)
{
	hw_model_tick(&tm, n);
	struct hw_model_reg *fc3 = hw_model_find(&tm, HWM_MSR, IA32_FIXED_CTR3);
	if (!fc3)
		return;
	uint64_t d = fc3->value - truth.fc3_seen;
	truth.fc3_seen = fc3->value;
	if (!d)
		return;
	for (unsigned k = 0; k < TD_NCAT; k++)
		truth.acc[k] += d * truth.share[k] / 255;
	truth.total += d;
	uint64_t bytes[TD_NCAT], rem[TD_L1], sum = 0;
	for (unsigned k = 0; k < TD_L1; k++) {
		bytes[k] = truth.acc[k] * 255 / truth.total;
		rem[k] = truth.acc[k] * 255 % truth.total;
		sum += bytes[k];
	}
	while (sum < 255) {
		unsigned best = 0;
		for (unsigned k = 1; k < TD_L1; k++)
			if (rem[k] > rem[best])
				best = k;
		bytes[best]++;
		rem[best] = 0;
		sum++;
	}
	for (unsigned k = TD_L1; k < TD_NCAT; k++)
		bytes[k] = (truth.acc[k] * 255 + truth.total / 2) / truth.total;
	uint64_t m = 0;
	for (unsigned k = 0; k < TD_NCAT; k++)
		m |= bytes[k] << (8 * k);
	hw_model_find(&tm, HWM_MSR, IA32_PERF_METRICS)->value = m;
}

#endif
