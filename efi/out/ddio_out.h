/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The DDIO sweep's record writer (efi/measure/ddio_run.h): the `ddio:` heading line, then per
 * point that ran one `ddio` record (point, points, buffer_bytes, bdf, path, interrupts_masked,
 * the read's members, io_llc_hit_ratio, self_check, link_limit) and its console line, then the
 * error that stopped the sweep or a point's failed read.
 */
#ifndef EFIPERF_DDIO_OUT_H
#define EFIPERF_DDIO_OUT_H

#include "efi/measure/ddio_run.h"

/* Returns 0, or -1 after an error record. */
int ddio_record(const struct ddio_request *req, const struct ddio_result *res);

#endif
