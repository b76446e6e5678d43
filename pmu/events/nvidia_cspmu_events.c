/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NVIDIA CoreSight PMU table (pmu/uncore/nvidia_cspmu.h). Event IDs, format fields and filter
 * defaults from Linux drivers/perf/arm_cspmu/nvidia_cspmu.c (mainline, with the Tegra410
 * series: UCF, PCIE, PCIE-TGT; revision-id matching; PMEVFILT2R support) and
 * Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst; Grace from nvidia-tegra241-pmu.rst.
 */
#include "pmu/uncore/nvidia_cspmu.h"

#define F(n, r, s, b) { .name = n, .reg = r, .shift = s, .bits = b }
#define EVENT33 F("event", 0, 0, 33)     /* format event=config:0-32 (bit 32: cycles) */
#define CYC NV_CSPMU_EVT_CYCLES
#define N(a) ((uint8_t)(sizeof(a) / sizeof((a)[0])))

/* ---- Tegra410 UCF: PMEVFILTR = config1 (source [2:0], destination [11:8]) ---------------- */
static const struct ev_field ucf_fields[] = {
	EVENT33,
	F("src_loc_noncpu", 1, 0, 1), F("src_loc_cpu", 1, 1, 1), F("src_rem", 1, 2, 1),
	F("dst_loc_cmem", 1, 8, 1), F("dst_loc_gmem", 1, 9, 1), F("dst_loc_other", 1, 10, 1), F("dst_rem", 1, 11, 1),
};
static const struct nv_cspmu_event ucf_events[] = {
	{ "cycles", CYC, NVR_CYCLES, 1, 0 },
	{ "bus_cycles", 0x1D, NVR_NONE, 0, 0 },
	{ "slc_allocate", 0xF0, NVR_NONE, 0, 0 },
	{ "slc_wb", 0xF3, NVR_NONE, 0, 0 },
	{ "slc_refill_rd", 0x109, NVR_NONE, 0, 0 },
	{ "slc_refill_wr", 0x10A, NVR_NONE, 0, 0 },
	{ "slc_access_rd", 0x111, NVR_REQ_RD, 1, 0 },
	{ "slc_access_wr", 0x112, NVR_REQ_WR, 1, 0 },
	{ "slc_bytes_rd", 0x113, NVR_BYTES_RD, 1, 0 },
	{ "slc_bytes_wr", 0x114, NVR_BYTES_WR, 1, 0 },
	{ "slc_hit_rd", 0x119, NVR_NONE, 0, 0 },
	{ "mem_access_rd", 0x121, NVR_REQ_RD, 1, 0 },
	{ "mem_access_wr", 0x122, NVR_REQ_WR, 1, 0 },
	{ "mem_bytes_rd", 0x123, NVR_BYTES_RD, 1, 1 },
	{ "mem_bytes_wr", 0x124, NVR_BYTES_WR, 1, 1 },
	{ "local_snoop", 0x180, NVR_NONE, 0, 0 },
	{ "ext_snp_access", 0x181, NVR_NONE, 0, 0 },
	{ "ext_snp_evict", 0x182, NVR_NONE, 0, 0 },
	{ "slc_access_dataless", 0x183, NVR_NONE, 0, 0 },
	{ "slc_access_atomic", 0x184, NVR_NONE, 0, 0 },
};
/* ucf_pmu_event_filter: no source bit -> all sources (0x7); no destination bit -> all (0xF00) */
static const struct nv_filter_default ucf_dflt[] = { { 1, 0x7, 0x7 }, { 1, 0xF00, 0xF00 } };

/* ---- Tegra410 PCIE: PMEVFILTR source (RP mask [7:0] or BDF [23:8] + enable [24]),
 * PMEVFILT2R destination [4:0] ------------------------------------------------------------ */
static const struct ev_field pcie_fields[] = {
	EVENT33,
	F("src_rp_mask", 1, 0, 8), F("src_bdf", 1, 8, 16), F("src_bdf_en", 1, 24, 1),
	F("dst_loc_cmem", 2, 0, 1), F("dst_loc_gmem", 2, 1, 1), F("dst_loc_pcie_p2p", 2, 2, 1),
	F("dst_loc_pcie_cxl", 2, 3, 1), F("dst_rem", 2, 4, 1),
};
static const struct nv_cspmu_event pcie_events[] = {
	{ "rd_bytes", 0x0, NVR_BYTES_RD, 1, 1 },
	{ "wr_bytes", 0x1, NVR_BYTES_WR, 1, 1 },
	{ "rd_req", 0x2, NVR_REQ_RD, 1, 0 },
	{ "wr_req", 0x3, NVR_REQ_WR, 1, 0 },
	{ "rd_cum_outs", 0x4, NVR_CUM_OUTS_RD, 1, 0 },
	{ "cycles", CYC, NVR_CYCLES, 1, 0 },
};
/* pcie_v2_pmu_event_filter: PMEVFILTR (config1 & 0x1FFFFFF) 0 -> 0xFF; nv_cspmu_event_filter2:
 * PMEVFILT2R 0 -> 0x1F */
static const struct nv_filter_default pcie_dflt[] = { { 1, 0x01FFFFFF, 0xFF }, { 2, 0x1F, 0x1F } };

/* ---- Tegra410 PCIE-TGT: event=config:0-2 (0x4 cycles), dst_rp_mask -> PMEVFILT2R[7:0];
 * dst_addr_en=config:11, dst_addr_base=config1:0-63, dst_addr_mask=config2:0-63 (Linux
 * pcie_tgt_pmu_format_attrs): dst_addr_en lands in PMEVFILT2R bit 8 (so the root-port default
 * stays off, as in Linux) until nv_cspmu_request gives the event its slot bit (nv_tgt_filt2);
 * base and mask are the slot's BASE / MASK (registers 3 and 4 of the encoding) ---------- */
static const struct ev_field tgt_fields[] = {
	F("event", 0, 0, 3), F("dst_rp_mask", 2, 0, 8), F("dst_addr_en", 2, 8, 1),
	F("dst_addr_base", 3, 0, 64), F("dst_addr_mask", 4, 0, 64),
};
static const struct nv_cspmu_event tgt_events[] = {
	{ "rd_bytes", 0x0, NVR_BYTES_RD, 1, 0 },
	{ "wr_bytes", 0x1, NVR_BYTES_WR, 1, 0 },
	{ "rd_req", 0x2, NVR_REQ_RD, 1, 0 },
	{ "wr_req", 0x3, NVR_REQ_WR, 1, 0 },
	{ "cycles", 0x4, NVR_CYCLES, 1, 0 },
};
static const struct nv_filter_default tgt_dflt[] = { { 2, 0xFFFF, 0xFF } };

/* ---- Grace (Tegra241) PCIE / NVLink-C2C0/1 / CNVLink: the "mcf" event list ---------------- */
static const struct nv_cspmu_event mcf_events[] = {
	{ "rd_bytes_loc", 0x0, NVR_BYTES_RD, 1, 1 },
	{ "rd_bytes_rem", 0x1, NVR_BYTES_RD, 1, 1 },
	{ "wr_bytes_loc", 0x2, NVR_BYTES_WR, 1, 1 },
	{ "wr_bytes_rem", 0x3, NVR_BYTES_WR, 1, 1 },
	{ "total_bytes_loc", 0x4, NVR_NONE, 0, 0 },
	{ "total_bytes_rem", 0x5, NVR_NONE, 0, 0 },
	{ "rd_req_loc", 0x6, NVR_REQ_RD, 1, 0 },
	{ "rd_req_rem", 0x7, NVR_REQ_RD, 0, 0 },
	{ "wr_req_loc", 0x8, NVR_REQ_WR, 0, 0 },
	{ "wr_req_rem", 0x9, NVR_REQ_WR, 0, 0 },
	{ "total_req_loc", 0xA, NVR_NONE, 0, 0 },
	{ "total_req_rem", 0xB, NVR_NONE, 0, 0 },
	{ "rd_cum_outs_loc", 0xC, NVR_CUM_OUTS_RD, 1, 0 },
	{ "rd_cum_outs_rem", 0xD, NVR_CUM_OUTS_RD, 0, 0 },
	{ "cycles", CYC, NVR_CYCLES, 1, 0 },
};
static const struct ev_field grace_pcie_fields[] = { EVENT33, F("root_port", 1, 0, 10) };
static const struct nv_filter_default grace_pcie_dflt[] = { { 1, 0x3FF, 0x3FF } };
static const struct ev_field c2c_fields[] = { EVENT33, F("port", 1, 0, 2) };
static const struct nv_filter_default c2c_dflt[] = { { 1, 0x3, 0x3 } };
static const struct ev_field cnvlink_fields[] = { EVENT33, F("rem_socket", 1, 0, 4) };
static const struct nv_filter_default cnvlink_dflt[] = { { 1, 0xF, 0xF } };

/* ---- Grace SCF (no filter; nvidia-tegra241-pmu.rst, the events kept upstream) ------------- */
static const struct ev_field event_only[] = { EVENT33 };
static const struct nv_cspmu_event scf_events[] = {
	{ "cycles", CYC, NVR_CYCLES, 1, 0 },
	{ "bus_cycles", 0x1D, NVR_NONE, 1, 0 },
	{ "scf_cache_allocate", 0xF0, NVR_NONE, 0, 0 },
	{ "scf_cache_refill", 0xF1, NVR_NONE, 0, 0 },
	{ "scf_cache", 0xF2, NVR_NONE, 1, 0 },
	{ "scf_cache_wb", 0xF3, NVR_NONE, 0, 0 },
	/* socket_<k>_<what>: four events from a base code, k = 0..3 (Linux NV_CSPMU_EVENT_ATTR_4) */
	{ "socket_0_rd_data", 0x101, NVR_NONE, 0, 0 },
	{ "socket_1_rd_data", 0x102, NVR_NONE, 0, 0 },
	{ "socket_2_rd_data", 0x103, NVR_NONE, 0, 0 },
	{ "socket_3_rd_data", 0x104, NVR_NONE, 0, 0 },
	{ "socket_0_wb_data", 0x109, NVR_NONE, 0, 0 },
	{ "socket_1_wb_data", 0x10A, NVR_NONE, 0, 0 },
	{ "socket_2_wb_data", 0x10B, NVR_NONE, 0, 0 },
	{ "socket_3_wb_data", 0x10C, NVR_NONE, 0, 0 },
	{ "socket_0_rd_outstanding", 0x115, NVR_NONE, 0, 0 },
	{ "socket_1_rd_outstanding", 0x116, NVR_NONE, 0, 0 },
	{ "socket_2_rd_outstanding", 0x117, NVR_NONE, 0, 0 },
	{ "socket_3_rd_outstanding", 0x118, NVR_NONE, 0, 0 },
	{ "socket_0_rd_access", 0x12D, NVR_NONE, 0, 0 },
	{ "socket_1_rd_access", 0x12E, NVR_NONE, 0, 0 },
	{ "socket_2_rd_access", 0x12F, NVR_NONE, 0, 0 },
	{ "socket_3_rd_access", 0x130, NVR_NONE, 0, 0 },
	{ "socket_0_wb_access", 0x135, NVR_NONE, 0, 0 },
	{ "socket_1_wb_access", 0x136, NVR_NONE, 0, 0 },
	{ "socket_2_wb_access", 0x137, NVR_NONE, 0, 0 },
	{ "socket_3_wb_access", 0x138, NVR_NONE, 0, 0 },
	{ "socket_0_wr_access", 0x139, NVR_NONE, 0, 0 },
	{ "socket_1_wr_access", 0x13A, NVR_NONE, 0, 0 },
	{ "socket_2_wr_access", 0x13B, NVR_NONE, 0, 0 },
	{ "socket_3_wr_access", 0x13C, NVR_NONE, 0, 0 },
	{ "socket_0_wr_data", 0x17C, NVR_NONE, 0, 0 },
	{ "socket_1_wr_data", 0x17D, NVR_NONE, 0, 0 },
	{ "socket_2_wr_data", 0x17E, NVR_NONE, 0, 0 },
	{ "socket_3_wr_data", 0x17F, NVR_NONE, 0, 0 },
	{ "gmem_rd_data", 0x16D, NVR_NONE, 0, 0 },
	{ "gmem_rd_access", 0x16E, NVR_NONE, 0, 0 },
	{ "gmem_rd_outstanding", 0x16F, NVR_NONE, 0, 0 },
	{ "gmem_wb_data", 0x173, NVR_NONE, 0, 0 },
	{ "gmem_wb_access", 0x174, NVR_NONE, 0, 0 },
	{ "gmem_wr_data", 0x179, NVR_NONE, 0, 0 },
	{ "gmem_wr_access", 0x17B, NVR_NONE, 0, 0 },
	{ "gmem_wr_total_bytes", 0x1A0, NVR_BYTES_WR, 0, 0 },
	{ "remote_socket_wr_total_bytes", 0x1A1, NVR_BYTES_WR, 0, 0 },
	{ "remote_socket_rd_data", 0x1A2, NVR_NONE, 0, 0 },
	{ "remote_socket_rd_outstanding", 0x1A3, NVR_NONE, 0, 0 },
	{ "remote_socket_rd_access", 0x1A4, NVR_NONE, 0, 0 },
	{ "cmem_rd_data", 0x1A5, NVR_NONE, 1, 0 },
	{ "cmem_rd_access", 0x1A6, NVR_REQ_RD, 1, 0 },
	{ "cmem_rd_outstanding", 0x1A7, NVR_NONE, 0, 0 },
	{ "cmem_wb_data", 0x1AB, NVR_NONE, 0, 0 },
	{ "cmem_wb_access", 0x1AC, NVR_NONE, 0, 0 },
	{ "cmem_wr_data", 0x1B1, NVR_NONE, 0, 0 },
	{ "cmem_wr_access", 0x1CA, NVR_REQ_WR, 1, 0 },
	{ "cmem_wr_total_bytes", 0x1DB, NVR_BYTES_WR, 1, 0 },
};

/* ---- any other CoreSight PMU: the cycle counter, or a raw event -------------------------- */
static const struct nv_cspmu_event generic_events[] = { { "cycles", CYC, NVR_CYCLES, 1, 0 } };

static const struct nv_cspmu_desc table[] = {
	{ .match = 0x2CF20000, .soc = "Tegra410", .unit = "UCF", .pmu = "nvidia_ucf_pmu", .cc_filt = 1, .check = NVC_CPU,
	  .fields = ucf_fields, .nfields = N(ucf_fields), .events = ucf_events, .nevents = N(ucf_events),
	  .dflt = ucf_dflt, .ndflt = N(ucf_dflt) },
	{ .match = 0x10301000, .soc = "Tegra410", .unit = "PCIE", .pmu = "nvidia_pcie_pmu", .per_rc = 1, .use_filt2 = 1,
	  .cc_filt = 1, .check = NVC_DMA, .fields = pcie_fields, .nfields = N(pcie_fields), .events = pcie_events,
	  .nevents = N(pcie_events), .dflt = pcie_dflt, .ndflt = N(pcie_dflt), .excl = { "src_rp_mask", "src_bdf_en" },
	  .rp_reg = 1, .one_per_pmu_en = 1u << 24, .one_per_pmu_mask = 0xFFFFu << 8 },
	{ .match = 0x10700000, .soc = "Tegra410", .unit = "PCIE-TGT", .pmu = "nvidia_pcie_tgt_pmu", .per_rc = 1,
	  .no_filt = 1, .use_filt2 = 1, .rp_reg = 2, .addr_slots = 1, .fields = tgt_fields, .nfields = N(tgt_fields),
	  .events = tgt_events, .nevents = N(tgt_events),
	  .dflt = tgt_dflt, .ndflt = N(tgt_dflt) },
	{ .match = 0x10300000, .soc = "Grace", .unit = "PCIE", .pmu = "nvidia_pcie_pmu", .cc_filt = 1, .check = NVC_DMA,
	  .fields = grace_pcie_fields, .nfields = N(grace_pcie_fields), .events = mcf_events, .nevents = N(mcf_events),
	  .dflt = grace_pcie_dflt, .ndflt = N(grace_pcie_dflt) },
	{ .match = 0x10400000, .soc = "Grace", .unit = "NVLink-C2C1", .pmu = "nvidia_nvlink_c2c1_pmu", .cc_filt = 1,
	  .fields = c2c_fields, .nfields = N(c2c_fields), .events = mcf_events, .nevents = N(mcf_events),
	  .dflt = c2c_dflt, .ndflt = N(c2c_dflt) },
	{ .match = 0x10500000, .soc = "Grace", .unit = "NVLink-C2C0", .pmu = "nvidia_nvlink_c2c0_pmu", .cc_filt = 1,
	  .fields = c2c_fields, .nfields = N(c2c_fields), .events = mcf_events, .nevents = N(mcf_events),
	  .dflt = c2c_dflt, .ndflt = N(c2c_dflt) },
	{ .match = 0x10600000, .soc = "Grace", .unit = "CNVLink", .pmu = "nvidia_cnvlink_pmu", .cc_filt = 1,
	  .fields = cnvlink_fields, .nfields = N(cnvlink_fields), .events = mcf_events, .nevents = N(mcf_events),
	  .dflt = cnvlink_dflt, .ndflt = N(cnvlink_dflt) },
	{ .match = 0x2CF00000, .soc = "Grace", .unit = "SCF", .pmu = "nvidia_scf_pmu", .fields = event_only,
	  .nfields = N(event_only), .events = scf_events, .nevents = N(scf_events) },
};

/* an NVIDIA PMU of no known product: Linux's fallback entry (filter = config1:0-31 to PMEVFILTR
 * and PMCCFILTR, filter2 = config2:0-31 to PMEVFILT2R, each defaulting to all ones) */
static const struct ev_field nv_generic_fields[] = { EVENT33, F("filter", 1, 0, 32), F("filter2", 2, 0, 32) };
static const struct nv_filter_default nv_generic_dflt[] = {
	{ 1, 0xFFFFFFFF, 0xFFFFFFFF }, { 2, 0xFFFFFFFF, 0xFFFFFFFF },
};
static const struct nv_cspmu_desc nv_generic = {
	.match = 0, .soc = "NVIDIA", .unit = "CoreSight PMU", .pmu = "nvidia_uncore_pmu", .cc_filt = 1, .use_filt2 = 1,
	.fields = nv_generic_fields, .nfields = N(nv_generic_fields), .events = generic_events,
	.nevents = N(generic_events), .dflt = nv_generic_dflt, .ndflt = N(nv_generic_dflt),
};

static const struct nv_cspmu_desc generic = {
	.match = 0, .soc = "unknown", .unit = "CoreSight PMU", .pmu = "arm_cspmu", .fields = event_only,
	.nfields = N(event_only), .events = generic_events, .nevents = N(generic_events),
};

const struct nv_cspmu_desc *nv_cspmu_match(uint32_t pmiidr)
{
	if ((pmiidr & 0xFFFu) != NV_CSPMU_IMPLEMENTER)
		return &generic;
	for (unsigned i = 0; i < N(table); i++)
		if ((pmiidr & NV_CSPMU_MATCH_MASK) == table[i].match)
			return &table[i];
	return &nv_generic;
}

const struct nv_cspmu_desc *nv_cspmu_entry(unsigned i)
{
	return i < N(table) ? &table[i] : NULL;
}
