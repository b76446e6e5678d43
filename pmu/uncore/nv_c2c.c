/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NVIDIA Tegra410 C2C-type PMUs as data for pmu/uncore/nv_acpi_pmu.c: NVLink-C2C (ACPI _HID
 * NVDA2023, 14 instances), NV-CLink (NVDA2022, 12) and NV-DLink (NVDA2020, 16). Facts from Linux
 * drivers/perf/nvidia_t410_c2c_pmu.c (torvalds/linux 67f8bc848ee3): _CRS resources 0..n-1 are
 * the instances, resource n the broadcast region; 32-bit registers, 64-bit counters read as
 * two halves high-low-high; C2C_CTRL 0x864 (1 enable, 0 disable; counters restart from 0),
 * C2C_CYCLE_CNTR 0x86C, IN_RD_CUM_OUTS 0x874, IN_RD_REQ 0x87C, IN_WR_CUM_OUTS 0x884,
 * IN_WR_REQ 0x88C, OUT_RD_CUM_OUTS 0x898, OUT_RD_REQ 0x8A0, OUT_WR_CUM_OUTS 0x8A8,
 * OUT_WR_REQ 0x8B0; events 0x0..0x8 in that order. Events per peer (the driver's attribute
 * groups): a GPU peer has all nine, a CPU peer (cpu_en_mask) no *_wr_* events, CXL memory
 * (NV-DLink) cycles, in_rd_cum_outs and in_rd_req. Latency per direction:
 * Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst (IN_RD_AVG_LATENCY_IN_CYCLES =
 * IN_RD_CUM_OUTS / IN_RD_REQ ...). Format fields (the driver's format attributes): event =
 * config:0-3; gpu_mask = config1:0-1 for a GPU peer (NVLink-C2C, NV-CLink; bit p selects the
 * instances of _DSD gpu<p>_en_mask), none for NV-DLink. Overflow status, read per instance by
 * nv_c2c_pmu_check_status: C2C_IN_STATUS 0x868, C2C_OUT_STATUS 0x890.
 */
#include "pmu/uncore/nv_acpi_pmu.h"

#define C2C_CTRL             0x864
#define C2C_CYCLE_CNTR       0x86C
#define C2C_IN_RD_CUM_OUTS   0x874
#define C2C_IN_RD_REQ        0x87C
#define C2C_IN_WR_CUM_OUTS   0x884
#define C2C_IN_WR_REQ        0x88C
#define C2C_OUT_RD_CUM_OUTS  0x898
#define C2C_OUT_RD_REQ       0x8A0
#define C2C_OUT_WR_CUM_OUTS  0x8A8
#define C2C_OUT_WR_REQ       0x8B0
#define C2C_IN_STATUS        0x868
#define C2C_OUT_STATUS       0x890
#define C2C_CTRL_DISABLE     0x0
#define C2C_CTRL_ENABLE      0x1
#define C2C_INST_NVLINK      14
#define C2C_INST_NVCLINK     12
#define C2C_INST_NVDLINK     16

#define ALL (NV_PEER_CPU | NV_PEER_GPU | NV_PEER_CXLMEM)
#define RD (NV_PEER_CPU | NV_PEER_GPU)
#define WR NV_PEER_GPU

enum { EV_CYCLES, EV_IN_RD_CUM, EV_IN_RD_REQ, EV_IN_WR_CUM, EV_IN_WR_REQ, EV_OUT_RD_CUM, EV_OUT_RD_REQ,
       EV_OUT_WR_CUM, EV_OUT_WR_REQ };

static const struct nv_apmu_event events[] = {
	[EV_CYCLES] = { "cycles", 0x0, { C2C_CYCLE_CNTR }, 1, 1, ALL },
	[EV_IN_RD_CUM] = { "in_rd_cum_outs", 0x1, { C2C_IN_RD_CUM_OUTS }, 1, 0, ALL },
	[EV_IN_RD_REQ] = { "in_rd_req", 0x2, { C2C_IN_RD_REQ }, 1, 0, ALL },
	[EV_IN_WR_CUM] = { "in_wr_cum_outs", 0x3, { C2C_IN_WR_CUM_OUTS }, 1, 0, WR },
	[EV_IN_WR_REQ] = { "in_wr_req", 0x4, { C2C_IN_WR_REQ }, 1, 0, WR },
	[EV_OUT_RD_CUM] = { "out_rd_cum_outs", 0x5, { C2C_OUT_RD_CUM_OUTS }, 1, 0, RD },
	[EV_OUT_RD_REQ] = { "out_rd_req", 0x6, { C2C_OUT_RD_REQ }, 1, 0, RD },
	[EV_OUT_WR_CUM] = { "out_wr_cum_outs", 0x7, { C2C_OUT_WR_CUM_OUTS }, 1, 0, WR },
	[EV_OUT_WR_REQ] = { "out_wr_req", 0x8, { C2C_OUT_WR_REQ }, 1, 0, WR },
};

static const struct nv_apmu_latency latency[] = {
	{ "in_rd", EV_IN_RD_CUM, EV_IN_RD_REQ },
	{ "in_wr", EV_IN_WR_CUM, EV_IN_WR_REQ },
	{ "out_rd", EV_OUT_RD_CUM, EV_OUT_RD_REQ },
	{ "out_wr", EV_OUT_WR_CUM, EV_OUT_WR_REQ },
};

/* perf format: event = config:0-3; gpu_mask = config1:0-1 (GPU peer only) */
static const struct ev_field gpu_fields[] = {
	{ .name = "event", .reg = 0, .shift = 0, .bits = 4 },
	{ .name = "gpu_mask", .reg = 1, .shift = 0, .bits = 2 },
};
#define EVENT_ONLY 1   /* the first of gpu_fields alone: a CPU or CXL-memory peer */

#define C2C_TYPE(h, name, n, dsd, peer, nf) {                                    \
	.hid = h, .pmu = name, .source = "Linux drivers/perf/nvidia_t410_c2c_pmu.c", \
	.ninst = n, .regs64 = 0, .dsd_peers = dsd, .fixed_peer = peer,           \
	.ctrl = C2C_CTRL, .cg_ctrl = NV_APMU_NO_REG, .has_clear = 0,             \
	.ctrl_enable = C2C_CTRL_ENABLE, .ctrl_disable = C2C_CTRL_DISABLE,        \
	.cycles = EV_CYCLES, .ev = events, .nev = sizeof(events) / sizeof(events[0]), \
	.lat = latency, .nlat = sizeof(latency) / sizeof(latency[0]),             \
	.fields = gpu_fields, .nfields = nf,                                     \
	.status = { C2C_IN_STATUS, C2C_OUT_STATUS }, .nstatus = 2 }

const struct nv_apmu_type nv_nvlink_c2c_type = C2C_TYPE("NVDA2023", "nvidia_nvlink_c2c_pmu", C2C_INST_NVLINK, 1, 0, 2);
const struct nv_apmu_type nv_nvclink_type = C2C_TYPE("NVDA2022", "nvidia_nvclink_pmu", C2C_INST_NVCLINK, 1, 0, 2);
const struct nv_apmu_type nv_nvdlink_type = C2C_TYPE("NVDA2020", "nvidia_nvdlink_pmu", C2C_INST_NVDLINK, 0,
						     NV_PEER_CXLMEM, EVENT_ONLY);
