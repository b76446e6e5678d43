/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Arm CoreSight PMU (ARM IHI 0091, "Arm CoreSight Performance Monitoring Unit Architecture"),
 * found through ACPI APMT nodes (ARM DEN0117), programmed the way Linux's generic driver does
 * (drivers/perf/arm_cspmu/arm_cspmu.c, arm_cspmu.h): an uncore box family of its own, because
 * its shape is not the unit-control/CTL shape of pmu/uncore/box.h: every counter has its own
 * event type and two filter registers, counters are started by a write-1-to-set enable
 * register, the whole PMU by PMCR.E, and 64-bit counters on a page of their own.
 *
 * Register map (offsets from page 0 = APMT BaseAddress0, or page 1 = BaseAddress1 when the
 * node's DUAL_PAGE flag is set, else page 0; arm_cspmu.h):
 *   page 1: PMEVCNTR<n> 0x000 + 4n (counters <= 32 bits) or + 8n (wider: 64-bit registers)
 *   page 0: PMEVTYPER<n> 0x400 + 4n, PMCCFILTR 0x47C, PMEVFILT2R<n> 0x800 + 4n,
 *           PMEVFILTR<n> 0xA00 + 4n, PMCNTENSET 0xC00, PMCNTENCLR 0xC20, PMCFGR 0xE00,
 *           PMCR 0xE04, PMIIDR 0xE08, PMPIDR4 0xFD0, PMPIDR0..3 0xFE0..0xFEC.
 *
 * Sequence (one PMU, one window; overflow interrupts stay off: a window is short and a
 * 64-bit counter cannot wrap in it, a 32-bit one wraps once at most and deltas are modulo):
 *   start   PMCR, PMCNTENSET and PMCNTENCLR saved. PMCR.E already set, or a counter already
 *           enabled: the PMU belongs to someone else; nothing is written ("busy").
 *           Every implemented counter saved and written 0, then PMCR.P (and PMCR.C with a
 *           cycle counter) set: the reset of Linux arm_cspmu_reset_counters; skipped, with
 *           baselines only, when the PMU has more counters than the 32 indices the run can save
 *           (CSPMU_MAX_RESET). Per event: PMEVTYPER<n> and PMEVFILTR<n> (and
 *           PMEVFILT2R<n> where the PMU has it), or PMCCFILTR for the cycle counter (index 31);
 *           the counter read (baseline). PMCNTENSET = the events' counters; PMCR.E set.
 *   stop    PMCR.E clear; PMCNTENCLR = the events' counters; each counter read: a 64-bit
 *           counter with one 64-bit read when the node's ATOMIC flag is set, else high, low,
 *           high again until the two highs agree (arm_cspmu_read_reg64_hilohi).
 *   restore PMCNTENCLR for counters a failure left enabled, then every register written back
 *           to the value found, last saved first (pmu/saveset): counters included.
 * Every access goes through arch/hw.h MMIO (fault fixups, `trace = hw`); a failing access
 * stops the sequence with cspmu_run.why naming the register, and restore still runs.
 * Pure: builds on the host.
 */
#ifndef EFIPERF_UNCORE_CSPMU_H
#define EFIPERF_UNCORE_CSPMU_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"
#include "pmu/saveset.h"

/* IHI 0091 register offsets (arm_cspmu.h). */
#define CSPMU_PMEVCNTR       0x000u   /* page 1 */
#define CSPMU_PMEVTYPER      0x400u
#define CSPMU_PMCCFILTR      0x47Cu
#define CSPMU_PMEVFILT2R     0x800u
#define CSPMU_PMEVFILTR      0xA00u
#define CSPMU_PMCNTENSET     0xC00u
#define CSPMU_PMCNTENCLR     0xC20u
#define CSPMU_PMCFGR         0xE00u
#define CSPMU_PMCR           0xE04u
#define CSPMU_PMIIDR         0xE08u
#define CSPMU_PMPIDR4        0xFD0u
#define CSPMU_PMPIDR0        0xFE0u   /* PMPIDR0..3 at +4 each */
#define CSPMU_PAGE_SIZE      0x1000u

/* PMCFGR fields (arm_cspmu.h PMCFGR_N, PMCFGR_SIZE, PMCFGR_CC). */
#define CSPMU_PMCFGR_N_MASK      0xFFu       /* counters - 1, the cycle counter included */
#define CSPMU_PMCFGR_SIZE_SHIFT  8
#define CSPMU_PMCFGR_SIZE_MASK   0x3Fu       /* counter width - 1 */
#define CSPMU_PMCFGR_CC          (1u << 14)  /* dedicated cycle counter */
/* PMCR bits (arm_cspmu.h PMCR_E, PMCR_P, PMCR_C). */
#define CSPMU_PMCR_E             (1u << 0)
#define CSPMU_PMCR_P             (1u << 1)
#define CSPMU_PMCR_C             (1u << 2)
/* The cycle counter's physical index (arm_cspmu.h ARM_CSPMU_CYCLE_CNTR_IDX). */
#define CSPMU_CYCLE_IDX          31u
/* APMT node flags (DEN0117 table 2; ACPICA actbl2.h ACPI_APMT_FLAGS_*). */
#define CSPMU_APMT_DUAL_PAGE     (1u << 0)
#define CSPMU_APMT_AFF_CONTAINER (1u << 1)
#define CSPMU_APMT_ATOMIC        (1u << 2)

#define CSPMU_MAX_EVENTS 16     /* events of one window: no multiplexing */
#define CSPMU_MAX_RESET 32      /* counters saved around the PMCR.P|C reset (indices 0..31);
				 * a PMU with more counters is not reset (baselines only) */
#define CSPMU_SAVE_CAP (2 * CSPMU_MAX_RESET + 3 * CSPMU_MAX_EVENTS + 8)
#define CSPMU_HILO_TRIES 8      /* hi-lo-hi attempts before the read is called unsettled */

/* An APMT node as the backend needs it (efi/ copies it from the parsed table). */
struct cspmu_node {
	uint32_t id;              /* APMT Identifier */
	uint8_t type, flags;      /* DEN0117 node type; flags above */
	uint64_t base0, base1;    /* page 0, page 1 (used when DUAL_PAGE) */
	uint64_t inst_primary;    /* PCIe segment / ACPI _HID bytes */
	uint32_t inst_secondary;  /* ACPI _UID / cache ID */
	uint32_t affinity;        /* processor or processor-container UID */
	uint32_t impl_id;         /* non-zero: overrides PMIIDR */
};

enum cspmu_ident_src { CSPMU_ID_IMPL_ID, CSPMU_ID_PMIIDR, CSPMU_ID_PMPIDR };

/* What cspmu_probe found. */
struct cspmu_info {
	uint64_t page0, page1;
	uint8_t atomic;           /* 64-bit counters read with one 64-bit access */
	uint32_t pmcfgr, pmiidr_reg, pmpidr[5];   /* as read; pmpidr only when PMIIDR read 0 */
	uint32_t pmiidr;          /* identity used: impl_id, else PMIIDR, else built from PMPIDR */
	uint8_t ident_src;        /* enum cspmu_ident_src */
	uint16_t nlogical;        /* PMCFGR.N + 1 (cycle counter included) */
	uint16_t nevcntr;         /* event counters: nlogical - cc, at most 31 usable */
	uint8_t width;            /* PMCFGR.SIZE + 1 */
	uint8_t cc;               /* cycle counter present */
	hw_status read_status;    /* cspmu_probe's failed read (a fault at a wrong address), else HW_OK */
	uint64_t read_at;         /* and its address */
};

/* One event of a window: what its counter is programmed with. */
struct cspmu_event {
	uint32_t type;            /* PMEVTYPER value */
	uint32_t filt, filt2;     /* PMEVFILTR, PMEVFILT2R values (cycles: filt -> PMCCFILTR) */
	uint8_t cycles;           /* counts on the cycle counter */
	uint8_t use_filt;         /* write PMEVFILTR (Linux's PCIE-TGT backend never does) */
	uint8_t use_filt2;        /* the PMU has PMEVFILT2R (write it) */
	uint8_t counter;          /* physical index, set by cspmu_assign */
};

struct cspmu_run {
	struct saveset save;
	struct saved_reg saved[CSPMU_SAVE_CAP];
	uint64_t base[CSPMU_MAX_EVENTS], raw[CSPMU_MAX_EVENTS];
	uint32_t enabled;         /* PMCNTENSET bits this run set and has not cleared */
	uint32_t accesses;
	uint8_t reset;            /* the counters were reset (PMCR.C|P) */
	uint8_t busy;             /* start refused: PMCR.E or a counter enable was set */
	uint8_t hilo_retries;     /* hi-lo-hi re-reads taken (a carry between the halves) */
	int status;
	char why[160];
};

/* PMIIDR layout built from PMPIDR0..4 (pidr[0..4]) the way Linux does when PMIIDR reads 0
 * (arm_cspmu.c arm_cspmu_get_pmiidr, "perf/arm_cspmu: Add pmpidr support"): implementer
 * [11:0] = PMPIDR1[7:4] | PMPIDR2[2:0] << 4 | PMPIDR4[3:0] << 8, revision [15:12] = PMPIDR3[7:4],
 * variant [19:16] = PMPIDR2[7:4], product [31:20] = PMPIDR0[7:0] | PMPIDR1[3:0] << 8. */
uint32_t cspmu_pmiidr_from_pmpidr(const uint32_t pidr[5]);
/* Decode PMCFGR into info (nlogical, nevcntr, width, cc). */
void cspmu_decode_pmcfgr(uint32_t pmcfgr, struct cspmu_info *info);
/* Read PMCFGR, PMIIDR (and PMPIDR0-4 when PMIIDR is 0) of the node's PMU. 0, or -1 with why
 * naming the register and fault, or a base address of 0 / not 4 KiB aligned. */
/* 1 when nodes a and b have a register page in common (page 0, and page 1 where DUAL_PAGE):
 * one PMU that firmware lists twice, to be programmed once. */
int cspmu_pages_shared(const struct cspmu_node *a, const struct cspmu_node *b);

int cspmu_probe(const struct hw *hw, const struct cspmu_node *node, struct cspmu_info *info, char *why, size_t n);
/* Place events on counters: cycles on index 31 (needs PMCFGR.CC), others on 0, 1, ... in order.
 * -1 with why when there are more events than counters (no multiplexing) or no cycle counter. */
int cspmu_assign(const struct cspmu_info *info, struct cspmu_event *ev, uint32_t nev, char *why, size_t n);
/* The register addresses (for messages, models and tests). */
uint64_t cspmu_counter_addr(const struct cspmu_info *info, unsigned idx);
/* start / stop / restore as in the header comment; 0 or -1 (run->why). run is zeroed by start. */
int cspmu_start(const struct hw *hw, const struct cspmu_info *info, const struct cspmu_event *ev, uint32_t nev,
		struct cspmu_run *run);
int cspmu_stop(const struct hw *hw, const struct cspmu_info *info, const struct cspmu_event *ev, uint32_t nev,
	       struct cspmu_run *run);
int cspmu_restore(const struct hw *hw, const struct cspmu_info *info, struct cspmu_run *run);
/* Read counter idx (a 64-bit counter: atomic or hi-lo-hi). */
hw_status cspmu_read_counter(const struct hw *hw, const struct cspmu_info *info, unsigned idx, uint64_t *v,
			     uint8_t *retries);

#endif
