/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The NUMA matrix's record writer: from the request and result of numa_measure
 * (efi/measure/numa_run.h), after the run, the console header, an error record per cell that
 * could not be placed or did not run, the `numa_matrix` JSONL record (the nodes, latency_ns and
 * read_gbps [cpu node][memory node], each cell's quietness) and a console line per cell.
 */
#ifndef EFIPERF_NUMA_OUT_H
#define EFIPERF_NUMA_OUT_H

#include "efi/measure/numa_run.h"
#include "efi/out/jsonl.h"

void numa_record(const struct numa_request *req, const struct numa_result *res);

/* The array `key` of claims beside their measurements: {claim, unit ("ps" or "MB/s"), claimed,
 * measured, fraction (measured / claimed)}. */
void hmat_claims_json(struct json *j, const char *key, const struct numa_claim *k, int n);

#endif
