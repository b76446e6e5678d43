/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The latency curve's load-source evidence (pmu/core/load_source.h) on the boot CPU: chooses
 * the table (Intel MEM_LOAD_RETIRED; AMD by family and model, pmu/events/load_source_events.c;
 * Arm PMUv3 common events), programs its events around each point's window and turns the
 * counts into the point's `load_source` object.
 *   x86: through the boot CPU's core PMU (corepmu_setup_events): Intel by name, AMD as raw
 *        core/event=0x..,umask=0x../ strings (the table holds the Linux names); an event with
 *        no free counter is absent, named.
 *   Arm: a copy of the probed PMUv3 set with each event added through armv8_pmuv3_configure();
 *        one it refuses (PMCEID0/1_EL0 say not implemented, no counter left) is absent with
 *        that reason; MEM_ACCESS is programmed only when L1D_CACHE is not (one counter saved).
 * Without a table or a PMU, ldsrc_setup returns 0 and `why` says why; the curve is measured
 * without evidence.
 */
#ifndef EFIPERF_LDSRC_RUN_H
#define EFIPERF_LDSRC_RUN_H

#include "arch/hw.h"
#include "efi/platform.h"
#include "pmu/core/load_source.h"
#include "pmu/core/core_counters.h"
#include "pmu/core/x86_corepmu.h"
#include "efi/measure/attach.h"

struct ldsrc;

/* Pool memory in *out (free with ldsrc_free) and 1 when the table's events are programmed;
 * 0 with *out NULL and why (n bytes) when there is no evidence. events: the table's event
 * names, space-separated (en bytes; "" without a table). */
int ldsrc_setup(const struct hw *hw, const struct platform *p, struct ldsrc **out, char *events, size_t en, char *why,
		size_t n);
const struct ls_table *ldsrc_table(const struct ldsrc *l);
/* Before each window, outside it: Arm copies the configured set for the window. */
void ldsrc_prepare(struct ldsrc *l);
/* Window hooks, on the boot CPU around the kernel. */
void ldsrc_start(const struct hw *hw, struct ldsrc *l);
void ldsrc_stop(const struct hw *hw, struct ldsrc *l);
/* After a window: registers put back on cpu, the counts into w (loads: the kernel's own count)
 * and computed. */
void ldsrc_collect(const struct hw *hw, struct ldsrc *l, uint32_t cpu, uint64_t loads, struct ls_window *w);
/* x86: the window's core PMU, for the point's `core_counters`; NULL on Arm. */
const struct corepmu *ldsrc_corepmu(const struct ldsrc *l);
/* Arm: the last window's PMUv3 set (CPU_CYCLES, INST_RETIRED and the table's events), for the
 * point's `core_counters`; NULL on x86. */
const struct core_set *ldsrc_core_set(const struct ldsrc *l);
void ldsrc_free(struct ldsrc *l);
/* One window's evidence, kept for the record after the run: the load-source counts and the
 * core counters as they were after that window (x86: the core PMU; Arm: the PMUv3 set). */
struct ldsrc_point {
	struct ls_window lsw;
	uint64_t loads;
	int x86;
	struct corepmu cp;
	struct core_set set;
};

/* The evidence as an attachment (efi/measure/attach.h) on the latency curve's windows, one
 * window per entry of loads[] (the kernel's own load count) in order: prepare readies the set,
 * start/stop count around the kernel, read puts the registers back on cpu and keeps the
 * window's counts in pt[point++] (npoints entries, pool memory). */
struct ldsrc_attach {
	struct ldsrc *ls;
	uint32_t cpu;
	const uint64_t *loads;
	int npoints, point;
	struct ldsrc_point *pt;
};
extern const struct attachment_ops ldsrc_attach_ops;

/* One console line: each level's fraction, or why there is none. */
void ldsrc_text(const struct ls_window *w);

#endif
