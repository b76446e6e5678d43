/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel architectural performance monitoring (SDM Vol.3B 20.2) over the hardware interface:
 * general counters IA32_PERFEVTSELx / IA32_PMCx (read through the full-width alias IA32_A_PMCx
 * when IA32_PERF_CAPABILITIES.FW_WRITE[13] says it exists), fixed counters 0-2 and 3 (SLOTS)
 * in IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL. Numbers and widths come from CPUID.0AH; a
 * fixed counter c exists when CPUID.0AH:ECX[c] or EDX[4:0] > c (Intel PCM src/cpucounters.cpp
 * isFixedCounterSupported). Counters accumulate across reads (pmu/x86_ctr.h). No PMI is ever
 * enabled: EVTSEL.INT and the fixed-counter PMI bits stay 0.
 */
#ifndef EFIPERF_INTEL_CORE_H
#define EFIPERF_INTEL_CORE_H

#include "pmu/core/x86_ctr.h"

#define INTEL_MAX_GP 8          /* general counters efiperf uses at most (CPUID.0AH:EAX[15:8]) */
#define INTEL_MAX_FIXED 4

struct intel_core {
	/* probe */
	uint32_t version, ngp, gp_width, nfixed, fixed_width, fixed_bitmap;
	uint32_t arch_len, arch_unavail;
	uint8_t any_ok, pdcm, full_width, metrics_cap;
	uint64_t perf_cap;
	hw_status perf_cap_st;      /* rdmsr(IA32_PERF_CAPABILITIES), HW_UNSUPPORTED without PDCM */
	/* plan */
	int ngp_used;               /* entries in gp[] (absent ones included) */
	int nhw;                    /* general counters actually assigned (highest slot + 1) */
	struct x86_ctr gp[X86_MAX_EVENTS];   /* several groups may share a counter (pmu/core/x86_mux.h) */
	int nfx;
	struct x86_ctr fx[INTEL_MAX_FIXED];
	uint8_t fx_any[INTEL_MAX_FIXED];
	uint8_t metrics;            /* also enable PERF_METRICS: IA32_PERF_GLOBAL_CTRL[48] */
	/* run */
	uint64_t global_orig, global_ours;  /* global_ours: every counter of ours, in any group */
	int programmed;
	uint8_t cur;                /* multiplexed group programmed now (pmu/core/x86_mux.h) */
};

/* CPUID.0AH, CPUID.1:ECX.PDCM and IA32_PERF_CAPABILITIES. */
void intel_core_probe(const struct hw *hw, struct intel_core *ic);
int intel_core_fixed_present(const struct intel_core *ic, unsigned i);
/* List fixed counters 0-2 (absent ones marked), and 3 (SLOTS) when with_slots. any_fc1 sets
 * FC1's AnyThread bit (pre-Ice-Lake TopDown with SMT). */
void intel_core_plan_fixed(struct intel_core *ic, int with_slots, int any_fc1);
/* Add a general-counter event; returns its gp[] index. When no counter is free (or perfmon has
 * none) the entry is listed CTR_ABSENT with the reason, still returning its index; -1 only
 * when gp[] is full. */
int intel_core_add(struct intel_core *ic, const char *name, uint64_t config);
/* Add an event of multiplexed group `group` (X86_PINNED: every group) on general counter slot
 * (< ngp; the caller packs the groups); its gp[] index, -1 when gp[] is full. */
int intel_core_add_on(struct intel_core *ic, const char *name, uint64_t config, int slot, uint8_t group);

/* Save and program (counters frozen: our IA32_PERF_GLOBAL_CTRL bits off) and read the first
 * values. Counting starts with intel_core_unfreeze() (after TopDown's reset). */
hw_status intel_core_start(const struct hw *hw, struct intel_core *ic, struct saveset *sv);
/* Freeze our counters (IA32_PERF_GLOBAL_CTRL as found) / unfreeze them. */
hw_status intel_core_freeze(const struct hw *hw, struct intel_core *ic);
hw_status intel_core_unfreeze(const struct hw *hw, struct intel_core *ic);
/* Read every counter of the running group (and the pinned ones, fixed counters) and accumulate. */
void intel_core_read(const struct hw *hw, struct intel_core *ic);
/* Switch from group ic->cur to `next` (pmu/core/x86_mux.h): IA32_PERF_GLOBAL_CTRL with the
 * group's general-counter bits off (pinned and fixed counters keep counting), read and add its
 * counters, write each IA32_PERFEVTSELx of group next (through sv: saved at start) and read its
 * baseline, enable them in IA32_PERF_GLOBAL_CTRL. When the first write fails nothing changed
 * (ic->cur stays, its status returned); a later failure marks the counters it concerns faulted
 * and the switch stands (ic->cur == next). */
hw_status intel_core_rotate(const struct hw *hw, struct intel_core *ic, struct saveset *sv, uint8_t next);
/* Freeze, final read, states. */
hw_status intel_core_stop(const struct hw *hw, struct intel_core *ic);

#endif
