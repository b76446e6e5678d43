/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Load-source event tables (pmu/core/load_source.h), one per vendor and generation.
 *
 * AMD: demand data-cache fills by data source, PMCx043 (AMD PPR for each family, "Core
 * Performance Monitor Counters", LS events), spelled and encoded as Linux
 * tools/perf/pmu-events/arch/x86/amdzen{2,3,4,5}/ name them; tests/unit/test_load_source_oracle.c
 * checks every row of every generation against that extract (tests/oracle/linux-perf/amd_core.txt)
 * and the generation ranges against Linux's mapfile.csv. Each generation has six core counters
 * (PerfCtrExtCore / PerfMonV2: AMD APM Vol.2 13.2), so a table holds at most six events:
 * ls_dispatch.ld_dispatch (the loads dispatched: the denominator, and proof the PMU counts) and
 * five fill sources; where a generation names more sources than that, the remote ones share one
 * counter (their UMasks ORed; `parts` names the Linux rows). Zen 4 and Zen 5 also fold
 * alternate_memories (extension memory, CXL) into that counter, so every fill is counted
 * somewhere and L1 = loads - fills stays honest.
 *
 * Intel: MEM_LOAD_RETIRED.L1_HIT, L2_HIT, L3_HIT, L3_MISS (event 0xD1; Intel perfmon
 * skylake_core.json, icelake_core.json, sapphirerapids_core.json), programmed by name through
 * pmu/events/intel_core_events.c, whose rows the perfmon and libpfm4 oracles check for every
 * model they serve. They partition the retired loads: their sum is the denominator.
 *
 * Arm: common events of the Arm ARM (DDI 0487K.a), chapter "The Performance Monitors
 * Extension", section "Common event numbers": L1D_CACHE 0x04 and MEM_ACCESS 0x13 (the
 * denominator, the first implemented), L1D_CACHE_REFILL 0x03, L2D_CACHE_REFILL 0x17,
 * LL_CACHE_MISS_RD 0x37 (cumulative misses: each counts what missed its level and every level
 * below). Each is used only where PMCEID0_EL0/PMCEID1_EL0 say it is implemented.
 */
#include <stddef.h>
#include "pmu/core/load_source.h"

#define LD_DISPATCH { "ls_dispatch.ld_dispatch", 0x029, 0x01, LS_ACCESSES, LS_L1, NULL }

/* amdzen2/memory.json (ls_refills_from_sys: "Demand Data Cache Fills by Data Source") */
const struct ls_table ls_amd_zen2 = {
	"amd-zen2", LS_AMD, "amdzen2", "Linux amdzen2/memory.json", LS_L1_REST, 6, {
		LD_DISPATCH,
		{ "ls_refills_from_sys.ls_mabresp_lcl_l2", 0x043, 0x01, LS_SERVED, LS_L2, NULL },
		{ "ls_refills_from_sys.ls_mabresp_lcl_cache", 0x043, 0x02, LS_SERVED, LS_L3_OR_NEAR, NULL },
		{ "ls_refills_from_sys.ls_mabresp_lcl_dram", 0x043, 0x08, LS_SERVED, LS_DRAM_LOCAL, NULL },
		{ "ls_refills_from_sys.ls_mabresp_rmt_cache", 0x043, 0x10, LS_SERVED, LS_FAR_CACHE, NULL },
		{ "ls_refills_from_sys.ls_mabresp_rmt_dram", 0x043, 0x40, LS_SERVED, LS_DRAM_REMOTE, NULL },
	} };

/* amdzen3/memory.json (ls_dmnd_fills_from_sys) */
const struct ls_table ls_amd_zen3 = {
	"amd-zen3", LS_AMD, "amdzen3", "Linux amdzen3/memory.json", LS_L1_REST, 6, {
		LD_DISPATCH,
		{ "ls_dmnd_fills_from_sys.lcl_l2", 0x043, 0x01, LS_SERVED, LS_L2, NULL },
		{ "ls_dmnd_fills_from_sys.int_cache", 0x043, 0x02, LS_SERVED, LS_L3, NULL },
		{ "ls_dmnd_fills_from_sys.ext_cache_local", 0x043, 0x04, LS_SERVED, LS_NEAR_CACHE, NULL },
		{ "ls_dmnd_fills_from_sys.mem_io_local", 0x043, 0x08, LS_SERVED, LS_DRAM_LOCAL, NULL },
		{ "ls_dmnd_fills_from_sys.ext_cache_remote+mem_io_remote", 0x043, 0x50, LS_SERVED, LS_FAR,
		  "ls_dmnd_fills_from_sys.ext_cache_remote ls_dmnd_fills_from_sys.mem_io_remote" },
	} };

/* amdzen4/cache.json (ls_dmnd_fills_from_sys), ls_dispatch from amdzen4/memory.json */
const struct ls_table ls_amd_zen4 = {
	"amd-zen4", LS_AMD, "amdzen4", "Linux amdzen4/cache.json, memory.json", LS_L1_REST, 6, {
		LD_DISPATCH,
		{ "ls_dmnd_fills_from_sys.local_l2", 0x043, 0x01, LS_SERVED, LS_L2, NULL },
		{ "ls_dmnd_fills_from_sys.local_ccx", 0x043, 0x02, LS_SERVED, LS_L3, NULL },
		{ "ls_dmnd_fills_from_sys.near_cache", 0x043, 0x04, LS_SERVED, LS_NEAR_CACHE, NULL },
		{ "ls_dmnd_fills_from_sys.dram_io_near", 0x043, 0x08, LS_SERVED, LS_DRAM_LOCAL, NULL },
		{ "ls_dmnd_fills_from_sys.far_cache+dram_io_far+alternate_memories", 0x043, 0xD0, LS_SERVED, LS_FAR_OR_EXT,
		  "ls_dmnd_fills_from_sys.far_cache ls_dmnd_fills_from_sys.dram_io_far ls_dmnd_fills_from_sys.alternate_memories" },
	} };

/* amdzen5/load-store.json (ls_dmnd_fills_from_sys) */
const struct ls_table ls_amd_zen5 = {
	"amd-zen5", LS_AMD, "amdzen5", "Linux amdzen5/load-store.json", LS_L1_REST, 6, {
		LD_DISPATCH,
		{ "ls_dmnd_fills_from_sys.local_l2", 0x043, 0x01, LS_SERVED, LS_L2, NULL },
		{ "ls_dmnd_fills_from_sys.local_ccx", 0x043, 0x02, LS_SERVED, LS_L3, NULL },
		{ "ls_dmnd_fills_from_sys.near_cache", 0x043, 0x04, LS_SERVED, LS_NEAR_CACHE, NULL },
		{ "ls_dmnd_fills_from_sys.dram_io_near", 0x043, 0x08, LS_SERVED, LS_DRAM_LOCAL, NULL },
		{ "ls_dmnd_fills_from_sys.far_all+alternate_memories", 0x043, 0xD0, LS_SERVED, LS_FAR_OR_EXT,
		  "ls_dmnd_fills_from_sys.far_all ls_dmnd_fills_from_sys.alternate_memories" },
	} };

/* Linux tools/perf/pmu-events/arch/x86/mapfile.csv: AuthenticAMD-23-* (models 30h+) amdzen2,
 * AuthenticAMD-25-([245][[:xdigit:]]|[[:xdigit:]]) amdzen3, the other 25 models amdzen4,
 * AuthenticAMD-26-([12467][[:xdigit:]]|[[:xdigit:]]) amdzen5 (the Family 1Ah models Linux
 * arch/x86/kernel/cpu/amd.c also calls Zen 5; the amdzen6 models have no table: Linux perf's
 * amdzen6/load-store.json is not compared with efiperf's rows). Family 17h models 00h-2Fh (amdzen1, Zen/Zen+) have no table, nor
 * have Family 19h models 30h-3Fh: amdzen4 to the mapfile, but Zen 3 to Linux
 * arch/x86/kernel/cpu/amd.c (bsp_init_amd) and libpfm4 lib/pfmlib_amd64.c (amd64_get_revision),
 * as the core-event, pipeline and uncore tables leave them. */
const struct ls_amd_gen ls_amd_gens[] = {
	{ 0x17, 0x30, 0xFF, &ls_amd_zen2 },
	{ 0x19, 0x00, 0x0F, &ls_amd_zen3 }, { 0x19, 0x20, 0x2F, &ls_amd_zen3 }, { 0x19, 0x40, 0x5F, &ls_amd_zen3 },
	{ 0x19, 0x10, 0x1F, &ls_amd_zen4 }, { 0x19, 0x60, 0xFF, &ls_amd_zen4 },
	{ 0x1A, 0x00, 0x2F, &ls_amd_zen5 }, { 0x1A, 0x40, 0x4F, &ls_amd_zen5 }, { 0x1A, 0x60, 0x7F, &ls_amd_zen5 },
};
const unsigned ls_amd_ngens = sizeof(ls_amd_gens) / sizeof(ls_amd_gens[0]);

const struct ls_table ls_intel = {
	"intel-mem-load-retired", LS_INTEL, NULL, "Intel perfmon <platform>_core.json MEM_LOAD_RETIRED.*", LS_DENOM_SUM, 4, {
		{ "MEM_LOAD_RETIRED.L1_HIT", 0xD1, 0x01, LS_SERVED, LS_L1, NULL },
		{ "MEM_LOAD_RETIRED.L2_HIT", 0xD1, 0x02, LS_SERVED, LS_L2, NULL },
		{ "MEM_LOAD_RETIRED.L3_HIT", 0xD1, 0x04, LS_SERVED, LS_L3, NULL },
		{ "MEM_LOAD_RETIRED.L3_MISS", 0xD1, 0x20, LS_SERVED, LS_MEMORY, NULL },
	} };

const struct ls_table ls_arm = {
	"arm-pmuv3-common", LS_ARM, NULL, "Arm ARM DDI 0487K.a, Common event numbers", 0, 5, {
		{ "L1D_CACHE", 0x04, 0, LS_ACCESSES, LS_L1, NULL },
		{ "MEM_ACCESS", 0x13, 0, LS_ACCESSES, LS_L1, NULL },
		{ "L1D_CACHE_REFILL", 0x03, 0, LS_MISSED, LS_L1, NULL },
		{ "L2D_CACHE_REFILL", 0x17, 0, LS_MISSED, LS_L2, NULL },
		{ "LL_CACHE_MISS_RD", 0x37, 0, LS_MISSED, LS_L3, NULL },
	} };
