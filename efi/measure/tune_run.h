/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel tuner (arch/kernel_tune.h) on one CPU inside an interrupt-masked window (efiperf's
 * window protocol, efi/measure/window.h): the CPU's offered ISAs are asked on that CPU, so a
 * variant is only ever timed where it can run.
 */
#ifndef EFIPERF_TUNE_RUN_H
#define EFIPERF_TUNE_RUN_H

#include <stdint.h>
#include "arch/hw.h"
#include "arch/kernel_tune.h"

/* Fill t's inputs except isa, then call: t->isa becomes cpu's offered ISAs (arch_kernel_isa),
 * restricted to isa_only when it is not 0 (`kernel = avx2` and the like). Returns 0 when the
 * tuner chose (t->status 0), else -1 (the window did not run, or t->status says why). */
int tune_run_on(const struct hw *hw, uint32_t cpu, struct kernel_tune *t, uint32_t isa_only);

#endif
