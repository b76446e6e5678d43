/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CHA request as a box plan (pmu/uncore/box_program.h) and its steps, each run on a CPU of
 * the socket through hw_run_on_cpu. cha_measure() (pmu/uncore/intel_cha_measure.c) strings
 * them together: setup, then per slice [switch], run, window, pause; restore on every exit path.
 */
#ifndef EFIPERF_INTEL_CHA_PROGRAM_H
#define EFIPERF_INTEL_CHA_PROGRAM_H

#include "pmu/uncore/intel_cha.h"

/* The plan of req's groups and one package per socket (state and save set in res). */
void cha_sequence_init(const struct cha_request *req, struct cha_result *res);

/* One step on socket s for `group` (switch: from `prev`). 0, or -1 with res->why set by the
 * first failure (res->status -1). Restore leaves what it could not put back in res->save[s]. */
int cha_step(const struct hw *hw, const struct cha_request *req, struct cha_result *res, uint32_t s,
	     enum box_step op, uint32_t group, uint32_t prev);

#endif
