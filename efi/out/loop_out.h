/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The known-instruction loop's record writer (efi/measure/loop_run.h): the `loop` record
 * (counter, iterations, valid, expected, masked {counted, extra}, masked_repeats,
 * masked_spread, unmasked, or why; per_cpu [{cpu, pmswinc_read, expected, counted, extra | why}])
 * and the `loop:` console line, a line per other CPU when there are several.
 */
#ifndef EFIPERF_LOOP_OUT_H
#define EFIPERF_LOOP_OUT_H

#include "efi/measure/loop_run.h"

void loop_record(const struct loop_request *req, const struct loop_result *res);

#endif
