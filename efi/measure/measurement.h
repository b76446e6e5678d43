/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The run as data: a run plan built once after discovery, and a table of measurements run in
 * order over it (efi/main.c run_table[], the way memtest86+ lists its tests in test_list[]).
 *
 *   plan_build(...)      every key naming hardware resolved and checked before the first
 *                        window (efi/measure/run_plan.h); a bad value is a config error naming
 *                        file, line and key, and nothing is measured
 *   run_table[i]         { name, enabled(plan), run(plan) }: run only when enabled; a failure
 *                        is an error record and the next row still runs
 *
 * A row's run returns 0, or -1 after reporting errors (efi/measure/shape.h: run -> result ->
 * record; the rows whose measurement has a typed request take it from the plan).
 */
#ifndef EFIPERF_MEASUREMENT_H
#define EFIPERF_MEASUREMENT_H

#include <stdint.h>
#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"
#include "efi/measure/window.h"
#include "efi/measure/nvme_run.h"
#include "efi/measure/uncore_disc.h"
#include "efi/measure/dma_window.h"

/* What the run plan decided, built once by plan_build and read-only after it. */
struct run_plan {
	const struct hw *hw;
	struct platform *p;
	const struct efiperf_config *cfg;
	void *image;                       /* efiperf's EFI_HANDLE */
	struct window_cpu *cpus;           /* the `cpus` selection (efi/cpus.h), ncpus entries */
	int ncpus;
	const struct check *checks;        /* the `check` list (efi/verdict/check.h), nchecks entries */
	int nchecks;
	struct nvme_request nvme;          /* the NVMe measurement's request (efi/measure/nvme_run.h) */
	struct dma_plan *dma;              /* what DMA windows run under: buses, CHA, IIO, CoreSight
					    * (efi/measure/dma_window.h; pool, the uncore pass adds to it) */
	struct uncore_scan *uncore;        /* Intel uncore: the PCI scan and discovery tables, filled
					    * by the uncore plan row, freed by measure_uncore (pool) */
};

struct measurement {
	const char *name;
	int (*enabled)(const struct run_plan *plan);   /* NULL: always (the run returns at once when off) */
	int (*run)(const struct run_plan *plan);
};

#endif
