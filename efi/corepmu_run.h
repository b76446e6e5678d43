/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86 core PMU around the copy windows (issue 5): the glue between the run and
 * pmu/x86_corepmu*.c. corepmu_setup() probes the boot CPU (CPUID: Intel architectural perfmon
 * with its TopDown variant, or AMD core counters and IBS), writes the `corepmu` record with what
 * the CPU lacks, and applies core_events / topdown / ibs. The copy kernel calls
 * corepmu_run_tick() between chunks (IBS polling, TopDown resets); after each window the
 * `core_counters`, `topdown` and `ibs` records are written. Boot CPU only in this version.
 */
#ifndef EFIPERF_COREPMU_RUN_H
#define EFIPERF_COREPMU_RUN_H

#include "arch/hw.h"
#include "efi/config.h"
#include "pmu/x86_corepmu.h"

/* NULL on a CPU without CPUID (aarch64) or when nothing was asked and nothing probed usable;
 * otherwise pool memory owned by the caller. A configuration error is reported (error record
 * naming the key and field) and returns NULL. */
struct corepmu *corepmu_setup(const struct hw *hw, const struct efiperf_config *cfg, uint64_t timer_hz);

/* Window hooks (boot CPU). */
void corepmu_run_start(const struct hw *hw, struct corepmu *cp);
void corepmu_run_tick(const struct hw *hw, struct corepmu *cp);
void corepmu_run_stop(const struct hw *hw, struct corepmu *cp);
/* Restore the registers, then write the records of this window (kernel name, pass). */
void corepmu_run_report(const struct hw *hw, struct corepmu *cp, const char *kernel, uint32_t pass);

#endif
