/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Named AMD core-PMU and IBS registers, CPUID leaves and fields, spelled as the AMD manuals
 * (AMD64 APM Vol.2 24593 chapter 13 "Software Debug and Performance Resources"; PPR) and Linux
 * spell them.
 * Linux files cited below, under arch/x86/: include/asm/msr-index.h (MSR numbers),
 * include/asm/perf_event.h (event select and IBS capability bits), include/asm/amd-ibs.h (IBS
 * register unions), include/asm/cpufeatures.h and kernel/cpu/scattered.c (CPUID bits),
 * events/amd/core.c and events/amd/ibs.c (how the kernel drives them).
 */
#ifndef EFIPERF_X86_AMD_MSR_H
#define EFIPERF_X86_AMD_MSR_H

/* --- CPUID (cpufeatures.h, scattered.c, perf_event.h cpuid_0x80000022_ebx) --------------- */
#define CPUID_AMD_EXT_FEATURES     0x80000001u /* ECX: IBS [10], PerfCtrExtCore [23] */
#define CPUID_81_ECX_TOPOEXT       (1u << 22)  /* TopologyExtensions: Fn8000_001D is valid */
#define CPUID_AMD_IBS              0x8000001Bu /* EAX: IBS capability bits (IBS_CAPS_*) */
#define CPUID_AMD_PERFMON_V2       0x80000022u /* EAX[0] PerfMonV2; EBX[3:0] NumPerfCtrCore */
#define AMD_EXT_ECX_IBS            (1u << 10)  /* cpufeatures.h X86_FEATURE_IBS */
#define AMD_EXT_ECX_PERFCTR_CORE   (1u << 23)  /* cpufeatures.h X86_FEATURE_PERFCTR_CORE */
#define AMD_PMV2_EAX_PERFMON_V2    (1u << 0)
#define AMD_PMV2_EBX_NUM_CORE_MASK 0xFu

/* --- Core counters (msr-index.h, events/amd/core.c) --------------------------------------- */
#define MSR_K7_EVNTSEL0            0xC0010000u /* legacy PerfEvtSel0..3, stride 1 */
#define MSR_K7_PERFCTR0            0xC0010004u /* legacy PerfCtr0..3, stride 1 */
#define MSR_F15H_PERF_CTL          0xC0010200u /* PerfCtrExtCore: PERF_CTL i = base + 2i */
#define MSR_F15H_PERF_CTR          0xC0010201u /* PERF_CTR i = base + 2i (interleaved) */
#define PerfCntrGlobalStatus       0xC0000300u /* RO overflow bits */
#define PerfCntrGlobalCtl          0xC0000301u /* PerfCntrEn[N-1:0]: counter counts only with
                                                  its CTL.EN and this bit (events/amd/core.c) */
#define PerfCntrGlobalStatusClr    0xC0000302u /* W1C of PerfCntrGlobalStatus */
#define AMD_LEGACY_COUNTERS        4u
#define AMD_EXT_CORE_COUNTERS      6u
#define AMD_COUNTER_WIDTH          48u         /* events/amd/core.c cntval_bits */

/* PerfEvtSel / PERF_CTL fields beyond the Intel-compatible low 32 bits (perf_event.h
 * AMD64_EVENTSEL_EVENT, AMD64_EVENTSEL_GUESTONLY, AMD64_EVENTSEL_HOSTONLY) */
#define AMD_EVTSEL_EVENT_HI_SHIFT  32u /* EventSelect[11:8] in [35:32] */
#define AMD_EVTSEL_GUESTONLY_SHIFT 40u
#define AMD_EVTSEL_HOSTONLY_SHIFT  41u

/* --- IBS (APM Vol.2 24593 section 13.3 "Instruction-Based Sampling"; msr-index.h) ------- */
#define IbsFetchCtl                0xC0011030u
#define IbsFetchLinAd              0xC0011031u
#define IbsFetchPhysAd             0xC0011032u
#define IbsOpCtl                   0xC0011033u
#define IbsOpRip                   0xC0011034u
#define IbsOpData                  0xC0011035u
#define IbsOpData2                 0xC0011036u
#define IbsOpData3                 0xC0011037u
#define IbsCtl                     0xC001103Au /* LvtOffset [3:0], LvtOffsetVal [8] (RO) */

/* CPUID 8000_001B EAX (perf_event.h IBS_CAPS_*) */
#define IBS_CAPS_AVAIL             (1u << 0)  /* flags valid; 0 -> assume 0x7 (events/amd/ibs.c) */
#define IBS_CAPS_FETCHSAM          (1u << 1)
#define IBS_CAPS_OPSAM             (1u << 2)
#define IBS_CAPS_RDWROPCNT         (1u << 3)
#define IBS_CAPS_OPCNT             (1u << 4)
#define IBS_CAPS_BRNTRGT           (1u << 5)
#define IBS_CAPS_OPCNTEXT          (1u << 6)
#define IBS_CAPS_RIPINVALIDCHK     (1u << 7)
#define IBS_CAPS_ZEN4              (1u << 11)
#define IBS_CAPS_DEFAULT           0x7u

/* IbsFetchCtl (amd-ibs.h union ibs_fetch_ctl) */
#define IBS_FETCH_MAXCNT_MASK      0xFFFFull       /* [15:0], period = MaxCnt << 4 */
#define IBS_FETCH_LAT_SHIFT        32u             /* [47:32] IbsFetchLat */
#define IBS_FETCH_EN               (1ull << 48)
#define IBS_FETCH_VAL              (1ull << 49)
#define IBS_FETCH_COMP             (1ull << 50)
#define IBS_IC_MISS                (1ull << 51)
#define IBS_PHY_ADDR_VALID         (1ull << 52)
#define IBS_L1_TLB_MISS            (1ull << 55)
#define IBS_L2_TLB_MISS            (1ull << 56)
#define IBS_RAND_EN                (1ull << 57)
#define IBS_FETCH_L2_MISS          (1ull << 58)
#define IBS_FETCH_OC_MISS          (1ull << 60)    /* Zen4 */
#define IBS_FETCH_L3_MISS          (1ull << 61)    /* Zen4 */

/* IbsOpCtl (amd-ibs.h union ibs_op_ctl, perf_event.h IBS_OP_*) */
#define IBS_OP_MAXCNT_MASK         0xFFFFull       /* [15:0] = period[19:4] */
#define IBS_OP_EN                  (1ull << 17)
#define IBS_OP_VAL                 (1ull << 18)
#define IBS_OP_CNT_CTL             (1ull << 19)    /* 1: count dispatched ops, 0: cycles */
#define IBS_OP_MAXCNT_EXT_MASK     (0x7Full << 20) /* [26:20] = period[26:20] (OPCNTEXT) */
#define IBS_OP_CUR_CNT_RAND        (0x7Full << 32) /* random low CurCnt bits preloaded by hw */
#define IBS_PERIOD_LOW_MASK        0xFull          /* period bits 3:0 must be zero */
#define IBS_FETCH_MIN_PERIOD       0x10u           /* events/amd/ibs.c: PMU minimum periods */
#define IBS_OP_MIN_PERIOD          0x90u
#define IBS_MAX_PERIOD             0xFFFF0u        /* 20-bit period: 16-bit MaxCnt << 4 (libpfm4
                                                      docs/man3/libpfm_amd64.3 maxcnt) */
#define IBS_OP_MAX_PERIOD_EXT      0x7FFFFF0u      /* 27-bit with OPCNTEXT */

/* IbsOpData (amd-ibs.h union ibs_op_data) */
#define IBS_OPDATA_RIP_INVALID     (1ull << 38)
/* IbsOpData2 (amd-ibs.h union ibs_op_data2) */
#define IBS_OPDATA2_SRC_LO_MASK    0x7ull
#define IBS_OPDATA2_RMT_NODE       (1ull << 4)
#define IBS_OPDATA2_SRC_HI_SHIFT   6u              /* [7:6], Zen4 (IBS_CAPS_ZEN4) */
/* IbsOpData3 (amd-ibs.h union ibs_op_data3) */
#define IBS_LD_OP                  (1ull << 0)
#define IBS_ST_OP                  (1ull << 1)
#define IBS_DC_L1_TLB_MISS         (1ull << 2)
#define IBS_DC_L2_TLB_MISS         (1ull << 3)
#define IBS_DC_MISS                (1ull << 7)
#define IBS_DC_WC_MEM_ACC          (1ull << 13)
#define IBS_DC_UC_MEM_ACC          (1ull << 14)
#define IBS_DC_LOCKED_OP           (1ull << 15)
#define IBS_DC_MISS_NO_MAB_ALLOC   (1ull << 16)
#define IBS_L2_MISS                (1ull << 20)
#define IBS_SW_PF                  (1ull << 21)
#define IBS_DC_MISS_LAT_SHIFT      32u             /* [47:32] IbsDcMissLat, cycles */

/* APIC extended LVT for IBS (Linux arch/x86/include/asm/apicdef.h APIC_EILVTn = 0x500 + 0x10 n, mask bit 16):
 * efiperf never programs it; it polls, and the entry stays masked as firmware left it. */
#define APIC_EILVT_MASKED          (1u << 16)


/* --- Uncore: Data Fabric, L3 and UMC counters (Linux arch/x86/events/amd/uncore.c,
 * include/asm/msr-index.h, include/asm/perf_event.h, include/asm/cpufeatures.h) ------------ */
#define MSR_F15H_NB_PERF_CTL       0xC0010240u /* DF (NB) PERF_CTL i = base + 2i (msr-index.h) */
#define MSR_F15H_NB_PERF_CTR       0xC0010241u /* DF PERF_CTR i = base + 2i */
#define MSR_F16H_L2I_PERF_CTL      0xC0010230u /* L3 PERF_CTL i = base + 2i (msr-index.h) */
#define MSR_F16H_L2I_PERF_CTR      0xC0010231u
#define MSR_F19H_UMC_PERF_CTL      0xC0010800u /* UMC PERF_CTL k of UMC j = base + 2(j n + k) */
#define MSR_F19H_UMC_PERF_CTR      0xC0010801u
#define AMD_EXT_ECX_PERFCTR_NB     (1u << 24)  /* cpufeatures.h X86_FEATURE_PERFCTR_NB */
#define AMD_EXT_ECX_PERFCTR_LLC    (1u << 28)  /* cpufeatures.h X86_FEATURE_PERFCTR_LLC */
#define AMD_PMV2_EBX_NUM_DF_SHIFT  10u         /* perf_event.h cpuid_0x80000022_ebx num_df_pmc */
#define AMD_PMV2_EBX_NUM_DF_MASK   0x3Fu
#define AMD_PMV2_EBX_NUM_UMC_SHIFT 16u         /* num_umc_pmc [21:16]; ECX: active UMC mask */
#define AMD_PMV2_EBX_NUM_UMC_MASK  0x3Fu
#define AMD_NB_LEGACY_COUNTERS     4u          /* uncore.c NUM_COUNTERS_NB */
#define AMD_L3_COUNTERS            6u          /* uncore.c NUM_COUNTERS_L3 (Family 17h+) */
#define AMD64_PERFMON_V2_ENABLE_UMC (1ull << 31) /* perf_event.h: UMC CTL enable */

/* RAPL (AMD PPR for Family 17h/19h, MSRC001_0299 RAPL_PWR_UNIT: ESU [12:8], energy = counter
 * x 1/2^ESU J; MSRC001_029A CORE_ENERGY_STAT, MSRC001_029B PKG_ENERGY_STAT: 32-bit counters);
 * present when CPUID Fn8000_0007_EDX[14] RAPL is set (Linux cpufeatures.h X86_FEATURE_RAPL) */
#define MSR_AMD_RAPL_POWER_UNIT    0xC0010299u
#define MSR_AMD_CORE_ENERGY_STATUS 0xC001029Au
#define MSR_AMD_PKG_ENERGY_STATUS  0xC001029Bu
#define CPUID_APM_EDX_RAPL         (1u << 14)

#endif
