/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Named x86 MSRs, CPUID leaves and fields efiperf uses, spelled as the Intel SDM spells them
 * (Vol. 4 "Model-Specific Registers", Table 2-2 "IA-32 Architectural MSRs"; Vol. 2A CPUID).
 * No bare register numbers in logic: code uses these names.
 */
#ifndef EFIPERF_X86_MSR_H
#define EFIPERF_X86_MSR_H

/* --- MSRs (SDM Vol.4 Table 2-2) -------------------------------------------------------- */
#define IA32_APIC_BASE             0x0000001Bu /* EN [11], EXTD (x2APIC) [10] */
#define IA32_BIOS_SIGN_ID          0x0000008Bu /* microcode revision in [63:32] after CPUID.1 */
#define IA32_PMC0                  0x000000C1u /* general-purpose counter 0 */
#define MSR_PLATFORM_INFO          0x000000CEu /* Intel: max non-turbo ratio [15:8] */
#define IA32_FIXED_CTR0            0x00000309u /* INST_RETIRED.ANY */
#define IA32_FIXED_CTR1            0x0000030Au /* CPU_CLK_UNHALTED.THREAD */
#define IA32_FIXED_CTR2            0x0000030Bu /* CPU_CLK_UNHALTED.REF_TSC */
#define IA32_PERF_CAPABILITIES     0x00000345u
#define IA32_FIXED_CTR_CTRL        0x0000038Du /* 4 bits per fixed counter: EN[1:0], ANY, PMI */
#define IA32_PERF_GLOBAL_STATUS    0x0000038Eu
#define IA32_PERF_GLOBAL_CTRL      0x0000038Fu /* PMCn enable [n], fixed enable [32+n] */
#define IA32_PERF_GLOBAL_OVF_CTRL  0x00000390u
#define IA32_X2APIC_APICID         0x00000802u /* #GP unless the local APIC is in x2APIC mode */

#define APIC_BASE_EN               (1ull << 11)
#define APIC_BASE_EXTD             (1ull << 10)

/* IA32_FIXED_CTR_CTRL: per-counter 4-bit field, EN = 3 counts OS and USR (SDM Vol.3B 20.2.2) */
#define FIXED_CTR_CTRL_BITS        4u
#define FIXED_CTR_CTRL_EN_ALL      0x3u
#define FIXED_CTR_CTRL_FIELD_MASK  0xFu
/* IA32_PERF_GLOBAL_CTRL: fixed counter i enable is bit 32 + i (SDM Vol.3B 20.2.2) */
#define PERF_GLOBAL_CTRL_FIXED_SHIFT 32u

/* RDPMC ECX: bit 30 selects the fixed-function counters (SDM Vol.2B RDPMC) */
#define RDPMC_FIXED                (1u << 30)

/* --- CPUID (SDM Vol.2A CPUID) ---------------------------------------------------------- */
#define CPUID_VENDOR_MAXLEAF       0x00000000u
#define CPUID_SIGNATURE            0x00000001u /* EAX: stepping[3:0] model[7:4] family[11:8]
                                                  ext model[19:16] ext family[27:20] */
#define CPUID_ARCH_PERFMON         0x0000000Au /* EAX version[7:0] nGP[15:8] width[23:16];
                                                  EDX nFixed[4:0] width[12:5] */
#define CPUID_EXT_TOPOLOGY         0x0000000Bu
#define CPUID_TSC_CRYSTAL          0x00000015u /* EAX denominator, EBX numerator, ECX crystal Hz */
#define CPUID_PROC_FREQ            0x00000016u /* EAX base MHz */
#define CPUID_V2_EXT_TOPOLOGY      0x0000001Fu
#define CPUID_EXT_MAXLEAF          0x80000000u
#define CPUID_BRAND_0              0x80000002u /* ..0x80000004: 48-byte brand string */
#define CPUID_APM                  0x80000007u /* EDX[8]: invariant TSC */

#define CPUID_1_ECX_HYPERVISOR     (1u << 31)
#define CPUID_APM_EDX_INVARIANT_TSC (1u << 8)
/* Leaf 0xB / 0x1F sub-leaf ECX[15:8] level type: 1 SMT, 2 Core; EBX[15:0] logical CPUs */
#define CPUID_TOPO_LEVEL_SMT       1u
#define CPUID_TOPO_LEVEL_CORE      2u

#endif
