/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one programming sequence of uncore PMON boxes, for every box type (pmu/uncore/box.h) and
 * access method: every register access goes through reg_read / saveset_write on a struct
 * reg_ref, so MSR, MMIO and PCI-config boxes share it. One struct box_package per package; its
 * steps run on a CPU of that package (uncore MSRs are package-scoped), the caller's job.
 *
 *   setup   per box: unit control saved and written frozen (a type without one, AMD DF/L3/UMC:
 *           every CTL written with its enable bit clear instead); every event select and filter any
 *           group writes saved (read) before the first write; the first group programmed; its
 *           counters read (the baseline). Then the package control saved and written with the
 *           type's unfreeze value, where the type has a package control.
 *   run     per box: unit control unfrozen (without one: the group's CTLs with ctl_en set).
 *   pause   per box: unit control frozen (without one: the group's CTLs with ctl_en clear); the group's counters read; delta modulo 2^ctr_bits.
 *   switch  per box (frozen): the event selects and filters that differ for the next group;
 *           the baseline of a counter the previous group did not use.
 *   restore every register written, last saved first, to the value read before its first
 *           write (saveset_restore); also after a failed access midway.
 * Counters are never reset or written: deltas come from baseline reads, so they need no restore.
 */
#ifndef EFIPERF_UNCORE_BOX_PROGRAM_H
#define EFIPERF_UNCORE_BOX_PROGRAM_H

#include "arch/hw.h"
#include "pmu/saveset.h"
#include "pmu/uncore/box.h"

#define BOX_MAX_GROUPS 16
/* Registers one box can have saved: unit control, event selects, filters; plus the package
 * control once per package. */
#define BOX_SAVE_PER_BOX (1 + BOX_MAX_COUNTERS + BOX_MAX_FILTERS)
#define BOX_SAVE_CAP(nboxes) ((nboxes) * BOX_SAVE_PER_BOX + 1)

/* What to program: per multiplexing group, what each counter counts and the filter values. */
struct box_plan {
	uint32_t ngroups;
	int8_t slot[BOX_MAX_GROUPS][BOX_MAX_COUNTERS];     /* result slot of counter c, -1: unused */
	uint64_t ctl[BOX_MAX_GROUPS][BOX_MAX_COUNTERS];    /* event select as written */
	uint64_t filter[BOX_MAX_GROUPS][BOX_MAX_FILTERS];
	uint8_t filters[BOX_MAX_GROUPS];                   /* bit f: the group programs filter f */
};

/* Per box: what its event selects and filters hold now, and the last counter values. */
struct box_state {
	uint64_t cur_ctl[BOX_MAX_COUNTERS], cur_filter[BOX_MAX_FILTERS];
	uint64_t last[BOX_MAX_COUNTERS];
};

/* One package's boxes of one type and the sequence's state there. Storage is the caller's:
 * box[nboxes], a saveset of BOX_SAVE_CAP(nboxes) registers, raw[] per plan slot. */
struct box_package {
	const struct uncore_box_type *type;
	const struct box_site *site;        /* NULL for MSR boxes */
	uint32_t nboxes;
	uint32_t first_box;                 /* box numbers first_box .. first_box + nboxes - 1 (a
					     * package of one AMD UMC of several); box[] by offset */
	struct box_state *box;
	struct saveset *save;
	uint64_t *raw;                      /* per slot: deltas summed over the boxes */
	uint32_t accesses;                  /* register accesses made, restore included */
	uint32_t cpu, socket;               /* for messages */
	int status;                         /* 0, or -1 after the first failed access */
	char why[160];                      /* that access: "write MSR 0xe22 (CTL1 of CHA 2) on CPU 1,
					     * socket 0: #GP" */
};

enum box_step { BOX_SETUP, BOX_RUN, BOX_PAUSE, BOX_SWITCH, BOX_RESTORE };

/* One step for `group` (switch: from `prev`) on the calling CPU. 0, or -1 (pk->why set by the
 * first failure; restore failures are left in pk->save for saveset_report_add). Steps other
 * than restore do nothing once pk->status is -1. */
int box_step(const struct hw *hw, struct box_package *pk, const struct box_plan *pl, enum box_step op,
	     uint32_t group, uint32_t prev);

/* box_step on CPU `cpu` through hw_run_on_cpu (uncore MSRs belong to a package). *run_st:
 * the status of getting there; returns box_step's result, or -1 when the CPU was not reached. */
int box_step_on(const struct hw *hw, uint32_t cpu, struct box_package *pk, const struct box_plan *pl,
		enum box_step op, uint32_t group, uint32_t prev, hw_status *run_st);
/* Add each set's restore to *r (zeroed by the caller); when a register was not put back or not
 * saved, why gets "<n> <what> register(s) not restored: MSR 0x.. (#GP), ..." and 1 is returned. */
int box_restore_report(const struct saveset *sets, uint32_t nsets, const char *what, struct saveset_report *r,
		       char *why, size_t n);

/* Counters (bit c) / filters (bit f) any group of the plan uses. */
uint8_t box_plan_counters(const struct box_plan *pl);
uint8_t box_plan_filters(const struct box_plan *pl);

#endif
