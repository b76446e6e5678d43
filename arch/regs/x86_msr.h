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

/* --- Health evidence: machine checks, energy, frequency, thermal ------------------------- */
/* Machine-check architecture (SDM Vol.3B 16.3.1 "Machine-Check Global Control MSRs", 16.3.2
 * "Error-Reporting Register Banks"; AMD APM Vol.2 9.3 uses the same legacy MSRs) */
#define CPUID_1_EDX_MCE            (1u << 7)   /* machine-check exception */
#define CPUID_1_EDX_MCA            (1u << 14)  /* machine-check architecture */
#define IA32_MCG_CAP               0x00000179u /* Count [7:0]: error-reporting banks */
#define IA32_MCG_CAP_COUNT_MASK    0xFFu
#define IA32_MC0_CTL               0x00000400u /* bank i: CTL 400H+4i, STATUS +1, ADDR +2, MISC +3 */
#define IA32_MC_STATUS_OFF         1u
#define IA32_MC_ADDR_OFF           2u
#define IA32_MC_MISC_OFF           3u
#define IA32_MC_STRIDE             4u
#define IA32_MC_LEGACY_BANKS       32u         /* 400H..47FH; 480H is IA32_VMX_BASIC */
/* IA32_MCi_STATUS (SDM Vol.3B 16.3.2.2 Figure 16-6) */
#define MCI_STATUS_VAL             (1ull << 63)
#define MCI_STATUS_OVER            (1ull << 62)
#define MCI_STATUS_UC              (1ull << 61)
#define MCI_STATUS_EN              (1ull << 60)
#define MCI_STATUS_MISCV           (1ull << 59)
#define MCI_STATUS_ADDRV           (1ull << 58)
#define MCI_STATUS_PCC             (1ull << 57)
#define MCI_STATUS_S               (1ull << 56) /* signaled (UCR, MCG_CAP.SER_P) */
#define MCI_STATUS_AR              (1ull << 55) /* action required (UCR) */
#define MCI_STATUS_MCACOD_MASK     0xFFFFull    /* [15:0] MCA error code */
#define MCI_STATUS_MSCOD_SHIFT     16u          /* [31:16] model-specific error code */
#define MCI_STATUS_MSCOD_MASK      0xFFFFull
/* Energy: RAPL (SDM Vol.3B 15.10.1 "RAPL Interfaces", 15.10.3 "Package RAPL Domain", 15.10.5
 * "DRAM RAPL Domain"): Energy Status Units [12:8], energy = counter x 1/2^ESU J, 32-bit counters */
#define MSR_RAPL_POWER_UNIT        0x00000606u
#define MSR_PKG_ENERGY_STATUS      0x00000611u
#define MSR_DRAM_ENERGY_STATUS     0x00000619u
#define RAPL_UNIT_ESU_SHIFT        8u
#define RAPL_UNIT_ESU_MASK         0x1Fu
#define RAPL_ENERGY_MASK           0xFFFFFFFFull
/* Frequency: IA32_MPERF / IA32_APERF (SDM Vol.3B 15.2 "Hardware Coordination Feedback";
 * CPUID.06H:ECX[0]) */
#define CPUID_THERMAL_POWER        0x00000006u
#define CPUID_6_ECX_APERFMPERF     (1u << 0)
#define CPUID_6_EAX_DTS            (1u << 0)    /* digital thermal sensor: IA32_THERM_STATUS */
#define CPUID_6_EAX_PTM            (1u << 6)    /* package thermal: IA32_PACKAGE_THERM_STATUS */
#define IA32_MPERF                 0x000000E7u
#define IA32_APERF                 0x000000E8u
/* Thermal (SDM Vol.3B 15.8.5.2 "Thermal Status Information", 15.9.2 "Package Thermal
 * Status"): status bits are live, log bits sticky until software writes 0 */
#define IA32_THERM_STATUS          0x0000019Cu
#define IA32_PACKAGE_THERM_STATUS  0x000001B1u
#define THERM_STATUS               (1ull << 0)
#define THERM_STATUS_LOG           (1ull << 1)
#define THERM_PROCHOT              (1ull << 2)
#define THERM_PROCHOT_LOG          (1ull << 3)
#define THERM_CRIT                 (1ull << 4)
#define THERM_CRIT_LOG             (1ull << 5)
#define THERM_PLN                  (1ull << 10) /* power limitation notification */
#define THERM_PLN_LOG              (1ull << 11)
#define THERM_READOUT_SHIFT        16u          /* [22:16] degrees below TCC activation */
#define THERM_READOUT_MASK         0x7Full
#define THERM_READ_VALID           (1ull << 31)

#endif
