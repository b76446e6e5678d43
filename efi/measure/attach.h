/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What rides on a window: attachments. A window is traffic (the kernels on its CPUs, or the
 * boot CPU's work) plus any list of attachments. An attachment is one source of evidence about
 * the window: a counter set (core PMU, CHA, uncore boxes, IIO, CoreSight or NVIDIA ACPI PMUs,
 * CXL CPMU), the quietness record, or a health source (PCIe AER and link status, machine-check
 * banks, energy and frequency counters). Every kind has the same life:
 *
 *   prepare   save what it will write (through the one save-set) and program; once, before
 *             the first window it rides on
 *   start     right before the barrier opens, on the boot CPU, interrupts masked
 *   cpu_start / cpu_stop   optional: on each CPU of the window, on that CPU, around its kernel
 *   stop      right after the last CPU finished, on the boot CPU
 *   read      after stop: turns what it saw into its own result struct (self->result)
 *   restore   every register it wrote back as found, or named as failed; called on every exit
 *             path, also when prepare failed half way
 *
 * All of it goes through the ctx's struct hw, so the same attachment runs on the register
 * model on the host. An attachment whose prepare failed is skipped by start/stop/read and its
 * st/why say why (a record writes that why in place of its values).
 */
#ifndef EFIPERF_ATTACH_H
#define EFIPERF_ATTACH_H

#include <stdint.h>
#include "arch/hw.h"
#include "efi/measure/window.h"

struct attachment;

/* The slice a window driver is in (attach_run_slices): slice k of n, and once the traffic of
 * that slice ended, its duration in ns (what stop() reads: multiplexed counters scale by it). */
struct attach_slice {
	uint32_t k, n;
	uint64_t ns;
};

struct attachment_ops {
	const char *kind;   /* the record's name for it: "core_pmu", "cha", "iio", "aer", "mca", ... */
	/* 0 ready; -1 not usable (a->st and a->why set). May allocate through its own state. */
	int (*prepare)(struct attachment *a, const struct hw *hw);
	void (*start)(struct attachment *a, const struct hw *hw);
	void (*stop)(struct attachment *a, const struct hw *hw);
	void (*cpu_start)(struct attachment *a, const struct hw *hw, int i);   /* optional */
	void (*cpu_stop)(struct attachment *a, const struct hw *hw, int i);    /* optional */
	/* 0 result filled; -1 a->st/why set. Optional (start/stop may fill the result). */
	int (*read)(struct attachment *a, const struct hw *hw);
	/* 0 everything it wrote is back; -1 some register could not be put back (named through
	 * the save-set's failure list). Optional for read-only attachments. */
	int (*restore)(struct attachment *a, const struct hw *hw);
};

struct attachment {
	const struct attachment_ops *ops;
	void *self;            /* the kind's own state and result */
	hw_status st;          /* HW_OK, or why it is not counting */
	const char *why;       /* static text when st != HW_OK; NULL otherwise */
	int prepared;          /* prepare returned 0 */
	/* Set by prepare: the windows it needs to count everything (multiplexed groups x rounds);
	 * 0 or 1: one. attach_run_slices runs the traffic as many times as the largest asks. */
	uint32_t nslices;
	const struct attach_slice *slice;   /* the list's, set by attach_prepare_all */
};

/* A window's attachments: n entries of a, all riding on the same windows. */
struct attach_list {
	struct attachment *a;
	int n;
	const struct hw *hw;
	struct window_counters wc;   /* what window_spec.counters points to (attach_counters) */
	struct attach_slice slice;   /* attach_run_slices' current slice */
};

/* prepare every attachment; returns how many are ready (an unusable one is no failure of the
 * window: it says why in its own st/why). */
int attach_prepare_all(struct attach_list *l);

/* window_spec.counters for the list: start/stop/cpu_start/cpu_stop call each ready attachment
 * in list order (stop in reverse order, so the first started is the last stopped). */
const struct window_counters *attach_counters(struct attach_list *l);

/* read every ready attachment after the window; returns how many read. */
int attach_read_all(struct attach_list *l);

/* restore every attachment that was prepared (also half-prepared ones), in reverse order;
 * returns 0 when every one put its registers back, -1 when any could not. */
int attach_restore_all(struct attach_list *l);

/* One slice of a window's traffic (cha_window_fn's shape): slice k of n; returns its ns. */
typedef uint64_t (*attach_traffic_fn)(void *arg, uint32_t slice, uint32_t nslices);

/* Run traffic in slices under the prepared list: n = the largest nslices of a ready attachment
 * (at least 1); for each slice every ready attachment starts (list order), the traffic runs, its
 * ns goes to l->slice.ns, every one stops (reverse order). The traffic runs all n slices even
 * when an attachment failed midway (that one says why). Returns the sum of the slices' ns. */
uint64_t attach_run_slices(struct attach_list *l, attach_traffic_fn traffic, void *arg);

/* The attachment of kind `kind` in l, NULL when absent. */
struct attachment *attach_find(const struct attach_list *l, const char *kind);

#endif
