/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cache_bw (config `cache_bw = on`): the load (read), store (write), copy and triad kernels at
 * working sets inside each cache level the CPU reports (arch/cpuinfo.h: half the level's size per
 * array set, and for a shared level half its size split over the selected CPUs sharing it) and in
 * DRAM (cache_bw_dram bytes per array, default 4 x the last level, at least 64 MiB): first on the
 * first selected CPU alone, then on every selected CPU at once. Each kernel runs
 * cache_bw_passes passes over arrays that stay where they are (warm); the best pass counts.
 * One `cache_bw` record per level: sizes, and per kernel the GB/s of the one CPU, of all CPUs
 * together and of each CPU, with both windows' quietness.
 */
#ifndef EFIPERF_CACHE_BW_H
#define EFIPERF_CACHE_BW_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"

/* The request (levels, selected CPUs), cache_bw_measure (efi/measure/cache_bw_run.h) on the
 * firmware's windows with node memory and the tuner, then cache_bw_record (efi/out/cache_bw_out.h).
 * Returns 0, or -1 after an error record (allocation, a kernel that did not run). */
int measure_cache_bw(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg);

#endif
