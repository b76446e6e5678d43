/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Uncore boxes other than the CHA (AMD DF/L3/UMC; Intel IMC/IIO as they are added) as one
 * request shape on the one box sequence (pmu/uncore/box_program.h):
 *
 *   a box type (struct uncore_box_type, possibly sized at run time from CPUID),
 *   packages: the scopes a box type is programmed from (a socket for DF/UMC/IMC/IIO, a CCX
 *             for AMD L3), each with the CPU that does its register work and its box count,
 *   events:   CTL values with the role each plays in a metric (DRAM read bytes, IO write
 *             bytes, L3 hits ...), grouped into at most num_counters per multiplexing group.
 *
 * uncore_measure() runs setup / run / pause / switch / restore per package through
 * hw_run_on_cpu, scales multiplexed counts (perf's enabled/running) and computes the metrics
 * of each package and the sum. Every register written is restored on every exit path; those
 * not put back are named in res->restore and make status -1.
 */
#ifndef EFIPERF_UNCORE_H
#define EFIPERF_UNCORE_H

#include "arch/hw.h"
#include "pmu/saveset.h"
#include "pmu/uncore/box_program.h"

#define UNC_MAX_EVENTS 40
#define UNC_MAX_PKGS 32          /* sockets, CCXs (AMD L3), channels (Intel IMC), stacks (IIO) */
#define UNC_MAX_BOXES 16         /* boxes of one type in one package (UMCs of a socket) */
#define UNC_SPEC_MAX 96
#define UNC_MAX_CHANNELS 16
#define UNC_MAX_PARTS 8          /* IIO parts (root ports) of a stack */

/* What an event's count means in the metrics. */
enum unc_role {
	UNC_ROLE_NONE,
	UNC_ROLE_DRAM_RW,      /* DRAM reads and writes together (bytes = count x bytes) */
	UNC_ROLE_DRAM_RD, UNC_ROLE_DRAM_WR,
	UNC_ROLE_IO_RD,        /* a device reads memory (upstream DMA read) */
	UNC_ROLE_IO_WR,        /* a device writes memory */
	UNC_ROLE_LLC_ACCESS, UNC_ROLE_LLC_MISS, UNC_ROLE_LLC_HIT,
	UNC_ROLE_CLOCKS,
	UNC_ROLE_OB_RD,        /* the CPU reads a device (MMIO read, outbound) */
	UNC_ROLE_OB_WR,        /* the CPU writes a device */
};

struct unc_event {
	char spec[UNC_SPEC_MAX];   /* perf-style, as given or generated from the name */
	const char *name;          /* named event, or NULL */
	uint64_t ctl;              /* CTL as the box sequence writes it (enable bit included) */
	uint8_t role;              /* enum unc_role */
	uint8_t channel;           /* DRAM channel / IO root complex / UMC / IIO part the event is about */
	uint8_t bytes;             /* bytes per count (64 for a beat or CAS, 4 for an IIO DW) */
	uint8_t per_part;          /* IO role counted per IIO part (channel = the part) */
	uint8_t group, counter;
};

struct unc_request {
	struct uncore_box_type type;        /* copied: counts may come from CPUID */
	const char *pmu;                    /* Linux sysfs PMU name: "amd_df", "amd_l3", "amd_umc" */
	const char *platform;               /* "Zen3" */
	const char *scope;                  /* "socket" / "ccx" */
	uint32_t npkgs;
	uint32_t cpu[UNC_MAX_PKGS];         /* the CPU doing package p's register work */
	uint32_t socket[UNC_MAX_PKGS];      /* socket of package p */
	uint16_t nboxes[UNC_MAX_PKGS];
	uint16_t first_box[UNC_MAX_PKGS];   /* box number of the package's first box (AMD UMC j,
					     * Intel IMC channel, IIO stack): the record's "unit" */
	uint8_t sited;                      /* site[] holds each package's MMIO base / PCI function */
	struct box_site site[UNC_MAX_PKGS];
	uint32_t nevents;
	struct unc_event ev[UNC_MAX_EVENTS];
	uint32_t ngroups;
	uint32_t rounds;                    /* every group runs `rounds` slices (>= 1) */
	uint64_t known_read_bytes, known_write_bytes;   /* what the window's kernel moved (0: unknown) */
	const char *known_how;              /* how those were derived (the write-allocate convention) */
};

/* Metrics of one package or the sum. Bytes are count x the event's bytes; GB/s = bytes / ns. */
struct unc_metrics {
	uint64_t dram_read_bytes, dram_write_bytes, dram_rw_bytes;
	uint64_t io_read_bytes, io_write_bytes;
	uint64_t llc_accesses, llc_misses, llc_hits;
	uint64_t channel_bytes[UNC_MAX_CHANNELS];
	uint64_t ob_read_bytes, ob_write_bytes;
	uint64_t part_bytes[4][UNC_MAX_PARTS];  /* per IIO part: [0] IO read, [1] IO write, [2] outbound read, [3] outbound write */
	uint64_t dram_gbps_milli, io_read_gbps_milli, io_write_gbps_milli, llc_hit_ratio_milli;
	uint64_t self_check_milli;
	uint8_t have_dram_rd, have_dram_wr, have_dram, have_io_rd, have_io_wr, have_ob, have_hit_ratio;
	uint8_t nchannels, nparts;
	uint8_t self_check_state;           /* enum unc_check */
	char self_check_why[120];
};

enum unc_check { UNC_CHECK_ABSENT, UNC_CHECK_OK, UNC_CHECK_OFF };

/* Whether the counters moved: a window in which every count stayed put while traffic ran is
 * `not-advancing` (a virtual machine that ignores the MSRs), never shown as zero traffic. */
enum unc_state { UNC_STATE_COUNTING, UNC_STATE_NOT_ADVANCING };

struct unc_result {
	uint32_t npkgs, nevents, ngroups, nslices;
	uint64_t window_ns;
	uint64_t group_ns[BOX_MAX_GROUPS];
	uint64_t raw[UNC_MAX_PKGS][UNC_MAX_EVENTS];     /* deltas summed over the package's boxes */
	uint64_t scaled[UNC_MAX_PKGS][UNC_MAX_EVENTS];  /* raw x window / time the group ran */
	struct unc_metrics m[UNC_MAX_PKGS], total;
	uint8_t state;                                  /* enum unc_state */
	uint32_t accesses;
	int status;
	char why[160];
	struct saveset_report restore;
	char restore_why[160];
	struct box_plan plan;
	struct box_package pkg[UNC_MAX_PKGS];
	struct box_state box[UNC_MAX_PKGS][UNC_MAX_BOXES];
	struct saveset save[UNC_MAX_PKGS];
	struct saved_reg saved[UNC_MAX_PKGS][BOX_SAVE_CAP(UNC_MAX_BOXES)];
};

/* One slice of the window; returns its duration in ns. */
typedef uint64_t (*unc_window_fn)(void *arg, uint32_t slice, uint32_t nslices);

/* Pack the events into groups of at most type.num_counters, honouring the type's counter
 * constraints (box_event_counters); sets ev[].group/counter and ngroups. -1 with why when an
 * event fits no counter or more than BOX_MAX_GROUPS groups are needed. */
int unc_form_groups(struct unc_request *req, char *why, size_t n);
/* Program, run, read, restore (see the header comment). 0, or -1 with res->why. */
int unc_measure(const struct hw *hw, const struct unc_request *req, unc_window_fn window, void *arg,
		struct unc_result *res);
/* unc_measure in its phases, for a window driven from outside (a window attachment): the same
 * contract as cha_begin .. cha_finish (pmu/uncore/intel_cha.h), over the request's packages. */
int unc_begin(const struct hw *hw, const struct unc_request *req, struct unc_result *res);
int unc_slice_start(const struct hw *hw, const struct unc_request *req, struct unc_result *res, uint32_t k);
void unc_slice_stop(const struct hw *hw, const struct unc_request *req, struct unc_result *res, uint32_t k,
		    uint64_t ns);
void unc_restore(const struct hw *hw, const struct unc_request *req, struct unc_result *res);
int unc_finish(const struct unc_request *req, struct unc_result *res);
/* Formulas over counts[nevents] (scaled) of a window of window_ns: DRAM / IO bytes and GB/s,
 * LLC hit ratio (hits / accesses, or 1 - misses / accesses), per-channel bytes, and the
 * self-check (DRAM bytes counted / bytes the kernel moved) when known bytes are given. */
void unc_metrics(const struct unc_request *req, const uint64_t *counts, uint64_t window_ns, uint64_t known_read,
		 uint64_t known_write, struct unc_metrics *m);

#endif
