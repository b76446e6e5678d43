/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cache_bw's record writer: from the request and result of cache_bw_measure
 * (efi/measure/cache_bw_run.h), after the run, the console header, per level a `cache_bw` record
 * (sizes, and per kernel the kernel chosen, the tuner's result, the GB/s of one CPU, of all CPUs
 * and of each CPU, both windows' quietness) with a console line per kernel, and the error
 * records (arrays not allocated, a tuner that found no variant, a CPU that did not run).
 */
#ifndef EFIPERF_CACHE_BW_OUT_H
#define EFIPERF_CACHE_BW_OUT_H

#include "efi/measure/cache_bw_run.h"

void cache_bw_record(const struct cache_bw_request *req, const struct cache_bw_result *res);

#endif
