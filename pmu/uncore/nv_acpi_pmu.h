/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NVIDIA Tegra410 PMUs that are ACPI devices rather than CoreSight PMUs (not in the APMT):
 * CMEM latency (_HID NVDA2021) and the C2C family NV-DLink (NVDA2020), NV-CLink (NVDA2022),
 * NVLink-C2C (NVDA2023). Register layouts and events are data (pmu/uncore/nv_cmem_latency.c,
 * pmu/uncore/nv_c2c.c); this file's one sequence reads them:
 *
 *   _CRS memory resources 0..n-1 are the n instances, resource n the broadcast region;
 *   _UID is the socket; _DSD cpu_en_mask / gpu0_en_mask / gpu1_en_mask (C2C, CLink) select
 *   the instances of each peer (Linux drivers/perf/nvidia_t410_c2c_pmu.c
 *   nv_c2c_pmu_init_filter; NV-DLink: all instances, peer CXL memory).
 *
 * Sequence (Linux drivers/perf/nvidia_t410_cmem_latency_pmu.c cmem_lat_pmu_enable/disable,
 * nvidia_t410_c2c_pmu.c nv_c2c_pmu_enable/disable), all control writes on the broadcast
 * region, each register saved (pmu/saveset) before its first write:
 *   [CG_CTRL = enable]  [CTRL = clear]  CTRL = enable   window   CTRL = disable
 *   read every event's counters in the selected instances and sum them (cycles: the first
 *   selected instance alone; C2C counters as two 32-bit halves, high-low-high), then each
 *   selected instance's overflow status registers (read only, as Linux does: CMEM STATUS 0x810,
 *   C2C_IN_STATUS 0x868 and C2C_OUT_STATUS 0x890; non-zero = a counter overflowed)
 *   [CTRL = clear]  restore (CTRL, CG_CTRL as found).
 * Counters restart from 0 when counting is enabled, so each count is the value read after
 * the window. Every MMIO access goes through arch/hw.h (traced with trace = hw).
 */
#ifndef EFIPERF_NV_ACPI_PMU_H
#define EFIPERF_NV_ACPI_PMU_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"
#include "pmu/event_string.h"
#include "pmu/latency.h"
#include "pmu/saveset.h"

#define NV_APMU_MAX_INST   16
#define NV_APMU_MAX_EVENTS 9
#define NV_APMU_MAX_REGS   3          /* counter registers summed per instance (CMEM MC0..2) */
#define NV_APMU_MAX_LAT    4
#define NV_APMU_MAX_STATUS 2          /* overflow status registers per instance (C2C in, out) */
#define NV_APMU_NO_REG     0xFFFF
#define NV_APMU_SAVE_CAP   4
#define NV_APMU_HILOHI_POLLS 1000     /* Linux nvidia_t410_c2c_pmu.c HILOHI_MAX_POLL */
#define NV_APMU_REGION     0x1000     /* bytes of a region the registers need (highest 0x8B4) */

/* The peer a C2C interface connects to (bit masks in nv_apmu_event.peers). */
enum nv_peer { NV_PEER_NONE = 1, NV_PEER_CPU = 2, NV_PEER_GPU = 4, NV_PEER_CXLMEM = 8 };

struct nv_apmu_event {
	const char *name;             /* Linux sysfs event name: "rd_req", "in_rd_cum_outs" */
	uint8_t id;                   /* its event= code */
	uint16_t reg[NV_APMU_MAX_REGS];
	uint8_t nreg;
	uint8_t first_only;           /* the cycle counter: one instance, not a sum */
	uint8_t peers;                /* enum nv_peer bits of the peers that expose it */
};

/* A latency formula: the events' indices in the type's table. */
struct nv_apmu_latency {
	const char *direction;        /* "rd", "in_rd", "out_wr" ... */
	uint8_t cum_outs, req;
};

struct nv_apmu_type {
	const char *hid;              /* "NVDA2021" */
	const char *pmu;              /* Linux PMU name without the socket: "nvidia_cmem_latency_pmu" */
	const char *source;           /* where the layout is from */
	uint8_t ninst;                /* instances: _CRS resources before the broadcast one */
	uint8_t regs64;               /* 64-bit registers (readq/writeq); else 32-bit, counters hi-lo-hi */
	uint8_t dsd_peers;            /* peers and instances from _DSD (C2C, CLink); else fixed_peer, all */
	uint8_t fixed_peer;           /* enum nv_peer */
	uint16_t ctrl, cg_ctrl;       /* offsets in the broadcast region; cg_ctrl NV_APMU_NO_REG: none */
	uint8_t has_clear;
	uint64_t ctrl_enable, ctrl_disable, ctrl_clear, cg_enable;
	uint8_t cycles;               /* index of the cycle-counter event */
	const struct nv_apmu_event *ev;
	uint8_t nev;
	const struct nv_apmu_latency *lat;
	uint8_t nlat;
	const struct ev_field *fields;  /* perf format fields (Linux format/ attributes): event, gpu_mask */
	uint8_t nfields;
	uint16_t status[NV_APMU_MAX_STATUS];  /* overflow status registers of an instance (read only) */
	uint8_t nstatus;
};

extern const struct nv_apmu_type nv_cmem_latency_type;     /* pmu/uncore/nv_cmem_latency.c */
extern const struct nv_apmu_type nv_nvdlink_type, nv_nvclink_type, nv_nvlink_c2c_type;   /* nv_c2c.c */

/* The type of an ACPI _HID, or NULL. */
const struct nv_apmu_type *nv_apmu_for_hid(const char *hid);
/* The _HIDs of every type into hid[0..max); returns how many. */
uint32_t nv_apmu_hids(const char **hid, uint32_t max);

/* _DSD properties the C2C types read (has_* 0: absent). */
struct nv_apmu_props {
	uint8_t has_cpu_en, has_gpu_en[2];
	uint32_t cpu_en, gpu_en[2];
};

/* One PMU instance as found in the ACPI namespace. */
struct nv_apmu_dev {
	const struct nv_apmu_type *type;
	uint32_t socket;
	char name[48];                /* "nvidia_cmem_latency_pmu_0" */
	uint64_t inst_base[NV_APMU_MAX_INST];
	uint64_t bcast_base;
	uint8_t peer;                 /* enum nv_peer */
	uint8_t npeers;
	uint32_t peer_mask[2];        /* instances of each peer */
	uint32_t inst_mask;           /* the instances read: union of the selected peers' masks */
	uint8_t gpu_mask;             /* peers selected (bit p: peer_mask[p]); all unless gpu_mask= */
	uint8_t gpu_mask_given;       /* set by an uncore_events string (nv_apmu_filter) */
	uint16_t ev_sel;              /* events read (bit e: ev[e]); 0: every visible event */
};

/* Fill *d from the device's _UID (socket), _CRS memory range bases (nbase of them, in _CRS
 * order) and _DSD properties. 0, or -1 with why: too few ranges (names how many are needed),
 * a C2C device whose _DSD enables no peer. */
int nv_apmu_setup(const struct nv_apmu_type *t, uint32_t socket, const uint64_t *base, uint32_t nbase,
		  const struct nv_apmu_props *props, struct nv_apmu_dev *d, char *why, size_t n);

/* Apply the uncore_events strings naming d (`<d->name>/.../`, ';'-separated; others skipped),
 * parsed with the type's format fields through pmu/event_string: named events or event=N select
 * the events read (d->ev_sel), gpu_mask=M (Linux nvidia_t410_c2c_pmu.c format gpu_mask =
 * config1:0-1, GPU-peer NVLink-C2C / NV-CLink only) selects the GPU peers whose instances are
 * summed: bit p = the instances of _DSD gpu<p>_en_mask; 0 = all (Linux get_filter_mask).
 * d->inst_mask becomes the union of the selected peers' masks. 0, or -1 with why: a parse error
 * (names the field), an event the peer does not expose, gpu_mask on a device whose peer is not a
 * GPU, a bit beyond the device's GPU peers, or two different gpu_mask values (one per PMU here). */
int nv_apmu_filter(struct nv_apmu_dev *d, const char *events, char *why, size_t n);

/* 1 when event e of the type is counted for the device's peer. */
int nv_apmu_visible(const struct nv_apmu_dev *d, const struct nv_apmu_event *e);

enum nv_apmu_state { NV_APMU_COUNTING, NV_APMU_NOT_ADVANCING };

struct nv_apmu_result {
	int status;                   /* 0, or -1 with why */
	char why[160];
	hw_status fault;              /* the failing access's status (a fault at a wrong _CRS address) */
	uint64_t fault_at;            /* and its MMIO address */
	uint8_t state;                /* enum nv_apmu_state: not-advancing when cycles stayed 0 */
	uint64_t window_ns;
	uint32_t nev;
	uint8_t ev[NV_APMU_MAX_EVENTS];                  /* indices of the events read */
	uint64_t count[NV_APMU_MAX_EVENTS];              /* summed over the selected instances */
	uint64_t inst[NV_APMU_MAX_EVENTS][NV_APMU_MAX_INST];   /* per instance (sum of its registers) */
	uint32_t nlat;
	struct latency lat[NV_APMU_MAX_LAT];
	const char *lat_direction[NV_APMU_MAX_LAT];
	uint8_t nstatus;              /* status registers read per instance (0: none) */
	uint64_t ovf_status[NV_APMU_MAX_INST][NV_APMU_MAX_STATUS];   /* per selected instance, after the window */
	uint32_t accesses;            /* MMIO accesses made */
	struct saveset_report restore;
	char restore_why[160];
	struct saveset save;
	struct saved_reg saved[NV_APMU_SAVE_CAP];
};

/* The window: runs the traffic, returns its duration in ns. */
typedef uint64_t (*nv_apmu_window_fn)(void *arg);

/* The sequence of the header comment. 0, or -1 with res->why (a faulting register is named);
 * every register written is restored on every path, failures named in res->restore. */
int nv_apmu_measure(const struct hw *hw, const struct nv_apmu_dev *d, nv_apmu_window_fn window, void *arg,
		    struct nv_apmu_result *res);
/* nv_apmu_measure in its phases, for a window driven from outside (a window attachment,
 * efi/measure/box_attach.h); nv_apmu_measure is exactly: nv_apmu_begin (saves, clock gate on,
 * counters cleared), nv_apmu_start (enabled), the window, nv_apmu_stop (disabled, the window's
 * ns), nv_apmu_read (counts read, cleared), nv_apmu_restore (every saved register back, the
 * restore report, latencies). begin / start / read / restore return res->status (0, or -1
 * with res->why); an error skips the phases after it but the restore. */
int nv_apmu_begin(const struct hw *hw, const struct nv_apmu_dev *d, struct nv_apmu_result *res);
int nv_apmu_start(const struct hw *hw, const struct nv_apmu_dev *d, struct nv_apmu_result *res);
void nv_apmu_stop(const struct hw *hw, const struct nv_apmu_dev *d, struct nv_apmu_result *res, uint64_t ns);
int nv_apmu_read(const struct hw *hw, const struct nv_apmu_dev *d, struct nv_apmu_result *res);
int nv_apmu_restore(const struct hw *hw, const struct nv_apmu_dev *d, struct nv_apmu_result *res);

#endif
