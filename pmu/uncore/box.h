/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Uncore PMON box types as data, after the shape of Linux's struct intel_uncore_type
 * (arch/x86/events/intel/uncore.h, instances in arch/x86/events/intel/uncore_snbep.c): how many
 * counters a box has and how wide, where its registers are (unit control of box n from a base
 * and stride or a table, the event selects, counters and filters as offsets from it), the unit
 * control bits, the event-select bits an event may set, the counter constraints, the
 * package-wide control and the access method (MSR, MMIO, PCI config). A new box (IIO, IMC, AMD
 * DF/L3/UMC) is an entry of this struct plus its events; the one programming sequence
 * (pmu/uncore/box_program.h) reads these entries and never branches on a box's name.
 * Pure header: builds on the host.
 */
#ifndef EFIPERF_UNCORE_BOX_H
#define EFIPERF_UNCORE_BOX_H

#include <stdint.h>
#include "pmu/saveset.h"

#define BOX_MAX_COUNTERS 8        /* AMD L3 has 6 (Linux arch/x86/events/amd/uncore.c) */
#define BOX_MAX_FILTERS 2
#define BOX_NO_REG 0x7FFF         /* offset of a register the box type does not have */

enum box_access { BOX_ACCESS_MSR, BOX_ACCESS_MMIO, BOX_ACCESS_PCI };
enum box_reg { BOX_REG_UNIT_CTL, BOX_REG_CTL, BOX_REG_CTR, BOX_REG_FILTER, BOX_REG_STATUS };

/* An event code that may count only on some counters (Linux struct event_constraint). */
struct box_constraint {
	uint8_t event;
	uint8_t counters;             /* bit c: counter c allowed */
};

struct uncore_box_type {
	const char *name;             /* "CHA": names registers in messages ("CTL1 of CHA 2") */
	uint8_t access;               /* enum box_access */
	uint8_t num_counters;         /* <= BOX_MAX_COUNTERS */
	uint8_t ctr_bits;             /* counter width: deltas are taken modulo 2^ctr_bits */
	uint8_t reg_step;             /* address units between consecutive CTLs / CTRs (MSR: 1) */
	uint8_t ctl_step, ctr_step;   /* when set: the CTL / CTR step on its own (AMD: 2, the
				       * control and counter MSRs interleave; Intel IMC MMIO: 4 / 8) */
	uint16_t max_boxes;
	/* unit control of box n: box_ctl_table[n] when set, else box_ctl + n * box_stride */
	uint32_t box_ctl, box_stride;
	const uint32_t *box_ctl_table;
	/* registers as offsets (address units) from the box base (box_ctl of box n), BOX_NO_REG
	 * when absent. unit_ctl absent (AMD DF/L3/UMC): the box has no freeze bit; every counter
	 * starts and stops with its CTL enable bit (ctl_en), the setup writes the CTLs disabled. */
	int16_t unit_ctl, ctl0, ctr0, filter[BOX_MAX_FILTERS], status;
	uint8_t ctr_split32;          /* counters read as two 32-bit halves, low then high (PCI
				       * config space: Linux uncore_snbep.c snbep_uncore_pci_read_counter) */
	uint8_t mmio_ctl32;           /* MMIO box: unit control and event selects are 32-bit
				       * registers, counters 64-bit (Linux uncore_snbep.c
				       * snr_uncore_mmio_enable_event writel, uncore_mmio_read_counter readq) */
	uint64_t box_frz, box_rst_ctrl, box_rst_ctrs;   /* unit control bits */
	uint64_t ctl_en;              /* event-select enable bit; 0 where it is reserved */
	uint64_t event_mask;          /* event-select bits an event may set (besides ctl_en) */
	const struct box_constraint *constraints;
	uint8_t nconstraints;
	/* package-wide uncore control (same access method): the value that lets every box count;
	 * global_ctl 0: the type has none */
	uint32_t global_ctl;
	uint64_t global_unfreeze;
};

/* Where a box's registers live beyond its type: the MMIO base added to every address, the PCI
 * function of a PCI-config box, or the MSR base added to every MSR index (a box whose unit
 * control the uncore discovery table gives: pmu/uncore/intel_discovery.h). MSR boxes at
 * fixed addresses need none (NULL). */
struct box_site {
	uint64_t mmio_base;
	struct hw_pci_addr pci;
	uint32_t msr_base;
};

/* Register `r` (index i: counter or filter number) of box n. Valid for n < max_boxes and an
 * existing register (box_has). BOX_REG_UNIT_CTL of a type without one: the box base. */
struct reg_ref box_reg(const struct uncore_box_type *t, const struct box_site *site, unsigned n, enum box_reg r,
		       unsigned i);
/* The package-wide control register (valid when box_has_global). */
struct reg_ref box_global_reg(const struct uncore_box_type *t, const struct box_site *site);
/* 1 when the type has register r (index i). */
int box_has(const struct uncore_box_type *t, enum box_reg r, unsigned i);
int box_has_global(const struct uncore_box_type *t);
/* Counters (bit c) an event code may use. */
uint8_t box_event_counters(const struct uncore_box_type *t, uint8_t event);
/* Unit control values derived from the one found: frozen (counting stopped, resets clear) and
 * unfrozen. */
uint64_t box_frozen(const struct uncore_box_type *t, uint64_t found);
uint64_t box_unfrozen(const struct uncore_box_type *t, uint64_t found);
/* The counter mask (ctr_bits wide). */
uint64_t box_ctr_mask(const struct uncore_box_type *t);

#endif
