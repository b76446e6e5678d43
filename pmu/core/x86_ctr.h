/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared piece of the x86 core-PMU units (pmu/core/intel_core.c, amd_core.c, amd_ibs.c,
 * intel_topdown.c; their registers are saved and put back through pmu/saveset.h):
 *   - an accumulating counter: each read adds (raw - last) modulo the counter width, so a
 *     window of any length is overflow-safe as long as it is read (corepmu_tick) at least once
 *     per wrap period (2^48 events: hours at GHz rates).
 */
#ifndef EFIPERF_X86_CTR_H
#define EFIPERF_X86_CTR_H

#include <stdint.h>
#include "arch/hw.h"
#include "pmu/core/ctr_state.h"
#include "pmu/saveset.h"

#define X86_SAVE_MAX 32   /* registers one CPU's x86 core PMU may write in a window */

#define X86_CTR_NAME 96  /* a full perf-style string: core/event=0xC0,umask=0x0,cmask=1,inv=1,edge=1,host=1/ */

struct x86_ctr {
	char event[X86_CTR_NAME];   /* as the user / the table named it */
	uint64_t config;            /* event-select field bits (no USR/OS/EN) */
	uint32_t sel_msr, ctr_msr;  /* where it is programmed and read */
	uint64_t width_mask;
	uint64_t first, last, acc;  /* first and last raw reads, accumulated delta */
	uint32_t reads;
	uint8_t state, fault;       /* enum ctr_state; hw_status when CTR_FAULTED */
	char why[88];               /* CTR_ABSENT / CTR_FAULTED: why, naming the register */
};

void x86_ctr_first(struct x86_ctr *c, uint64_t raw);
void x86_ctr_update(struct x86_ctr *c, uint64_t raw);
/* After the last read: CTR_COUNTED when acc > 0, else CTR_NOT_ADVANCING (absent and faulted
 * counters keep their state). */
void x86_ctr_finish(struct x86_ctr *c);
void x86_ctr_absent(struct x86_ctr *c, const char *why);
void x86_ctr_fault(struct x86_ctr *c, const char *reg, hw_status st);
uint64_t x86_width_mask(uint32_t bits);

#endif
