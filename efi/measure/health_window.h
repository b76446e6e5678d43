/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * (Implemented in efi/measure/dma_window.c, beside the link walk it uses.)
 * The firmware's part of a window's health attachments (efi/measure/health_run.h): what a run
 * cannot know over struct hw alone. A measurement's run then begins and ends them around its
 * window (health_begin, health_counters, health_end) into its result, and its record writer
 * adds the `health` object (efi/out/health_json.h).
 */
#ifndef EFIPERF_HEALTH_WINDOW_H
#define EFIPERF_HEALTH_WINDOW_H

#include "arch/hw.h"
#include "efi/platform.h"
#include "efi/measure/health_run.h"

/* o for a window over devs[0..ndev) (its PCIe devices, none for a CPU window): each device's
 * path up to its Root Port (dma_window_link over dp's buses; dp NULL when ndev is 0), aer_clear, the timer (arch_timer_read at
 * p->timer_hz) and the run's baselines (pool memory on first use; without it every window is
 * against its own start). o is zeroed first. */
struct dma_plan;
void health_window_opts(const struct hw *hw, const struct platform *p, const struct dma_plan *dp, int aer_clear,
			const struct hw_pci_addr *devs, int ndev, struct health_opts *o);

#endif
