/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86 core PMU around the copy windows: the glue between the run and
 * pmu/x86_corepmu*.c. corepmu_setup() probes the boot CPU (CPUID: Intel architectural perfmon
 * with its TopDown variant, or AMD core counters and IBS), writes the `corepmu` record with what
 * the CPU lacks, and applies core_events / topdown / ibs. The copy kernel calls
 * corepmu_run_tick() between chunks (IBS polling, TopDown resets); after each window the
 * `core_counters`, `topdown` and `ibs` records are written, one set per CPU of the window.
 */
#ifndef EFIPERF_COREPMU_RUN_H
#define EFIPERF_COREPMU_RUN_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "pmu/core/x86_corepmu.h"
#include "efi/measure/attach.h"

/* NULL on a CPU without CPUID (aarch64) or when nothing was asked and nothing probed usable;
 * otherwise pool memory owned by the caller. A configuration error (core_events, topdown, ibs
 * this CPU cannot do) is reported as a `config` error naming where core_events was set and
 * the field, sets *config_error and returns NULL: the run ends before any window. */
struct corepmu *corepmu_setup(const struct hw *hw, const struct efiperf_config *cfg, uint64_t timer_hz,
			      int *config_error);

/* The same for another CPU: probed and configured on `cpu` (MP services number) through
 * hw_run_on_cpu, as boot's settings say. NULL when it cannot be (reported). */
struct corepmu *corepmu_setup_on(const struct hw *hw, const struct efiperf_config *cfg, uint64_t timer_hz,
				 uint32_t cpu);

/* The boot CPU's core PMU with `events` (perf-style names, space-separated) alone, no record
 * written: for a measurement's own evidence counters. NULL with why (n bytes) when the CPU has
 * no x86 core PMU or cannot count them (the configure error). Pool memory owned by the caller. */
struct corepmu *corepmu_setup_events(const struct hw *hw, uint64_t timer_hz, const char *events, char *why, size_t n);

/* Window hooks: each runs on the CPU the corepmu belongs to. */
void corepmu_run_start(const struct hw *hw, struct corepmu *cp);
void corepmu_run_tick(const struct hw *hw, struct corepmu *cp);
void corepmu_run_stop(const struct hw *hw, struct corepmu *cp);
/* Restore the registers on `cpu` (through hw_run_on_cpu), then write the records of this window
 * (kernel name, pass, cpu). */
void corepmu_run_report(const struct hw *hw, struct corepmu *cp, uint32_t cpu, const char *kernel, uint32_t pass);
/* Restore only (error paths). */
void corepmu_run_restore(const struct hw *hw, struct corepmu *cp, uint32_t cpu);
/* The records only (after the restore): core_counters, topdown, ibs. */
void corepmu_run_records(struct corepmu *cp, uint32_t cpu, const char *kernel, uint32_t pass);

/* The core PMU of the CPU that drives a window's traffic as its attachment (kind "core_pmu",
 * efi/measure/attach.h): started before the first slice, stopped after the last (a sliced window
 * counts once over all of it), restored on `cpu`; records with corepmu_run_records after. */
struct corepmu_attach {
	struct corepmu *cp;
	uint32_t cpu;
	int started;
};
extern const struct attachment_ops corepmu_attach_ops;

#endif
