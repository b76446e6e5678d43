/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel Xeon uncore CHA (Caching and Home Agent) PMON: the per-platform data that describes a
 * CHA box, its registers, its control and filter layouts and how the CHAs of a socket are
 * counted. One struct cha_platform per platform (pmu/uncore/intel_cha_platforms.c); the encoder,
 * discovery and programming code read these tables and never branch on the platform's name.
 *
 * Facts and their sources are cited where they are used: Linux arch/x86/events/intel/
 * uncore_snbep.c and uncore_discovery.h, PCM src/types.h and src/pcm-pcie.h, LIKWID, libpfm4,
 * Intel's uncore performance monitoring manuals and perfmon event files.
 * Pure header: builds on the host.
 */
#ifndef EFIPERF_INTEL_CHA_REGS_H
#define EFIPERF_INTEL_CHA_REGS_H

#include <stddef.h>
#include <stdint.h>
#include "pmu/uncore/box.h"

#define CHA_MAX_BOXES 128     /* array bound; each platform's box.max_boxes is its own limit */
#define CHA_MAX_SOCKETS 8     /* SKX scales to 8 sockets */
#define CHA_NUM_COUNTERS 4          /* every CHA platform (box .num_counters) */
#define CHA_LINE_BYTES 64     /* one TOR insert of a full-line request = one 64-byte line */

enum cha_filter_reg { CHA_FILTER0, CHA_FILTER1, CHA_NFILTERS = BOX_MAX_FILTERS };

/* Which register a perf-style term lands in. */
enum cha_target { CHA_T_CTL, CHA_T_FILTER0, CHA_T_FILTER1 };

/* One perf-style term: `name=value` sets value << shift in the target register. */
struct cha_field {
	const char *name;     /* "event", "umask", "umask_ext", "filter_opc" ... */
	uint8_t target;       /* enum cha_target */
	uint8_t shift, width;
	uint64_t clears;      /* bits of the target cleared when the term is given */
};

/* An event code that needs a filter register programmed even when no filter term is given
 * (SKX TOR events need FILTER1's opcode match open, LLC_LOOKUP needs FILTER0.STATE). */
struct cha_filter_use { uint8_t event; uint8_t filter; };

enum cha_count_method {
	CHA_COUNT_CAPID,            /* popcount of CAPID6 (and CAPID7) in PCI config space */
	CHA_COUNT_DISCOVERY_TABLE,  /* uncore discovery table (DVSEC) + a CBo-count MSR */
};

/* What a TOR event counts, for the metric formulas (pmu/intel_cha_metrics.c). */
enum cha_op {
	CHA_OP_NONE, CHA_OP_IO, CHA_OP_IA, CHA_OP_RDCUR, CHA_OP_PCIRDCUR, CHA_OP_RFO, CHA_OP_CRD,
	CHA_OP_DRD, CHA_OP_ITOM, CHA_OP_ITOMCACHENEAR, CHA_OP_PRD, CHA_OP_WIL, CHA_OP_UCRDF,
	CHA_OP_WCIL, CHA_OP_WCILF, CHA_OP_LLC, CHA_OP_CLOCK, CHA_NOPS
};
#define CHA_OPBIT(op) (1u << (op))
enum cha_part { CHA_PART_ALL, CHA_PART_HIT, CHA_PART_MISS };
/* What an event counts: TOR inserts (requests), TOR occupancy (sum over cycles of the requests
 * in the TOR: Little's law with the inserts), or CHA clock cycles. */
enum cha_kind { CHA_K_INSERTS, CHA_K_OCCUPANCY, CHA_K_CLOCK };

/* A named event: its perf-style terms as fields, and where they come from. */
struct cha_event {
	const char *name;     /* "TOR_INSERTS.IO_MISS_PCIRDCUR" */
	uint8_t event, umask;
	uint32_t umask_ext;   /* ICX+ (0: term omitted) */
	uint16_t opc;         /* SKX FILTER1 opc0 (0: none) */
	uint8_t nc;           /* SKX FILTER1 nc */
	uint16_t state;       /* SKX FILTER0 state (0: none) */
	uint8_t op, part;     /* enum cha_op, enum cha_part */
	const char *source;
	uint8_t kind;         /* enum cha_kind (0: TOR_INSERTS or LLC_LOOKUP) */
};

/* A TOR latency class: TOR_OCCUPANCY / TOR_INSERTS of one IO opcode, hits or misses. */
struct cha_latency_class {
	const char *name;        /* "PCIRdCur_hit" */
	const char *occupancy;   /* "TOR_OCCUPANCY.IO_HIT_PCIRDCUR" */
	const char *inserts;     /* "TOR_INSERTS.IO_HIT_PCIRDCUR" */
};
#define CHA_MAX_LATENCY 6

struct cha_platform {
	const char *name;           /* "SKX" */
	const char *cpus;           /* "Skylake-SP, Cascade Lake-SP" */
	uint8_t models[2];          /* CPUID family 6 display models (0 = unused slot) */
	struct uncore_box_type box; /* the CHA box: registers, bits, constraints, global control */
	const struct cha_field *fields;
	uint8_t nfields;
	uint64_t filter_default[CHA_NFILTERS];
	const struct cha_filter_use *filter_uses;
	uint8_t nfilter_uses;
	uint8_t count_method;       /* enum cha_count_method */
	uint16_t pci_device;        /* Intel device carrying CAPID6/7 or the discovery DVSEC */
	uint8_t capid_dev, capid_func;  /* CAPID: fixed device/function on each socket's bus */
	uint16_t capid_off[2];      /* CAPID6, CAPID7 (0 = none) */
	uint32_t capid_mask[2];
	uint32_t cbo_count_msr;     /* discovery cross-check MSR (0 = none) */
	uint64_t cbo_count_mask;
	const struct cha_event *events;     /* ends with an entry whose name is NULL */
	const char *const *default_events;  /* names of the default PCIe set */
	uint8_t ndefault;
	/* TOR latency classes, each measured in a group of its own with the clock event */
	const struct cha_latency_class *latency;
	uint8_t nlatency;
	const char *clock_event;            /* "CLOCKTICKS" */
	/* metric formulas (PCM src/pcm-pcie.h): ops summed for each quantity */
	uint32_t read_ops, write_ops, mmio_read_ops, mmio_write_ops;
};

extern const struct cha_platform cha_platforms[];
extern const size_t cha_nplatforms;

/* The platform table for CPUID family/display model, or NULL. */
const struct cha_platform *cha_platform_for_cpu(uint32_t family, uint32_t model);
const struct cha_platform *cha_platform_by_name(const char *name);

/* BOX_CTL MSR of CHA n (n < box.max_boxes), and the other registers of that box (box_reg). */
uint32_t cha_box_ctl(const struct cha_platform *p, unsigned n);
uint32_t cha_ctl_msr(const struct cha_platform *p, unsigned n, unsigned i);
uint32_t cha_ctr_msr(const struct cha_platform *p, unsigned n, unsigned i);
uint32_t cha_filter_msr(const struct cha_platform *p, unsigned n, unsigned f); /* 0 if absent */

/* Events of each platform (pmu/intel_cha_events.c). */
extern const struct cha_event cha_events_skx[], cha_events_icx[], cha_events_spr[], cha_events_gnr[];
const struct cha_event *cha_event_find(const struct cha_platform *p, const char *name, size_t len);
const char *cha_op_name(uint8_t op);

#endif
