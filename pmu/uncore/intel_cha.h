/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel uncore CHA backend: PCIe read/write bandwidth and IO LLC hit ratio per socket from the
 * CHA TOR_INSERTS counters. Pure C over the hardware interface:
 *
 *   cha_encode()        perf-style event string -> CTL / FILTER0 / FILTER1 values
 *   cha_discover()      CHAs per socket (CAPID6/7 or the uncore discovery table + MSR)
 *   cha_prepare()       platform + topology + events -> a request (the lead's one call before)
 *   cha_measure()       save, program, run the window in slices (multiplexing groups where a
 *                       box-wide filter forces it), read, restore: per socket, on a CPU of it
 *   cha_metrics()       formulas, raw counts beside them
 *   cha_tor_latency()   TOR latency per IO request class by Little's law
 *
 * Register data: pmu/uncore/intel_cha_regs.h, pmu/uncore/box.h and pmu/uncore/intel_cha_platforms.c.
 */
#ifndef EFIPERF_INTEL_CHA_H
#define EFIPERF_INTEL_CHA_H

#include "arch/hw.h"
#include "pmu/saveset.h"
#include "pmu/uncore/box_program.h"
#include "pmu/uncore/intel_cha_regs.h"
#include "pmu/uncore/intel_discovery.h"

#define CHA_MAX_EVENTS 32   /* SKX default: 14 bandwidth + 4 latency classes x 3 */
#define CHA_MAX_GROUPS BOX_MAX_GROUPS
#define CHA_SPEC_MAX 96

/* ---- encoder (pmu/intel_cha_encode.c) ---------------------------------------------------- */
struct cha_encoding {
	uint64_t ctl;                    /* CTL value as written, with the platform's enable bit */
	uint64_t filter[CHA_NFILTERS];   /* meaningful where uses has the filter's bit */
	uint8_t uses;                    /* bit f: FILTERf is programmed for this event */
	uint8_t event;                   /* ev_sel */
	const struct cha_event *named;   /* the named event, or NULL for raw terms */
};

/* Parse `cha/TERM,TERM.../` (len bytes, need not be NUL-terminated) with pmu/event_string. A
 * term is `field=value` (hex 0x.. or decimal) or, first, a named event of the platform, whose
 * fields later terms override. Returns 0, or -1 with why naming the field and its range (e.g.
 * "umask_ext=0x4000000: out of range 0..0x3ffffff on CHA on ICX"). */
int cha_encode(const struct cha_platform *p, const char *spec, size_t len, struct cha_encoding *out,
	       char *why, size_t n);
/* The perf-style string of a named event ("cha/event=0x35,umask=0x4,umask_ext=0xc8f3fe/"). */
size_t cha_event_spec(const struct cha_platform *p, const struct cha_event *e, char *buf, size_t n);
/* Append the platform's CHA event names closest to s[0..len) to why[n] (ev_closest_names). */
void cha_closest_names(const struct cha_platform *p, const char *s, size_t len, char *why, size_t n);

/* ---- topology and discovery (pmu/intel_cha_discover.c) ------------------------------------ */
struct cha_pci_scope {           /* a PCI segment and bus range to search (e.g. from MCFG) */
	uint16_t segment;
	uint8_t bus_start, bus_end;
};

struct cha_topology {
	uint32_t nsockets;
	uint16_t ncha[CHA_MAX_SOCKETS];
	char how[CHA_MAX_SOCKETS][80];   /* "CAPID6 0000:7f:1e.3 = 0x0fffffff" / "config cha_count" */
};

/* The discovery-table method's working set: one socket's table, read and parsed (about 50 KiB:
 * the caller's, e.g. pool memory, as it is too large for a firmware stack). */
struct cha_disc_ws {
	uint8_t buf[DISC_READ_MAX];
	struct disc_table t;
};

/* CHAs of each of nsockets sockets. The CAPID / discovery devices found in ascending
 * (segment, bus) order are taken as sockets 0, 1, ... Returns 0, or -1 with why (e.g.
 * "CAPID6 device 8086:2083 (device 30 function 3) not found on buses 00-ff of segment 0000"). */
int cha_discover(const struct hw *hw, const struct cha_platform *p, const struct cha_pci_scope *scope,
		 size_t nscope, uint32_t nsockets, struct cha_disc_ws *ws, struct cha_topology *out, char *why,
		 size_t n);
/* The same, reading the discovery cross-check MSR on cpu[s] for socket s (NULL: CPU 0). ws:
 * the discovery-table method's working set; NULL makes that method fail saying so. */
int cha_discover_on(const struct hw *hw, const struct cha_platform *p, const struct cha_pci_scope *scope,
		    size_t nscope, uint32_t nsockets, const uint32_t *cpu, struct cha_disc_ws *ws,
		    struct cha_topology *out, char *why, size_t n);
/* The caller's override (config cha_count): every socket has count CHAs. -1 when out of range. */
int cha_topology_from_count(const struct cha_platform *p, uint32_t nsockets, uint32_t count,
			    struct cha_topology *out, char *why, size_t n);

/* ---- request / result (pmu/intel_cha_measure.c) ----------------------------------------- */
struct cha_event_sel {
	char spec[CHA_SPEC_MAX];         /* perf-style, as given or generated from the name */
	const char *name;                /* named event, or NULL */
	struct cha_encoding enc;
	uint8_t group, counter;          /* multiplexing group and counter within it */
	uint8_t latency;                 /* 0, or 1 + the platform's latency class this event was
					  * added for (the default set: a group of its own) */
};

struct cha_request {
	const struct cha_platform *plat;
	struct cha_topology topo;
	uint32_t cpu[CHA_MAX_SOCKETS];   /* a logical CPU of each socket (MP services number) */
	uint32_t nevents;
	struct cha_event_sel ev[CHA_MAX_EVENTS];
	uint32_t ngroups;
	uint32_t rounds;                 /* every group runs `rounds` slices (>= 1) */
	struct cha_disc_ws *disc_ws;     /* the caller's, for cha_discover_on (cha_count 0); may be NULL */
};

/* Fill req: pick the platform for CPUID family/model, take the topology (cha_count > 0:
 * cha_topology_from_count, else cha_discover), parse `events` (perf-style specs or named
 * events separated by ';', NULL or "" = the platform's default set: the PCIe bandwidth events,
 * then per TOR latency class a group of TOR_OCCUPANCY, TOR_INSERTS and CLOCKTICKS) and form
 * groups honouring each event's counter mask (box constraints: TOR_OCCUPANCY on counter 0).
 * Returns 0, or -1 with why. req->plat is set whenever the CPU has a CHA table, so the
 * caller can still name the platform in the error record. */
int cha_prepare(const struct hw *hw, uint32_t family, uint32_t model, const struct cha_pci_scope *scope,
		size_t nscope, uint32_t nsockets, const uint32_t *cpu, uint32_t cha_count,
		const char *events, uint32_t rounds, struct cha_request *req, char *why, size_t n);
/* Parse the event list and form the multiplexing groups (part of cha_prepare). An event no
 * counter may count, or one that needs more than CHA_MAX_GROUPS groups, is an error naming it
 * ("CHA event 3 (cha/event=0x36,...): no counter of the SKX CHA may count event 0x36"). */
int cha_request_events(struct cha_request *req, const char *events, char *why, size_t n);

/* What cha_measure computes and the formulas use. */
struct cha_metric_values {
	uint64_t read_bytes, write_bytes;     /* 64 x lines */
	uint64_t mmio_reads, mmio_writes;     /* requests (partial: no byte count) */
	uint64_t hits, misses;                /* IO TOR inserts that hit / missed the LLC */
	uint64_t read_gbps_milli, write_gbps_milli, hit_ratio_milli;
	uint8_t have_read, have_write, have_mmio_read, have_mmio_write, have_hit_ratio;
	uint8_t hit_miss_counted;             /* the events count IO hits and misses both (the
					       * ratio's inputs), whatever their values */
	char why[120];                        /* what a missing metric lacked */
};

/* TOR latency of one IO request class (pmu/uncore/intel_cha_latency.c). Counts are the scaled
 * sums over the CHAs of a socket (or of all sockets), from one group where the request has
 * the three events together. */
struct cha_latency_value {
	const char *name;                     /* class: "PCIRdCur_hit" */
	uint64_t inserts, occupancy, clockticks;
	uint64_t cycles_milli;                /* occupancy / inserts: CHA cycles per request */
	uint64_t ns_milli;                    /* cycles / (CHA cycles per ns) */
	uint8_t counted;                      /* its three events were in the request */
	uint8_t have;                         /* latency computed; else why */
	char why[120];
};

struct cha_tor_latency {
	uint32_t nclass;
	struct cha_latency_value c[CHA_MAX_LATENCY];
};

struct cha_socket_result {
	uint32_t cpu;
	uint64_t raw[CHA_MAX_EVENTS];         /* deltas summed over the socket's CHAs */
	uint64_t scaled[CHA_MAX_EVENTS];      /* raw x window / time the event's group ran */
	struct cha_metric_values m;
	struct cha_tor_latency latency;       /* this socket's CHAs alone (cha_tor_latency over
					       * scaled and the socket's topo.ncha) */
};

struct cha_result {
	const struct cha_platform *plat;
	uint32_t nsockets, nevents, ngroups, nslices;
	uint64_t window_ns;                         /* sum of every slice */
	uint64_t group_ns[CHA_MAX_GROUPS];          /* time each group was counting */
	struct cha_socket_result sock[CHA_MAX_SOCKETS];
	struct cha_metric_values total;
	struct cha_tor_latency latency;             /* over every socket (sock[s].latency: each) */
	uint32_t accesses;                          /* register accesses the sequence made */
	int status;                                 /* 0 ok, -1 error */
	char why[160];                              /* the first error */
	/* The restore of every socket, reported whatever came before it: registers saved, and
	 * those not put back (a failed write-back, or a socket whose restore could not run). A
	 * failure here makes status -1 even when an earlier error set why; restore_why says it. */
	struct saveset_report restore;
	char restore_why[160];
	/* the sequence (pmu/uncore/box_program.h): one package of CHA boxes per socket, each
	 * with its save/restore set */
	struct box_plan plan;
	struct box_package pkg[CHA_MAX_SOCKETS];
	struct box_state box[CHA_MAX_SOCKETS][CHA_MAX_BOXES];
	struct saveset save[CHA_MAX_SOCKETS];
	struct saved_reg saved[CHA_MAX_SOCKETS][BOX_SAVE_CAP(CHA_MAX_BOXES)];
};

/* The measurement window, run once per slice: slice = 0 .. nslices-1 (nslices = groups x
 * rounds). Returns the slice's duration in ns (the caller's time base). */
typedef uint64_t (*cha_window_fn)(void *arg, uint32_t slice, uint32_t nslices);

/* Program, run, read and restore. Every register written is read first and written back on
 * every exit path, also when an access fails midway. res->status 0, or -1 with res->why. */
int cha_measure(const struct hw *hw, const struct cha_request *req, cha_window_fn window, void *arg,
		struct cha_result *res);

/* cha_measure in its phases, for a window driven from outside (a window attachment,
 * efi/measure/cha_attach.h); cha_measure is exactly: cha_begin; for slice k = 0 ..
 * res->nslices - 1 while cha_slice_start(k) is 0: the window, cha_slice_stop(k, its ns);
 * cha_restore; cha_finish.
 *   cha_begin        res reset; every register to be written saved, the boxes frozen and group 0
 *                    programmed (BOX_SETUP). -1 when there is nothing to measure (no register
 *                    touched, no restore needed); 0 otherwise, also when the setup failed
 *                    (res->status -1: the restore still runs).
 *   cha_slice_start  group k mod ngroups switched in when it changes, the boxes run. 0, or -1
 *                    (res->status): the slice's window does not run under the counters.
 *   cha_slice_stop   frozen, counters read (deltas), ns added to the window and the group.
 *   cha_restore      every socket's registers written back, the restore report (a register not
 *                    put back fails the measurement, restore_why names it).
 *   cha_finish       counts scaled by window / group time, metrics and TOR latency. 0, or -1
 *                    when res->status says an earlier phase failed. */
int cha_begin(const struct hw *hw, const struct cha_request *req, struct cha_result *res);
int cha_slice_start(const struct hw *hw, const struct cha_request *req, struct cha_result *res, uint32_t k);
void cha_slice_stop(const struct hw *hw, const struct cha_request *req, struct cha_result *res, uint32_t k,
		    uint64_t ns);
void cha_restore(const struct hw *hw, const struct cha_request *req, struct cha_result *res);
int cha_finish(const struct cha_request *req, struct cha_result *res);

/* ---- metrics (pmu/intel_cha_metrics.c) --------------------------------------------------- */
/* Formulas over the scaled counts of one socket (or the sum of all): PCM src/pcm-pcie.h. The
 * self-check against the bytes a window moved is pmu/self_check.h, over read/write_bytes. */
void cha_metrics(const struct cha_platform *p, const struct cha_request *req, const uint64_t *counts,
		 uint64_t window_ns, struct cha_metric_values *m);

/* ---- TOR latency (pmu/intel_cha_latency.c) ---------------------------------------------- */
/* Per latency class of the platform, by Little's law over the (scaled) counts of a window of
 * window_ns summed over ncha CHAs:
 *   cycles = occupancy / inserts                     (CHA clock cycles a request spent in the TOR)
 *   ns     = cycles / (clockticks / ncha / window_ns)  = occupancy x window_ns x ncha /
 *                                                      (inserts x clockticks)
 * (Intel Xeon Scalable uncore manual, CHA TOR_OCCUPANCY: "average latency = occupancy /
 * inserts"; CLOCKTICKS counts the CHA's own clock, each CHA summed once.) The events are taken
 * from one group when the request has them together (the default set), else from any group
 * (scaled). A class not computed has why: events not counted, the counters not advancing
 * (all three 0, as under an emulator), no request of the class, or no clock.
 * cha_measure calls it once over every socket (counts and ncha summed: res->latency) and once
 * per socket s (its counts and topo.ncha[s]: res->sock[s].latency); the total is not the mean
 * of the sockets' figures but Little's law over the summed counts. */
void cha_tor_latency(const struct cha_platform *p, const struct cha_request *req, const uint64_t *counts,
		     uint64_t window_ns, uint32_t ncha, struct cha_tor_latency *out);

#endif
