/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A DMA window with its counters and link limit: what Block IO, the DMA engine, MMIO and
 * efiperf's NVMe queues share. The traffic runs as a cha_window_fn (slice k of n: with CHA
 * multiplexing the window is cut into slices, each doing its share; without, one slice) under
 *   - the CHA counters of the run plan (efi/measure/cha_run.h; the window's `cha` record),
 *   - the boot CPU's core PMU (the CPU that drives the traffic; `core_counters` record),
 *   - with uncore = on on Intel SKX/CLX, ICX, SPR, EMR, GNR, the IIO part counts of the device's root port
 *     around all of it (`iio_self_check`, efi/measure/iio_window.h),
 *   - with uncore = on and an APMT, the CoreSight PCIE PMUs (an `uncore` record each whose
 *     window is the kernel; efi/measure/cspmu_run.h),
 * and its result gets
 *   - self_check: the bytes the CHA counted against the bytes the window moved,
 *   - link_limit: the device's path to its Root Port, the bottleneck link, the effective limit
 *     and the measured rate as a fraction of it (efi/pcie/link_limit.h).
 * Usage:
 *   struct dma_window w = { "blockio_read", fn, &ctx, &expected, NULL, bdf, addr64 };
 *   struct dma_window_result r;
 *   dma_window_run(hw, p, dp, &w, &r);                   (fn runs here)
 *   dma_window_rate(&r, read_bytes, write_bytes, ns);
 *   ... rep_begin("measurement"); dma_window_json(j, &r); rep_end();
 */
#ifndef EFIPERF_DMA_WINDOW_H
#define EFIPERF_DMA_WINDOW_H

#include "arch/hw.h"
#include "efi/discovery.h"
#include "efi/platform.h"
#include "efi/pcie/link_limit.h"
#include "efi/out/jsonl.h"
#include "pmu/self_check.h"
#include "pmu/uncore/intel_cha.h"
#include "efi/measure/iio_window.h"
#include "efi/measure/cspmu_run.h"
#include "efi/fw/acpi.h"

struct dma_window {
	const char *kernel;                      /* record name: "blockio_read", "nvme_read" ... */
	cha_window_fn fn;                        /* the traffic; returns the slice's ns */
	void *arg;
	const struct self_check_bytes *expected; /* bytes moved, read after fn ran (read: the device
						    read memory; write: it wrote memory) */
	const char *no_dma_why;                  /* why nothing is expected (MMIO, a copy), or NULL */
	struct hw_pci_addr dev;                  /* the device: its link limit */
	int addr64;                              /* DMA buffers above 4 GiB (4 DW write headers) */
	const char *iio_skip_why;                /* the bytes are not dev's alone (several NVMe
						    controllers): no IIO comparison, this why */
};

struct dma_window_result {
	int status;                              /* 0, or -1: the counters failed (reported) */
	struct self_check sc;
	struct link_limit ll;
	/* The CHA totals of the window (IO LLC hits, misses, hit ratio; PCIe bytes): have_cha 0
	 * when no CHA counters ran over it (then sc.why says why). */
	struct cha_metric_values cha;
	int have_cha;
	/* The IIO part counts of dev against expected (efi/measure/iio_window.h): iio.on 0 when
	 * there is no IIO plan (uncore = off, not an Intel IIO platform). */
	struct iio_window_result iio;
	/* The health attachments over the window (efi/measure/health_run.h): AER and link status of
	 * every function on dev's path, the boot CPU's machine-check banks, energy, thermal and
	 * APERF/MPERF; pool memory, one per window (kept for its record). NULL: not attached
	 * (dma_window_counters, no memory, or a result not from
	 * dma_window_run). */
	struct health_run *health;
};

/* What every DMA window runs under, part of the run plan (efi/measure/measurement.h; pool
 * memory, zeroed): the buses the link walk searches, the CHA plan (cha_run_plan), the IIO plan
 * (iio_window_plan, from the uncore pass) and the CoreSight PMUs' (struct cspmu_plan). */
struct cha_plan;
struct dma_plan {
	struct pcie_bus_range ranges[ACPI_MAX_MCFG];
	int nranges;
	struct cha_plan *cha;          /* NULL: cha = off */
	struct iio_state *iio;         /* NULL: no IIO self-check */
	struct cspmu_plan cs;
	int aer_clear;                 /* config aer_clear, for the windows' health attachments */
};

/* The buses the link walk searches (one per MCFG allocation, else segment 0 buses 0-255) and
 * config aer_clear into dp, once after discovery (plan_build). */
void dma_window_ranges(struct dma_plan *dp, const struct discovery *d, int aer_clear);

/* Run the window under the counters of dp and the health attachments of dev's path
 * (r->health), and read the device's link limit. Returns r->status. */
int dma_window_run(const struct hw *hw, const struct platform *p, const struct dma_plan *dp,
		   const struct dma_window *w, struct dma_window_result *r);
/* The same without health (r->health NULL): for a caller that attaches its own (NVMe's own
 * queues: one health over the window's several controllers). */
int dma_window_counters(const struct hw *hw, const struct platform *p, const struct dma_plan *dp,
			const struct dma_window *w, struct dma_window_result *r);

/* The link limit of another device than the window's (several NVMe controllers in one window:
 * each record carries its own device's limit), over dp's buses. */
void dma_window_link(const struct dma_plan *dp, const struct hw *hw, struct hw_pci_addr dev, int addr64,
		     struct link_limit *ll);

/* The fraction of the link limit the window reached (bytes each way, in ns). */
void dma_window_rate(struct dma_window_result *r, uint64_t read_bytes, uint64_t write_bytes, uint64_t ns);
/* Its console line when the fraction is impossible on real hardware (after link_limit_rate). */
void dma_window_rate_text(const struct dma_window_result *r);

/* `self_check`, `link_limit` and, when r->health, `health` members of the window's record
 * (efi/out/dma_json.h, efi/out/health_json.h). */
void dma_window_json(struct json *j, const struct dma_window_result *r);

#endif
