/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Uncore boxes as window attachments (efi/measure/attach.h): the CHA set (pmu/uncore/intel_cha.h),
 * any box-type request (pmu/uncore/uncore.h: AMD DF/L3/UMC, Intel IMC, IIO), the IIO part
 * counts of one DMA device (pmu/uncore/iio_attrib.h) and the UPI links (pmu/uncore/intel_upi.h). Each is the same sequence in its phases:
 *   prepare  registers saved, boxes frozen, group 0 programmed (cha_begin / unc_begin);
 *            nslices = groups x rounds, so multiplexed groups each get slices of the traffic
 *   start    switch to slice k's group when it changes, run       (cha/unc_slice_start)
 *   stop     freeze, read the deltas, add the slice's ns            (cha/unc_slice_stop)
 *   read     scale by window / group time, metrics                  (cha/unc_finish)
 *   restore  every saved register written back, the restore report (a register not put back is
 *            named in res->restore_why and fails the result); then the self-check against the
 *            bytes the window moved (read now: the traffic has ended)
 * Pure over struct hw: tests/unit/test_box_attach.c runs them on the register models.
 */
#ifndef EFIPERF_BOX_ATTACH_H
#define EFIPERF_BOX_ATTACH_H

#include "efi/measure/attach.h"
#include "efi/measure/iio_window.h"
#include "pmu/self_check.h"
#include "pmu/uncore/intel_cha.h"
#include "pmu/uncore/uncore.h"
#include "pmu/uncore/iio_attrib.h"
#include "pmu/uncore/nv_acpi_pmu.h"
#include "pmu/uncore/intel_upi.h"

/* kind "cha": req and res are the caller's (large: pool memory). After restore, sc is the
 * self-check of res's PCIe bytes against *expected (NULL or zero bytes: no_dma_why says why
 * nothing is compared), or absent with res->why when the counters failed. */
struct cha_attach {
	const struct cha_request *req;
	struct cha_result *res;
	const struct self_check_bytes *expected;
	const char *no_dma_why;
	struct self_check sc;
	int begun, running;
};
extern const struct attachment_ops cha_attach_ops;

/* kind "uncore": one box type's request around the window (no self-check of its own: the
 * request's known bytes give res->total's, pmu/uncore/uncore.h). req and res are the caller's. */
struct unc_attach {
	const struct unc_request *req;
	struct unc_result *res;
	int begun, running;
};
extern const struct attachment_ops unc_attach_ops;

/* The IIO part of a DMA window: the platform's IIO table, its units and each socket's checked
 * stack map, and the CPU doing each socket's register work. */
struct iio_plan {
	const struct intel_uncore_platform *ip;
	struct iio_units *units;
	struct iio_map *maps;        /* nsock */
	uint32_t nsock;
	uint32_t cpu[UNC_MAX_PKGS];
};

/* kind "iio": the part counts of dev (placed by the plan's maps) against *expected: a box
 * request built in prepare (box.req, box.res: the caller's; box first, so start, stop and read
 * are the uncore attachment's). skip_why: the window's bytes are not dev's alone: not usable, the
 * self-check absent with that why. After restore, out->sc and out->place are the window's
 * iio_self_check and iio_part (out->on = 1). */
struct iio_attach {
	struct unc_attach box;
	struct unc_request *req;      /* box.req, writable: the device's request is built into it */
	const struct iio_plan *plan;
	struct hw_pci_addr dev;
	const struct self_check_bytes *expected;
	const char *skip_why;
	struct iio_window_result *out;
	char why[200];
	int requested;
};
extern const struct attachment_ops iio_attach_ops;

/* kind "upi": the UPI link request (pmu/uncore/intel_upi.h upi_request: every link's TxL / RxL
 * ALL_DATA flits) as the uncore attachment (box first: prepare, start, stop and read are its),
 * and at restore a self-check of the link bytes against the bytes the window's kernel moved
 * across nodes (pmu/self_check.h). For CPUs on one socket touching the memory of socket
 * mem_socket: "read" is what crossed from mem_socket to the CPUs (data bytes mem_socket's links
 * transmitted), "write" what crossed to it (data bytes the other sockets' links transmitted).
 * A NUMA-matrix or STREAM window on a remote node gives expected; NULL or zero: absent. */
struct upi_attach {
	struct unc_attach box;
	uint16_t mem_socket;
	const struct self_check_bytes *expected;
	struct self_check sc;          /* after restore */
	uint64_t tx_bytes[2];          /* after restore: [0] transmitted by mem_socket's links, [1] by the others' */
};
extern const struct attachment_ops upi_attach_ops;

/* kind "nv_apmu": an NVIDIA ACPI-namespace PMU (pmu/uncore/nv_acpi_pmu.h) around the window:
 * prepare = nv_apmu_begin, start / stop = enable / disable (stop records the slice's ns), read =
 * the counts, restore = every saved register back and the latencies. d and res the caller's. */
struct nv_apmu_attach {
	const struct nv_apmu_dev *d;
	struct nv_apmu_result *res;
	int running;
};
extern const struct attachment_ops nv_apmu_attach_ops;

#endif
