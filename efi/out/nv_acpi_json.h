/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Records of the NVIDIA ACPI-namespace PMUs (efi/out/nv_acpi_json.c); the caller opens and
 * closes each record (rep_begin / rep_end):
 *
 * `uncore` (one per PMU instance per window): pmu ("nvidia_cmem_latency_pmu_0"), platform
 *   "Tegra410", scope "acpi_device", socket (_UID), status ("ok"/"error"/"off"), why,
 *   state ("counting" / "not-advancing": the PMU's cycle counter stayed 0),
 *   identity {source "aml_reader", hid, uid, path, table, offset, peer, instances,
 *             instance_mask, peer_masks [...], filter {gpu_mask, source} (GPU peer),
 *             regions [{instance, base}], broadcast},
 *   window_ns, events [{name, spec, event}],
 *   counts [{event, raw, instances [{instance, raw}]}]   raw: summed over the instances,
 *   metrics {latency [{direction, valid, why, cum_outs, req, cycles, window_ns,
 *            latency_cycles, freq_ghz, latency_ns}]} (a string when none),
 *   overflow [{instance, status [hex...], overflow}] (each selected instance's status registers),
 *   formulas {metric: text}, self_check {state "absent", why}, restore {...}.
 * `aml`: source "aml_reader", tables [{table, index, addr, length, status}], devices
 *   [{path, hid, uid, table, offset, ranges, properties}] (the PMU _HIDs asked for),
 *   devices_dropped (no room left in the pool), devices_other (other devices with a _HID), ndefects,
 *   defects [...].
 */
#ifndef EFIPERF_OUT_NV_ACPI_JSON_H
#define EFIPERF_OUT_NV_ACPI_JSON_H

#include "efi/out/jsonl.h"
#include "efi/fw/aml.h"
#include "pmu/uncore/nv_acpi_pmu.h"

/* The `uncore` record of device d (found as ad); res NULL: not measured, status and why given. */
void nv_acpi_uncore_json(const struct nv_apmu_dev *d, const struct aml_device *ad, const struct nv_apmu_result *res,
			 const char *status, const char *why, struct json *j);
/* The `aml` record. */
void nv_acpi_aml_json(const struct aml_info *aml, struct json *j);

#endif
