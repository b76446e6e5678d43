/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel uncore CHA counters around measurement windows (config `cha = on`): the glue between the
 * run and pmu/uncore/intel_cha*.c. The platform table comes from CPUID family/model, the CHA
 * count from discovery on the MCFG buses (or `cha_count`), one CPU per package does the
 * package's MSR work, and each window's `cha` record carries its kernel, raw counts, the PCIe /
 * IO LLC metrics and the self-check against the bytes the window moved (pmu/self_check.h).
 *
 * One plan per run (cha_run_plan, a step of plan_build, into the DMA plan: efi/measure/dma_window.h);
 * any window runs under it with cha_run_window or cha_run_attach: the copy (measure_cha), Block
 * IO, the DMA engine, MMIO, NVMe queues.
 */
#ifndef EFIPERF_CHA_RUN_H
#define EFIPERF_CHA_RUN_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/discovery.h"
#include "efi/platform.h"
#include "pmu/self_check.h"
#include "pmu/uncore/intel_cha.h"

struct cha_plan;
struct dma_plan;

/* The CHA part of the run plan, before anything is measured, into *out (pool memory). cha =
 * off: nothing (*out stays NULL). Otherwise the
 * platform is chosen and `cha_events` parsed with the measurement's own parser: a bad event is a
 * config error naming where it was set (file:line or argument) and returns -1 (the run ends).
 * A platform without a CHA table or a failed CHA discovery is the `cha` error record, reported
 * once; the windows then run without CHA and say why in their self_check. Returns 0 (-1 also
 * when the plan itself cannot be allocated). */
int cha_run_plan(const struct hw *hw, const struct platform *p, const struct discovery *d,
		 const struct efiperf_config *cfg, struct cha_plan **out);

/* Run `window` (slice 0 .. n-1, see cha_window_fn) under the CHA counters of plan (NULL: cha =
 * off); without them (cha = off, or a failed plan) it runs once as slice 0 of 1. With counters, writes the window's
 * `cha` record (kernel, ..., self_check). expected: the bytes the window moved (read after it
 * ran; NULL or zero: no_dma_why says why nothing is compared). *sc: the self-check (state
 * absent without counters). Returns 0, or -1 after reporting an error (the window runs
 * all its slices also when the counters failed). */
int cha_run_window(const struct hw *hw, const struct cha_plan *plan, const char *kernel, cha_window_fn window,
		   void *arg, const struct self_check_bytes *expected, const char *no_dma_why, struct self_check *sc);

struct cha_attach;
struct attachment;

/* The CHA set of plan (NULL: cha = off) as an attachment of a window (efi/measure/box_attach.h; c and a the
 * caller's, alive until the window's list is restored): 1 when the plan is ready; 0 when not
 * (cha = off, or a failed plan): then cha_run_unattached gives the window's self_check after
 * it ran. expected and no_dma_why as for cha_run_window. */
int cha_run_attach(const struct cha_plan *plan, const struct self_check_bytes *expected, const char *no_dma_why,
		   struct cha_attach *c, struct attachment *a);
/* *sc absent with the plan's why (cha = off, or why the plan failed), against *expected as the
 * window left it: call after the window. */
void cha_run_unattached(const struct cha_plan *plan, const struct self_check_bytes *expected, struct self_check *sc);

/* After the window's list was restored: the window's `cha` record (kernel, counts, metrics,
 * self_check), its console lines and errors; *sc = the attachment's self-check. 0, or -1 after
 * reporting the counters' error. */
int cha_run_report(const char *kernel, const struct cha_attach *c, struct self_check *sc);

/* The copy window under the CHA counters (its self_check is absent: a memory copy moves no
 * PCIe bytes). Does nothing when cha = off. Returns 0, or -1 after reporting an error. */
int measure_cha(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		const struct dma_plan *dp);

#endif
