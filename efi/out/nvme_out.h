/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The NVMe measurement's record writer: from a finished run (efi/measure/nvme_run.h), in the
 * order the run met them, the console lines, the `error` records (area "nvme", or "config" for
 * a limit Identify showed), one `nvme` record per point (bdf, disk, path, rw, window,
 * controllers, bs, iodepth, bytes, ns, bw_bytes, iops, clat_ns {p50, p99, max},
 * interrupts_masked, quiesced, verified, commands, failed, dma {data_bytes, sqe_bytes,
 * cqe_bytes, prp_bytes}, status, why, self_check, link_limit...) or skipped point (status
 * "skipped" and why), and one `nvme_controller` record per controller (bdf, path, bound_before,
 * Identify's sn, mn, mqes, max_transfer, lba_bytes, nsze, why, given_back, blockio_after).
 */
#ifndef EFIPERF_NVME_OUT_H
#define EFIPERF_NVME_OUT_H

#include "efi/measure/nvme_run.h"

void nvme_record(const struct nvme_request *q, const struct nvme_result *res);

#endif
