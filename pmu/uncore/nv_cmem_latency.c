/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NVIDIA Tegra410 CPU Memory (CMEM) latency PMU (ACPI _HID NVDA2021) as data for
 * pmu/uncore/nv_acpi_pmu.c. Facts from Linux drivers/perf/nvidia_t410_cmem_latency_pmu.c
 * (torvalds/linux 67f8bc848ee3): 14 instances (_CRS resources 0..13) and the broadcast region
 * (resource 14); 64-bit registers (readq/writeq) CG_CTRL 0x800, CTRL 0x808, STATUS 0x810,
 * CYCLE_CNTR 0x818, MC0_REQ 0x820, MC0_AOR 0x830, MC1_REQ 0x838, MC1_AOR 0x848, MC2_REQ 0x850,
 * MC2_AOR 0x860; CTRL 0 disable, 1 enable, 2 clear; CG_CTRL 1 enable, 0 disable; events
 * cycles 0x0 (instance 0's cycle counter), rd_req 0x1 (sum of MC0..2 REQ over the instances),
 * rd_cum_outs 0x2 (sum of MC0..2 AOR). Latency: Documentation/admin-guide/perf/
 * nvidia-tegra410-pmu.rst "CPU Memory (CMEM) Latency PMU": AVG_LATENCY_IN_CYCLES =
 * RD_CUM_OUTS / RD_REQ. Format: event = config:0-1. Overflow status: STATUS (read per instance
 * by cmem_lat_pmu_read_status; bit 0 cycles, 1/4/7 MC0..2 AOR, 3/6/9 MC0..2 REQ).
 */
#include "pmu/uncore/nv_acpi_pmu.h"

#define CMEM_INSTANCES   14
#define CMEM_CG_CTRL     0x800
#define CMEM_CTRL        0x808
#define CMEM_STATUS      0x810
#define CMEM_CYCLE_CNTR  0x818
#define CMEM_MC0_REQ     0x820
#define CMEM_MC0_AOR     0x830
#define CMEM_MC1_REQ     0x838
#define CMEM_MC1_AOR     0x848
#define CMEM_MC2_REQ     0x850
#define CMEM_MC2_AOR     0x860
#define CMEM_CTRL_DISABLE 0x0
#define CMEM_CTRL_ENABLE  0x1
#define CMEM_CTRL_CLR     0x2
#define CMEM_CG_ENABLE    0x1

enum { EV_CYCLES, EV_RD_REQ, EV_RD_CUM_OUTS };

static const struct nv_apmu_event events[] = {
	[EV_CYCLES] = { "cycles", 0x0, { CMEM_CYCLE_CNTR }, 1, 1, NV_PEER_NONE },
	[EV_RD_REQ] = { "rd_req", 0x1, { CMEM_MC0_REQ, CMEM_MC1_REQ, CMEM_MC2_REQ }, 3, 0, NV_PEER_NONE },
	[EV_RD_CUM_OUTS] = { "rd_cum_outs", 0x2, { CMEM_MC0_AOR, CMEM_MC1_AOR, CMEM_MC2_AOR }, 3, 0, NV_PEER_NONE },
};

static const struct ev_field fields[] = { { .name = "event", .reg = 0, .shift = 0, .bits = 2 } };

static const struct nv_apmu_latency latency[] = {
	{ "rd", EV_RD_CUM_OUTS, EV_RD_REQ },
};

const struct nv_apmu_type nv_cmem_latency_type = {
	.hid = "NVDA2021",
	.pmu = "nvidia_cmem_latency_pmu",
	.source = "Linux drivers/perf/nvidia_t410_cmem_latency_pmu.c",
	.ninst = CMEM_INSTANCES,
	.regs64 = 1,
	.fixed_peer = NV_PEER_NONE,
	.ctrl = CMEM_CTRL,
	.cg_ctrl = CMEM_CG_CTRL,
	.has_clear = 1,
	.ctrl_enable = CMEM_CTRL_ENABLE,
	.ctrl_disable = CMEM_CTRL_DISABLE,
	.ctrl_clear = CMEM_CTRL_CLR,
	.cg_enable = CMEM_CG_ENABLE,
	.cycles = EV_CYCLES,
	.ev = events,
	.nev = sizeof(events) / sizeof(events[0]),
	.lat = latency,
	.nlat = sizeof(latency) / sizeof(latency[0]),
	.fields = fields,
	.nfields = 1,
	.status = { CMEM_STATUS },
	.nstatus = 1,
};
