/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * IBS sample decoding into per-window histograms (pmu/amd_ibs.h). Field positions: AMD APM
 * Vol.2 section 13.3 and Linux asm/amd-ibs.h (IbsFetchCtl, IbsOpData, IbsOpData2, IbsOpData3); validity rules
 * from the kernel (Linux arch/x86/events/amd/ibs.c: "OP_DATA2 is valid only for load ops"; DcMiss/L2Miss/DataSrc/
 * DcMissLat invalid for uncacheable accesses) and the errata in amd-sample-raw.c.
 */
#include "pmu/core/amd_ibs.h"
#include "arch/regs/x86_amd_msr.h"
#include "pmu/core/intel_topdown_math.h"   /* td_permille */

/* Latency buckets: [0,32) [32,64) ... [1024,2048) [2048,inf) cycles. */
const uint32_t ibs_lat_bounds[IBS_LAT_BUCKETS - 1] = { 32, 64, 128, 256, 512, 1024, 2048 };

unsigned ibs_lat_bucket(uint32_t cycles)
{
	unsigned b = 0;
	while (b < IBS_LAT_BUCKETS - 1 && cycles >= ibs_lat_bounds[b])
		b++;
	return b;
}

#define LAT_MASK 0xFFFFu

void ibs_decode_fetch(struct ibs_hist *h, uint32_t quirks, uint32_t caps, uint64_t ctl, uint64_t linad)
{
	h->samples++;
	if ((quirks & IBS_Q_1197_LINAD0) && !linad) {  /* erratum #1197 */
		h->dropped++;
		return;
	}
	uint32_t lat = (uint32_t)(ctl >> IBS_FETCH_LAT_SHIFT) & LAT_MASK;
	if (ctl & IBS_FETCH_COMP) {
		h->fetch_comp++;
		h->fetch_lat_sum += lat;
		h->fetch_lat[ibs_lat_bucket(lat)]++;
		if (ctl & IBS_FETCH_L2_MISS)  /* "needs IbsFetchComp" */
			h->fetch_l2_miss++;
	}
	if (ctl & IBS_IC_MISS) {
		if (quirks & IBS_Q_1238_ICMISS)
			h->ic_miss_unreliable++;
		else
			h->ic_miss++;
	}
	if (ctl & IBS_L1_TLB_MISS)
		h->l1tlb_miss++;
	if (ctl & IBS_L2_TLB_MISS)
		h->l2tlb_miss++;
	if (caps & IBS_CAPS_ZEN4) {
		if (ctl & IBS_FETCH_OC_MISS)
			h->oc_miss++;
		if (ctl & IBS_FETCH_L3_MISS)
			h->fetch_l3_miss++;
	}
}

void ibs_decode_op(struct ibs_hist *h, uint32_t quirks, uint32_t caps, uint64_t data, uint64_t data2,
		   uint64_t data3)
{
	h->samples++;
	if ((caps & IBS_CAPS_RIPINVALIDCHK) && (data & IBS_OPDATA_RIP_INVALID))
		h->rip_invalid++;
	int ld = !!(data3 & IBS_LD_OP), st = !!(data3 & IBS_ST_OP);
	if (!ld && !st)
		return;
	h->mem_ops++;
	h->loads += (uint64_t)ld;
	h->stores += (uint64_t)st;
	if (data3 & IBS_DC_LOCKED_OP)
		h->locked++;
	if (data3 & IBS_DC_L1_TLB_MISS)
		h->dc_l1tlb_miss++;
	if (data3 & IBS_DC_L2_TLB_MISS)
		h->dc_l2tlb_miss++;
	if (data3 & IBS_SW_PF)
		h->swpf++;
	if (data3 & IBS_DC_WC_MEM_ACC)
		h->wc++;
	if (data3 & IBS_DC_UC_MEM_ACC) {
		h->uc++;   /* MMIO loads land here; miss and source fields are invalid (Linux arch/x86/events/amd/ibs.c) */
		return;
	}
	int e1293 = (quirks & IBS_Q_1293_OPDATA2) && (data3 & (IBS_SW_PF | IBS_DC_MISS_NO_MAB_ALLOC));
	if (data3 & IBS_DC_MISS) {
		h->dc_miss++;
		if (ld) {
			uint32_t lat = (uint32_t)(data3 >> IBS_DC_MISS_LAT_SHIFT) & LAT_MASK;
			h->dc_miss_lat_sum += lat;
			h->dc_miss_lat[ibs_lat_bucket(lat)]++;
		}
	}
	if ((data3 & IBS_L2_MISS) && !e1293)
		h->l2_miss++;
	if (!ld)
		return;
	if (e1293) {
		h->data2_invalid++;
		return;
	}
	unsigned src = (unsigned)(data2 & IBS_OPDATA2_SRC_LO_MASK);
	if (caps & IBS_CAPS_ZEN4)
		src |= (unsigned)((data2 >> IBS_OPDATA2_SRC_HI_SHIFT) & 0x3) << 3;
	if (src) {
		h->data_src[src]++;
		if (data2 & IBS_OPDATA2_RMT_NODE)
			h->rmt_node++;
	}
}

/* Linux asm/amd-ibs.h: IBS_DATA_SRC_* (pre-Zen4, 3 bits) and IBS_DATA_SRC_EXT_* (Zen4, 5 bits). */
static const char *const src_pre_zen4[8] = {
	[2] = "local_node_cache", [3] = "dram", [4] = "remote_node_cache", [7] = "other_io",
};
static const char *const src_zen4[IBS_DATA_SRC_N] = {
	[1] = "local_l3_or_ccx_l1_l2", [2] = "near_ccx_cache", [3] = "dram", [5] = "far_ccx_cache",
	[6] = "pmem", [7] = "mmio_config_io", [8] = "extension_memory", [12] = "peer_agent_memory",
};

const char *ibs_data_src_name(unsigned src, int zen4)
{
	if (zen4)
		return src < IBS_DATA_SRC_N ? src_zen4[src] : NULL;
	return src < 8 ? src_pre_zen4[src] : NULL;
}

uint32_t ibs_uc_wc_permille(const struct ibs_hist *h)
{
	return td_permille(h->uc + h->wc, h->mem_ops);
}
