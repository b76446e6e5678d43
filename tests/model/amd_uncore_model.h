/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Register model of AMD Zen uncore counters on tests/model/hw_model, written from Linux
 * arch/x86/include/asm/msr-index.h and arch/x86/events/amd/uncore.c on its own (literal MSR
 * numbers and bit positions here, not pmu/uncore/amd_uncore.c's tables):
 *
 *   DF   PERF_CTL i = 0xC0010240 + 2i, PERF_CTR i = 0xC0010241 + 2i (ndf counters)
 *   L3   PERF_CTL i = 0xC0010230 + 2i, PERF_CTR i = 0xC0010231 + 2i (6 counters)
 *   UMC  PERF_CTL k = 0xC0010800 + 2k, PERF_CTR k = 0xC0010801 + 2k, k < numc; UMC j owns
 *        k = j n .. j n + n - 1 with n = numc / nactive
 *   CPUID 0x80000001 ECX bits 24 (PerfCtrExtNB) and 28 (PerfCtrExtLLC); 0x80000022 EAX bit 0
 *        PerfMonV2, EBX[15:10] DF counters, EBX[21:16] UMC counters, ECX active UMCs.
 *
 * Scripted traffic: each hw_model_tick() adds per_tick to every counter whose CTL has the
 * enable bit (22; UMC 31) and decodes to the class's event and umask:
 *   DF legacy (v2 = 0): event = CTL[7:0] | CTL[35:32] << 8 | CTL[60:59] << 12, umask = CTL[15:8]
 *   DF PerfMonV2:       event = CTL[7:0] | CTL[37:32] << 8, umask = CTL[15:8] | CTL[27:24] << 8
 *   L3:                 event = CTL[7:0], umask = CTL[15:8], and a thread mask non-zero
 *                       (Family 17h CTL[63:56], 19h CTL[57:56])
 *   UMC:                event = CTL[7:0], rdwrmask = CTL[9:8]; counts only traffic of its UMC
 * Counters are 48 bits wide and wrap.
 */
#ifndef EFIPERF_AMD_UNCORE_MODEL_H
#define EFIPERF_AMD_UNCORE_MODEL_H

#include "tests/model/hw_model.h"

#define AMD_MODEL_MAX_TRAFFIC 48

enum amd_model_box { AMD_MODEL_DF, AMD_MODEL_L3, AMD_MODEL_UMC };

struct amd_model_traffic {
	uint8_t box;          /* enum amd_model_box */
	uint16_t event, umask;
	uint8_t umc;          /* UMC traffic: which UMC (rank among the active ones) */
	uint64_t per_tick;
};

struct amd_uncore_model {
	struct hw_model *m;
	uint8_t v2;           /* PerfMonV2 DF layout */
	uint8_t fam17;        /* L3 thread mask at [63:56] */
	unsigned ndf, numc, nactive;
	struct amd_model_traffic t[AMD_MODEL_MAX_TRAFFIC];
	unsigned ntraffic;
};

/* Define the registers (zero) and CPUID leaves: family/model in leaf 1, the presence bits, and
 * with v2 leaf 0x80000022 (ndf DF counters, numc UMC counters over nactive UMCs). Installs
 * the tick hook. */
void amd_model_init(struct amd_uncore_model *a, struct hw_model *m, uint32_t family, uint32_t model, int v2,
		    unsigned ndf, unsigned numc, unsigned nactive);
void amd_model_add(struct amd_uncore_model *a, struct amd_model_traffic t);
/* 1 when MSR id is one of the model's counters (not restored: never written). */
int amd_model_is_counter(uint32_t id);

#endif
