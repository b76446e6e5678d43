/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The memory behind a CXL window efiperf committed (cxl_decoders = commit): after the other
 * memory measurements, the window discovery planned (efi/cxl_discovery.h) is committed from the
 * host bridge down to the device (efi/pcie/cxl_commit.h), STREAM and the latency curve run with
 * every buffer in the window's HPA range (efi/pages.h pages_target: the UEFI memory map does not
 * hold it), their records' `cxl` object naming the device, window and offset of each buffer,
 * and every decoder register is put back through the one save-set (also on the fatal-exception
 * path, efi/cleanup.h). One `cxl_commit` record: the hops, committed before and after the
 * restore, `memory` (device, window, stream/latency ok, failed, off or not run, bytes used), the
 * restore report.
 */
#ifndef EFIPERF_CXL_MEMORY_H
#define EFIPERF_CXL_MEMORY_H

#include "efi/platform.h"
#include "efi/config/config.h"

/* 0, or -1 when the commit or a measurement on the window failed (an error record says which);
 * 0 at once when cxl_decoders is off. */
int cxl_memory_run(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg);

#endif
