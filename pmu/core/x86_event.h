/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86 core event syntax -> event-select register value, for Intel IA32_PERFEVTSELx and AMD
 * PerfEvtSel / PERF_CTL. Accepted forms (perf's syntax, tools/perf/Documentation):
 *
 *   INST_RETIRED.ANY_P                                  a named event of this CPU
 *   cpu/event=0xC0,umask=0x0,cmask=1,inv=1,edge=1,any=1/    raw fields (Intel)
 *   core/event=0x1CF,umask=0x1,cmask=1,inv=1,edge=1,host=1/  raw fields (AMD; guest=1 too)
 *   cpu/UOPS_ISSUED.ANY,cmask=1,inv=1/                  a named event with fields overridden
 *
 * "cpu" and "core" name the same PMU. Numbers are decimal or 0x-hex. The fields are data (one
 * table per vendor: name, bit position(s), width), so every field the hardware has is
 * reachable and checked the same way: a value wider than its field, an unknown field, a
 * field given twice, a field the CPU does not support (AnyThread where CPUID.0AH:EDX[15] says
 * deprecated) are errors that name the field. USR|OS|EN are added when programmed; INT (PMI)
 * is never set: efiperf polls.
 */
#ifndef EFIPERF_X86_EVENT_H
#define EFIPERF_X86_EVENT_H

#include <stddef.h>
#include <stdint.h>

enum x86_ev_vendor { X86_EV_INTEL, X86_EV_AMD };

/* Core generations a named event belongs to (model-specific events differ between them). */
#define X86_GEN_ARCH 0x01u  /* Intel architectural events (SDM Vol.3B, pre-defined architectural events) */
#define X86_GEN_SNB  0x02u  /* Intel Sandy Bridge .. Broadwell */
#define X86_GEN_SKL  0x04u  /* Intel Skylake .. Cascade/Cooper/Comet Lake */
#define X86_GEN_ICL  0x08u  /* Intel Sunny Cove / Willow Cove / Cypress Cove: Ice Lake, Tiger Lake, Rocket Lake */
#define X86_GEN_ZEN  0x10u  /* AMD Zen 2 .. Zen 4: Family 17h models 30h+, Family 19h */
#define X86_GEN_GLC  0x20u  /* Intel Golden Cove / Raptor Cove / Redwood Cove P-cores: SPR, EMR, GNR, ADL, RPL, MTL */
#define X86_GEN_ZEN1 0x40u  /* AMD Zen, Zen+: Family 17h models 00h-2Fh, Hygon Family 18h */
#define X86_GEN_ZEN5 0x80u  /* AMD Zen 5: Family 1Ah 00h-2Fh, 40h-4Fh, 60h-7Fh (Linux amd.c; perf amdzen5) */
#define X86_GEN_ZEN4 0x100u /* AMD Zen 4 alone: the Family 19h models Linux tools/perf/pmu-events/arch/x86/mapfile.csv
                             * gives amdzen4 (they also carry X86_GEN_ZEN) */
#define X86_GEN_CMT  0x200u /* Intel Crestmont E-core server: Sierra Forest (family 6 model 0xAF) */
#define X86_GEN_DKT  0x400u /* Intel Darkmont E-core server: Clearwater Forest (family 6 model 0xDD) */
#define X86_GEN_ALL  0x7FFu /* every generation: is the name an event anywhere? */

struct x86_named_event {
	const char *name;     /* perf / manual spelling */
	uint16_t event;       /* Intel [7:0]; AMD [11:0] */
	uint8_t umask, cmask, inv, edge, any;
	uint16_t gens;        /* X86_GEN_* it is defined for */
	int8_t arch_bit;      /* CPUID.0AH:EBX bit that marks it unavailable, -1 none */
	const char *pfm;      /* libpfm4 spelling: source and the unit test's oracle */
	const char *pfm_alt;  /* libpfm4 spelling on older PMU tables, or NULL */
	const char *cite;     /* source for a generation an oracle lacks the event on, or NULL */
};

extern const struct x86_named_event intel_core_events[];
extern const unsigned intel_core_nevents;
extern const struct x86_named_event amd_core_events[];
extern const unsigned amd_core_nevents;

/* What the CPU allows; fills from the probe (pmu/x86_corepmu.c). */
struct x86_event_caps {
	uint8_t vendor;        /* enum x86_ev_vendor */
	uint16_t gens;         /* X86_GEN_* of this CPU (named events of other gens are errors) */
	uint8_t any_ok;        /* Intel AnyThread: perfmon v3+ and not deprecated */
	uint8_t arch_len;      /* CPUID.0AH:EAX[31:24] EBX vector length */
	uint32_t arch_unavail; /* CPUID.0AH:EBX */
};

#define X86_EVENT_NAME 96   /* a full perf-style string, e.g. core/event=0xC0,umask=0x0,cmask=1,inv=1,edge=1,host=1/ */

struct x86_event {
	char name[X86_EVENT_NAME]; /* the text as given (truncated) */
	uint64_t config;           /* field bits only: no USR/OS/EN/INT */
};

/* Parse one event string. 0 on success; -1 with err naming the field or the name. */
int x86_event_parse(const char *s, size_t len, const struct x86_event_caps *caps,
		    struct x86_event *out, char *err, size_t errlen);

/* Which CPUs a generation bit names ("AMD Zen 5 (Family 1Ah)"), for errors; gens 0: "no named-event
 * table". The first bit set in gens that has a name wins. */
const char *x86_gen_name(uint16_t gens);

/* Named event by exact name valid for gens (first match), or NULL. */
const struct x86_named_event *x86_named_lookup(uint8_t vendor, uint16_t gens, const char *name,
					       size_t len);

/* Field bits of a named event (no USR/OS/EN). */
uint64_t x86_named_config(uint8_t vendor, const struct x86_named_event *e);

#endif
