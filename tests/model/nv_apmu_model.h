/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Register model of the NVIDIA Tegra410 CMEM latency and C2C-type PMUs for host tests: a
 * struct hw answering MMIO over 4 KiB regions (the instances and the broadcast region of one
 * device). Offsets are written here on their own, as literal numbers from Linux
 * drivers/perf/nvidia_t410_cmem_latency_pmu.c and drivers/perf/nvidia_t410_c2c_pmu.c (not from
 * pmu/uncore/nv_*.c):
 *   CMEM (64-bit registers): CG_CTRL 0x800, CTRL 0x808; counters CYCLE 0x818, MC0..2 REQ 0x820,
 *        0x838, 0x850, MC0..2 AOR 0x830, 0x848, 0x860. CTRL 1 enable, 0 disable, 2 clear.
 *   C2C (32-bit registers, 64-bit counters): CTRL 0x864 (1 enable: counters restart at 0,
 *        0 disable); counters CYCLE 0x86C, IN_RD_CUM 0x874, IN_RD_REQ 0x87C, IN_WR_CUM 0x884,
 *        IN_WR_REQ 0x88C, OUT_RD_CUM 0x898, OUT_RD_REQ 0x8A0, OUT_WR_CUM 0x8A8, OUT_WR_REQ 0x8B0.
 * Other offsets (the overflow status registers CMEM STATUS 0x810, C2C_IN_STATUS 0x868,
 * C2C_OUT_STATUS 0x890) are plain memory a test sets with nv_model_set.
 * A control write to the broadcast region acts on every instance. nv_model_tick() adds each
 * instance's scripted increments to its counters while counting is enabled (CMEM: CG_CTRL
 * and CTRL both 1). Every MMIO access is numbered from 1; the one numbered fail_at fails
 * with HW_FAULT_SYNC and changes nothing (fail_sticky: every later one too). bump: after the
 * first read of a counter's high half, the counter at bump_addr grows by bump_value (a carry
 * between the halves of a high-low-high read).
 */
#ifndef EFIPERF_NV_APMU_MODEL_H
#define EFIPERF_NV_APMU_MODEL_H

#include "arch/hw.h"

#define NVM_MAX_INST 16
#define NVM_MAX_CTRS 9
#define NVM_REGION 0x1000
#define NVM_MAX_LOG 64

enum nvm_kind { NVM_CMEM, NVM_C2C };

struct nvm_write { uint64_t addr, value; uint8_t wide; };

struct nv_apmu_model {
	uint8_t kind;                     /* enum nvm_kind */
	uint32_t ninst;
	uint64_t base;                    /* instance i at base + i x 0x1000, broadcast after them */
	uint8_t mem[NVM_MAX_INST + 1][NVM_REGION];
	/* per instance, per counter (in the order of the header comment), added per tick */
	uint64_t inc[NVM_MAX_INST][NVM_MAX_CTRS];
	uint32_t naccess, fail_at, nfailed;
	uint8_t fail_sticky, fail_writes_only;
	uint64_t bump_addr, bump_value;   /* bump_addr 0: none */
	uint8_t bumped;
	struct nvm_write log[NVM_MAX_LOG];
	uint32_t nlog;
};

void nv_model_init(struct nv_apmu_model *m, enum nvm_kind kind, uint32_t ninst, uint64_t base);
struct hw nv_model_hw(struct nv_apmu_model *m);
void nv_model_tick(struct nv_apmu_model *m, uint32_t n);
/* Register access by offset in region r (0..ninst-1 instances, ninst broadcast). */
uint64_t nv_model_get(const struct nv_apmu_model *m, uint32_t r, uint32_t off, int wide);
void nv_model_set(struct nv_apmu_model *m, uint32_t r, uint32_t off, uint64_t v, int wide);

#endif
