/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The `uncore` record: one per box type (PMU) per socket per window (efi/out/uncore_json.c).
 * The caller opens the record (rep_begin("uncore")) and closes it; these write its members.
 */
#ifndef EFIPERF_OUT_UNCORE_JSON_H
#define EFIPERF_OUT_UNCORE_JSON_H

#include "efi/out/jsonl.h"
#include "pmu/uncore/uncore.h"
#include "pmu/uncore/intel_uncore.h"
#include "pmu/uncore/intel_imc_free.h"

/* Members for socket `socket` of a measured request (res may hold an error). */
void uncore_result_json(const struct unc_request *req, const struct unc_result *res, uint32_t socket,
			const char *cpuid, struct json *j);
/* A box that was not measured: pmu, platform, status ("absent", "off", "error") and why. */
void uncore_status_json(const char *pmu, const char *platform, const char *status, const char *why, struct json *j);

/* The `free_running` object of an uncore_imc record for socket `socket` (IMC free-running DDR
 * counters, pmu/uncore/intel_imc_free.h): not valid: {why}; valid: {read_bytes, write_bytes,
 * imcs [{imc, read_bytes, write_bytes}] (the socket's memory controllers), source,
 * programmable_bytes (the record's dram_bytes: 0 leaves the ratio out, ratio_why says why),
 * ratio_to_programmable (free-running / programmable bytes), self_check (free-running bytes /
 * the copy's known bytes; known 0 leaves it out)}. */
void uncore_free_running_json(const struct imc_free_run *run, uint32_t socket, uint64_t programmable_bytes,
			      uint64_t known_bytes, struct json *j);
/* The free_running object that only says why: {why}. */
void uncore_free_running_why_json(const char *why, struct json *j);

/* The `uncore_iio_map` record's members: pmu, platform, socket, status ("ok" / "absent"),
 * source, why, stacks [{stack, bus, bus_end, root_ports [{part, bdf, secondary, subordinate}]}],
 * defects [...], ndefects. */
void uncore_iio_map_json(const char *platform, uint32_t socket, const struct iio_map *m, struct json *j);

#endif
