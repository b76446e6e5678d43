/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Uncore boxes beyond the CHA around a copy window (config `uncore = on|force`,
 * `uncore_events`): today AMD amd_df, amd_l3 and amd_umc (pmu/uncore/amd_uncore.h). Each box
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

/* Returns 0, or -1 after reporting an error. Does nothing when uncore = off. */
int measure_uncore(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg);

#endif
