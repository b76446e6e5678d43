/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Register model of one Arm CoreSight PMU page pair (ARM IHI 0091) for host tests: a struct hw
 * whose MMIO is two 4 KiB pages (page 1 the same as page 0 when the PMU is single-page).
 * Offsets are written here on their own from Linux drivers/perf/arm_cspmu/arm_cspmu.h (literal
 * numbers, not pmu/uncore/cspmu.h's constants):
 *
 *   page 0: PMEVTYPER<n> 0x400 + 4n, PMCCFILTR 0x47C, PMEVFILT2R<n> 0x800 + 4n, PMEVFILTR<n>
 *           0xA00 + 4n, PMCNTENSET0 0xC00, PMCNTENCLR0 0xC20, PMCFGR 0xE00, PMCR 0xE04,
 *           PMIIDR 0xE08, PMPIDR4 0xFD0, PMPIDR0..3 0xFE0..0xFEC
 *   page 1: PMEVCNTR<n> 0x000 + 4n (32-bit counters) or + 8n (wider)
 *
 * Two behaviours:
 *   plain     the pages are memory (an ivshmem BAR): every write stores, every read returns
 *             what is there.
 *   hardware  PMCNTENSET / PMCNTENCLR set / clear one enable mask that both read back;
 *             PMCR.P zeroes the event counters, PMCR.C the cycle counter (index 31), neither
 *             bit is stored; a 64-bit access to a counter of a PMU without `atomic` faults.
 * Scripted traffic: cspmu_model_tick() adds, while PMCR.E is set, per enabled counter: the
 * traffic entry's per_tick when PMEVTYPER matches its type and PMEVFILTR has every bit of its
 * filt_need; the cycle counter cycles_per_tick. Counters wrap at the PMCFGR width.
 * filt_base (0: none): a third 4 KiB region, plain memory, page[CSPMU_MODEL_FILTER]: the
 * Tegra410 PCIE-TGT address-filter block of the PMU's companion ACPI device (slot i's CTRL,
 * BASE_LO/HI, MASK_LO/HI at 0xD38 + 0x14 i + 0/4/8/0xC/0x10, nvidia-tegra410-pmu.rst).
 * Every access is numbered from 1 (the filter block's too); access fail_at (0: none) fails with HW_FAULT_SYNC and
 * changes nothing (fail_sticky: every later one too). bump_after: after that access, counter
 * bump_idx gains bump (a carry between the halves of a hi-lo-hi read).
 */
#ifndef EFIPERF_CSPMU_MODEL_H
#define EFIPERF_CSPMU_MODEL_H

#include <stdint.h>
#include "arch/hw.h"

#define CSPMU_MODEL_TRAFFIC 16
#define CSPMU_MODEL_LOG 512
#define CSPMU_MODEL_FILTER 2      /* page index of the filter block (cspmu_model_reg / _set) */

struct cspmu_model_traffic { uint32_t type, filt_need; uint64_t per_tick; };
struct cspmu_model_access { uint64_t addr, value; uint8_t write, wide; };

struct cspmu_model {
	uint8_t page[3][4096];
	uint64_t base0, base1, filt_base;
	uint8_t dual, hardware, atomic;
	uint32_t ntraffic;
	struct cspmu_model_traffic t[CSPMU_MODEL_TRAFFIC];
	uint64_t cycles_per_tick;
	uint32_t naccess, fail_at, nfailed;
	uint8_t fail_sticky;
	uint32_t bump_after, bump_idx;
	uint64_t bump;
	uint32_t nlog;
	struct cspmu_model_access log[CSPMU_MODEL_LOG];
};

/* pmcfgr and pmiidr as the PMU reports them; base1 ignored unless dual. */
void cspmu_model_init(struct cspmu_model *m, uint64_t base0, uint64_t base1, int dual, int hardware, int atomic,
		      uint32_t pmcfgr, uint32_t pmiidr);
struct hw cspmu_model_hw(struct cspmu_model *m);
/* 32-bit register of page p (0/1) at off. */
uint32_t cspmu_model_reg(const struct cspmu_model *m, int p, uint32_t off);
void cspmu_model_set(struct cspmu_model *m, int p, uint32_t off, uint32_t v);
uint64_t cspmu_model_counter(const struct cspmu_model *m, unsigned idx);
void cspmu_model_set_counter(struct cspmu_model *m, unsigned idx, uint64_t v);
void cspmu_model_add(struct cspmu_model *m, uint32_t type, uint32_t filt_need, uint64_t per_tick);
void cspmu_model_tick(struct cspmu_model *m, unsigned n);

#endif
