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

/* CLIDR_EL1 Ctype of `level` (1..7): 0 none, 1 instruction, 2 data, 3 separate, 4 unified
 * (Arm ARM D23.2 CLIDR_EL1). */
uint32_t arm_clidr_ctype(uint64_t clidr, uint32_t level);

/* One CCSIDR_EL1 value (ccidx: FEAT_CCIDX's 64-bit layout) as the cache of `level` and type t
 * into *c: line bytes, ways, sets, bytes (Arm ARM D23.2 CCSIDR_EL1). */
void arm_ccsidr_decode(uint64_t ccsidr, int ccidx, uint32_t level, enum cache_type t, struct cache_desc *c);

/* The caches of this CPU into ci->cache: CLIDR_EL1 names the levels, CSSELR_EL1 selects each
 * cache and CCSIDR_EL1 gives its geometry. CSSELR_EL1 is read first and written back after;
 * a faulting access stops the walk (ci->cache_source stays NULL when nothing was read). */
void arm_caches(const struct hw *hw, struct cpu_info *ci);

/* Names for MIDR_EL1 fields: NULL when not in the tables. */
const char *arm_implementer_name(uint32_t implementer);
const char *arm_part_name(uint32_t implementer, uint32_t partnum);

#endif
