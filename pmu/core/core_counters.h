/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Core counters of the boot CPU around one measurement window: whatever the CPU really has.
 *   - pmu/core/x86_fixed.c: Intel architectural fixed counters (SDM Vol.3B 20.2.2), present when
 *                          CPUID.0AH reports version >= 2 and fixed counters: a thin adapter
 *                          over pmu/core/intel_core.c, the one driver of IA32_FIXED_CTR_CTRL,
 *                          the fixed counters and IA32_PERF_GLOBAL_CTRL.
 *   - pmu/core/armv8_pmuv3.c:   Arm PMUv3 cycle counter (PMCCNTR_EL0) and INST_RETIRED (event 0x08)
 *                          on PMEVCNTR0_EL0, present when ID_AA64DFR0_EL1.PMUVer says so.
 * Each is a struct core_pmu of data + four ops written against the hardware interface, so they
 * run on the register model in host tests. A counter that does not exist is CTR_ABSENT with a
 * reason, one whose delta is 0 is CTR_NOT_ADVANCING: neither is ever reported as a zero count.
 * Every register start() writes goes through the set's saveset (pmu/saveset.h) and is put back
 * by restore(); `restore` says what could not be.
 */
#ifndef EFIPERF_CORE_COUNTERS_H
#define EFIPERF_CORE_COUNTERS_H

#include <stdint.h>
#include "arch/hw.h"
#include "pmu/saveset.h"
#include "pmu/core/ctr_state.h"
#include "pmu/core/intel_core.h"

#define CORE_MAX_COUNTERS 32   /* Arm: the cycle counter + 31 event counters (PMCR_EL0.N <= 31) */
#define CORE_MAX_SAVED 72
#define CORE_MAX_LEFT_OUT 24   /* wanted events not programmed, listed (more are counted) */
/* Arm PMUv3: c[0] is the cycle counter, c[1] INST_RETIRED on event counter 0, c[k] event
 * counter k - 1 (pmu/core/armv8_pmuv3.c). */
#define ARMV8_C_CYCLES 0
#define ARMV8_C_INST   1
#define CORE_MAX_GROUPS 30     /* multiplexed groups of events (c[2..] events, one a group at worst) */
#define CORE_ALL_GROUPS 0xff   /* core_counter.group of a counter counted in every group */


struct core_counter {
	const char *event;   /* manual name: "INST_RETIRED.ANY", "CPU_CYCLES", "INST_RETIRED" */
	const char *unit;    /* "instructions" | "cycles" | "ref-cycles" */
	uint64_t before, after, delta;  /* raw counter values; delta modulo the counter width */
	uint64_t width_mask;            /* (1 << width) - 1 */
	uint16_t code;                  /* Arm PMUv3: the event number programmed (evtCount) */
	uint8_t state;                  /* enum ctr_state */
	uint8_t fault;                  /* hw_status when CTR_FAULTED */
	/* Arm PMUv3 multiplexing (pmu/core/core_mux.h): the group of an event on an event counter
	 * (c[2..]; CORE_ALL_GROUPS for the cycle counter and INST_RETIRED, counted in every group),
	 * its event counter PMEVCNTR<ctr>_EL0, whether it is a TopDown input, and the raw count
	 * summed over the windows its group ran. */
	uint8_t group, ctr, topdown;
	uint64_t raw;
	char why[80];                   /* CTR_ABSENT / CTR_FAULTED: why, citing the register */
};


/* An event a set wanted but did not program, and why (static strings). */
struct core_left_out { const char *event, *why; };

struct core_set {
	const struct core_pmu *pmu;
	int n;                                   /* counters in c[] (absent ones included) */
	struct core_counter c[CORE_MAX_COUNTERS];
	struct saveset sv;                       /* registers start() wrote (initialised by start) */
	struct saved_reg sv_e[CORE_MAX_SAVED];
	struct saveset_report restore;           /* what the last restore() could not put back */
	struct intel_core ic;                    /* x86: the fixed counters' driver */
	int started;                             /* start() wrote registers; restore() owed */
	uint32_t version;                        /* perfmon version / PMUVer */
	uint32_t ngp;                            /* general-purpose counters the PMU reports */
	char probe[128];                         /* one-line summary for the platform report */
	/* Arm PMUv3: the exception level efiperf runs at (CurrentEL.EL; 0 unknown), MDCR_EL2 as read
	 * at EL2 (mdcr_read), and which exception levels the counters were set to count. */
	uint8_t el;
	uint8_t mdcr_read;
	uint64_t mdcr_el2;
	char els[96];
	uint64_t ceid[2];                        /* PMCEID0_EL0, PMCEID1_EL0 (0 when unreadable) */
	uint32_t nimpl;                          /* common events they say are implemented */
	uint32_t slots;                          /* PMMIR_EL1.SLOTS (0: unknown, slots_why says why) */
	uint32_t midr;                           /* MIDR_EL1 (0 when unreadable): the TopDown formula */
	char slots_why[48];
	const char *event_set;                   /* Arm: "core_events", "default" (+ " + topdown") */
	uint32_t nleft;                          /* wanted events not programmed (left[] lists the first) */
	struct core_left_out left[CORE_MAX_LEFT_OUT];
	/* Arm PMUv3 multiplexing (pmu/core/core_mux.h): the groups events were split into, the one
	 * start() programs, how many groups hold TopDown inputs, and after core_mux_finish() the
	 * windows run (nslices over `rounds`), their total time and each group's running time (ns). */
	uint32_t ngroups, group, td_groups, rounds, nslices;
	uint64_t window_ns, group_ns[CORE_MAX_GROUPS];
};

/* Counter i of s is programmed when s->group runs: the cycle counter and INST_RETIRED always,
 * an event on an event counter when it belongs to s->group. */
static inline int core_in_group(const struct core_set *s, int i)
{
	return s->c[i].group == CORE_ALL_GROUPS || s->c[i].group == s->group;
}

/* Arm PMUv3: the events of `core_events` (comma-separated, perf syntax armv8_pmuv3/event=0x11/
 * or armv8_pmuv3_0/.../, or an Arm ARM common-event name such as STALL_BACKEND) on event
 * counters 1..N-1 after the probe (counter 0 keeps INST_RETIRED); more events than those N-1
 * counters go to further groups, multiplexed (pmu/core/core_mux.h). 0, or -1 with err naming the
 * event: unknown, not implemented per PMCEID0/1_EL0, wider than evtCount, more than
 * CORE_MAX_COUNTERS - 2 events, or none when PMCR_EL0.N < 2. */
int armv8_pmuv3_configure(struct core_set *s, const char *events, char *err, size_t n);
/* Arm PMUv3 TopDown (topdown = on): add the Neoverse TopDown L1 events (pmu/core/arm_topdown.h)
 * the CPU implements and that are not there yet (multiplexed when they need more groups), marked
 * as TopDown inputs; core_mux_pack() then puts them in one group when they fit. Those not
 * programmed (not implemented, too wide) go to s->left[] with why. */
void armv8_pmuv3_add_topdown(struct core_set *s);
/* Arm PMUv3 without `core_events`: add the default set after whatever s holds (the TopDown
 * inputs with topdown = on), in its priority order (armv8_pmuv3_default_events:
 * L1D_CACHE_REFILL, L2D_CACHE_REFILL, LL_CACHE_MISS_RD, STALL_FRONTEND, STALL_BACKEND,
 * BR_MIS_PRED, MEM_ACCESS, ...), on the free event counters and, when they are not enough, in
 * further groups of N - 1, multiplexed like core_events (pmu/core/core_mux.h); an event of the
 * list the CPU lacks (PMCEID0/1_EL0), or with no event counter at all (PMCR_EL0.N < 2), goes to
 * s->left[] with why. Counters still free in the last group then take the other common events
 * PMCEID0/1_EL0 report, in event-number order (not SW_INCR or CHAIN), so every one of the
 * PMCR_EL0.N counters counts something; those fillers open no group. */
void armv8_pmuv3_add_defaults(struct core_set *s);
extern const char *const *const armv8_pmuv3_default_events;
extern const unsigned armv8_pmuv3_ndefault_events;

struct core_pmu {
	const char *name;    /* "x86 architectural fixed counters", "Arm PMUv3" */
	const char *probe_name;  /* the platform record's probe line for s->probe, or NULL */
	/* 0 when this PMU architecture applies to the CPU (s->probe says what was found, s->c[]
	 * lists counters, absent ones marked); -1 when not (wrong architecture). */
	int (*probe)(const struct hw *hw, struct core_set *s);
	/* Save the registers it will write, program and enable the counters, read `before`. */
	hw_status (*start)(const struct hw *hw, struct core_set *s);
	/* Read `after`, compute deltas and states. Counting stops (registers stay programmed). */
	hw_status (*stop)(const struct hw *hw, struct core_set *s);
	/* Write back every saved register (reverse order). Safe to call more than once. */
	hw_status (*restore)(const struct hw *hw, struct core_set *s);
};

extern const struct core_pmu pmu_x86_fixed;
extern const struct core_pmu pmu_armv8_pmuv3;

/* Probe each known core PMU in turn (a table, not if/else); fill s from the first that
 * applies. Returns 0 when one applied (its counters may still all be absent), -1 otherwise. */
int core_probe(const struct hw *hw, struct core_set *s);

/* Helpers for PMU implementations: an empty save set (start), and the restore report. */
void core_saveset_begin(struct core_set *s);
hw_status core_saveset_restore(const struct hw *hw, struct core_set *s);
/* x86: the fixed counters as the window's one Intel driver counted them (the boot CPU's
 * corepmu), so the window does not program them a second time. */
void x86_fixed_from(struct core_set *s, const struct intel_core *ic);
/* Compute delta/state of counter i from before/after (modulo width). */
void core_finish_counter(struct core_counter *c);

#endif
