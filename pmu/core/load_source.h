/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Load source: which level served the loads of a measurement window, from core events, per
 * vendor and generation. The tables are data (pmu/events/load_source_events.c); the arithmetic
 * (counts -> per-level counts and fractions) is pure and host-tested (tests/unit/test_load_source.c).
 *
 * Three kinds of event, one vocabulary of levels:
 *   LS_SERVED       the loads (or L1 fills) this level served: Intel MEM_LOAD_RETIRED.L1_HIT ..
 *                   L3_MISS, AMD demand data-cache fills by source (PMCx043).
 *   LS_MISSED       the accesses that missed this level and every level below it (cumulative):
 *                   Arm L1D_CACHE_REFILL, L2D_CACHE_REFILL, LL_CACHE_MISS_RD. The level above
 *                   served (missed below) - (missed here); the last one's misses went to memory.
 *   LS_ACCESSES     the denominator the CPU counts: AMD ls_dispatch.ld_dispatch, Arm L1D_CACHE
 *                   (or MEM_ACCESS when L1D_CACHE is not implemented). The first one counted wins.
 * Tables whose served rows partition every load (Intel) take their sum as the denominator
 * (LS_DENOM_SUM); tables without an L1 row derive L1 as denominator - sum of the fills
 * (LS_L1_REST, AMD: a load that hit L1 made no fill). Without a counted denominator the
 * kernel's own count of loads is used, and the result says so.
 *
 * A counter that did not advance (CTR_NOT_ADVANCING) is taken as 0 only when another event of
 * the same table advanced in the same window: then the PMU was demonstrably counting and the
 * level served nothing. When nothing advanced (an emulated PMU, a dead counter), no level is
 * known and the result says why. Absent and faulted events make their levels unknown.
 */
#ifndef EFIPERF_LOAD_SOURCE_H
#define EFIPERF_LOAD_SOURCE_H

#include <stdint.h>

enum ls_vendor { LS_INTEL, LS_AMD, LS_ARM };
enum ls_kind { LS_SERVED, LS_MISSED, LS_ACCESSES };

/* Levels, nearest first. The names are the record's (load_source_level_name). */
enum ls_level {
	LS_L1,             /* L1 data cache */
	LS_L2,             /* L2 of this core */
	LS_L3,             /* L3 / other L2 of this CCX or cluster; Arm: L3 or the last-level (system) cache */
	LS_L3_OR_NEAR,     /* Zen 2: L3, or another CCX's cache with the home node on this die */
	LS_NEAR_CACHE,     /* another CCX's cache, address in the same NUMA node */
	LS_DRAM_LOCAL,     /* DRAM or MMIO of the same NUMA node (die on Zen 2) */
	LS_FAR,            /* another node: another CCX's cache or DRAM/MMIO, one count */
	LS_FAR_OR_EXT,     /* another node (cache or DRAM/MMIO) or extension memory (CXL), one count */
	LS_FAR_CACHE,      /* another CCX's cache, address in another NUMA node (die on Zen 2) */
	LS_DRAM_REMOTE,    /* DRAM or MMIO of another NUMA node (die on Zen 2) */
	LS_MEMORY,         /* beyond the last cache level, local or remote not told apart */
	LS_NLEVELS
};

#define LS_MAX_EVENTS 8

struct ls_event {
	const char *name;    /* Linux perf / Intel perfmon / Arm ARM spelling */
	uint16_t event;      /* AMD EventSelect, Arm event number; Intel: 0 (programmed by name) */
	uint8_t umask;       /* AMD UnitMask (an OR of the Linux rows named in `parts`) */
	uint8_t kind;        /* enum ls_kind */
	uint8_t level;       /* enum ls_level: served, or the level it missed (LS_MISSED) */
	const char *parts;   /* AMD: the Linux event names whose UMasks this row ORs, NULL: `name` itself */
};

#define LS_DENOM_SUM 0x01u  /* the served rows partition every load: their sum is the denominator */
#define LS_L1_REST 0x02u    /* L1 = denominator - sum of the served rows (no L1 event) */

struct ls_table {
	const char *name;        /* "amd-zen3", "intel-mem-load-retired", "arm-pmuv3-common" */
	uint8_t vendor;          /* enum ls_vendor */
	const char *oracle_dir;  /* AMD: Linux tools/perf/pmu-events/arch/x86/<dir> it was checked against */
	const char *source;      /* where the encodings come from */
	uint8_t flags;           /* LS_DENOM_SUM, LS_L1_REST */
	uint8_t n;
	struct ls_event ev[LS_MAX_EVENTS];
};

/* AMD generation by family and model (ranges): the rows of Linux's
 * tools/perf/pmu-events/arch/x86/mapfile.csv for amdzen2..amdzen5. */
struct ls_amd_gen {
	uint32_t family, mod_lo, mod_hi;
	const struct ls_table *t;
};

extern const struct ls_table ls_amd_zen2, ls_amd_zen3, ls_amd_zen4, ls_amd_zen5;
extern const struct ls_table ls_intel, ls_arm;
extern const struct ls_amd_gen ls_amd_gens[];
extern const unsigned ls_amd_ngens;

/* The table of an AMD family/model, NULL when no generation row covers it (Zen/Zen+, Family
 * 15h and older, a future family): the caller says so. */
const struct ls_table *load_source_amd(uint32_t family, uint32_t model);

/* "L1", "L2", "L3", "L3_or_near_cache", "near_cache", "dram_local", "far", "far_or_ext_memory",
 * "far_cache", "dram_remote", "memory". */
const char *load_source_level_name(uint8_t level);

/* One event's outcome in the window (enum ctr_state, and the count when counted). */
struct ls_count {
	uint8_t state;
	uint64_t count;
};

struct ls_level_out {
	uint8_t level;       /* enum ls_level */
	uint8_t known;       /* count and milli hold values */
	uint8_t derived;     /* from a difference (L1 rest, Arm refills), not one event */
	uint64_t count;      /* loads this level served */
	uint32_t milli;      /* count / denominator in 1/1000 (rounded); 0 when no denominator */
	uint8_t has_milli;
	const char *why;     /* !known (or !has_milli): why */
};

struct ls_result {
	uint8_t valid;         /* every level known and a denominator */
	const char *why;       /* !valid: the first reason */
	uint8_t alive;         /* some event of the table advanced */
	uint64_t denominator;  /* 0: none */
	const char *denominator_from;  /* an event name, "sum of the served events", "the kernel's loads" */
	uint64_t attributed;   /* sum of the known levels' counts */
	int nlevels;
	struct ls_level_out lv[LS_NLEVELS];
};

/* Per-level counts and fractions. counts[i] belongs to t->ev[i]; loads: the kernel's own count
 * of loads in the window (0: unknown), the denominator of last resort. */
void load_source_compute(const struct ls_table *t, const struct ls_count *counts, uint64_t loads,
			 struct ls_result *r);

/* One window's load-source evidence: the table, each event's outcome as the PMU driver left it
 * (why: absent / faulted reason, or ""), the kernel's own loads, and the result. */
#define LS_WHY 96
struct ls_window {
	const struct ls_table *t;
	struct ls_count c[LS_MAX_EVENTS];
	char why[LS_MAX_EVENTS][LS_WHY];
	uint64_t loads;
	struct ls_result r;
};

#endif
