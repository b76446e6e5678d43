/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Arm system registers efiperf uses, named as the Arm Architecture Reference Manual for
 * A-profile (Arm ARM, DDI 0487K.a) spells them, and their fields.
 *
 * Encoding: a register is named by the (op0, op1, CRn, CRm, op2) operands of MRS/MSR, packed
 * exactly as in bits [20:5] of those instructions (Arm ARM C6.2 "MRS" / "MSR (register)":
 * op0 in [20:19] (o0 = op0 - 2 in bit 19, bit 20 fixed at 1), op1 [18:16], CRn [15:12],
 * CRm [11:8], op2 [7:5]). So an accessor is encoded as
 *     MRS Xt, <reg>:  ARM_MRS_BASE | SYSREG_x | t
 *     MSR <reg>, Xt:  ARM_MSR_BASE | SYSREG_x | t
 * (arch/aarch64/sysreg_acc.S emits them with .inst). The per-register encodings are in the
 * "Accessing <reg>" part of each register's page in the Arm ARM D23 (AArch64 System Register
 * Descriptions).
 *
 * Pure header, also included by assembly: macros only, no C types, no integer suffixes in
 * encoding macros (the assembler evaluates them).
 */
#ifndef EFIPERF_ARM_SYSREG_H
#define EFIPERF_ARM_SYSREG_H

#define ARM_SYSREG(op0, op1, crn, crm, op2) \
	(((op0) << 19) | ((op1) << 16) | ((crn) << 12) | ((crm) << 8) | ((op2) << 5))
#define ARM_SYSREG_OP0(enc)  (((enc) >> 19) & 0x3)
#define ARM_SYSREG_OP1(enc)  (((enc) >> 16) & 0x7)
#define ARM_SYSREG_CRN(enc)  (((enc) >> 12) & 0xf)
#define ARM_SYSREG_CRM(enc)  (((enc) >> 8) & 0xf)
#define ARM_SYSREG_OP2(enc)  (((enc) >> 5) & 0x7)

/* C6.2 MRS: 1101 0101 0011 ... with L (bit 21) = 1; MSR (register): L = 0. Rt in [4:0]. */
#define ARM_MRS_BASE 0xd5200000
#define ARM_MSR_BASE 0xd5000000

/* --- Identification (D23.2, general system control registers) ------------------------ */
#define SYSREG_MIDR_EL1          ARM_SYSREG(3, 0, 0, 0, 0)   /* Main ID Register */
#define SYSREG_MPIDR_EL1         ARM_SYSREG(3, 0, 0, 0, 5)   /* Multiprocessor Affinity */
#define SYSREG_REVIDR_EL1        ARM_SYSREG(3, 0, 0, 0, 6)   /* Revision ID */
#define SYSREG_ID_AA64PFR0_EL1   ARM_SYSREG(3, 0, 0, 4, 0)   /* Processor Feature 0 */
#define SYSREG_ID_AA64DFR0_EL1   ARM_SYSREG(3, 0, 0, 5, 0)   /* Debug Feature 0 */
#define SYSREG_CurrentEL         ARM_SYSREG(3, 0, 4, 2, 2)   /* Current Exception Level */
#define SYSREG_ID_AA64MMFR2_EL1  ARM_SYSREG(3, 0, 0, 7, 2)   /* Memory Model Feature 2: CCIDX [23:20] */
#define SYSREG_CLIDR_EL1         ARM_SYSREG(3, 1, 0, 0, 1)   /* Cache Level ID */
#define SYSREG_CCSIDR_EL1        ARM_SYSREG(3, 1, 0, 0, 0)   /* Cache Size ID of the CSSELR_EL1 cache */
#define SYSREG_CSSELR_EL1        ARM_SYSREG(3, 2, 0, 0, 0)   /* Cache Size Selection: Level [3:1], InD [0] */

/* CLIDR_EL1 Ctype<n>, n = 1..7, at [3n-1:3n-3] (D23.2 CLIDR_EL1): 0 none, 1 instruction only,
 * 2 data only, 3 separate instruction and data, 4 unified. */
#define CLIDR_CTYPE_BITS         3
#define CLIDR_CTYPE_MASK         0x7
#define CLIDR_MAX_LEVEL          7
#define CLIDR_CTYPE_INST         1
#define CLIDR_CTYPE_DATA         2
#define CLIDR_CTYPE_SEPARATE     3
#define CLIDR_CTYPE_UNIFIED      4
/* CCSIDR_EL1 (D23.2 CCSIDR_EL1): LineSize [2:0] = log2(line bytes) - 4; without FEAT_CCIDX
 * Associativity [12:3] and NumSets [27:13], with it (ID_AA64MMFR2_EL1.CCIDX = 1) [23:3] and
 * [55:32]; both "minus 1". */
#define CCSIDR_LINESIZE_MASK     0x7
#define CCSIDR_LINESIZE_BIAS     4
#define CCSIDR_ASSOC_SHIFT       3
#define CCSIDR_ASSOC_MASK        0x3FF
#define CCSIDR_SETS_SHIFT        13
#define CCSIDR_SETS_MASK         0x7FFF
#define CCSIDR_CCIDX_ASSOC_MASK  0x1FFFFF
#define CCSIDR_CCIDX_SETS_SHIFT  32
#define CCSIDR_CCIDX_SETS_MASK   0xFFFFFF
#define CSSELR_LEVEL_SHIFT       1
#define CSSELR_IND               1u
#define ID_AA64MMFR2_CCIDX_SHIFT 20
#define ID_AA64MMFR2_CCIDX_MASK  0xF
/* SVE trap and length controls (D19.2 CPACR_EL1, CPTR_EL2, HCR_EL2, ZCR_EL1, ZCR_EL2). */
#define SYSREG_CPACR_EL1         ARM_SYSREG(3, 0, 1, 0, 2)   /* Architectural Feature Access Control */
#define SYSREG_CPTR_EL2          ARM_SYSREG(3, 4, 1, 1, 2)   /* Architectural Feature Trap (EL2) */
#define SYSREG_HCR_EL2           ARM_SYSREG(3, 4, 1, 1, 0)   /* Hypervisor Configuration */
#define SYSREG_ZCR_EL1           ARM_SYSREG(3, 0, 1, 2, 0)   /* SVE Control (EL1) */
#define SYSREG_ZCR_EL2           ARM_SYSREG(3, 4, 1, 2, 0)   /* SVE Control (EL2) */
#define SYSREG_MDCR_EL2          ARM_SYSREG(3, 4, 1, 1, 1)   /* Monitor Debug Configuration (EL2) */
#define SYSREG_PMMIR_EL1         ARM_SYSREG(3, 0, 9, 14, 6)  /* Performance Monitors Machine ID */

/* MDCR_EL2 fields (D23.2 MDCR_EL2): HPMN [4:0] event counters accessible below EL2; HPMD
 * bit 17 (FEAT_PMUv3p1): event counting prohibited at EL2; HCCD bit 23 (FEAT_PMUv3p5): the
 * cycle counter does not count at EL2. */
#define MDCR_EL2_HPMN_MASK  0x1f
#define MDCR_EL2_HPMD       (1u << 17)
#define MDCR_EL2_HCCD       (1u << 23)

/* PMMIR_EL1.SLOTS [7:0] (D23 PMMIR_EL1, FEAT_PMUv3p4): operation slots per cycle, 0 when the
 * PE does not say. */
#define PMMIR_EL1_SLOTS_MASK 0xff

/* MIDR_EL1 fields (D23.2 MIDR_EL1). */
#define MIDR_EL1_IMPLEMENTER_SHIFT  24   /* [31:24] */
#define MIDR_EL1_IMPLEMENTER_MASK   0xff
#define MIDR_EL1_VARIANT_SHIFT      20   /* [23:20] */
#define MIDR_EL1_VARIANT_MASK       0xf
#define MIDR_EL1_ARCHITECTURE_SHIFT 16   /* [19:16], 0xF: "check the ID registers" */
#define MIDR_EL1_ARCHITECTURE_MASK  0xf
#define MIDR_EL1_PARTNUM_SHIFT      4    /* [15:4] */
#define MIDR_EL1_PARTNUM_MASK       0xfff
#define MIDR_EL1_REVISION_SHIFT     0    /* [3:0] */
#define MIDR_EL1_REVISION_MASK      0xf

/* CurrentEL.EL, bits [3:2] (D23.2 CurrentEL). */
#define CurrentEL_EL_SHIFT 2
#define CurrentEL_EL_MASK  0x3

/* ID_AA64DFR0_EL1.PMUVer, bits [11:8] (D23.2 ID_AA64DFR0_EL1). */
#define ID_AA64DFR0_EL1_PMUVer_SHIFT 8
#define ID_AA64DFR0_EL1_PMUVer_MASK  0xf
#define PMUVer_NI       0x0   /* Performance Monitors Extension not implemented */
#define PMUVer_V3       0x1   /* FEAT_PMUv3 */
#define PMUVer_V3P1     0x4   /* FEAT_PMUv3p1 (Armv8.1): 16-bit evtCount */
#define PMUVer_V3P4     0x5   /* FEAT_PMUv3p4 (Armv8.4) */
#define PMUVer_V3P5     0x6   /* FEAT_PMUv3p5 (Armv8.5): 64-bit event counters, PMCR_EL0.LP */
#define PMUVer_V3P7     0x7   /* FEAT_PMUv3p7 (Armv8.7) */
#define PMUVer_V3P8     0x8   /* FEAT_PMUv3p8 (Armv8.8) */
#define PMUVer_V3P9     0x9   /* FEAT_PMUv3p9 (Armv8.9) */
#define PMUVer_IMPDEF   0xf   /* IMPLEMENTATION DEFINED form of performance monitors */

/* --- Performance Monitors (D23, "Performance Monitors registers"; behaviour: chapter
 *     "The Performance Monitors Extension") ------------------------------------------- */
#define SYSREG_PMCR_EL0          ARM_SYSREG(3, 3, 9, 12, 0)  /* Control */
#define SYSREG_PMCNTENSET_EL0    ARM_SYSREG(3, 3, 9, 12, 1)  /* Count Enable Set (W1S) */
#define SYSREG_PMCNTENCLR_EL0    ARM_SYSREG(3, 3, 9, 12, 2)  /* Count Enable Clear (W1C) */
#define SYSREG_PMOVSCLR_EL0      ARM_SYSREG(3, 3, 9, 12, 3)  /* Overflow Flag Status Clear */
#define SYSREG_PMSWINC_EL0       ARM_SYSREG(3, 3, 9, 12, 4)  /* Software Increment (WO) */
#define SYSREG_PMSELR_EL0        ARM_SYSREG(3, 3, 9, 12, 5)  /* Event Counter Selection */
#define SYSREG_PMCEID0_EL0       ARM_SYSREG(3, 3, 9, 12, 6)  /* Common Event ID 0 (RO) */
#define SYSREG_PMCEID1_EL0       ARM_SYSREG(3, 3, 9, 12, 7)  /* Common Event ID 1 (RO) */
#define SYSREG_PMCCNTR_EL0       ARM_SYSREG(3, 3, 9, 13, 0)  /* Cycle Count */
#define SYSREG_PMXEVTYPER_EL0    ARM_SYSREG(3, 3, 9, 13, 1)  /* Selected Event Type */
#define SYSREG_PMXEVCNTR_EL0     ARM_SYSREG(3, 3, 9, 13, 2)  /* Selected Event Count */
#define SYSREG_PMUSERENR_EL0     ARM_SYSREG(3, 3, 9, 14, 0)  /* User Enable */
#define SYSREG_PMINTENSET_EL1    ARM_SYSREG(3, 0, 9, 14, 1)  /* Interrupt Enable Set (W1S) */
#define SYSREG_PMINTENCLR_EL1    ARM_SYSREG(3, 0, 9, 14, 2)  /* Interrupt Enable Clear (W1C) */
#define SYSREG_PMOVSSET_EL0      ARM_SYSREG(3, 3, 9, 14, 3)  /* Overflow Flag Status Set */
#define SYSREG_PMCCFILTR_EL0     ARM_SYSREG(3, 3, 14, 15, 7) /* Cycle Count Filter */

/* PMEVCNTR<n>_EL0: op0=3, op1=3, CRn=14, CRm=0b10:n[4:3], op2=n[2:0] (n = 0..30).
 * PMEVTYPER<n>_EL0: op0=3, op1=3, CRn=14, CRm=0b11:n[4:3], op2=n[2:0]. */
#define SYSREG_PMEVCNTR_EL0(n)   ARM_SYSREG(3, 3, 14, (0x8 | (((n) >> 3) & 0x3)), ((n) & 0x7))
#define SYSREG_PMEVTYPER_EL0(n)  ARM_SYSREG(3, 3, 14, (0xc | (((n) >> 3) & 0x3)), ((n) & 0x7))
#define SYSREG_PMEVCNTR0_EL0 SYSREG_PMEVCNTR_EL0(0)
#define SYSREG_PMEVCNTR1_EL0 SYSREG_PMEVCNTR_EL0(1)
#define SYSREG_PMEVCNTR2_EL0 SYSREG_PMEVCNTR_EL0(2)
#define SYSREG_PMEVCNTR3_EL0 SYSREG_PMEVCNTR_EL0(3)
#define SYSREG_PMEVCNTR4_EL0 SYSREG_PMEVCNTR_EL0(4)
#define SYSREG_PMEVCNTR5_EL0 SYSREG_PMEVCNTR_EL0(5)
#define SYSREG_PMEVCNTR6_EL0 SYSREG_PMEVCNTR_EL0(6)
#define SYSREG_PMEVCNTR7_EL0 SYSREG_PMEVCNTR_EL0(7)
#define SYSREG_PMEVCNTR8_EL0 SYSREG_PMEVCNTR_EL0(8)
#define SYSREG_PMEVCNTR9_EL0 SYSREG_PMEVCNTR_EL0(9)
#define SYSREG_PMEVCNTR10_EL0 SYSREG_PMEVCNTR_EL0(10)
#define SYSREG_PMEVCNTR11_EL0 SYSREG_PMEVCNTR_EL0(11)
#define SYSREG_PMEVCNTR12_EL0 SYSREG_PMEVCNTR_EL0(12)
#define SYSREG_PMEVCNTR13_EL0 SYSREG_PMEVCNTR_EL0(13)
#define SYSREG_PMEVCNTR14_EL0 SYSREG_PMEVCNTR_EL0(14)
#define SYSREG_PMEVCNTR15_EL0 SYSREG_PMEVCNTR_EL0(15)
#define SYSREG_PMEVCNTR16_EL0 SYSREG_PMEVCNTR_EL0(16)
#define SYSREG_PMEVCNTR17_EL0 SYSREG_PMEVCNTR_EL0(17)
#define SYSREG_PMEVCNTR18_EL0 SYSREG_PMEVCNTR_EL0(18)
#define SYSREG_PMEVCNTR19_EL0 SYSREG_PMEVCNTR_EL0(19)
#define SYSREG_PMEVCNTR20_EL0 SYSREG_PMEVCNTR_EL0(20)
#define SYSREG_PMEVCNTR21_EL0 SYSREG_PMEVCNTR_EL0(21)
#define SYSREG_PMEVCNTR22_EL0 SYSREG_PMEVCNTR_EL0(22)
#define SYSREG_PMEVCNTR23_EL0 SYSREG_PMEVCNTR_EL0(23)
#define SYSREG_PMEVCNTR24_EL0 SYSREG_PMEVCNTR_EL0(24)
#define SYSREG_PMEVCNTR25_EL0 SYSREG_PMEVCNTR_EL0(25)
#define SYSREG_PMEVCNTR26_EL0 SYSREG_PMEVCNTR_EL0(26)
#define SYSREG_PMEVCNTR27_EL0 SYSREG_PMEVCNTR_EL0(27)
#define SYSREG_PMEVCNTR28_EL0 SYSREG_PMEVCNTR_EL0(28)
#define SYSREG_PMEVCNTR29_EL0 SYSREG_PMEVCNTR_EL0(29)
#define SYSREG_PMEVCNTR30_EL0 SYSREG_PMEVCNTR_EL0(30)
#define SYSREG_PMEVTYPER0_EL0 SYSREG_PMEVTYPER_EL0(0)
#define SYSREG_PMEVTYPER1_EL0 SYSREG_PMEVTYPER_EL0(1)
#define SYSREG_PMEVTYPER2_EL0 SYSREG_PMEVTYPER_EL0(2)
#define SYSREG_PMEVTYPER3_EL0 SYSREG_PMEVTYPER_EL0(3)
#define SYSREG_PMEVTYPER4_EL0 SYSREG_PMEVTYPER_EL0(4)
#define SYSREG_PMEVTYPER5_EL0 SYSREG_PMEVTYPER_EL0(5)
#define SYSREG_PMEVTYPER6_EL0 SYSREG_PMEVTYPER_EL0(6)
#define SYSREG_PMEVTYPER7_EL0 SYSREG_PMEVTYPER_EL0(7)
#define SYSREG_PMEVTYPER8_EL0 SYSREG_PMEVTYPER_EL0(8)
#define SYSREG_PMEVTYPER9_EL0 SYSREG_PMEVTYPER_EL0(9)
#define SYSREG_PMEVTYPER10_EL0 SYSREG_PMEVTYPER_EL0(10)
#define SYSREG_PMEVTYPER11_EL0 SYSREG_PMEVTYPER_EL0(11)
#define SYSREG_PMEVTYPER12_EL0 SYSREG_PMEVTYPER_EL0(12)
#define SYSREG_PMEVTYPER13_EL0 SYSREG_PMEVTYPER_EL0(13)
#define SYSREG_PMEVTYPER14_EL0 SYSREG_PMEVTYPER_EL0(14)
#define SYSREG_PMEVTYPER15_EL0 SYSREG_PMEVTYPER_EL0(15)
#define SYSREG_PMEVTYPER16_EL0 SYSREG_PMEVTYPER_EL0(16)
#define SYSREG_PMEVTYPER17_EL0 SYSREG_PMEVTYPER_EL0(17)
#define SYSREG_PMEVTYPER18_EL0 SYSREG_PMEVTYPER_EL0(18)
#define SYSREG_PMEVTYPER19_EL0 SYSREG_PMEVTYPER_EL0(19)
#define SYSREG_PMEVTYPER20_EL0 SYSREG_PMEVTYPER_EL0(20)
#define SYSREG_PMEVTYPER21_EL0 SYSREG_PMEVTYPER_EL0(21)
#define SYSREG_PMEVTYPER22_EL0 SYSREG_PMEVTYPER_EL0(22)
#define SYSREG_PMEVTYPER23_EL0 SYSREG_PMEVTYPER_EL0(23)
#define SYSREG_PMEVTYPER24_EL0 SYSREG_PMEVTYPER_EL0(24)
#define SYSREG_PMEVTYPER25_EL0 SYSREG_PMEVTYPER_EL0(25)
#define SYSREG_PMEVTYPER26_EL0 SYSREG_PMEVTYPER_EL0(26)
#define SYSREG_PMEVTYPER27_EL0 SYSREG_PMEVTYPER_EL0(27)
#define SYSREG_PMEVTYPER28_EL0 SYSREG_PMEVTYPER_EL0(28)
#define SYSREG_PMEVTYPER29_EL0 SYSREG_PMEVTYPER_EL0(29)
#define SYSREG_PMEVTYPER30_EL0 SYSREG_PMEVTYPER_EL0(30)

/* PMCR_EL0 fields (D23 PMCR_EL0). P and C are write-only actions (read as zero). */
#define PMCR_EL0_E         (1 << 0)   /* enable all counters (with PMCNTENSET) */
#define PMCR_EL0_P         (1 << 1)   /* write 1: reset event counters (not PMCCNTR) */
#define PMCR_EL0_C         (1 << 2)   /* write 1: reset PMCCNTR_EL0 */
#define PMCR_EL0_D         (1 << 3)   /* clock divider: PMCCNTR counts every 64th cycle */
#define PMCR_EL0_X         (1 << 4)   /* export events */
#define PMCR_EL0_DP        (1 << 5)   /* disable PMCCNTR where event counting is prohibited */
#define PMCR_EL0_LC        (1 << 6)   /* cycle counter overflows at 64 bits (not 32) */
#define PMCR_EL0_LP        (1 << 7)   /* FEAT_PMUv3p5: event counters overflow at 64 bits */
#define PMCR_EL0_N_SHIFT   11         /* [15:11] number of event counters implemented */
#define PMCR_EL0_N_MASK    0x1f

/* PMCNTENSET/CLR, PMOVSSET/CLR, PMINTENSET/CLR bit layout (D23, each register's page):
 * bit n = event counter n (P<n>), bit 31 = cycle counter (C). */
#define PMCNTEN_P(n)       (1u << (n))
#define PMCNTEN_C          (1u << 31)

/* PMCEID0_EL0 (D23 PMCEID0_EL0): bit n (0..31) = common event n is implemented;
 * bits [63:32] = events 0x4000 + (n - 32) (FEAT_PMUv3p1). PMCEID1_EL0 the same for events
 * 0x20 + n and 0x4020 + (n - 32). */
#define PMCEID_EXT_BASE 0x4000   /* first event of the upper halves */
#define PMCEID_EVENTS   0x40     /* common events per range (0x0000-0x003F, 0x4000-0x403F) */
#define PMCEID0_EL0_BIT(event)  (event)

/* PMEVTYPER<n>_EL0 and PMCCFILTR_EL0 filter bits (D23 PMEVTYPER<n>_EL0, PMCCFILTR_EL0: same
 * positions in both registers; "The Performance Monitors Extension", event filtering). */
#define PMEVTYPER_P        (1u << 31) /* 1: do not count at EL1 */
#define PMEVTYPER_U        (1u << 30) /* 1: do not count at EL0 */
#define PMEVTYPER_NSK      (1u << 29) /* Non-secure EL1 counted when NSK == P (EL3 present) */
#define PMEVTYPER_NSU      (1u << 28) /* Non-secure EL0 counted when NSU == U (EL3 present) */
#define PMEVTYPER_NSH      (1u << 27) /* 1: count at (Non-secure) EL2 */
#define PMEVTYPER_M        (1u << 26) /* EL3 counted when M == P */
#define PMEVTYPER_MT       (1u << 25) /* multithreading: count events of all threads */
#define PMEVTYPER_SH       (1u << 24) /* FEAT_SEL2: Secure EL2 counted when SH != NSH */
/* evtCount: [9:0] with FEAT_PMUv3, [15:0] from FEAT_PMUv3p1 ([15:10] extension). */
#define PMEVTYPER_EVTCOUNT_MASK_V3   0x3ff
#define PMEVTYPER_EVTCOUNT_MASK_V3P1 0xffff

/* Common architectural events ("The Performance Monitors Extension", "Common event numbers":
 * common architectural and microarchitectural events). */
#define ARMV8_PMUV3_EVENT_INST_RETIRED 0x08   /* instruction architecturally executed */
#define ARMV8_PMUV3_EVENT_CPU_CYCLES   0x11   /* cycle */

/* --- Generic Timer (D23, "Generic Timer registers"; chapter "The Generic
 *     Timer in AArch64 state") --- */
#define SYSREG_CNTFRQ_EL0        ARM_SYSREG(3, 3, 14, 0, 0)  /* Counter-timer Frequency */
#define SYSREG_CNTVCT_EL0        ARM_SYSREG(3, 3, 14, 0, 2)  /* Virtual Count */

#endif
