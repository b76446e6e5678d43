/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The run plan's hardware checks, called once after discovery and before the first window:
 * the PCI functions named by dma_engine, mmio_bdf/mmio_bar and nvme (efi/measure/plan_check.h),
 * the Block IO disks of dma_blockio and dma_write_lba (blockio_plan_check), the CPUs of
 * dma_cpu_traffic (dma_cpu_plan_check), then the NVMe controllers' limits (nvme_plan_check:
 * CAP.MQES, LBA size, last block, the boot disk). (cpus, core_events and cha_events are resolved by
 * cpus_init, corepmu_setup and cha_run_plan, also before the first window.)
 */
#ifndef EFIPERF_RUN_PLAN_H
#define EFIPERF_RUN_PLAN_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"

/* Each bad value is an `error` record (where "config") naming where the key was set (file:line
 * or argument N), the key and what is wrong. Returns 0, or -1 when any was found: nothing may
 * be measured then. image: efiperf's EFI_HANDLE (the boot disk is refused as a write target). */
int run_plan_check(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, void *image);

#endif
