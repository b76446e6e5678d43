/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Time-division multiplexing of Arm PMUv3 events (pure), as Linux perf does it with its
 * enabled/running times (tools/perf/Documentation/perf-stat.txt, "scaled"; the CHA path's
 * pmu/uncore/intel_cha_measure.c does the same for uncore groups):
 *   - the events on event counters (core_set c[2..]) are split into groups of at most
 *     PMCR_EL0.N - 1 (counter 0 keeps INST_RETIRED in every group, the cycle counter CPU_CYCLES);
 *     core_mux_pack() puts the TopDown inputs first, so they share group 0 when they fit;
 *   - the measured window runs once per group per round (slice k runs group k mod G, so every
 *     group sees the same traffic in turn); each slice is a started, stopped and restored copy
 *     of the set (its own save set: every register is back before the next slice);
 *   - core_mux_add() sums each event's raw delta and the time (ns) its group ran;
 *     core_mux_finish() scales: scaled = raw x window_ns / running_ns, where window_ns is the
 *     time of every slice and running_ns that of the slices of the event's group (the cycle
 *     counter and INST_RETIRED run in every slice: exact, raw = scaled).
 * Counts from different groups are estimates over different slices: a ratio between them is
 * less exact than one within a group (the record says which group each event was in).
 */
#ifndef EFIPERF_CORE_MUX_H
#define EFIPERF_CORE_MUX_H

#include <stdint.h>
#include "pmu/core/core_counters.h"
#include "pmu/core/arm_topdown.h"

/* Re-place c[2..] with the TopDown inputs first (their order kept, then the others'), group
 * e / k and event counter 1 + e % k for the e-th, k = PMCR_EL0.N - 1. Sets s->ngroups and
 * s->td_groups (groups holding TopDown inputs: 1 when they fit together, 0 without any). */
void core_mux_pack(struct core_set *s);

/* A set that is not multiplexed (one window: the load-source evidence) keeps only group g's
 * events besides the cycle counter and INST_RETIRED, as group 0 on the same event counters;
 * events added afterwards go on the counters after them, and to group 1 when none is left. */
void core_mux_keep_group(struct core_set *s, uint32_t g);

/* acc: the configured set that will gather every slice (raw sums, times and restore report
 * zeroed); rounds (>= 1) times each group. */
void core_mux_begin(struct core_set *acc, uint32_t rounds);
/* The group slice k runs (k mod ngroups). */
uint32_t core_mux_slice_group(const struct core_set *acc, uint32_t k);
/* Add one stopped and restored slice (a copy of acc with group set) that ran ns: each counter of
 * its group adds its delta to raw, a faulted one marks acc's faulted, and its restore report is
 * added to acc->restore. */
void core_mux_add(struct core_set *acc, const struct core_set *slice, uint64_t ns);
/* After the last slice: delta = scaled count, state counted / not-advancing from raw. */
void core_mux_finish(struct core_set *acc);
/* Time (ns) counter i ran: window_ns for the cycle counter and INST_RETIRED, else its group's. */
uint64_t core_mux_running_ns(const struct core_set *s, int i);

/* The TopDown inputs of s as arm_topdown() takes them: count[k] the (scaled) delta of the first
 * counted counter named arm_td_input_name[k], have bit k set for it; slots, formula and the rest of
 * in are left as the caller set them. Returns how many multiplexed groups those counts came from
 * (the cycle counter and INST_RETIRED, in every group, count for none): more than 1 means the
 * ratios mix windows. */
uint32_t core_mux_topdown_in(const struct core_set *s, struct arm_td_in *in);

#endif
