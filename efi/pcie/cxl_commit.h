/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Committing HDM decoders for one CFMWS window (CXL 3.1 8.2.4.20, "HDM Decoder Capability
 * Structure", and its commit rules in 8.2.4.20.12 "Committing Decoder Programming"): decoder 0 of
 * every hop from the host bridge to the device (host bridge, root port, any switch ports, the
 * device) is given the window's base and size, 1 way at 256 B (IW 0, IG 0), the target port of
 * the next hop in Target List way 0 (a port) or a DPA Skip of 0 (the device), Target Device
 * Type host-only coherent (Type 3), and Commit; HDM Decoder Enable is set in each hop's Global
 * Control. A decoder is committed only after its Base and Size are written, hops in order from
 * the host bridge down; each waits for Committed or Error Not Committed, bounded by
 * CXL_COMMIT_TIMEOUT_MS. Every register is written through the caller's saveset, so
 * saveset_restore puts everything back last-written-first: the device's decoder is uncommitted
 * before its base and size change, and the device before its ports.
 *
 * Refused by name before any write: a hop whose decoder 0 is already committed or locked (a
 * window or device the firmware set up), a window not 256 MiB aligned, or a size that is not.
 * Pure, over struct hw; host-tested on tests/model/cxl_model.c. efi/cxl_memory.c runs STREAM and
 * the latency curve on the committed window before the restore.
 */
#ifndef EFIPERF_CXL_COMMIT_H
#define EFIPERF_CXL_COMMIT_H

#include <stddef.h>
#include <stdint.h>
#include "efi/pcie/cxl.h"
#include "pmu/saveset.h"

/* Linux drivers/cxl/core/hdm.c waits 10 ms for Committed (COMMIT_TIMEOUT_MS). */
#define CXL_COMMIT_TIMEOUT_MS 10u
#define CXL_COMMIT_MAX_HOPS   6

struct cxl_commit_hop {
	const char *name;        /* "host bridge _UID 0xc", "0000:0c:00.0" */
	uint64_t comp;           /* component register block base */
	int is_device;           /* endpoint: DPA Skip instead of a target list */
	uint8_t target_port;     /* a port: Port Number of the next hop (LnkCap [31:24]) */
};

/* 0, or -1 with why naming the hop and decoder. */
int cxl_commit_window(const struct cxl_env *env, uint64_t base, uint64_t size, const struct cxl_commit_hop *hop, int nhops,
		      struct saveset *s, char *why, size_t n);

#endif
