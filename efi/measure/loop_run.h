/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The known-instruction loop's request, run and result (efi/measure/shape.h): a loop of a known
 * retired-instruction count (efi/measure/known_loop.h) under the core counters (the run plan's
 * core_set, started before and stopped and restored after each loop), with interrupts masked
 * LOOP_MASKED_REPEATS times (a quiesced window counts the same every time) and once unmasked on
 * the boot CPU, then masked once on every other selected CPU (hw_run_on_cpu, one at a time).
 * The loop itself and what is asked of a CPU beyond struct hw go through request.ops, so the run
 * is pure; efi/out/loop_out.c writes the `loop` record.
 */
#ifndef EFIPERF_LOOP_RUN_H
#define EFIPERF_LOOP_RUN_H

#include <stdint.h>
#include "efi/measure/known_loop.h"
#include "efi/measure/shape.h"

#define LOOP_MASKED_REPEATS 10

struct loop_ops {
	/* the loop on the started counters s (known_loop_run) */
	void (*loop)(const struct core_set *s, uint64_t iterations, int masked, struct known_loop_result *r);
	/* on the CPU after its loop: what a read of a write-only register gives (Arm's
	 * PMSWINC_EL0 read is UNDEFINED, Arm ARM D23), HW_UNSUPPORTED where not asked */
	hw_status (*fixup)(const struct hw *hw, const struct core_set *s);
	/* why a CPU did not run (efi/mp.h mp_cpu_why), NULL when not known */
	const char *(*cpu_why)(uint32_t cpu);
};

struct loop_request {
	uint64_t iterations;                 /* loop_iterations */
	const struct core_set *core;         /* the core counters as the plan set them (copied per loop) */
	int ncpus;                           /* the selected CPUs, per_cpu */
	uint32_t cpu[WINDOW_MAX_CPUS];
	const struct loop_ops *ops;
};

struct loop_cpu_out {
	hw_status st;                        /* hw_run_on_cpu's */
	hw_status fixup;
	const char *why;                     /* st != HW_OK: ops->cpu_why's, NULL none */
	struct known_loop_result r;
};

struct loop_result {
	int no_state;                        /* the counters' working state could not be had */
	struct known_loop_result masked[LOOP_MASKED_REPEATS], unmasked;
	uint64_t lo, hi;                     /* the masked repeats' least and most counted */
	struct loop_cpu_out cpu[WINDOW_MAX_CPUS];
};

/* Returns 0; -1 when the working state could not be had (nothing ran). */
int loop_run(const struct measure_ctx *ctx, const struct loop_request *req, struct loop_result *res);

#endif
