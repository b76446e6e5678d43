/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The health attachments (efi/measure/health_run.h) for a measurement's window, in three
 * calls, so that any measurement adds a `health` object to its record with a few lines:
 *
 *   struct health_run *h = health_window_begin(hw, p, cfg, devs, ndev);   (before snapshots)
 *   spec.counters = health_counters(h);            optional: per-CPU APERF/MPERF
 *   ... the window ...
 *   health_window_end(h);                           (after snapshots, deltas)
 *   health_json(j, h, why);                         in the record (efi/out/health_json.h)
 *   health_window_free(h);
 *
 * devs: the window's PCIe devices; each one's path up to its Root Port (dma_window_link) is
 * followed. The state comes from the pool (NULL without memory: every call takes NULL and the
 * record says why).
 */
#ifndef EFIPERF_HEALTH_WINDOW_H
#define EFIPERF_HEALTH_WINDOW_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"
#include "efi/measure/health_run.h"

struct health_run *health_window_begin(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
				       const struct hw_pci_addr *devs, int ndev);
void health_window_end(struct health_run *h);
void health_window_free(struct health_run *h);

#endif
