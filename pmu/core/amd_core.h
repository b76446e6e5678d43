/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AMD core performance counters (AMD APM Vol.2 section 13.2): the counter layout is chosen
 * from CPUID by a table, first row whose feature holds:
 *   PerfMonV2 (CPUID 8000_0022:EAX[0]): NumPerfCtrCore (EBX[3:0]) counters at PERF_CTL/CTR
 *       0xC0010200 + 2i, plus PerfCntrGlobalCtl (a counter counts only when its CTL.EN and its
 *       global enable bit are set, Linux arch/x86/events/amd/core.c);
 *   PerfCtrExtCore (CPUID 8000_0001:ECX[23]): 6 counters, same interleaved MSRs;
 *   legacy: 4 counters, PerfEvtSel0-3 at 0xC0010000, PerfCtr0-3 at 0xC0010004.
 * Counters are 48 bits wide (Linux arch/x86/events/amd/core.c cntval_bits). INT (PMI) is
 * never set: efiperf polls.
 * HostOnly/GuestOnly are written as the event string asks; with SVM off their effect is
 * disputed: Linux arch/x86/events/amd/core.c masks HostOnly, a KVM selftest
 * (tools/testing/selftests/kvm) says it is ignored.
 */
#ifndef EFIPERF_AMD_CORE_H
#define EFIPERF_AMD_CORE_H

#include "pmu/core/x86_ctr.h"

#define AMD_MAX_COUNTERS 16   /* core counters efiperf uses at most */

struct amd_core {
	const char *layout;         /* "PerfMonV2", "PerfCtrExtCore", "legacy" */
	uint8_t v2, perfctr_core, ncounters;
	uint32_t ctl_base, ctr_base, stride;
	int nused, nhw;             /* entries in c[]; counters assigned (highest slot + 1) */
	struct x86_ctr c[X86_MAX_EVENTS];   /* several groups may share a counter (pmu/core/x86_mux.h) */
	uint64_t global_orig, global_ours;
	int programmed;
	uint8_t cur;                /* multiplexed group programmed now (pmu/core/x86_mux.h) */
};

/* CPUID 8000_0001 / 8000_0022. */
void amd_core_probe(const struct hw *hw, struct amd_core *ac);
/* Add an event (field bits from x86_event_parse); absent with a reason when no counter is
 * free. Returns its index, -1 when the list is full. */
int amd_core_add(struct amd_core *ac, const char *name, uint64_t config);
/* Add an event of multiplexed group `group` (X86_PINNED: every group) on core counter slot
 * (< ncounters; the caller packs the groups); its index, -1 when c[] is full. */
int amd_core_add_on(struct amd_core *ac, const char *name, uint64_t config, int slot, uint8_t group);
/* Save + program (PerfMonV2: globally disabled while programming), first read, enable. */
hw_status amd_core_start(const struct hw *hw, struct amd_core *ac, struct saveset *sv);
/* Read the running group's counters (and the pinned ones) and accumulate. */
void amd_core_read(const struct hw *hw, struct amd_core *ac);
/* Switch from group ac->cur to `next` (pmu/core/x86_mux.h): each of the group's PERF_CTL with EN
 * off (APM Vol.2 13.2.1: a counter counts only while its EN is set), its counter read and
 * added; each PERF_CTL of group next written with EN (through sv: saved at start) and its
 * baseline read. A failed access marks the counter it concerns faulted; the switch stands. */
hw_status amd_core_rotate(const struct hw *hw, struct amd_core *ac, struct saveset *sv, uint8_t next);
/* Disable ours (PerfCntrGlobalCtl or each CTL back to its saved value), last read, states. */
hw_status amd_core_stop(const struct hw *hw, struct amd_core *ac, const struct saveset *sv);

#endif
