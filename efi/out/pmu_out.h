/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The counter sets' records, each written whole from its result struct after the window (or
 * the probe) that filled it: one record open at a time (efi/out/report.h). The members come
 * from efi/out/pmu_json.h, uncore_json.h, cspmu_json.h and nv_acpi_json.h.
 */
#ifndef EFIPERF_OUT_PMU_OUT_H
#define EFIPERF_OUT_PMU_OUT_H

#include "efi/out/pmu_json.h"
#include "efi/out/uncore_json.h"
#include "efi/out/cspmu_json.h"
#include "efi/out/nv_acpi_json.h"

/* `cha`: the plan's failure (request as far as it got, why), or one window's counts, metrics
 * and self_check under kernel. */
void cha_error_record(const struct cha_request *req, const char *why);
void cha_window_record(const char *kernel, const struct cha_request *req, const struct cha_result *res,
		       const struct self_check *sc);

/* `core_counters` of one CPU's core counter set s (Arm PMUv3 / x86 fixed) after the copy's pass. */
void core_set_record(const char *kernel, uint32_t pass, uint32_t cpu, const struct core_set *s);

/* `corepmu`: the x86 core PMU's probe. A window's record of type `type` (kernel, pass, cpu,
 * then fill's members: corepmu_json_counters, _topdown, _ibs, amd_pipeline_json). */
void corepmu_probe_record(const struct corepmu *cp);
void corepmu_window_record(const char *type, const struct corepmu *cp, uint32_t cpu, const char *kernel,
			   uint32_t pass, void (*fill)(struct json *, const struct corepmu *));

/* `uncore` of one CoreSight PMU instance (its console line too). */
void cspmu_record_write(const struct cspmu_record *r);

/* `uncore` of one NVIDIA ACPI PMU device: its result (res), or a status and why without one;
 * `aml`: what the AML reader found. */
void nv_acpi_uncore_record(const struct nv_apmu_dev *d, const struct aml_device *ad, const struct nv_apmu_result *res,
			   const char *status, const char *why);
void nv_acpi_aml_record(const struct aml_info *aml);

/* `uncore`: a box type's status without counts (free_why: the IMC free-running counters' why,
 * or NULL); socket s of a measured request (cpuid: the CPU ID column, or NULL; fr: the IMC
 * free-running counters beside the programmable ones, or NULL, with prog and known bytes);
 * `uncore_iio_map` of socket s. */
void uncore_status_record(const char *pmu, const char *platform, const char *status, const char *why,
			  const char *free_why);
void uncore_socket_record(const struct unc_request *req, const struct unc_result *res, uint32_t s, const char *cpuid,
			  const struct imc_free_run *fr, uint64_t prog);
void uncore_iio_map_record(const char *platform, uint32_t s, const struct iio_map *m);

#endif
