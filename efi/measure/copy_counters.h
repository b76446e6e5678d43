/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The core counters on the copy windows, as one attachment (efi/measure/attach.h) of kind
 * "core_pmu": each CPU's x86 core PMU (started and stopped on its own CPU around its kernel,
 * ticked between copy chunks) and the boot CPU's fixed / Arm PMUv3 set. On x86 the boot CPU's
 * core PMU is the one driver of the Intel fixed counters, IA32_FIXED_CTR_CTRL and
 * IA32_PERF_GLOBAL_CTRL (SDM Vol.3B 20.2.2): the set's counters are taken from it after each
 * window (x86_fixed_from), not programmed a second time. Arm PMUv3 on one CPU: the set is
 * started before the barrier opens and stopped after every CPU finished; on several CPUs each
 * CPU starts and stops its own set around its kernel and it is restored on that CPU (a PSCI
 * job). With more events than counters (Arm) a pass is ngroups x COPY_MUX_ROUNDS windows, each
 * counting one group; the pass's counts are scaled by window / group running time
 * (pmu/core/core_mux.h), the running time being each window's start-to-stop time.
 *
 * After every window (read) the x86 per-CPU sets are restored on their CPU and their
 * `core_counters` / `topdown` / `ibs` records written (efi/measure/corepmu_run.h); after the
 * last window of a pass the Arm per-CPU sets' `core_counters` records, and the boot CPU's set
 * is kept for the copy's own record (copy_core_out.pass_set).
 */
#ifndef EFIPERF_COPY_COUNTERS_H
#define EFIPERF_COPY_COUNTERS_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"
#include "efi/measure/copy_run.h"

/* Arm PMUv3 with more events than counters: each group runs this many copy windows a pass. */
#define COPY_MUX_ROUNDS 2

struct copy_counters;

/* The counters for req's CPUs and passes: sets req->windows, tick, tick_ctx, counters and core.
 * Probes each AP's x86 core PMU on its CPU (corepmu_setup_on; a CPU that cannot is counted
 * without). NULL when the pool is short (an error record says so). */
struct copy_counters *copy_counters_new(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
					struct copy_request *req);
/* Frees the APs' core PMU states and the sets (the registers were restored by the run). */
void copy_counters_free(struct copy_counters *c);

#endif
