/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * loaded_latency's record writer: from the request and result of ll_measure
 * (efi/measure/loaded_latency_run.h), after the run, the `loaded_latency` JSONL record (method,
 * chase CPU, bandwidth CPUs, bytes, emulated, per point the delay or null for idle, ok, ns per
 * load, read GB/s and bytes, the window's ns and quietness), the console header and a line per
 * point, and an error record per point that was not ok, or one when the buffers could not be had.
 */
#ifndef EFIPERF_LOADED_LATENCY_OUT_H
#define EFIPERF_LOADED_LATENCY_OUT_H

#include "efi/measure/loaded_latency_run.h"

void ll_record(const struct ll_request *req, const struct ll_result *res);

#endif
