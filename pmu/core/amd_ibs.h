/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AMD Instruction-Based Sampling, fetch or op, POLLED (AMD APM Vol.2 section 13.3).
 *
 * No interrupt is involved: IbsFetchCtl/IbsOpCtl have no interrupt-enable bit; IBS interrupts
 * are delivered only through the APIC extended LVT entry named by IbsCtl.LvtOffset (Linux
 * arch/x86/include/asm/apicdef.h APIC_EILVTn). efiperf never writes IbsCtl nor any APIC register, so that entry stays as firmware
 * left it (masked: UEFI firmware does not program IBS). The window loop calls amd_ibs_poll()
 * (through corepmu_tick) between kernel chunks; each poll that finds IbsFetchVal / IbsOpVal
 * reads the sample registers, decodes them into the window's histograms and re-arms. Sampling
 * pauses from a sample until the poll that re-arms it, so the effective period (work per
 * sample) is longer than the programmed one when polls are sparse: the record reports both.
 *
 * Period: MaxCnt << 4 (libpfm4 docs/man3/libpfm_amd64.3: "a 20 bit value, bits 3:0 are always set to zero"); op
 * sampling with IBS_CAPS_OPCNTEXT takes period bits 26:20 in IbsOpCtl[26:20]. Minimum 0x10
 * for fetch, 0x90 for op (kernel patch b2fc7b28). Fetch sampling always sets IbsRandEn.
 */
#ifndef EFIPERF_AMD_IBS_H
#define EFIPERF_AMD_IBS_H

#include "pmu/core/x86_ctr.h"

enum ibs_mode { IBS_MODE_OFF, IBS_MODE_FETCH, IBS_MODE_OP };
enum ibs_count { IBS_COUNT_CYCLES, IBS_COUNT_OPS };

/* Family/model quirks (Linux arch/x86/events/amd/ibs.c, tools/perf/util/amd-sample-raw.c, AMD IBS Toolkit), applied from a table by amd_ibs_probe(). */
#define IBS_Q_420_STOP      0x01u /* Fam10h #420: stop with MaxCnt cleared first, then En */
#define IBS_Q_718_OPDATA3   0x02u /* Fam15h m00-1Fh #718: zero IbsOpData3 before re-arm */
#define IBS_Q_FETCH_EN_0_1  0x04u /* Fam16h-18h: fetch count resets only on an En 0->1 */
#define IBS_Q_1197_LINAD0   0x08u /* Fam19h m<10h: drop fetch samples with IbsFetchLinAd 0 */
#define IBS_Q_1238_ICMISS   0x10u /* Fam19h m<10h: IbsIcMiss unreliable */
#define IBS_Q_1293_OPDATA2  0x20u /* Fam19h m<10h: OpData2/L2Miss invalid if SwPf|MissNoMab */

#define IBS_LAT_BUCKETS 8
extern const uint32_t ibs_lat_bounds[IBS_LAT_BUCKETS - 1];  /* upper bounds, cycles */
#define IBS_DATA_SRC_N 32

struct ibs_hist {
	uint64_t samples, dropped;
	/* fetch */
	uint64_t fetch_comp, ic_miss, ic_miss_unreliable, l1tlb_miss, l2tlb_miss, fetch_l2_miss;
	uint64_t oc_miss, fetch_l3_miss, fetch_lat_sum, fetch_lat[IBS_LAT_BUCKETS];
	/* op */
	uint64_t rip_invalid, mem_ops, loads, stores, uc, wc, locked, dc_miss, l2_miss, dc_l1tlb_miss,
		 dc_l2tlb_miss, swpf, data2_invalid, rmt_node, dc_miss_lat_sum;
	uint64_t dc_miss_lat[IBS_LAT_BUCKETS];
	uint64_t data_src[IBS_DATA_SRC_N];
};

/* Pure decoders (pmu/amd_ibs_decode.c). */
unsigned ibs_lat_bucket(uint32_t cycles);
void ibs_decode_fetch(struct ibs_hist *h, uint32_t quirks, uint32_t caps, uint64_t ctl, uint64_t linad);
void ibs_decode_op(struct ibs_hist *h, uint32_t quirks, uint32_t caps, uint64_t data, uint64_t data2,
		   uint64_t data3);
/* "dram", "local_node_cache", ... for DataSrc src (5-bit with IBS_CAPS_ZEN4), NULL unnamed. */
const char *ibs_data_src_name(unsigned src, int zen4);
/* (uc + wc) per mille of the sampled memory ops. */
uint32_t ibs_uc_wc_permille(const struct ibs_hist *h);

struct amd_ibs {
	uint32_t caps, family, model, quirks;
	uint8_t present, mode, count;
	uint32_t period;           /* programmed, in cycles or dispatched ops */
	uint64_t cfg;              /* control value without En */
	char why[112];             /* absent / failed: why */
	hw_status fault;
	int running;
	uint64_t polls, rearms;
	struct ibs_hist h;
};

/* CPUID 8000_0001:ECX[10] and 8000_001B; quirks from family/model. */
void amd_ibs_probe(const struct hw *hw, struct amd_ibs *ibs, uint32_t family, uint32_t model);
/* Validate and set the mode (field names as in the config: ibs, ibs_period, ibs_count).
 * 0, or -1 with err. When the CPU has no IBS the mode is kept and why says so (not an error). */
int amd_ibs_config(struct amd_ibs *ibs, enum ibs_mode mode, uint32_t period, enum ibs_count count,
		   char *err, size_t errlen);
hw_status amd_ibs_start(const struct hw *hw, struct amd_ibs *ibs, struct saveset *sv);
/* One poll: decode a valid sample and re-arm. Cheap when no sample is pending (one RDMSR). */
hw_status ibs_poll(const struct hw *hw, struct amd_ibs *ibs);
/* Last poll, then stop (with the #420 sequence where it applies). */
hw_status amd_ibs_stop(const struct hw *hw, struct amd_ibs *ibs);

#endif
