/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NVIDIA Tegra410 PMUs that live in the ACPI namespace (CMEM latency NVDA2021, NV-DLink
 * NVDA2020, NV-CLink NVDA2022, NVLink-C2C NVDA2023; pmu/uncore/nv_acpi_pmu.h) under
 * `uncore = on`: the DSDT (FADT X_DSDT, else DSDT) and every valid SSDT are walked by the
 * bounded AML reader (efi/fw/aml.h); an `aml` record lists the tables, the devices with a
 * _HID and the reader's defects (console lines too; a defect does not fail the run). Each
 * device of a known _HID is set up from its _UID, _CRS and _DSD and measured around one
 * window of the caller's traffic: one `uncore` record per device (efi/out/nv_acpi_json.h).
 */
#ifndef EFIPERF_NV_ACPI_RUN_H
#define EFIPERF_NV_ACPI_RUN_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"

/* The caller's traffic window: returns its duration in ns. */
typedef uint64_t (*nv_acpi_window_fn)(void *arg);

struct cspmu_plan;

/* *found: PMU devices of a known _HID. The APMT's companion devices found in the namespace go
 * into *cp (efi/measure/cspmu_run.h) for the CoreSight PMUs. Returns 0, or -1 after reporting an error (a device
 * that cannot be set up, a measurement or restore that failed). Nothing without ACPI tables. */
int nv_acpi_run(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		struct cspmu_plan *cp, nv_acpi_window_fn window, void *arg, uint32_t *found);

#endif
