/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The system registers arch_cpu_ops can read and write on aarch64.
 *
 * MRS/MSR take the register as an immediate (Arm ARM C6.2 MRS, MSR (register)), so there is
 * one small read and one small write function per register, generated from this list in
 * arch/aarch64/sysreg_acc.S (each emitted with .inst from the SYSREG_ encoding in
 * pmu/arm_sysreg.h) and looked up by encoding in arch/aarch64/cpu_ops.c. Every MRS and MSR
 * has an arch_fixups[] entry: a register the CPU does not implement, or a write to a
 * read-only one, raises an UNDEFINED synchronous exception (Arm ARM D1, "Exception
 * entry"; each register's "Accessing" pseudocode) that returns HW_FAULT_SYNC instead.
 *
 * Included by C and by assembly.
 */
#ifndef EFIPERF_AARCH64_SYSREG_H
#define EFIPERF_AARCH64_SYSREG_H

#include "arch/regs/arm_sysreg.h"

#define ARM_SYSREG_ACCESSORS(X) \
	X(MIDR_EL1) X(MPIDR_EL1) X(REVIDR_EL1) X(ID_AA64PFR0_EL1) X(ID_AA64DFR0_EL1) \
	X(CurrentEL) X(ID_AA64MMFR2_EL1) X(CLIDR_EL1) X(CCSIDR_EL1) X(CSSELR_EL1) \
	X(CPACR_EL1) X(CPTR_EL2) X(HCR_EL2) X(ZCR_EL1) X(ZCR_EL2) \
	X(MDCR_EL2) X(PMMIR_EL1) \
	X(PMCR_EL0) X(PMCNTENSET_EL0) X(PMCNTENCLR_EL0) X(PMOVSCLR_EL0) X(PMOVSSET_EL0) \
	X(PMSWINC_EL0) X(PMSELR_EL0) X(PMCEID0_EL0) X(PMCEID1_EL0) X(PMCCNTR_EL0) \
	X(PMXEVTYPER_EL0) X(PMXEVCNTR_EL0) X(PMUSERENR_EL0) X(PMINTENSET_EL1) \
	X(PMINTENCLR_EL1) X(PMCCFILTR_EL0) \
	X(PMEVCNTR0_EL0) X(PMEVCNTR1_EL0) X(PMEVCNTR2_EL0) X(PMEVCNTR3_EL0) X(PMEVCNTR4_EL0) X(PMEVCNTR5_EL0) \
	X(PMEVCNTR6_EL0) X(PMEVCNTR7_EL0) X(PMEVCNTR8_EL0) X(PMEVCNTR9_EL0) X(PMEVCNTR10_EL0) X(PMEVCNTR11_EL0) \
	X(PMEVCNTR12_EL0) X(PMEVCNTR13_EL0) X(PMEVCNTR14_EL0) X(PMEVCNTR15_EL0) X(PMEVCNTR16_EL0) X(PMEVCNTR17_EL0) \
	X(PMEVCNTR18_EL0) X(PMEVCNTR19_EL0) X(PMEVCNTR20_EL0) X(PMEVCNTR21_EL0) X(PMEVCNTR22_EL0) X(PMEVCNTR23_EL0) \
	X(PMEVCNTR24_EL0) X(PMEVCNTR25_EL0) X(PMEVCNTR26_EL0) X(PMEVCNTR27_EL0) X(PMEVCNTR28_EL0) X(PMEVCNTR29_EL0) \
	X(PMEVCNTR30_EL0) \
	X(PMEVTYPER0_EL0) X(PMEVTYPER1_EL0) X(PMEVTYPER2_EL0) X(PMEVTYPER3_EL0) X(PMEVTYPER4_EL0) X(PMEVTYPER5_EL0) \
	X(PMEVTYPER6_EL0) X(PMEVTYPER7_EL0) X(PMEVTYPER8_EL0) X(PMEVTYPER9_EL0) X(PMEVTYPER10_EL0) X(PMEVTYPER11_EL0) \
	X(PMEVTYPER12_EL0) X(PMEVTYPER13_EL0) X(PMEVTYPER14_EL0) X(PMEVTYPER15_EL0) X(PMEVTYPER16_EL0) X(PMEVTYPER17_EL0) \
	X(PMEVTYPER18_EL0) X(PMEVTYPER19_EL0) X(PMEVTYPER20_EL0) X(PMEVTYPER21_EL0) X(PMEVTYPER22_EL0) X(PMEVTYPER23_EL0) \
	X(PMEVTYPER24_EL0) X(PMEVTYPER25_EL0) X(PMEVTYPER26_EL0) X(PMEVTYPER27_EL0) X(PMEVTYPER28_EL0) X(PMEVTYPER29_EL0) \
	X(PMEVTYPER30_EL0) \
	X(CNTFRQ_EL0) X(CNTVCT_EL0)

#ifndef __ASSEMBLER__
#include <stdint.h>
#include "arch/hw.h"

/* Generated accessors (sysreg_acc.S): hw_status arm_sysreg_rd_<name>(uint64_t *val),
 * hw_status arm_sysreg_wr_<name>(uint64_t val). HW_OK, or the fault status. */
#define ARM_SYSREG_DECLARE(name) \
	hw_status arm_sysreg_rd_##name(uint64_t *val); \
	hw_status arm_sysreg_wr_##name(uint64_t val);
ARM_SYSREG_ACCESSORS(ARM_SYSREG_DECLARE)
#undef ARM_SYSREG_DECLARE

/* Fault-safe MMIO (sysreg_acc.S): a data abort on the access returns HW_FAULT_SYNC. */
hw_status arm_mmio_rd32(uint64_t addr, uint32_t *val);
hw_status arm_mmio_rd64(uint64_t addr, uint64_t *val);
hw_status arm_mmio_wr32(uint64_t addr, uint32_t val);
hw_status arm_mmio_wr64(uint64_t addr, uint64_t val);
#endif

#endif
