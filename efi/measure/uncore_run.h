/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Uncore boxes beyond the CHA around a copy window (config `uncore = on|force`,
 * `uncore_events`): AMD amd_df, amd_l3 and amd_umc (pmu/uncore/amd_uncore.h); Intel SKX/CLX,
 * ICX, and SPR/EMR/GNR (units from the uncore discovery table: efi/measure/uncore_disc.h)
 * uncore_imc (DRAM CAS per channel: PCI or MMIO) and uncore_iio (per stack and part, with an
 * `uncore_iio_map` record per socket: the stack -> bus map, its source and its defects against
 * the scanned PCI tree) (pmu/uncore/intel_uncore.h). An Intel IMC not found in configuration
 * space is a record with status "absent" naming the functions looked for. Each box
 * type CPUID reports (force: also the absent ones) is programmed from one CPU per socket (DF,
 * UMC) or the boot CPU's CCX (L3), the copy runs, and one `uncore` record per box type per
 * socket carries raw counts, metrics, formulas, the self-check and the restore. A box not
 * measured is a record with status "absent" / "off" and why.
 */
#ifndef EFIPERF_UNCORE_RUN_H
#define EFIPERF_UNCORE_RUN_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"
#include "efi/measure/uncore_disc.h"

/* Intel: scan PCI segment 0 buses 00-ff for the IMC functions and the IIO map (before the
 * window steps, so a hw trace of them stays apart). 0, or -1 after reporting. Does nothing when
 * uncore = off or the CPU is not an Intel platform of the table. The scan goes into *sc (the
 * run plan's, zeroed by plan_build). */
int uncore_run_plan(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		    struct uncore_scan *sc);
/* Returns 0, or -1 after reporting an error. Does nothing when uncore = off. Scans into *sc
 * when uncore_run_plan did not; frees the scan and the discovery tables at the end. The DMA
 * windows' IIO plan and the APMT companions go into *dp (efi/measure/dma_window.h). */
struct dma_plan;
int measure_uncore(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		   struct uncore_scan *sc, struct dma_plan *dp);

#endif
