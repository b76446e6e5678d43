/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The copy measurement's record writer: from the request and result of copy_measure
 * (efi/measure/copy_run.h), after the run, the console lines (header, noise floor, per pass the
 * outlier CPUs, the pass's time and rate, the multiplexing line and the boot CPU's counters, the
 * best rate), with Arm PMUv3 and topdown = on a `topdown` record per pass, the `measurement`
 * record of kernel "copy" (passes with per-CPU times, rates, outliers and buffer placement, the
 * pass's core counters; best, mean, verified) and the error record of a failure.
 */
#ifndef EFIPERF_COPY_OUT_H
#define EFIPERF_COPY_OUT_H

#include "efi/measure/copy_run.h"
#include "efi/out/jsonl.h"

void copy_record(const struct copy_request *req, const struct copy_result *res);

#endif
