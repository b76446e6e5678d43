/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Measurement windows: counters start, a kernel runs on the chosen CPUs at the same time,
 * counters stop. On the boot CPU the TPL is raised to TPL_HIGH_LEVEL (interrupts masked, UEFI
 * 2.10 section 7.1 RaiseTPL); APs run their MP-services procedure with interrupts masked too.
 * CPUs start together behind a barrier and time themselves with arch_timer_read(). Each
 * window records how quiet it was: interrupts masked or not, the SMI count delta (Intel
 * MSR_SMI_COUNT) and its span in ticks; window_noise_floor() runs the same window with an
 * empty kernel beside it.
 */
#ifndef EFIPERF_WINDOW_H
#define EFIPERF_WINDOW_H

#include <stdint.h>
#include "arch/hw.h"

#define WINDOW_MAX_CPUS 256

/* A kernel: runs once on one CPU over its own arguments, returns a value the caller checks
 * (a checksum, a sum) so the work cannot be optimised away. */
typedef uint64_t (*window_kernel)(void *arg);

struct window_cpu {
	uint32_t cpu;        /* MP services processor number */
	void *arg;           /* the kernel's arguments for this CPU */
	uint64_t t0, t1;     /* timer ticks when this CPU started / finished its kernel */
	uint64_t ret;        /* the kernel's return value */
	int irq_masked;      /* interrupts were masked on this CPU for its kernel */
	hw_status st;        /* HW_OK, or why this CPU did not run */
};

/* Counters attached to a window: start() right before the barrier opens, stop() right after
 * the last CPU finished, both on the boot CPU (they may use hw_run_on_cpu for other CPUs). */
struct window_counters {
	void (*start)(void *ctx);
	void (*stop)(void *ctx);
	void *ctx;
	/* Per-CPU counters (core PMUs are per CPU): called on each CPU of the window, on that CPU,
	 * with interrupts masked, right before and right after its kernel; i = its index in
	 * window_spec.cpus. Optional. */
	void (*cpu_start)(void *ctx, int i);
	void (*cpu_stop)(void *ctx, int i);
};

struct window_spec {
	window_kernel kernel;           /* NULL: an empty kernel (noise floor) */
	struct window_cpu *cpus;        /* ncpus entries; results are written back here */
	int ncpus;
	int mask_interrupts;            /* 1: quiesced window */
	const struct window_counters *counters;  /* optional */
	/* Optional: the boot CPU's own work while the window's CPUs run their kernel (the boot CPU
	 * must then not be one of `cpus`): called right after the barrier opened; the window ends
	 * when it returned and every CPU finished. The boot CPU's TPL is left as it is (the work
	 * may call firmware drivers that need their timer, e.g. Block IO): only `cpus` are masked,
	 * and window_result.boot_masked says 0. */
	void (*boot_work)(void *ctx);
	void *boot_ctx;
};

struct window_result {
	uint64_t span_ticks;            /* first start to last finish over all CPUs */
	int masked;                     /* every CPU ran with interrupts masked */
	int boot_masked;                /* the boot CPU's interrupts were masked (1 unless boot_work) */
	uint64_t boot_t0, boot_t1;      /* timer ticks around boot_work (0 without it) */
	int ran;                        /* CPUs that ran */
	hw_status smi_status;           /* HW_OK when the SMI count was read before and after */
	uint64_t smi_delta;             /* SMIs during the window (MSR_SMI_COUNT) */
};

/* Run the window. Returns 0 when every CPU ran, -1 otherwise (per-CPU st says why). */
int window_run(const struct hw *hw, const struct window_spec *s, struct window_result *r);

/* The same window (same CPUs and masking) with an empty kernel: its span is the floor under
 * every measurement of that window. */
int window_noise_floor(const struct hw *hw, const struct window_spec *s, struct window_result *r);

#endif
