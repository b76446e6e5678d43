/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The `health` object of a window's record (efi/measure/health_run.h), any record can
 * include it:
 *
 *   "health": { "aer": {...}, "mca": {...}, "energy": {...}, "thermal": {...}, "freq": {...},
 *               "throttled": true|false|null }
 *
 * An absent source is {"absent": "why"}. README "Health evidence" lists every member.
 */
#ifndef EFIPERF_HEALTH_JSON_H
#define EFIPERF_HEALTH_JSON_H

#include "efi/out/jsonl.h"
#include "efi/measure/health_run.h"
#include "efi/fw/smbios.h"

/* h NULL: "health": {"absent": why_null}. */
void health_json(struct json *j, const struct health_run *h, const char *why_null);

/* "dram_peak": a DRAM rate (MB/s, 10^6 B/s) against the peak SMBIOS type 17 claims
 * (efi/fw/smbios.h mem.peak_mbps): {claimed_mbps, measured_mbps, fraction, dimms,
 * dimms_unknown, assumes}, or {absent: why} without SMBIOS or a device with speed and width. */
void dram_peak_json(struct json *j, const struct smbios_info *s, uint64_t mbps);

#endif
