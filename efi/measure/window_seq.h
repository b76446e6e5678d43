/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sequencing of a measurement window (efi/measure/window.h), pure: which CPU runs what and
 * when, the barrier, the counters' hooks, the timing and the result. What needs the firmware
 * (starting a procedure on another CPU, waiting for it, the boot CPU's TPL, the timer, the SMI
 * count, pool memory) sits behind struct window_mp: efi/measure/window.c gives MP services
 * (PI Vol.2 13.4 StartupThisAP) and RaiseTPL/RestoreTPL (UEFI 2.10 section 7.1); a host test
 * gives threads and a fake clock.
 */
#ifndef EFIPERF_WINDOW_SEQ_H
#define EFIPERF_WINDOW_SEQ_H

#include <stdint.h>
#include "arch/hw.h"
#include "efi/measure/window.h"

struct window_mp {
	void *ctx;
	/* Ready n CPU slots for one window (0 .. n-1); 0, or -1 when there is no memory for them. */
	int (*begin)(void *ctx, int n);
	void (*end)(void *ctx);                  /* after the last wait */
	uint32_t (*bsp)(void *ctx);              /* the boot CPU's processor number */
	/* Start fn(arg) on processor cpu in slot i without waiting: HW_OK, or why not. */
	hw_status (*start)(void *ctx, int i, uint32_t cpu, void (*fn)(void *), void *arg);
	hw_status (*wait)(void *ctx, int i);     /* slot i's job ended: HW_OK, or how it did not */
	int (*stalled)(void *ctx);               /* stop waiting: a job faulted or the run aborts */
	void (*relax)(void);                     /* between polls of the barrier */
	uint64_t (*mask_boot)(void *ctx);        /* boot CPU: interrupts masked; returns the old level */
	void (*unmask_boot)(void *ctx, uint64_t old);
	uint64_t (*irq_disable)(void);           /* the calling CPU; returns its flags */
	void (*irq_restore)(uint64_t flags);
	uint64_t (*timer)(void);                 /* ticks, readable on every CPU */
	hw_status (*smi_count)(const struct hw *hw, uint64_t *count);
	void *(*alloc)(uint64_t bytes);          /* zeroed; NULL when short */
	void (*free)(void *p);
};

/* window_run's contract (efi/measure/window.h) over mp: 0 when every CPU of s ran, -1 otherwise
 * (per-CPU st says why; without memory for the jobs every CPU says HW_ERROR). */
int window_seq_run(const struct window_mp *mp, const struct hw *hw, const struct window_spec *s,
		   struct window_result *r);

#endif
