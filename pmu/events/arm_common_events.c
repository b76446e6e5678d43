/* SPDX-License-Identifier: BSD-2-Clause */
/* Arm ARM (DDI 0487K.a), "The Performance Monitors Extension", "Common event numbers". */
#include "pmu/events/arm_common_events.h"

const struct arm_common_event arm_common_events[] = {
	{ "SW_INCR", 0x00 },             { "L1I_CACHE_REFILL", 0x01 },   { "L1I_TLB_REFILL", 0x02 },
	{ "L1D_CACHE_REFILL", 0x03 },    { "L1D_CACHE", 0x04 },          { "L1D_TLB_REFILL", 0x05 },
	{ "LD_RETIRED", 0x06 },          { "ST_RETIRED", 0x07 },         { "INST_RETIRED", 0x08 },
	{ "EXC_TAKEN", 0x09 },           { "EXC_RETURN", 0x0a },         { "CID_WRITE_RETIRED", 0x0b },
	{ "PC_WRITE_RETIRED", 0x0c },    { "BR_IMMED_RETIRED", 0x0d },   { "BR_RETURN_RETIRED", 0x0e },
	{ "UNALIGNED_LDST_RETIRED", 0x0f }, { "BR_MIS_PRED", 0x10 },     { "CPU_CYCLES", 0x11 },
	{ "BR_PRED", 0x12 },             { "MEM_ACCESS", 0x13 },         { "L1I_CACHE", 0x14 },
	{ "L1D_CACHE_WB", 0x15 },        { "L2D_CACHE", 0x16 },          { "L2D_CACHE_REFILL", 0x17 },
	{ "L2D_CACHE_WB", 0x18 },        { "BUS_ACCESS", 0x19 },         { "MEMORY_ERROR", 0x1a },
	{ "INST_SPEC", 0x1b },           { "TTBR_WRITE_RETIRED", 0x1c }, { "BUS_CYCLES", 0x1d },
	{ "CHAIN", 0x1e },               { "L1D_CACHE_ALLOCATE", 0x1f }, { "L2D_CACHE_ALLOCATE", 0x20 },
	{ "BR_RETIRED", 0x21 },          { "BR_MIS_PRED_RETIRED", 0x22 }, { "STALL_FRONTEND", 0x23 },
	{ "STALL_BACKEND", 0x24 },       { "L1D_TLB", 0x25 },            { "L1I_TLB", 0x26 },
	{ "L2I_CACHE", 0x27 },           { "L2I_CACHE_REFILL", 0x28 },   { "L3D_CACHE_ALLOCATE", 0x29 },
	{ "L3D_CACHE_REFILL", 0x2a },    { "L3D_CACHE", 0x2b },          { "L3D_CACHE_WB", 0x2c },
	{ "L2D_TLB_REFILL", 0x2d },      { "L2I_TLB_REFILL", 0x2e },     { "L2D_TLB", 0x2f },
	{ "L2I_TLB", 0x30 },             { "REMOTE_ACCESS", 0x31 },      { "LL_CACHE", 0x32 },
	{ "LL_CACHE_MISS", 0x33 },       { "DTLB_WALK", 0x34 },          { "ITLB_WALK", 0x35 },
	{ "LL_CACHE_RD", 0x36 },         { "LL_CACHE_MISS_RD", 0x37 },   { "REMOTE_ACCESS_RD", 0x38 },
	{ "L1D_CACHE_LMISS_RD", 0x39 },  { "OP_RETIRED", 0x3a },         { "OP_SPEC", 0x3b },
	{ "STALL", 0x3c },               { "STALL_SLOT_BACKEND", 0x3d }, { "STALL_SLOT_FRONTEND", 0x3e },
	{ "STALL_SLOT", 0x3f },
	{ "SAMPLE_POP", 0x4000 },        { "SAMPLE_FEED", 0x4001 },      { "SAMPLE_FILTRATE", 0x4002 },
	{ "SAMPLE_COLLISION", 0x4003 },  { "CNT_CYCLES", 0x4004 },       { "STALL_BACKEND_MEM", 0x4005 },
	{ "L1I_CACHE_LMISS", 0x4006 },   { "L2D_CACHE_LMISS_RD", 0x4009 }, { "L2I_CACHE_LMISS", 0x400a },
	{ "L3D_CACHE_LMISS_RD", 0x400b },
	/* Beyond the PMCEID0/1_EL0 ranges: Linux tools/perf/pmu-events/arch/arm64/common-and-microarch.json
	 * EventCode 0x8162 "Frontend stall cycles, flush recovery", the code of the Arm Telemetry
	 * Solution's neoverse-n3.json and neoverse-v3.json for it. */
	{ "STALL_FRONTEND_FLUSH", 0x8162 },
};
const unsigned arm_ncommon_events = sizeof(arm_common_events) / sizeof(arm_common_events[0]);

const struct arm_common_event *arm_common_event_find(const char *name, size_t len)
{
	for (unsigned i = 0; i < arm_ncommon_events; i++) {
		const char *a = arm_common_events[i].name;
		size_t k = 0;
		while (k < len && a[k] && a[k] == name[k])
			k++;
		if (k == len && !a[k])
			return &arm_common_events[i];
	}
	return NULL;
}

const struct arm_common_event *arm_common_event_by_code(uint16_t code)
{
	for (unsigned i = 0; i < arm_ncommon_events; i++)
		if (arm_common_events[i].code == code)
			return &arm_common_events[i];
	return NULL;
}
