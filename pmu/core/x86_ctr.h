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

#define X86_MAX_EVENTS 32  /* events (topdown = on's inputs included) one vendor unit lists: gp[] / c[] */
#define X86_PINNED 0xFF    /* x86_ctr.group of a counter counted in every multiplexed group */

#define X86_CTR_NAME 96  /* a full perf-style string: core/event=0xC0,umask=0x0,cmask=1,inv=1,edge=1,host=1/ */

struct x86_ctr {
	char event[X86_CTR_NAME];   /* as the user / the table named it */
	uint64_t config;            /* event-select field bits (no USR/OS/EN) */
	uint32_t sel_msr, ctr_msr;  /* where it is programmed and read */
	uint64_t width_mask;
	uint64_t first, last, acc;  /* first and last raw reads, accumulated delta */
	uint32_t reads;
	uint8_t state, fault;       /* enum ctr_state; hw_status when CTR_FAULTED */
	/* multiplexing (pmu/core/x86_mux.h): the group it counts in (X86_PINNED: every group; 0 when
	 * not multiplexed), the timer ticks its group ran, and acc scaled to the window (= acc when
	 * it ran all along) */
	uint8_t group;
	uint64_t running, scaled;
	char why[88];               /* CTR_ABSENT / CTR_FAULTED: why, naming the register */
};

void x86_ctr_first(struct x86_ctr *c, uint64_t raw);
void x86_ctr_update(struct x86_ctr *c, uint64_t raw);
/* Its group is switched in again: raw is the new baseline (nothing is added); the first read
 * ever is x86_ctr_first. */
void x86_ctr_resume(struct x86_ctr *c, uint64_t raw);
/* One counter at a multiplexing switch (pmu/core/x86_mux.h): write its selector sel (through sv)
 * and read its counter: switched out (in 0) the read is added, switched in (1) it is the new
 * baseline. A failed write or read marks it faulted naming sel_reg / ctr_reg; its status. */
hw_status x86_ctr_switch(const struct hw *hw, struct saveset *sv, struct x86_ctr *c, uint64_t sel, int in,
			 const char *sel_reg, const char *ctr_reg);
/* Not absent or faulted. */
static inline int x86_ctr_live(const struct x86_ctr *c)
{
	return ctr_state_live(c->state);
}
/* Live and programmed while group cur runs (pinned, or of group cur). */
static inline int x86_ctr_on(const struct x86_ctr *c, uint8_t cur)
{
	return x86_ctr_live(c) && (c->group == X86_PINNED || c->group == cur);
}
/* After the last read: CTR_COUNTED when acc > 0, else CTR_NOT_ADVANCING (absent and faulted
 * counters keep their state). */
void x86_ctr_finish(struct x86_ctr *c);
void x86_ctr_absent(struct x86_ctr *c, const char *why);
void x86_ctr_fault(struct x86_ctr *c, const char *reg, hw_status st);
uint64_t x86_width_mask(uint32_t bits);

#endif
