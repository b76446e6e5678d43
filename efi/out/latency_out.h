/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The latency curve's record writer: from the request and result of latency_measure
 * (efi/measure/latency_run.h) and the load-source evidence that rode on its windows
 * (efi/measure/ldsrc_run.h), after the run, the `latency` JSONL record (kernel, line bytes, the
 * noise floor, the evidence's events/table/state, per point bytes, ns and ticks per load, cycle
 * completeness, quietness and the evidence counts, then the CPU's caches, the knees and the
 * levels beside them) and the console lines (a line per point, one per level and knee), or the
 * error record when there was no buffer, and one when a chase did not come back.
 */
#ifndef EFIPERF_LATENCY_OUT_H
#define EFIPERF_LATENCY_OUT_H

#include "efi/measure/latency_run.h"
#include "efi/measure/ldsrc_run.h"

/* What the evidence was: its events ("" none), table (NULL none), why there is none, and the
 * attachment whose points hold the counts (NULL: no evidence). */
struct latency_evidence {
	const char *events, *table, *why;
	const struct ldsrc_attach *att;
};

void latency_record(const struct latency_request *req, const struct latency_result *res,
		    const struct latency_evidence *ev);

#endif
