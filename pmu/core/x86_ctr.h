/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared pieces of the x86 core-PMU units (pmu/intel_core.c, pmu/amd_core.c, pmu/amd_ibs.c,
 * pmu/intel_topdown.c):
 *   - a save set: every MSR a unit writes is read first and written back in reverse order by
 *     x86_restore() (architecture guide, house rules: "the PMU is left as it was found");
 *   - an accumulating counter: each read adds (raw - last) modulo the counter width, so a
 *     window of any length is overflow-safe as long as it is read (corepmu_tick) at least once
 *     per wrap period (2^48 events: hours at GHz rates).
 */
#ifndef EFIPERF_X86_CTR_H
#define EFIPERF_X86_CTR_H

#include <stdint.h>
#include "arch/hw.h"
#include "pmu/core/core_counters.h"   /* enum ctr_state, ctr_state_name() */

#define X86_SAVE_MAX 32

struct x86_saveset {
	struct { uint32_t msr; uint64_t value; } e[X86_SAVE_MAX];
	int n;
};

/* Read msr and remember it, unless already saved (the first value read is the one to restore).
 * Returns the rdmsr status (HW_BAD_ARG when the set is full). *value gets the saved value. */
hw_status x86_save(const struct hw *hw, struct x86_saveset *s, uint32_t msr, uint64_t *value);
/* Write every saved MSR back, last saved first; keeps going past failures and returns the
 * first. The set stays as is, so calling it again is harmless. */
hw_status x86_restore(const struct hw *hw, const struct x86_saveset *s);
/* 1 and *value when msr is in the set. */
int x86_saved(const struct x86_saveset *s, uint32_t msr, uint64_t *value);

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
