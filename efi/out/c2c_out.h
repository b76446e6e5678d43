/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * c2c's record writer: from the request and result of c2c_measure (efi/measure/c2c_run.h),
 * after the run, the console header line, one error record per failed pair, the `c2c` JSONL
 * record (the CPUs with package, core, L3 domain and SRAT node, the min and median matrices in
 * ns, per-pair quietness, summaries per relation and node relation) and the median matrix as a
 * console table with a line per relation.
 */
#ifndef EFIPERF_C2C_OUT_H
#define EFIPERF_C2C_OUT_H

#include "efi/measure/c2c_run.h"

void c2c_record(const struct c2c_request *req, const struct c2c_result *res);

#endif
