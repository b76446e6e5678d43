/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel tuner's result (arch/kernel_tune.h) as a JSON object, for the `stream` record's
 * `tuner` array and the `cache_bw` record's per-kernel `tuner`:
 *   { class (hex string), cpu, choice (variant name or null), probe_bytes, slices, reps,
 *     budget_ns, spent_ns, candidates: [ { kernel, verified, passes, mbps (MB/s = 10^6 bytes/s,
 *     null when not run) } ] }
 */
#ifndef EFIPERF_TUNE_JSON_H
#define EFIPERF_TUNE_JSON_H

#include <stdint.h>
#include "arch/kernel_tune.h"
#include "efi/out/jsonl.h"

/* One object (key NULL inside an array); hz: the timer the tuner ran with, ticks per second. */
void tune_json(struct json *j, const char *key, const struct kernel_tune *t, uint32_t class_id, uint32_t cpu,
	       uint64_t hz);

#endif
