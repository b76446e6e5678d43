/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the tuner needs to know about this aarch64 CPU (arch/kernel_tune.h): the CPU class is
 * MIDR_EL1's implementer and part number (Arm ARM D19.2 MIDR_EL1: big.LITTLE cores differ
 * there); the last-level cache size is not read (it needs CSSELR_EL1 writes per level):
 * 0, unknown, and the record says so.
 */
#include "arch/kernel_tune.h"
#include "arch/aarch64/sysreg.h"

uint64_t arch_llc_bytes(const struct hw *hw)
{
	(void)hw;
	return 0;
}

uint32_t arch_cpu_class(void)
{
	uint64_t midr = 0;
	arm_sysreg_rd_MIDR_EL1(&midr);
	return (uint32_t)(((midr >> MIDR_EL1_IMPLEMENTER_SHIFT) & MIDR_EL1_IMPLEMENTER_MASK) << 12 |
			  ((midr >> MIDR_EL1_PARTNUM_SHIFT) & MIDR_EL1_PARTNUM_MASK));
}
