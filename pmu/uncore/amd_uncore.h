/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AMD Zen uncore counters as box types (pmu/uncore/box.h) on the one box sequence:
 *
 *   amd_df   Data Fabric: PERF_CTL i = 0xC0010240 + 2i, PERF_CTR + 1; 4 counters, or
 *            CPUID 0x80000022 EBX[15:10] with PerfMonV2; one set per socket.
 *   amd_l3   L3: PERF_CTL i = 0xC0010230 + 2i; 6 counters; one set per CCX (L3).
 *   amd_umc  UMC (PerfMonV2 only): CPUID 0x80000022 EBX[21:16] counters per socket shared by
 *            the UMCs ECX marks active; UMC j CTL k = 0xC0010800 + 2(j n + k); enable bit 31.
 *
 * (Linux arch/x86/events/amd/uncore.c amd_uncore_df_ctx_init / l3 / umc_ctx_init,
 * include/asm/msr-index.h, include/asm/perf_event.h.) None has a unit control: each counter
 * starts and stops with its CTL enable bit (22; UMC 31). Event strings use Linux's sysfs
 * format names per family (uncore.c format attributes): DF event14 config:0-7,32-35,59-60 and
 * umask8 config:8-15 (Family 17h/19h without PerfMonV2), event14v2 config:0-7,32-37 and umask12
 * config:8-15,24-27 (PerfMonV2); L3 Family 17h slicemask config:48-51, threadmask8 config:56-63;
 * Family 19h+ coreid config:42-44, enallslices 46, enallcores 47, sliceid config:48-50,
 * threadmask2 config:56-57; UMC event config:0-7, rdwrmask config:8-9.
 */
#ifndef EFIPERF_AMD_UNCORE_H
#define EFIPERF_AMD_UNCORE_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"
#include "pmu/uncore/uncore.h"
#include "pmu/event_string.h"

enum amd_box { AMD_BOX_DF, AMD_BOX_L3, AMD_BOX_UMC, AMD_NBOX };

/* A named event of one family's box, as Linux's perf JSON lists it
 * (tools/perf/pmu-events/arch/x86/amdzen{2,3,4,5,6}/). */
struct amd_uncore_event {
	const char *name;
	uint16_t event, umask;        /* umask: UMC rdwrmask */
	uint8_t role;                 /* enum unc_role */
	uint8_t channel;              /* DRAM channel / CS / IO root complex */
	uint8_t dflt;                 /* in the default set */
};

/* Where an event-string field lands: grammar register 1 (event) and 2 (umask) are scattered
 * into the CTL by these pieces; other fields go to the CTL (register 0) directly. */
struct amd_piece { uint8_t reg, src, bits, dst; };

struct amd_box_desc {
	const char *pmu;                          /* "amd_df" */
	const struct uncore_box_type *type;       /* counters before CPUID sizing */
	const struct ev_field *fields;
	uint8_t nfields;
	const struct amd_piece *pieces;
	uint8_t npieces;
	uint64_t ctl_default;                     /* bits set unless a field clears them */
	const struct amd_uncore_event *events;
	uint16_t nevents;
	uint8_t cpuid_ecx_bit;                    /* CPUID 0x80000001 ECX bit that says present; 0: PerfMonV2 */
	uint8_t bytes;                            /* bytes per count of the byte events */
	const char *source;                       /* the perf JSON file of its events */
	const char *absent;                       /* pmu NULL: why the family has no table, or NULL */
};

struct amd_uncore_family {
	const char *name;                         /* "Zen3" */
	const char *cpus;
	uint8_t family, model_lo, model_hi;
	struct amd_box_desc box[AMD_NBOX];        /* pmu NULL: the family has no such box */
};

extern const struct amd_uncore_family amd_uncore_families[];
extern const size_t amd_uncore_nfamilies;
/* Per family and box: pmu/events/amd_uncore_events.c */
extern const struct amd_uncore_event amd_df_zen3[], amd_df_zen4[], amd_df_zen5[];
extern const struct amd_uncore_event amd_l3_zen2[], amd_l3_zen3[], amd_l3_zen4[], amd_l3_zen5[];
extern const char AMD_ZEN6_NO_DF[];
/* The Linux PMU name of each box ("amd_df"), also where a family has no table for it. */
extern const char *const amd_box_pmu[AMD_NBOX];
extern const struct amd_uncore_event amd_umc_zen4[];
extern const uint16_t amd_df_zen3_n, amd_df_zen4_n, amd_df_zen5_n, amd_l3_zen2_n, amd_l3_zen3_n, amd_l3_zen4_n,
	amd_l3_zen5_n, amd_umc_zen4_n;

/* The family table of CPUID family/model, or NULL. */
const struct amd_uncore_family *amd_uncore_family_for(uint32_t family, uint32_t model);
const struct amd_uncore_family *amd_uncore_family_by_name(const char *name);
const struct amd_uncore_event *amd_uncore_event_find(const struct amd_box_desc *b, const char *name, size_t len);

/* `pmu/TERMS/` (amd_df/event=0x81f,umask=0x7fe/, amd_l3/l3_lookup_state.l3_hit/) or a bare
 * named event -> the CTL with the enable bit. 0, or -1 with why naming the field. */
int amd_uncore_encode(const struct amd_box_desc *b, const char *spec, size_t len, uint64_t *ctl,
		      const struct amd_uncore_event **named, char *why, size_t n);
/* The perf-style string of a named event ("amd_df/event=0x1f,umask=0x7fe/"). */
size_t amd_uncore_event_spec(const struct amd_box_desc *b, const struct amd_uncore_event *e, char *buf, size_t n);

/* What CPUID says of the uncore PMUs (leaves 0x80000001 and 0x80000022). */
struct amd_uncore_caps {
	uint8_t perfctr_nb, perfctr_llc, perfmon_v2;
	uint8_t num_df;                  /* DF counters: 4, or EBX[15:10] with PerfMonV2 */
	uint8_t num_umc;                 /* UMC counters per socket (EBX[21:16]) */
	uint32_t umc_mask;               /* ECX: active UMCs */
};
void amd_uncore_caps_read(const struct hw *hw, struct amd_uncore_caps *c);
/* 1 when CPUID says box b is there; why says what it read otherwise. */
int amd_uncore_present(const struct amd_box_desc *b, const struct amd_uncore_caps *c, char *why, size_t n);

/* Build a request for box b: the type sized from caps (DF counter count; UMC boxes and
 * counters per UMC), the packages (npkgs with cpu[] and socket[]), the events (`events`:
 * ';'-separated strings or names for this PMU; NULL/"" = the box's default set). 0, or -1. */
int amd_uncore_request(const struct amd_uncore_family *f, enum amd_box b, const struct amd_uncore_caps *caps,
		       uint32_t npkgs, const uint32_t *cpu, const uint32_t *socket, const char *events,
		       struct unc_request *req, char *why, size_t n);

#endif
