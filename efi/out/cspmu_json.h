/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The `uncore` record of one CoreSight PMU instance (APMT node) for one window (members; "type"
 * is the caller's):
 *   pmu (Linux name: nvidia_ucf_pmu_0, nvidia_pcie_pmu_0_rc_1, arm_cspmu_<apmt id>), platform
 *   (Tegra410, Grace, unknown), unit (UCF, PCIE, PCIE-TGT, ...), scope "apmt_node", socket,
 *   socket_source, rc + rc_source (per-RC PMUs), status ("ok"/"error"/"busy"/"off"), why,
 *   apmt {the node as the `acpi` record's apmt[] gives it: length, id, type, type_name, flags,
 *         dual_page, affinity_container, atomic64, inst_primary, inst_secondary, base0, base1,
 *         ovflw_gsiv, ovflw_flags, proc_affinity, impl_id},
 *   identity {pmiidr, source ("impl_id"/"pmiidr"/"pmpidr"), pmiidr_reg, pmpidr [5] (when used),
 *             pmcfgr, counters, event_counters, counter_bits, cycle_counter},
 *   root_port {bdf, socket, rc, rp, mask} (pcie_pmu_rp applied),
 *   companion {hid, uid, found, path, instance_id, block, block_len, why} (APMT ACPI-device
 *             nodes: efi/fw/apmt_companion.h),
 *   address_filter {block, slots [{base, mask}]} (PCIE-TGT events with dst_addr_en and the
 *             companion's _CRS block), address_filter_why (asked for, not programmed: why),
 *   window ("copy" or the DMA window's kernel: blockio_read, nvme_read, ...),
 *   state, window_ns, reset, hilo_retries, dropped_defaults,
 *   events [{name, spec, type, filter, filter2, counter}], counts [{event, raw}],
 *   metrics {name: value}, formulas {name: text},
 *   self_check {state, value, why, convention} (copy window) or the DMA windows' self_check
 *   (efi/out/dma_json.h: rd_bytes / wr_bytes against the bytes moved), restore {...}.
 */
#ifndef EFIPERF_OUT_CSPMU_JSON_H
#define EFIPERF_OUT_CSPMU_JSON_H

#include "efi/out/jsonl.h"
#include "efi/fw/acpi.h"
#include "efi/fw/apmt_companion.h"
#include "pmu/uncore/cspmu.h"
#include "pmu/uncore/nvidia_cspmu.h"
#include "pmu/self_check.h"

struct cspmu_record {
	const struct acpi_apmt_node *node;
	const struct cspmu_info *info;       /* NULL when the probe failed */
	const struct nv_cspmu_req *req;      /* NULL when no request was built */
	const struct cspmu_run *run;         /* NULL when nothing ran */
	const struct nv_cspmu_metrics *metrics;
	const char *pmu, *status, *why;
	const char *window;                  /* "copy" or the DMA window's kernel */
	const struct self_check *sc;         /* a DMA window's self-check (else the check_* below) */
	const struct saveset *slot_save;     /* the PCIE-TGT address slots' registers, or NULL */
	uint64_t tgt_block;                  /* PCIE-TGT address filter: block, slots (tgt_n of them) */
	const struct nv_tgt_slot *tgt_slots;
	uint32_t tgt_n;
	const char *filter_why;              /* address filter asked for and left off: why */
	const struct apmt_companion *companion;   /* an ACPI-device node's companion, or NULL */
	uint32_t socket, rc;
	const char *socket_source, *rc_source;
	uint64_t window_ns;
	int counting;                        /* a counter moved */
	const char *rp_bdf;                  /* pcie_pmu_rp applied: the root port, else NULL */
	uint8_t rp_socket, rp_rc, rp;
	int check_ok;
	uint64_t check_milli;
	const char *check_why, *check_how;
};

void cspmu_record_json(const struct cspmu_record *r, struct json *j);

#endif
