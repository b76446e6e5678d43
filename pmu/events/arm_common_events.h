/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Arm PMUv3 common architectural and microarchitectural events, by name and number, as
 * the Arm Architecture Reference Manual for A-profile (DDI 0487K.a) lists them in chapter
 * "The Performance Monitors Extension", section "Common event numbers" (events 0x0000-0x003F
 * and 0x4000-0x403F are the ones PMCEID0_EL0/PMCEID1_EL0 report), and STALL_FRONTEND_FLUSH
 * (0x8162, which no PMCEID bit reports; the Neoverse N3/V3 TopDown input). Names as the Arm ARM
 * and Linux's perf (tools/perf/pmu-events/arch/arm64/common-and-microarch.json) spell them.
 */
#ifndef EFIPERF_ARM_COMMON_EVENTS_H
#define EFIPERF_ARM_COMMON_EVENTS_H

#include <stddef.h>
#include <stdint.h>

struct arm_common_event {
	const char *name;
	uint16_t code;
};

extern const struct arm_common_event arm_common_events[];
extern const unsigned arm_ncommon_events;

/* By name (len bytes, exact case), or NULL. */
const struct arm_common_event *arm_common_event_find(const char *name, size_t len);
/* By number, or NULL. */
const struct arm_common_event *arm_common_event_by_code(uint16_t code);

#endif
