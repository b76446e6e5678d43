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

#define AMD_MAX_COUNTERS 16

struct amd_core {
	const char *layout;         /* "PerfMonV2", "PerfCtrExtCore", "legacy" */
	uint8_t v2, perfctr_core, ncounters;
	uint32_t ctl_base, ctr_base, stride;
	int nused, nhw;
	struct x86_ctr c[AMD_MAX_COUNTERS];
	uint64_t global_orig, global_ours;
	int programmed;
};

/* CPUID 8000_0001 / 8000_0022. */
void amd_core_probe(const struct hw *hw, struct amd_core *ac);
/* Add an event (field bits from x86_event_parse); absent with a reason when no counter is
 * free. Returns its index, -1 when the list is full. */
int amd_core_add(struct amd_core *ac, const char *name, uint64_t config);
/* Save + program (PerfMonV2: globally disabled while programming), first read, enable. */
hw_status amd_core_start(const struct hw *hw, struct amd_core *ac, struct saveset *sv);
void amd_core_read(const struct hw *hw, struct amd_core *ac);
/* Disable ours (PerfCntrGlobalCtl or each CTL back to its saved value), last read, states. */
hw_status amd_core_stop(const struct hw *hw, struct amd_core *ac, const struct saveset *sv);

#endif
