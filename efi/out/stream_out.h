/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * STREAM's record writer: from the request and result of stream_measure
 * (efi/measure/stream_run.h) and the vector state that rode on it (efi/measure/vec_run.h), after
 * the run: the console header as STREAM prints it, per function the tuner's failures, one
 * `stream` JSONL record (function, kernel and where it came from, the tuner's classes, CPUs,
 * bytes, passes, best rate, avg/min/max time, quietness, the noise floor, per CPU its rate,
 * kernel, outlier flag and buffer placement, the median, outliers, verified) and the console
 * line (best rate MB/s, avg/min/max time, kernel), then the `vector_state` record and line.
 */
#ifndef EFIPERF_STREAM_OUT_H
#define EFIPERF_STREAM_OUT_H

#include "efi/measure/stream_run.h"
#include "efi/measure/vec_run.h"

/* vec: the vector state's attachment, NULL when none rode on the run. */
void stream_record(const struct stream_request *req, const struct stream_result *res, const struct vec_attach *vec);

#endif
