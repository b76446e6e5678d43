/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aarch64 cpu_info through the hardware interface only (no asm, no EFI headers), so it runs
 * on the register model in host tests (files ending _pure.c are built there too).
 */
#ifndef EFIPERF_AARCH64_CPUINFO_PURE_H
#define EFIPERF_AARCH64_CPUINFO_PURE_H

#include <stdint.h>
#include "arch/hw.h"
#include "arch/cpuinfo.h"

/* Fill ci from MIDR_EL1, CurrentEL, CNTFRQ_EL0, ID_AA64DFR0_EL1 and the PMUv3 probe. */
void arm_cpu_info(const struct hw *hw, struct cpu_info *ci);

/* Names for MIDR_EL1 fields: NULL when not in the tables. */
const char *arm_implementer_name(uint32_t implementer);
const char *arm_part_name(uint32_t implementer, uint32_t partnum);

#endif
