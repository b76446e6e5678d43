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
/* Architectural perfmon (SDM Vol.3B 20.2; Linux arch/x86/include/asm/msr-index.h,
 * asm/perf_event.h) */
#define IA32_PERFEVTSEL0           0x00000186u /* + i: event select of general counter i */
#define IA32_A_PMC0                0x000004C1u /* + i: full-width alias of IA32_PMCi */
#define IA32_FIXED_CTR3            0x0000030Cu /* TOPDOWN.SLOTS (Ice Lake+) */
#define IA32_PERF_METRICS          0x00000329u /* 8 x 8-bit TopDown fractions of SLOTS */

#define APIC_BASE_EN               (1ull << 11)
#define APIC_BASE_EXTD             (1ull << 10)

/* IA32_FIXED_CTR_CTRL: per-counter 4-bit field, EN = 3 counts OS and USR (SDM Vol.3B 20.2.2) */
#define FIXED_CTR_CTRL_BITS        4u
#define FIXED_CTR_CTRL_EN_ALL      0x3u
#define FIXED_CTR_CTRL_FIELD_MASK  0xFu
/* IA32_PERF_GLOBAL_CTRL: fixed counter i enable is bit 32 + i (SDM Vol.3B 20.2.2) */
#define PERF_GLOBAL_CTRL_FIXED_SHIFT 32u

/* IA32_FIXED_CTR_CTRL per-counter field bit 2: AnyThread (perfmon v3+, SDM Vol.3B 20.2.3) */
#define FIXED_CTR_CTRL_ANY         0x4u
/* IA32_PERF_GLOBAL_CTRL / _STATUS bit 48: PERF_METRICS enable / overflow (Linux
 * arch/x86/include/asm/perf_event.h GLOBAL_CTRL_EN_PERF_METRICS,
 * GLOBAL_STATUS_PERF_METRICS_OVF_BIT) */
#define PERF_GLOBAL_CTRL_EN_PERF_METRICS 48u
/* IA32_PERF_CAPABILITIES: FW_WRITE [13] (IA32_A_PMCx usable), PERF_METRICS available [15]
 * (SDM Vol.3B 20.2.4 / 20.3.9.3; Linux arch/x86/include/asm/msr-index.h PERF_CAP_METRICS_IDX) */
#define PERF_CAP_FW_WRITE          (1ull << 13)
#define PERF_CAP_PERF_METRICS      (1ull << 15)

/* IA32_PERFEVTSELx fields (SDM Vol.3B Figure 20-6; Linux asm/perf_event.h ARCH_PERFMON_EVENTSEL_*) */
#define EVTSEL_EVENT_SHIFT         0u  /* [7:0] */
#define EVTSEL_UMASK_SHIFT         8u  /* [15:8] */
#define EVTSEL_USR                 (1ull << 16)
#define EVTSEL_OS                  (1ull << 17)
#define EVTSEL_EDGE_SHIFT          18u
#define EVTSEL_INT                 (1ull << 20) /* PMI on overflow: never set, efiperf polls */
#define EVTSEL_ANY_SHIFT           21u /* AnyThread (Intel, v3+); reserved on AMD */
#define EVTSEL_EN                  (1ull << 22)
#define EVTSEL_INV_SHIFT           23u
#define EVTSEL_CMASK_SHIFT         24u /* [31:24] */

/* RDPMC ECX: bit 30 selects the fixed-function counters (SDM Vol.2B RDPMC), bit 29
 * IA32_PERF_METRICS (Linux arch/x86/include/asm/perf_event.h INTEL_PMC_FIXED_RDPMC_METRICS;
 * tools/perf/Documentation/topdown.txt RDPMC_METRIC) */
#define RDPMC_FIXED                (1u << 30)
#define RDPMC_METRICS              (1u << 29)
#define FIXED_CTR_SLOTS            3u  /* fixed counter 3 = SLOTS (topdown.txt FIXED_COUNTER_SLOTS) */

/* --- CPUID (SDM Vol.2A CPUID) ---------------------------------------------------------- */
#define CPUID_VENDOR_MAXLEAF       0x00000000u
#define CPUID_SIGNATURE            0x00000001u /* EAX: stepping[3:0] model[7:4] family[11:8]
                                                  ext model[19:16] ext family[27:20] */
#define CPUID_ARCH_PERFMON         0x0000000Au /* EAX version[7:0] nGP[15:8] width[23:16]
                                                  EBX-vector length[31:24]; EBX bit = event
                                                  NOT available; ECX fixed bitmap (v5+);
                                                  EDX nFixed[4:0] width[12:5] AnyThread
                                                  deprecated[15] */
#define CPUID_EXT_FEATURES         0x00000007u /* sub 0 EDX[15]: hybrid part */
#define CPUID_HYBRID               0x0000001Au /* EAX[31:24] core type: 0x20 Atom, 0x40 Core */
#define CPUID_1_ECX_PDCM           (1u << 15)  /* IA32_PERF_CAPABILITIES exists */
#define CPUID_7_EDX_HYBRID         (1u << 15)
#define CPUID_0A_EDX_ANY_DEPRECATED (1u << 15)
#define CPUID_1A_CORE_TYPE_CORE    0x40u
#define CPUID_EXT_TOPOLOGY         0x0000000Bu
#define CPUID_TSC_CRYSTAL          0x00000015u /* EAX denominator, EBX numerator, ECX crystal Hz */
#define CPUID_PROC_FREQ            0x00000016u /* EAX base MHz */
#define CPUID_V2_EXT_TOPOLOGY      0x0000001Fu
#define CPUID_EXT_MAXLEAF          0x80000000u
#define CPUID_BRAND_0              0x80000002u /* ..0x80000004: 48-byte brand string */
#define CPUID_APM                  0x80000007u /* EDX[8]: invariant TSC */
/* Deterministic cache parameters, one sub-leaf per cache until type 0 (SDM Vol.2A CPUID leaf
 * 04H; AMD APM Vol.3 E.4.15 Fn8000_001D, the same layout): EAX type[4:0] level[7:5]
 * sharing-1[25:14]; EBX line-1[11:0] partitions-1[21:12] ways-1[31:22]; ECX sets-1 */
#define CPUID_HYPERVISOR_BASE      0x40000000u /* with CPUID.1:ECX[31]: EBX-ECX-EDX signature */
#define CPUID_CACHE_PARAMS         0x00000004u
#define CPUID_AMD_CACHE_PARAMS     0x8000001Du
#define CPUID_CACHE_MAX_SUBLEAF    16u         /* no CPU has more caches than this */

#define CPUID_1_ECX_HYPERVISOR     (1u << 31)
#define CPUID_APM_EDX_INVARIANT_TSC (1u << 8)
/* Leaf 0xB / 0x1F sub-leaf ECX[15:8] level type: 1 SMT, 2 Core; EBX[15:0] logical CPUs */
#define CPUID_TOPO_LEVEL_SMT       1u
#define CPUID_TOPO_LEVEL_CORE      2u

#endif
