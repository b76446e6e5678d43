/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Steps of the CHA programming sequence (pmu/intel_cha_program.c), each run on a CPU of the
 * socket through hw_run_on_cpu. cha_measure() (pmu/intel_cha_measure.c) strings them
 * together: setup, then per slice [switch], run, window, pause; restore on every exit path.
 */
#ifndef EFIPERF_INTEL_CHA_PROGRAM_H
#define EFIPERF_INTEL_CHA_PROGRAM_H

#include "pmu/uncore/intel_cha.h"

enum cha_step { CHA_STEP_SETUP, CHA_STEP_RUN, CHA_STEP_PAUSE, CHA_STEP_SWITCH, CHA_STEP_RESTORE };

/* One step on socket s for `group` (switch: from `prev`). 0, or -1 with res->why set by the
 * first failure (res->status -1). Restore writes back whatever is still marked written and
 * sets res->restore_failed when a write-back fails. */
int cha_step(const struct hw *hw, const struct cha_request *req, struct cha_result *res, uint32_t s,
	     enum cha_step op, uint32_t group, uint32_t prev);

/* Counters (bit c) and filters (bit f) any event of the request uses. */
uint8_t cha_counters_used(const struct cha_request *req);
uint8_t cha_filters_used(const struct cha_request *req);

#endif
