/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Named Intel core events efiperf knows: the architectural ones (SDM Vol.3B Table 20-1, with
 * the CPUID.0AH:EBX bit that marks each unavailable) and the model-specific ones TopDown needs
 * (reference §5.1: kernel arch/x86/events/intel/core.c topdown aliases, likwid event files).
 * The `pfm` column is libpfm4's spelling of the same event: tests/unit/test_core_pfm.c encodes
 * every row with libpfm4 (PMU models snb/hsw/bdw, skl, icl by generation) and requires the
 * same register value. Where sources disagree, libpfm4 (the oracle) decides: e.g. INT_MISC.
 * RECOVERY_CYCLES is 0x0D/0x03 cmask=1 on SNB..BDW and 0x0D/0x01 from Skylake (reference §7.5).
 */
#include "pmu/core/x86_event.h"

#define ARCH X86_GEN_ARCH
#define SNB X86_GEN_SNB
#define SKL X86_GEN_SKL
#define ICL X86_GEN_ICL

const struct x86_named_event intel_core_events[] = {
	/* name                                   ev    umask cmask inv edge any gens        arch pfm */
	{ "CPU_CLK_UNHALTED.THREAD_P",            0x3C, 0x00, 0, 0, 0, 0, ARCH,             0, "CPU_CLK_UNHALTED:THREAD_P", NULL },
	{ "INST_RETIRED.ANY_P",                   0xC0, 0x00, 0, 0, 0, 0, ARCH,             1, "INST_RETIRED:ANY_P", NULL },
	{ "CPU_CLK_UNHALTED.REF_XCLK",            0x3C, 0x01, 0, 0, 0, 0, ARCH,             2, "CPU_CLK_UNHALTED:REF_XCLK", NULL },
	{ "LONGEST_LAT_CACHE.REFERENCE",          0x2E, 0x4F, 0, 0, 0, 0, SKL,              3, "LONGEST_LAT_CACHE:REFERENCE", NULL },
	{ "LONGEST_LAT_CACHE.MISS",               0x2E, 0x41, 0, 0, 0, 0, SKL | ICL,        4, "LONGEST_LAT_CACHE:MISS", NULL },
	{ "BR_INST_RETIRED.ALL_BRANCHES",         0xC4, 0x00, 0, 0, 0, 0, ARCH,             5, "BR_INST_RETIRED:ALL_BRANCHES", NULL },
	{ "BR_MISP_RETIRED.ALL_BRANCHES",         0xC5, 0x00, 0, 0, 0, 0, ARCH,             6, "BR_MISP_RETIRED:ALL_BRANCHES", NULL },
	{ "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE",    0x3C, 0x02, 0, 0, 0, 0, SNB | SKL | ICL, -1, "CPU_CLK_UNHALTED:ONE_THREAD_ACTIVE", NULL },
	{ "CPU_CLK_UNHALTED.THREAD_ANY",          0x3C, 0x00, 0, 0, 0, 1, SNB | SKL,       -1, "CPU_CLK_UNHALTED:THREAD_P:t=1", NULL },
	/* TopDown level 1 with general counters (reference §5.1) */
	{ "UOPS_ISSUED.ANY",                      0x0E, 0x01, 0, 0, 0, 0, SNB | SKL | ICL, -1, "UOPS_ISSUED:ANY", NULL },
	{ "UOPS_RETIRED.RETIRE_SLOTS",            0xC2, 0x02, 0, 0, 0, 0, SNB | SKL,       -1, "UOPS_RETIRED:RETIRE_SLOTS", NULL },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE",          0x9C, 0x01, 0, 0, 0, 0, SNB | SKL | ICL, -1, "IDQ_UOPS_NOT_DELIVERED:CORE", NULL },
	{ "INT_MISC.RECOVERY_CYCLES",             0x0D, 0x03, 1, 0, 0, 0, SNB,             -1, "INT_MISC:RECOVERY_CYCLES", NULL },
	{ "INT_MISC.RECOVERY_CYCLES_ANY",         0x0D, 0x03, 1, 0, 0, 1, SNB,             -1, "INT_MISC:RECOVERY_CYCLES_ANY", NULL },
	{ "INT_MISC.RECOVERY_CYCLES",             0x0D, 0x01, 0, 0, 0, 0, SKL | ICL,       -1, "INT_MISC:RECOVERY_CYCLES", NULL },
	{ "INT_MISC.RECOVERY_CYCLES_ANY",         0x0D, 0x01, 0, 0, 0, 1, SKL,             -1, "INT_MISC:RECOVERY_CYCLES_ANY", NULL },
	/* Ice Lake+ siblings used by the pmu-tools corrections (reference §4.6) */
	{ "UOPS_RETIRED.SLOTS",                   0xC2, 0x02, 0, 0, 0, 0, ICL,             -1, "UOPS_RETIRED:SLOTS", NULL },
	{ "INT_MISC.UOP_DROPPING",                0x0D, 0x10, 0, 0, 0, 0, ICL,             -1, "INT_MISC:UOP_DROPPING", NULL },
	{ "INT_MISC.CLEARS_COUNT",                0x0D, 0x01, 1, 0, 1, 0, ICL,             -1, "INT_MISC:CLEARS_COUNT", NULL },
	{ "TOPDOWN.SLOTS_P",                      0xA4, 0x01, 0, 0, 0, 0, ICL,             -1, "TOPDOWN:SLOTS_P", NULL },
	/* memory-bound helpers */
	{ "MEM_LOAD_RETIRED.L3_MISS",             0xD1, 0x20, 0, 0, 0, 0, SKL | ICL,       -1, "MEM_LOAD_RETIRED:L3_MISS", NULL },
	{ "CYCLE_ACTIVITY.STALLS_MEM_ANY",        0xA3, 0x14, 20, 0, 0, 0, SKL | ICL,      -1, "CYCLE_ACTIVITY:STALLS_MEM_ANY", NULL },
};
const unsigned intel_core_nevents = sizeof(intel_core_events) / sizeof(intel_core_events[0]);
