/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The MMIO measurement's record writer: from the request and result of mmio_measure
 * (efi/measure/mmio_run.h), after the run, the console header (the function, its IDs, the BAR),
 * per kernel a `measurement` record (bytes, rounds, accesses, ns, ns per access, GB/s,
 * quietness, noise floor, checksum or verified, the DMA window's self_check and link_limit) and
 * a console line, and an error record when a write did not read back.
 */
#ifndef EFIPERF_MMIO_OUT_H
#define EFIPERF_MMIO_OUT_H

#include "efi/measure/mmio_run.h"

void mmio_record(const struct mmio_request *req, const struct mmio_result *res);

#endif
