/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel uncore CHA counters around a copy window (config `cha = on`): the glue between the run
 * and pmu/intel_cha*.c. The platform table comes from CPUID family/model, the CHA count from
 * discovery on the MCFG buses (or `cha_count`), one CPU per package does the package's MSR work,
 * and the `cha` record carries raw counts and the PCIe / IO LLC metrics. A failure (unknown
 * platform, discovery) is a `cha` record with status "error" and an error record, never a guess.
 */
#ifndef EFIPERF_CHA_RUN_H
#define EFIPERF_CHA_RUN_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/discovery.h"
#include "efi/platform.h"

/* Returns 0, or -1 after reporting an error. Does nothing when cha = off. */
int measure_cha(const struct hw *hw, const struct platform *p, const struct discovery *d,
		const struct efiperf_config *cfg);

#endif
