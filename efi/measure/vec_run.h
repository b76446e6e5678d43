/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Full vector width for efiperf's own run, on every CPU it uses: the plan from the boot CPU's
 * CPUID / ID registers (arch/vecstate.h), vec_enable on each CPU through hw_run_on_cpu, and
 * vec_restore on each CPU when done, registered in the cleanup registry (efi/cleanup.h) while
 * enabled so the fatal-exception path restores it too. The vector kernels run only inside
 * interrupt-masked windows (efi/measure/window.h) while it is enabled.
 */
#ifndef EFIPERF_VEC_RUN_H
#define EFIPERF_VEC_RUN_H

#include <stdint.h>
#include "arch/hw.h"
#include "arch/vecstate.h"
#include "efi/measure/window.h"
#include "efi/out/jsonl.h"
#include "efi/measure/attach.h"

struct vec_run {
	struct vec_plan plan;
	int n;                         /* CPUs */
	struct vec_job jobs[WINDOW_MAX_CPUS];
	uint32_t isa_firmware;         /* arch_kernel_isa() on the boot CPU before enabling */
	uint32_t isa_enabled;          /* ... while enabled */
	uint32_t isa_after;            /* ... after restoring */
	int active;                    /* enabled, not yet restored */
	int slot;                      /* cleanup registry slot, -1 */
	int enabled, restored;         /* CPUs whose enable / restore read back as planned */
	const struct hw *hw;
};

/* Enable on cpus[0..n-1] (window_cpu .cpu numbers). Returns the number of CPUs that failed
 * (0 = all enabled, or nothing to enable: plan.why says why). */
int vec_run_enable(const struct hw *hw, struct vec_run *v, const struct window_cpu *cpus, int n);
/* Restore every CPU enabled by vec_run_enable and unregister the cleanup. Returns the number of
 * CPUs not restored (0 = all read back as the firmware had them). Idempotent. */
int vec_run_restore(struct vec_run *v);
/* The vector state as an attachment (efi/measure/attach.h) on a measurement's windows: prepare
 * enables it on cpus[0..n) (vec_run_enable; a CPU that failed is named in v, not a failure of
 * the attachment), restore puts it back (vec_run_restore; not_restored CPUs, -1 when any). */
struct vec_attach {
	struct vec_run v;
	const struct window_cpu *cpus;
	int n;
	int not_restored;
};
extern const struct attachment_ops vec_attach_ops;

/* The state as one JSON object under `key`: registers, what the firmware had (boot CPU), the
 * plan (or why none), what efiperf enabled, whether every CPU was restored and read back, the
 * kernel ISAs before/while/after, and every CPU's failure (step, status). */
void vec_run_json(struct json *j, const char *key, const struct vec_run *v);
/* "sse2 avx2" etc.: the kernel ISA bits of mask, space-separated, into buf. */
const char *vec_isa_list(uint32_t mask, char *buf, unsigned size);

#endif
