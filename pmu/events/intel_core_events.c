/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Named Intel core events efiperf knows, one row per encoding and the core generations it is
 * valid on (pmu/core/x86_event.h X86_GEN_*; x86_corepmu.c maps family-6 models to them):
 *   - the architectural events (Intel SDM Vol.3B, chapter "Performance Monitoring", table
 *     "UMask and Event Select Encodings for Pre-Defined Architectural Performance Events"),
 *     with the CPUID.0AH:EBX bit that marks each one unavailable;
 *   - the model-specific ones TopDown and the memory-bound helpers need, as Intel's perfmon
 *     event files name and encode them (github.com/intel/perfmon, <platform>/events/<name>_core.json).
 * Two outside oracles check every row for every model it serves, bit for bit:
 * tests/unit/test_core_pfm.c (libpfm4: the `pfm` column is libpfm4's spelling; PMU models
 * snb/hsw/bdw, skl/skx/clx, icl/icx, spr) and tests/unit/test_core_perfmon.c (the perfmon
 * extract in tests/oracle/perfmon/, one file per platform of Intel's mapfile.csv). A row an
 * oracle lacks is listed by that test and carries its own source in the `cite` column.
 *
 * Golden Cove (Sapphire/Emerald/Granite Rapids, Alder/Raptor Lake P-cores, Meteor Lake
 * P-cores) moved the allocation events: UOPS_ISSUED.ANY 0xAE/0x01 and INT_MISC.* 0xAD
 * (sapphirerapids_core.json v1.39, alderlake_goldencove_core.json v1.40), where Skylake and
 * Ice Lake have 0x0E and 0x0D; CYCLE_ACTIVITY.STALLS_MEM_ANY no longer exists there.
 * INT_MISC.RECOVERY_CYCLES is 0x0D/0x03 cmask=1 on Sandy Bridge..Broadwell and 0x0D/0x01 from
 * Skylake (sandybridge_core.json v19, skylake_core.json v59).
 */
#include "pmu/core/x86_event.h"

#define ARCH X86_GEN_ARCH
#define SNB X86_GEN_SNB
#define SKL X86_GEN_SKL
#define ICL X86_GEN_ICL
#define GLC X86_GEN_GLC
#define CMT X86_GEN_CMT
#define DKT X86_GEN_DKT

/* Architectural event 2: every perfmon file of Sandy Bridge..Ice Lake names it; Golden Cove
 * files name the same encoding CPU_CLK_UNHALTED.REF_TSC_P. */
#define SRF_CORE "Intel perfmon SRF/events/sierraforest_core.json 1.18"
#define CWF_CORE "Intel perfmon CWF/events/clearwaterforest_core.json 1.04"
#define SDM_ARCH "Intel SDM Vol.3B, Performance Monitoring, pre-defined architectural events table"

const struct x86_named_event intel_core_events[] = {
	/* name                                   ev    umask cmask inv edge any gens              arch pfm */
	{ "CPU_CLK_UNHALTED.THREAD_P",            0x3C, 0x00, 0, 0, 0, 0, ARCH,                   0, "CPU_CLK_UNHALTED:THREAD_P", NULL, NULL },
	{ "INST_RETIRED.ANY_P",                   0xC0, 0x00, 0, 0, 0, 0, ARCH,                   1, "INST_RETIRED:ANY_P", NULL, NULL },
	{ "CPU_CLK_UNHALTED.REF_XCLK",            0x3C, 0x01, 0, 0, 0, 0, ARCH,                   2, "CPU_CLK_UNHALTED:REF_XCLK", NULL, SDM_ARCH },
	{ "LONGEST_LAT_CACHE.REFERENCE",          0x2E, 0x4F, 0, 0, 0, 0, SKL,                    3, "LONGEST_LAT_CACHE:REFERENCE", NULL, NULL },
	{ "LONGEST_LAT_CACHE.MISS",               0x2E, 0x41, 0, 0, 0, 0, SKL | ICL | GLC | CMT | DKT, 4, "LONGEST_LAT_CACHE:MISS", NULL, NULL },
	{ "BR_INST_RETIRED.ALL_BRANCHES",         0xC4, 0x00, 0, 0, 0, 0, ARCH,                   5, "BR_INST_RETIRED:ALL_BRANCHES", NULL, NULL },
	{ "BR_MISP_RETIRED.ALL_BRANCHES",         0xC5, 0x00, 0, 0, 0, 0, ARCH,                   6, "BR_MISP_RETIRED:ALL_BRANCHES", NULL, NULL },
	{ "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE",    0x3C, 0x02, 0, 0, 0, 0, SNB | SKL | ICL | GLC, -1, "CPU_CLK_UNHALTED:ONE_THREAD_ACTIVE", NULL, NULL },
	{ "CPU_CLK_UNHALTED.THREAD_P_ANY",        0x3C, 0x00, 0, 0, 0, 1, SNB | SKL,             -1, "CPU_CLK_UNHALTED:THREAD_P:t=1", NULL, NULL },
	/* TopDown level 1 with general counters (Sandy Bridge..Skylake) */
	{ "UOPS_ISSUED.ANY",                      0x0E, 0x01, 0, 0, 0, 0, SNB | SKL | ICL,       -1, "UOPS_ISSUED:ANY", NULL, NULL },
	{ "UOPS_ISSUED.ANY",                      0xAE, 0x01, 0, 0, 0, 0, GLC,                   -1, "UOPS_ISSUED:ANY", NULL, NULL },
	{ "UOPS_RETIRED.RETIRE_SLOTS",            0xC2, 0x02, 0, 0, 0, 0, SNB | SKL,             -1, "UOPS_RETIRED:RETIRE_SLOTS", NULL, NULL },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE",          0x9C, 0x01, 0, 0, 0, 0, SNB | SKL | ICL | GLC, -1, "IDQ_UOPS_NOT_DELIVERED:CORE", NULL, NULL },
	{ "INT_MISC.RECOVERY_CYCLES",             0x0D, 0x03, 1, 0, 0, 0, SNB,                   -1, "INT_MISC:RECOVERY_CYCLES", NULL, NULL },
	{ "INT_MISC.RECOVERY_CYCLES_ANY",         0x0D, 0x03, 1, 0, 0, 1, SNB,                   -1, "INT_MISC:RECOVERY_CYCLES_ANY", NULL, NULL },
	{ "INT_MISC.RECOVERY_CYCLES",             0x0D, 0x01, 0, 0, 0, 0, SKL | ICL,             -1, "INT_MISC:RECOVERY_CYCLES", NULL, NULL },
	{ "INT_MISC.RECOVERY_CYCLES",             0xAD, 0x01, 0, 0, 0, 0, GLC,                   -1, "INT_MISC:RECOVERY_CYCLES", NULL, NULL },
	{ "INT_MISC.RECOVERY_CYCLES_ANY",         0x0D, 0x01, 0, 0, 0, 1, SKL,                   -1, "INT_MISC:RECOVERY_CYCLES_ANY", NULL, NULL },
	/* Ice Lake+ siblings used by the TopDown corrections of pmu-tools */
	{ "UOPS_RETIRED.SLOTS",                   0xC2, 0x02, 0, 0, 0, 0, ICL | GLC,             -1, "UOPS_RETIRED:SLOTS", NULL, NULL },
	{ "INT_MISC.UOP_DROPPING",                0x0D, 0x10, 0, 0, 0, 0, ICL,                   -1, "INT_MISC:UOP_DROPPING", NULL, NULL },
	{ "INT_MISC.UOP_DROPPING",                0xAD, 0x10, 0, 0, 0, 0, GLC,                   -1, "INT_MISC:UOP_DROPPING", NULL, NULL },
	{ "INT_MISC.CLEARS_COUNT",                0x0D, 0x01, 1, 0, 1, 0, ICL,                   -1, "INT_MISC:CLEARS_COUNT", NULL, NULL },
	{ "INT_MISC.CLEARS_COUNT",                0xAD, 0x01, 1, 0, 1, 0, GLC,                   -1, "INT_MISC:CLEARS_COUNT", NULL, NULL },
	{ "TOPDOWN.SLOTS_P",                      0xA4, 0x01, 0, 0, 0, 0, ICL | GLC,             -1, "TOPDOWN:SLOTS_P", NULL, NULL },
	/* memory-bound helpers; the level that served each retired load (the latency curve's evidence) */
	{ "MEM_LOAD_RETIRED.L1_HIT",              0xD1, 0x01, 0, 0, 0, 0, SKL | ICL | GLC,       -1, "MEM_LOAD_RETIRED:L1_HIT", NULL, NULL },
	{ "MEM_LOAD_RETIRED.L2_HIT",              0xD1, 0x02, 0, 0, 0, 0, SKL | ICL | GLC,       -1, "MEM_LOAD_RETIRED:L2_HIT", NULL, NULL },
	{ "MEM_LOAD_RETIRED.L3_HIT",              0xD1, 0x04, 0, 0, 0, 0, SKL | ICL | GLC,       -1, "MEM_LOAD_RETIRED:L3_HIT", NULL, NULL },
	{ "MEM_LOAD_RETIRED.L3_MISS",             0xD1, 0x20, 0, 0, 0, 0, SKL | ICL | GLC,       -1, "MEM_LOAD_RETIRED:L3_MISS", NULL, NULL },
	{ "CYCLE_ACTIVITY.STALLS_MEM_ANY",        0xA3, 0x14, 20, 0, 0, 0, SKL | ICL,            -1, "CYCLE_ACTIVITY:STALLS_MEM_ANY", NULL, NULL },
	/* E-core servers (libpfm4 4.13 has no Crestmont or Darkmont table: each row is compared with
	 * Intel's own file in tests/unit/test_core_perfmon.c). Issue-slot TopDown level 1 on general
	 * counters: Crestmont 0x71-0x74 (the .ALL and .ALL_P names share the encoding), Darkmont the
	 * .ALL_P encodings (its .ALL names are fixed counters 4-6, not programmable ones). */
	{ "CPU_CLK_UNHALTED.CORE_P",              0x3C, 0x00, 0, 0, 0, 0, CMT | DKT,             -1, "CPU_CLK_UNHALTED:CORE_P", NULL, SRF_CORE },
	{ "TOPDOWN_FE_BOUND.ALL",                 0x71, 0x00, 0, 0, 0, 0, CMT,                   -1, "TOPDOWN_FE_BOUND:ALL", NULL, SRF_CORE },
	{ "TOPDOWN_RETIRING.ALL",                 0x72, 0x00, 0, 0, 0, 0, CMT,                   -1, "TOPDOWN_RETIRING:ALL", NULL, SRF_CORE },
	{ "TOPDOWN_BAD_SPECULATION.ALL",          0x73, 0x00, 0, 0, 0, 0, CMT,                   -1, "TOPDOWN_BAD_SPECULATION:ALL", NULL, SRF_CORE },
	{ "TOPDOWN_BE_BOUND.ALL",                 0x74, 0x00, 0, 0, 0, 0, CMT,                   -1, "TOPDOWN_BE_BOUND:ALL", NULL, SRF_CORE },
	{ "TOPDOWN_BE_BOUND.ALL",                 0xA4, 0x02, 0, 0, 0, 0, DKT,                   -1, "TOPDOWN_BE_BOUND:ALL", NULL, CWF_CORE },
	{ "TOPDOWN_FE_BOUND.ALL_P",               0x71, 0x00, 0, 0, 0, 0, CMT,                   -1, "TOPDOWN_FE_BOUND:ALL_P", NULL, SRF_CORE },
	{ "TOPDOWN_FE_BOUND.ALL_P",               0x9C, 0x01, 0, 0, 0, 0, DKT,                   -1, "TOPDOWN_FE_BOUND:ALL_P", NULL, CWF_CORE },
	{ "TOPDOWN_RETIRING.ALL_P",               0x72, 0x00, 0, 0, 0, 0, CMT,                   -1, "TOPDOWN_RETIRING:ALL_P", NULL, SRF_CORE },
	{ "TOPDOWN_RETIRING.ALL_P",               0xC2, 0x02, 0, 0, 0, 0, DKT,                   -1, "TOPDOWN_RETIRING:ALL_P", NULL, CWF_CORE },
	{ "TOPDOWN_BAD_SPECULATION.ALL_P",        0x73, 0x00, 0, 0, 0, 0, CMT | DKT,             -1, "TOPDOWN_BAD_SPECULATION:ALL_P", NULL, SRF_CORE },
	{ "TOPDOWN_BE_BOUND.ALL_P",               0x74, 0x00, 0, 0, 0, 0, CMT,                   -1, "TOPDOWN_BE_BOUND:ALL_P", NULL, SRF_CORE },
	{ "TOPDOWN_BE_BOUND.ALL_P",               0xA4, 0x02, 0, 0, 0, 0, DKT,                   -1, "TOPDOWN_BE_BOUND:ALL_P", NULL, CWF_CORE },
};
const unsigned intel_core_nevents = sizeof(intel_core_events) / sizeof(intel_core_events[0]);
