/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel tuner: which variant of a kind (arch/kernel.h: ISA x parts x unroll x prefetch)
 * moves the most bytes per second on this CPU. Pure C, no EFI types: the UEFI app tunes per
 * CPU class inside an interrupt-masked window, `make bench` tunes the same way on Linux, and
 * the unit tests drive it with a fake timer.
 *
 * For one kind: every variant the CPU offers (table order, widest ISA first) is first checked
 * against the C reference (kernel_apply over a small odd-sized span at an odd 8-byte offset of
 * the probe arrays, both destinations compared; a wrong variant is never chosen), then timed by
 * successive halving: every verified variant makes one pass, then the faster half (by best pass
 * so far) one more each, then the faster half of those, down to the two fastest, who take turns
 * until the budget is spent; each round runs in the reverse order of the one before, so a slow
 * spell of the machine does not always fall on the same variants. A variant's rate is its best
 * pass (what the machine interferes with only ever slows a pass down). With `slices` > 1 each
 * timed pass works over the next of `slices` equal slices of the probe arrays in turn, so a
 * pass is shorter (more candidates fit the budget) and still comes from memory: between two
 * passes over one slice the others, (slices - 1) / slices of the probe footprint (more than the
 * LLC for a probe of twice it and 4 or more slices), went through the cache. Before each pass
 * the tuner asks whether the longest pass seen so far still fits in what is left of the budget
 * and stops when not, so the ticks spent stay within the budget unless the very first pass
 * alone is longer (one pass is always made: something has to be chosen). Variants never timed
 * are listed as not run.
 */
#ifndef EFIPERF_KERNEL_TUNE_H
#define EFIPERF_KERNEL_TUNE_H

#include <stdint.h>
#include "arch/kernel.h"
#include "arch/hw.h"

#define KERNEL_TUNE_MAX 64          /* candidates per kind */
#define KERNEL_TUNE_VERIFY_BYTES 8192u   /* bytes of each probe array the check uses (x2 for a) */

struct kernel_tune_cand {
	const struct kernel_desc *k;
	uint8_t verified;        /* matched the C reference */
	uint32_t passes;         /* timed passes made (0: not run, budget or not verified) */
	uint64_t bytes;          /* bytes per array of one pass (probe / streams / slices, a block multiple) */
	uint64_t app_bytes;      /* application bytes of one pass (kernel_app_bytes x reps) */
	uint64_t best_ticks;     /* the shortest pass, timer ticks */
};

struct kernel_tune {
	/* in */
	const struct kernel_desc *table;
	uint32_t n;
	enum kernel_kind kind;
	uint32_t isa;                  /* offered ISA mask on the CPU that runs the tuner */
	void *a;                       /* probe arrays, 64-byte aligned, each probe_bytes long; b and */
	void *b, *c;                   /* c hold finite doubles (triad); a is written */
	uint64_t probe_bytes;          /* footprint of all slices, all streams together (> the LLC) */
	uint32_t slices;               /* passes rotate over this many slices of it; 0 or 1: whole */
	uint32_t reps;                 /* kernel calls per timed pass over one slice; 0 or 1: one. A
					* probe that fits a cache level is tuned with reps > 1, so a
					* pass is long against the timer's resolution and the calls
					* after the first find the arrays in that level */
	uint64_t (*timer)(void);
	uint64_t budget_ticks;         /* for this kind, verification included */
	double scalar;
	/* out */
	int status;                    /* 0: choice set; -1 bad arguments or no offered variant;
					* -2 no variant matched the reference */
	uint32_t ncand;
	struct kernel_tune_cand cand[KERNEL_TUNE_MAX];
	int choice;                    /* index into cand, -1 when none */
	uint64_t spent_ticks;
	uint32_t next_slice;           /* internal: the slice the next pass uses */
};

/* Run the tuner (shapes above). Each array must hold max(probe_bytes, 2 x
 * KERNEL_TUNE_VERIFY_BYTES + 64) bytes. */
void kernel_tune(struct kernel_tune *t);

/* Candidate i's rate in MB/s (10^6 bytes/s) for a timer of hz: app_bytes x hz / best_ticks /
 * 10^6; 0 when not run. */
uint64_t kernel_tune_mbps(const struct kernel_tune_cand *c, uint64_t hz);

/* The arch backend (arch/<arch>/kernel_env.c; not on the host): last-level cache bytes of this
 * CPU (0 when unknown), and this CPU's class: CPUs of one class share the tuner's choice
 * (x86: the hybrid core type, 0 on non-hybrid CPUs; aarch64: MIDR_EL1 implementer and part). */
uint64_t arch_llc_bytes(const struct hw *hw);
uint32_t arch_cpu_class(void);

#endif
