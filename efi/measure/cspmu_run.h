/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CoreSight PMUs of the APMT (pmu/uncore/cspmu.h, the NVIDIA table pmu/uncore/nvidia_cspmu.h)
 * under `uncore = on|force`: each node is probed (PMCFGR, PMIIDR / PMPIDR, impl_id), given its
 * default events or the `uncore_events` strings that name its Linux PMU name, programmed around
 * one window of the caller's copy traffic, read and restored; one `uncore` record per PMU
 * instance (efi/out/cspmu_json.h). `pcie_pmu_rp` restricts the Tegra410 PCIE and PCIE-TGT PMUs
 * of the root port's socket and RC to its root-port bit, and leaves the other PCIE PMUs out.
 * Architecture-neutral: it runs wherever firmware publishes an APMT.
 */
#ifndef EFIPERF_CSPMU_RUN_H
#define EFIPERF_CSPMU_RUN_H

#include "efi/measure/attach.h"

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"
#include "pmu/uncore/uncore.h"

/* The CoreSight part of the DMA plan (efi/measure/dma_window.h): cfg when uncore = on (NULL:
 * the DMA windows run no CoreSight PMU), set by plan_build; the APMT ACPI-device nodes'
 * companion devices, comp[0..ncomp) (pool memory), found by cspmu_companions during the uncore
 * pass; comp_read: the namespace was read. */
struct apmt_companion;
struct cspmu_plan {
	const struct efiperf_config *cfg;
	struct apmt_companion *comp;
	uint32_t ncomp;
	int comp_read;
};

/* Companion ACPI devices of the APMT's ACPI-device nodes (efi/fw/apmt_companion.h), for the
 * ACPI-namespace reader (efi/measure/nv_acpi_run.c), which calls both before measure_cspmu:
 * cspmu_companion_hids gives the _HIDs to keep (want[0..max), pointing into hid, the caller's
 * until the namespace is read; returns how many); after the
 * namespace is read, cspmu_companions looks each node's device up (_HID, _UID) and prints one
 * line each. Then a per-RC PMU's `rc` is its device's _DSD instance_id, and PCIE-TGT events
 * with dst_addr_en program the address-filter slots of its first _CRS memory resource
 * (nv_tgt_program_slots, saved and restored with the PMU). */
struct aml_info;
uint32_t cspmu_companion_hids(const struct platform *p, char (*hid)[9], const char **want, uint32_t max);
void cspmu_companions(struct cspmu_plan *cp, const struct platform *p, const struct aml_info *aml);

/* window(arg, 0, 1) runs one copy window of copy_bytes bytes and returns its ns. Returns the
 * number of PMUs measured (0 when there is no APMT), or -1 after reporting an error. */
int measure_cspmu(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		  const struct cspmu_plan *cp, unc_window_fn window, void *arg, uint64_t copy_bytes);

/* A DMA window under the PMUs that count PCIe bytes (Tegra410 / Grace PCIE; pcie_pmu_rp applies),
 * as the window's attachment (kind "cspmu", efi/measure/attach.h; p, cp and kernel set by the
 * caller): prepare probes and builds them (not usable when uncore = off, no APMT or no such
 * PMU), they start before the first slice and stop after the last, restore writes every
 * register back (stopping them first if the window was cut short). Then cspmu_dma_report
 * writes one `uncore` record each whose `window` is the kernel and whose self_check compares
 * rd_bytes / wr_bytes (rd_bytes_* / wr_bytes_* on Grace) with the bytes the window moved
 * (pmu/self_check.h: read = the device read memory; absent_why: why a window moves none), and
 * frees the set; 0 or -1 after reporting an error. */
struct cspmu_set;
struct self_check_bytes;
struct cspmu_attach {
	const struct platform *p;
	const struct cspmu_plan *cp;
	const char *kernel;
	struct cspmu_set *s;     /* prepare's */
	uint64_t ns;             /* the window's, summed over its slices */
};
extern const struct attachment_ops cspmu_attach_ops;
int cspmu_dma_report(const struct hw *hw, const struct cspmu_attach *x, const struct self_check_bytes *expected,
		     const char *absent_why);

#endif
