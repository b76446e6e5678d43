/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The run plan (efi/measure/measurement.h struct run_plan), built once after discovery and
 * before the first window, in steps:
 *   1. the selection of `cpus` (resolved by cpus_init) and the `check` list
 *   2. the DMA windows' plan (efi/measure/dma_window.h struct dma_plan: the MCFG buses of the
 *      link walk, uncore = on for the CoreSight PMUs, the CHA counter plan, cha_run_plan; the
 *      uncore pass adds the IIO plan and the APMT companions), c2c's pairs (c2c_plan), loaded
 *      latency's delays (loaded_latency_plan)
 *   3. the hardware checks: the PCI functions named by dma_engine, mmio_bdf/mmio_bar and nvme
 *      (efi/measure/plan_check.h), the Block IO disks of dma_blockio and dma_write_lba
 *      (blockio_plan_check), the CPUs of dma_cpu_traffic (dma_cpu_plan_check), uncore_events
 *   4. the NVMe request (nvme_plan: the controllers and their limits, CAP.MQES, LBA size, last
 *      block, the boot disk)
 * (core_events are resolved by corepmu_setup, also before the first window.)
 */
#ifndef EFIPERF_RUN_PLAN_H
#define EFIPERF_RUN_PLAN_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/discovery.h"
#include "efi/platform.h"
#include "efi/measure/measurement.h"

/* Build the plan into *plan (plan->cpus: pool memory, kept for the run). Each bad value is an
 * `error` record (where "config") naming where the key was set (file:line or argument N), the
 * key and what is wrong. Returns 0, or -1 when any was found: nothing may be measured then.
 * image: efiperf's EFI_HANDLE (the boot disk is refused as a write target). between: called
 * after steps 2 and 4 (the hw trace is written there), may be NULL. */
int plan_build(struct run_plan *plan, const struct hw *hw, struct platform *p, const struct discovery *d,
	       const struct efiperf_config *cfg, void *image, void (*between)(void));

#endif
