/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Time-division multiplexing of x86 core counters inside one window (pure bookkeeping; the
 * register work is intel_core_rotate / amd_core_rotate). Linux rotates a CPU's event groups on
 * an hrtimer (kernel/events/core.c perf_rotate_context, every perf_event_mux_interval_ms);
 * efiperf's windows run with interrupts masked, so the rotation happens at corepmu_tick(), which
 * the copy kernel calls between 1 MiB chunks (25-50 us each on real hardware):
 *   - events that do not fit the free general counters go to further groups of at most that many
 *     (pmu/core/x86_corepmu_run.c decides the groups); group 0 is programmed at start;
 *   - a tick at least `slice` timer ticks (timer_hz / X86_MUX_SLICE_DIV: 100 us) after the last
 *     switch stops the running group, adds its count and the ticks it ran, and programs the next
 *     (round robin). A default 64 MiB copy window (64 chunks) thus gives 16-32 slices, every
 *     group of two or three several of them. Cost of one rotation (estimate): Intel 2
 *     IA32_PERF_GLOBAL_CTRL writes plus, per rotated counter, one read, one IA32_PERFEVTSELx
 *     write and one baseline read; AMD two PERF_CTL writes and two reads per rotated counter:
 *     14-16 MSR accesses for four counters, of the order of 1 us, about 1 % of a 100 us slice;
 *   - time_enabled is the window (start to stop), time_running the ticks its group ran (pinned
 *     counters: the window); scaled = raw x enabled / running (metric_mux_scale, perf's scaling).
 *     A group that never ran (a window with fewer ticks than groups, or none) leaves its events
 *     CTR_NOT_COUNTED with why: no count, never a zero.
 */
#ifndef EFIPERF_X86_MUX_H
#define EFIPERF_X86_MUX_H

#include "pmu/core/x86_ctr.h"

#define X86_MUX_MAX_GROUPS 16     /* groups one window rotates through */
#define X86_MUX_SLICE_DIV 10000u  /* minimum slice: timer_hz / 10000 ticks = 100 us */

struct x86_mux {
	uint8_t ngroups;          /* groups of the configuration; 1: not multiplexed */
	uint8_t cur;              /* the group programmed now */
	uint32_t rotations;       /* switches in the last window */
	uint64_t slice;           /* timer ticks between switches at least; 0: at every tick */
	uint64_t t_start, t_last; /* timer: window start, last switch */
	uint64_t enabled;         /* ticks from start to stop (time_enabled) */
	uint64_t running[X86_MUX_MAX_GROUPS];  /* ticks each group ran (time_running) */
	uint32_t runs[X86_MUX_MAX_GROUPS];     /* times each group was switched in; 0: never ran */
};

/* Window start at timer value now (timer_hz 0: switch at every tick): group 0 runs. */
void x86_mux_begin(struct x86_mux *m, uint64_t now, uint64_t timer_hz);
/* A switch is due at now: more than one group and a slice passed since the last switch. */
int x86_mux_due(const struct x86_mux *m, uint64_t now);
/* The group after the running one. */
uint8_t x86_mux_next(const struct x86_mux *m);
/* The running group stopped at now and the next one started: its ticks, a rotation. */
void x86_mux_switch(struct x86_mux *m, uint64_t now);
/* Window stop at now: the running group's ticks and enabled. */
void x86_mux_end(struct x86_mux *m, uint64_t now);
/* Window start: every live counter of c[0..n-1] forgets the last window (reads, acc, times). */
void x86_mux_reset(struct x86_ctr *c, int n);
/* After the last read and x86_ctr_finish: each live counter's running and scaled; an event of a
 * group that never ran becomes CTR_NOT_COUNTED with why. */
void x86_mux_finish(const struct x86_mux *m, struct x86_ctr *c, int n);

#endif
