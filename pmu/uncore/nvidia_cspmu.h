/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NVIDIA CoreSight PMUs as data: which PMIIDR is which PMU, its Linux name, events, perf format
 * fields, filter defaults and formulas. Sources: Linux drivers/perf/arm_cspmu/nvidia_cspmu.c
 * (match table nv_cspmu_match[], event and format attribute lists, the per-PMU filter
 * callbacks), Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst (Tegra410 UCF, PCIE,
 * PCIE-TGT: events, filters, formulas) and nvidia-tegra241-pmu.rst / nvidia-pmu.rst (Grace).
 *
 * Tegra410: UCF (PMIIDR 0x2CF2036B), PCIE v2 (0x1030136B), PCIE-TGT (0x1070036B).
 * Grace (Tegra241): PCIE (0x1030036B), NVLink-C2C1 (0x1040036B), NVLink-C2C0 (0x1050036B),
 * CNVLink (0x1060036B), SCF (0x2CF0036B). Match: implementer 0x36B in PMIIDR[11:0], then
 * (PMIIDR & 0xFFFFF000) == the table's product/variant/revision. Another NVIDIA PMU runs as
 * Linux's fallback nvidia_uncore_pmu (event, filter = config1:0-31, default all ones); any other
 * implementer as a generic CoreSight PMU arm_cspmu: its cycle counter, or raw event=N.
 *
 * Event strings (perf syntax through pmu/event_string):
 *   nvidia_ucf_pmu_0/event=0x113,src_loc_cpu=1/       nvidia_ucf_pmu_0/mem_bytes_rd/
 *   nvidia_pcie_pmu_0_rc_1/event=0x0,src_rp_mask=0x1/ nvidia_pcie_tgt_pmu_0_rc_1/rd_bytes,dst_rp_mask=3/
 *   nvidia_pcie_tgt_pmu_0_rc_1/wr_bytes,dst_addr_base=0x10000,dst_addr_mask=0xFFF00,dst_addr_en=1/
 * fields named as Linux's format/ files name them; a filter left at 0 takes Linux's default.
 * The PCIE-TGT address-filter slot functions below live in pmu/uncore/nv_tgt_filter.c.
 * Pure: builds on the host.
 */
#ifndef EFIPERF_UNCORE_NVIDIA_CSPMU_H
#define EFIPERF_UNCORE_NVIDIA_CSPMU_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"
#include "pmu/event_string.h"
#include "pmu/saveset.h"
#include "pmu/self_check.h"
#include "pmu/uncore/cspmu.h"

#define NV_CSPMU_IMPLEMENTER 0x36Bu       /* JEP106 NVIDIA, PMIIDR[11:0] (nvidia_cspmu.c) */
#define NV_CSPMU_MATCH_MASK 0xFFFFF000u   /* product, variant, revision */
#define NV_CSPMU_EVT_CYCLES (1ull << 32)  /* ARM_CSPMU_EVT_CYCLES_DEFAULT, perf config bit 32 */
#define NV_CSPMU_NAME_MAX 48

/* What a count is, for metrics and the self-check. */
enum nv_role { NVR_NONE, NVR_BYTES_RD, NVR_BYTES_WR, NVR_REQ_RD, NVR_REQ_WR, NVR_CUM_OUTS_RD, NVR_CYCLES };
/* Which traffic the self-check compares a bytes event with. */
enum nv_check { NVC_NONE, NVC_CPU, NVC_DMA };

struct nv_cspmu_event {
	const char *name;
	uint64_t event;          /* perf config value (cycles: NV_CSPMU_EVT_CYCLES, PCIE-TGT: 0x4) */
	uint8_t role;            /* enum nv_role */
	uint8_t dflt;            /* in the default set of `uncore = on` */
	uint8_t chk;             /* its bytes enter the self-check */
};

/* A filter default: when (filter register reg & test) == 0, set `set` (nvidia_cspmu.c:
 * "filter 0 means all"). reg 1 = PMEVFILTR, 2 = PMEVFILT2R. */
struct nv_filter_default {
	uint8_t reg;
	uint32_t test, set;
};

struct nv_cspmu_desc {
	uint32_t match;               /* PMIIDR & NV_CSPMU_MATCH_MASK; 0: the generic entry */
	const char *soc, *unit;       /* "Tegra410", "UCF" */
	const char *pmu;              /* Linux name before _<socket>: "nvidia_ucf_pmu" */
	uint8_t per_rc;               /* name continues _rc_<n> */
	uint8_t no_filt;              /* never writes PMEVFILTR (PCIE-TGT) */
	uint8_t use_filt2;            /* writes PMEVFILT2R */
	uint8_t cc_filt;              /* PMCCFILTR gets the event's PMEVFILTR value (else 0) */
	uint8_t check;                /* enum nv_check of its bytes events */
	const struct ev_field *fields;
	uint8_t nfields;
	const struct nv_cspmu_event *events;
	uint8_t nevents;
	const struct nv_filter_default *dflt;
	uint8_t ndflt;
	const char *excl[2];          /* two fields that may not both be non-zero, or NULL */
	uint8_t addr_slots;           /* has the PCIE-TGT address-filter slots (PMEVFILT2R[15:8]) */
	uint8_t rp_reg;               /* filter register (1 PMEVFILTR, 2 PMEVFILT2R) whose [7:0] is the
				       * root-port mask pcie_pmu_rp sets; 0: none */
	uint32_t one_per_pmu_en, one_per_pmu_mask;   /* filter bits that, with the enable bit set,
						      * must agree for every event (one BDF per PCIE PMU) */
};

/* The table entry for a PMIIDR (the generic entry when none matches; never NULL). */
const struct nv_cspmu_desc *nv_cspmu_match(uint32_t pmiidr);

/* The i-th known NVIDIA entry of the table (i from 0), NULL past the last: `make events`. */
const struct nv_cspmu_desc *nv_cspmu_entry(unsigned i);
/* Linux's name of an instance: "<pmu>_<socket>" or "<pmu>_<socket>_rc_<rc>"; the fallback
 * entries: "nvidia_uncore_pmu_<apmt id>", "arm_cspmu_<apmt id>" (Linux numbers them in probe
 * order). */
size_t nv_cspmu_name(const struct nv_cspmu_desc *d, uint32_t socket, uint32_t rc, uint32_t apmt_id, char *buf,
		     size_t n);

/* ---- PCIE-TGT address filter (nvidia-tegra410-pmu.rst "PCIE-TGT PMU"; nvidia_cspmu.c) ----
 * A separate register block (the first memory resource of the PMU's companion ACPI device):
 * 8 slots of 0x14 bytes from 0xD38: CTRL +0 (1 = enable), BASE_LO +4, BASE_HI +8, MASK_LO +0xC,
 * MASK_HI +0x10. A transaction matches a slot when (addr & mask) == (base & mask); an event
 * selects slot s with PMEVFILT2R bit 8 + s, root ports with PMEVFILT2R[7:0]. */
#define NV_TGT_SLOTS 8
#define NV_TGT_SLOT0 0xD38u
#define NV_TGT_SLOT_STRIDE 0x14u
#define NV_TGT_FILT2_RP 0xFFu            /* PMEVFILT2R[7:0]: dst_rp_mask */
#define NV_TGT_FILT2_SLOTS 0xFF00u        /* PMEVFILT2R[15:8]: slot s at bit 8 + s */
#define NV_TGT_FILT2_ADDR_EN (1u << 8)    /* dst_addr_en as encoded (nvidia_cspmu_events.c), until
					   * nv_cspmu_request gives the event its slot bit */
struct nv_addr_range { uint64_t base, size; };
struct nv_tgt_slot { uint64_t base, mask; };

/* The events of one PMU instance for one window. */
struct nv_cspmu_req {
	const struct nv_cspmu_desc *d;
	char name[NV_CSPMU_NAME_MAX];
	uint32_t nev;
	struct cspmu_event ev[CSPMU_MAX_EVENTS];
	char spec[CSPMU_MAX_EVENTS][96];
	const char *evname[CSPMU_MAX_EVENTS];   /* named event, or NULL */
	uint8_t role[CSPMU_MAX_EVENTS], chk[CSPMU_MAX_EVENTS];
	uint8_t dropped;                        /* default events left out: too few counters */
	/* PCIE-TGT: the address-filter slots the events' dst_addr_en/base/mask ask for (one per
	 * distinct base/mask pair, in event order); each such event's PMEVFILT2R[15:8] selects its
	 * slot. Programmed only where the companion device's _CRS gives the block. */
	uint32_t nslots;
	struct nv_tgt_slot slot[NV_TGT_SLOTS];
};

/* Encode one perf string for PMU instance `name`. 0, or -1 with why naming the field. */
int nv_cspmu_encode(const struct nv_cspmu_desc *d, const char *name, const char *spec, size_t len,
		    struct cspmu_event *ev, const struct nv_cspmu_event **named, char *why, size_t n);
/* Build the request: `events` (';'-separated perf strings; those naming other PMUs are skipped)
 * or, when it names none of this instance's, the default set that fits info's counters.
 * PCIE-TGT events with dst_addr_en=1 get address-filter slots (req->slot: base, mask as given;
 * events with the same pair (compared as given) share one, as in Linux; more than 8 pairs is
 * an error).
 * Returns 1 when events is non-empty and names this PMU not at all (leave it out), 0, or -1
 * with why. Counters are assigned (cspmu_assign). */
int nv_cspmu_request(const struct nv_cspmu_desc *d, const char *name, const struct cspmu_info *info,
		     const char *events, struct nv_cspmu_req *req, char *why, size_t n);

#define NV_CSPMU_MAX_METRICS 16
struct nv_cspmu_metric {
	char name[40];
	uint64_t milli;               /* value x 1000 */
	char formula[96];
};
struct nv_cspmu_metrics {
	uint32_t n;
	struct nv_cspmu_metric m[NV_CSPMU_MAX_METRICS];
	uint64_t bytes;               /* bytes events summed (the self-check's numerator) */
	uint8_t have_bytes;
};
/* Formulas of nvidia-tegra410-pmu.rst over raw[] of a window of window_ns: per bytes event
 * GB/s = bytes / ns; per request event rate = req / cycles; freq_ghz = cycles / ns;
 * rd latency = rd_cum_outs / rd_req cycles and / freq_ghz ns (pmu/latency.h; only with
 * a cycles event and a window). */
void nv_cspmu_metrics(const struct nv_cspmu_req *req, const uint64_t *raw, uint64_t window_ns,
		      struct nv_cspmu_metrics *out);

/* Restrict every non-cycles event of req to root port rp (0..7) of its RC: the root-port mask
 * becomes 1 << rp (a BDF filter is dropped). 0, or -1 when the PMU has no root-port filter. */
int nv_cspmu_set_rp(struct nv_cspmu_req *req, unsigned rp);

/* The self-checked bytes events of req (UCF mem_bytes_*, PCIE rd_bytes / wr_bytes, Grace
 * rd_bytes_* / wr_bytes_*) summed per direction, seen from memory (pmu/self_check.h: read = read
 * from memory); have_* set where such an event ran. */
void nv_cspmu_bytes(const struct nv_cspmu_req *req, const uint64_t *raw, struct self_check_bytes *c);

/* Ranges (each a power-of-two size, aligned to it) -> slots. 0, or -1 with why naming the range. */
int nv_tgt_slots_from_ranges(const struct nv_addr_range *r, uint32_t nr, struct nv_tgt_slot *slot, char *why,
			     size_t n);
/* PMEVFILT2R of a PCIE-TGT event: root-port mask and slot bits (slot_mask bit s: slot s). */
uint32_t nv_tgt_filt2(uint32_t rp_mask, uint32_t slot_mask);
/* The PMU runs without its address filter (no companion block): every event's slot bits are
 * cleared and an event left with no root port takes the default of all root ports (0xFF), as
 * an event without dst_addr_en would; req->nslots becomes 0. */
void nv_cspmu_drop_slots(struct nv_cspmu_req *req);
/* Write slots 0..ns-1 (CTRL enable, BASE, MASK) into the block at `block` through save (every
 * register saved first, restored by saveset_restore). HW_OK or the first failure. */
hw_status nv_tgt_program_slots(const struct hw *hw, struct saveset *save, uint64_t block,
			       const struct nv_tgt_slot *slot, uint32_t ns);

#endif
