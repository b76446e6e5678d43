/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Health evidence riding on a window, as attachments (efi/measure/attach.h): four kinds, all
 * read-only unless aer_clear is on.
 *
 *   aer     Device Status, Link Status and AER status of every function on the paths of the
 *           window's devices (root port, switch ports, device; efi/pcie/pcie_health.h)
 *   mca     the boot CPU's machine-check banks (pmu/health.h)
 *   energy  RAPL package and DRAM/core energy, and the core and package thermal status of the
 *           boot CPU (pmu/health.h)
 *   freq    APERF/MPERF: per CPU of the window when the window calls cpu_start/cpu_stop,
 *           else the boot CPU from prepare to read
 *
 * Life: prepare takes the "before" snapshot (aer_clear = on: then writes 1 to the RW1C error
 * bits it found, reads again, and says which it cleared); read takes "after" and the deltas.
 * AER and MCA status bits are sticky, so an error between two windows would hide in the next
 * window's "before": the before of a function or of the banks is the previous window's after
 * when there was one (baseline "previous window", kept in o.last), else its own prepare
 * ("window start").
 *
 * Pure over struct hw: host-tested (tests/unit/test_health_run.c). The caller allocates a
 * struct health_run (about 8 KiB: from the pool, not the stack).
 */
#ifndef EFIPERF_HEALTH_RUN_H
#define EFIPERF_HEALTH_RUN_H

#include <stdint.h>
#include "arch/hw.h"
#include "efi/measure/attach.h"
#include "efi/measure/shape.h"
#include "efi/pcie/link_limit.h"
#include "efi/pcie/pcie_health.h"
#include "pmu/health.h"

#define HEALTH_MAX_FUNCS 16      /* functions followed per window (paths of its devices) */
#define HEALTH_FREQ_CPUS 64      /* per-CPU APERF/MPERF kept; more CPUs are counted, not read */
#define HEALTH_KINDS 4

#define HEALTH_BASELINES 32      /* functions whose previous after is kept */

/* The previous windows' "after" snapshots (zeroed: none yet), kept by the caller for the run. */
struct health_baselines {
	int naer;
	struct { struct hw_pci_addr a; struct pcie_health_snap s; } aer[HEALTH_BASELINES];
	int mca_set;
	struct mca_snap mca;
};

struct health_opts {
	struct hw_pci_addr dev[HEALTH_MAX_FUNCS];   /* the functions to follow, root port first */
	int ndev;
	int aer_clear;                /* config aer_clear = on */
	uint64_t (*now)(void);        /* a timer (ticks) for the energy interval; NULL: no watts */
	uint64_t hz;                  /* its ticks per second; also the nominal (TSC) frequency
					 MPERF counts at on x86 */
	struct health_baselines *last;   /* NULL: every window against its own prepare */
};

struct health_fn {
	struct pcie_health_snap before, after;
	struct pcie_health_delta d;
	uint16_t cleared_devsta, cleared_lnksta;    /* aer_clear: what prepare wrote 1 to */
	uint32_t cleared_cor, cleared_uncor;
	int clear_failed;
	const char *baseline;         /* "previous window" or "window start" */
};

struct health_run {
	struct health_opts o;
	struct attachment a[HEALTH_KINDS];
	struct attach_list l;
	/* aer */
	int nfn;
	struct health_fn fn[HEALTH_MAX_FUNCS];
	uint32_t correctable, uncorrectable, link_events;
	/* mca */
	struct mca_snap mca0, mca1;
	struct mca_delta mca;
	const char *mca_baseline;
	/* energy and thermal */
	struct energy_snap e0, e1;
	struct therm_snap t0, t1;
	uint64_t ticks0, ticks1;
	int throttled;
	/* freq: boot CPU, or per CPU of the window */
	struct freq_snap f0, f1;
	int ncpus;                    /* CPUs whose cpu_stop ran (0: the boot CPU's prepare/read) */
	int ncpus_read;
	struct freq_snap cpu0[HEALTH_FREQ_CPUS];
	uint32_t ratio_milli[HEALTH_FREQ_CPUS];
	const char *cpu_why[HEALTH_FREQ_CPUS];
};

/* Add the functions of a link path (ll->path[0] root port .. the device) to o, each once;
 * without a path (ll->status -1) the device alone. */
void health_add_path(struct health_opts *o, const struct link_limit *ll, struct hw_pci_addr dev);

/* Prepare every kind (the before snapshots; aer_clear). h is zeroed first except h->o, which
 * the caller fills. */
void health_begin(struct health_run *h, const struct hw *hw);
/* window_spec.counters for a window that takes counters (per-CPU APERF/MPERF); NULL for NULL. */
const struct window_counters *health_counters(struct health_run *h);
/* After the window: read every kind (after snapshots and deltas), restore. NULL: nothing. */
void health_end(struct health_run *h);

/* A CPU window's health (c2c, NUMA matrix, cache_bw, latency, loaded latency): o NULL: none
 * (NULL). Else a struct health_run from ctx->alloc with o (its ndev 0: no AER part), begun, and
 * spec->counters its per-CPU APERF/MPERF when the window has no counters of its own (spec NULL:
 * health over several windows, APERF/MPERF of the boot CPU); NULL when ctx->alloc had no memory. health_cpu_end(h) after the window (NULL: nothing);
 * the result keeps h for its record and gives it back with ctx->free. health_end(h) after the
 * window. */
struct health_run *health_cpu_begin(const struct measure_ctx *ctx, const struct health_opts *o, struct window_spec *spec);

/* The attachment of kind "aer", "mca", "energy" or "freq" (its st/why say whether it read). */
const struct attachment *health_kind(const struct health_run *h, const char *kind);

#endif
