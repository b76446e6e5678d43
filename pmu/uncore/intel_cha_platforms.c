/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One table per Intel Xeon platform with CHA uncore PMON: addresses, register layouts, filter
 * rules, global control, CHA-count discovery and metric formulas, each box an entry of
 * struct uncore_box_type (pmu/uncore/box.h). Every value cites its public source (Intel's uncore
 * manuals, Linux arch/x86/events/intel/uncore_snbep.c, PCM, LIKWID, libpfm4). CPU models: Linux arch/x86/include/asm/intel-family.h
 * (SKYLAKE_X 0x55 = SKX/CLX/CPX, ICELAKE_X 0x6A, ICELAKE_D 0x6C, SAPPHIRERAPIDS_X 0x8F,
 * EMERALDRAPIDS_X 0xCF, GRANITERAPIDS_X 0xAD, GRANITERAPIDS_D 0xAE, ATOM_CRESTMONT_X 0xAF,
 * ATOM_DARKMONT_X 0xDD).
 */
#include "pmu/uncore/intel_cha_regs.h"

#include <string.h>

/* ---- ICX: BOX_CTL of every CHA (PCM src/types.h ICX_CHA_MSR_PMON_BOX_CTL[], Linux uncore_snbep.c
 * icx_cha_msr_offsets[] + 0xB60). Stride 0xE, except CHA 17 -> 18 (+0x1C, the 0xEFC slot is
 * skipped) and CHA 33 -> 34 (down to 0xB60). Linux and libpfm4 stop at CHA 39 (40 CHAs);
 * PCM's CHA 40/41 (0xBB4, 0xBC2) are not listed by either, so not used here. */
static const uint32_t icx_box_ctl[40] = {
	0xE00, 0xE0E, 0xE1C, 0xE2A, 0xE38, 0xE46, 0xE54, 0xE62, 0xE70, 0xE7E,  /* 0-9 */
	0xE8C, 0xE9A, 0xEA8, 0xEB6, 0xEC4, 0xED2, 0xEE0, 0xEEE,                /* 10-17 */
	0xF0A, 0xF18, 0xF26, 0xF34, 0xF42, 0xF50, 0xF5E, 0xF6C, 0xF7A, 0xF88,  /* 18-27 */
	0xF96, 0xFA4, 0xFB2, 0xFC0, 0xFCE, 0xFDC,                              /* 28-33 */
	0xB60, 0xB6E, 0xB7C, 0xB8A, 0xB98, 0xBA6,                              /* 34-39 */
};

#define N(a) (uint8_t)(sizeof(a) / sizeof((a)[0]))

/* ---- perf-style terms ------------------------------------------------------------------ */
#define SKX_ALL_OPC (1ull << 3)   /* FILTER1 all_opc (Linux SKX_CHA_MSR_PMON_BOX_FILTER_ALL_OPC) */

/* SKX CTL (32-bit) and FILTER0/FILTER1 (Linux uncore_snbep.c skx_uncore_cha_formats_attr,
 * SKX_CHA_MSR_PMON_BOX_FILTER_*; Intel Skylake-SP uncore manual, CHA filter registers). */
static const struct cha_field skx_fields[] = {
	{ "event", CHA_T_CTL, 0, 8, 0 },
	{ "umask", CHA_T_CTL, 8, 8, 0 },
	{ "edge", CHA_T_CTL, 18, 1, 0 },
	{ "tid_en", CHA_T_CTL, 19, 1, 0 },
	{ "inv", CHA_T_CTL, 23, 1, 0 },
	{ "thresh", CHA_T_CTL, 24, 8, 0 },
	{ "filter_tid", CHA_T_FILTER0, 0, 9, 0 },
	{ "filter_link", CHA_T_FILTER0, 9, 4, 0 },
	{ "filter_state", CHA_T_FILTER0, 17, 10, 0 },
	{ "filter_rem", CHA_T_FILTER1, 0, 1, 0 },
	{ "filter_loc", CHA_T_FILTER1, 1, 1, 0 },
	{ "filter_all_opc", CHA_T_FILTER1, 3, 1, 0 },
	{ "filter_nm", CHA_T_FILTER1, 4, 1, 0 },
	{ "filter_not_nm", CHA_T_FILTER1, 5, 1, 0 },
	/* an opcode match replaces "all opcodes" (PCM programCboOpcodeFilter: all_opc = 0) */
	{ "filter_opc", CHA_T_FILTER1, 9, 10, SKX_ALL_OPC },
	{ "filter_opc0", CHA_T_FILTER1, 9, 10, SKX_ALL_OPC },
	{ "filter_opc1", CHA_T_FILTER1, 19, 10, SKX_ALL_OPC },
	{ "filter_c6", CHA_T_FILTER1, 29, 1, 0 },
	{ "filter_nc", CHA_T_FILTER1, 30, 1, 0 },
	{ "filter_isoc", CHA_T_FILTER1, 31, 1, 0 },
};

/* ICX CTL (64-bit): umask_ext is config bits 57:32, 26 bits (Linux uncore_snbep.c
 * SNR_CHA_RAW_EVENT_MASK_EXT, format umask_ext2); FILTER0 holds the TID only. No FILTER1: opcodes live in umask_ext. */
static const struct cha_field icx_fields[] = {
	{ "event", CHA_T_CTL, 0, 8, 0 },
	{ "umask", CHA_T_CTL, 8, 8, 0 },
	{ "edge", CHA_T_CTL, 18, 1, 0 },
	{ "tid_en", CHA_T_CTL, 19, 1, 0 },
	{ "inv", CHA_T_CTL, 23, 1, 0 },
	{ "thresh", CHA_T_CTL, 24, 8, 0 },
	{ "umask_ext", CHA_T_CTL, 32, 26, 0 },
	{ "filter_tid", CHA_T_FILTER0, 0, 9, 0 },
};

/* SPR/EMR/GNR CTL: tid_en moved to bit 16; umask_ext is bits 63:32, all 32 of them (Linux
 * arch/x86/events/intel/uncore_snbep.c, "perf/x86/intel/uncore: Fix the bits of the CHA extended
 * umask for SPR", 2024: format umask_ext5 config:32-63; Intel perfmon GNR v1.20 has umask_ext
 * values up to 0x78CC6FFE, SPR v1.39 TOR_INSERTS.NONCOH 0x1000000); FILTER0 TID 10 bits. */
static const struct cha_field spr_fields[] = {
	{ "event", CHA_T_CTL, 0, 8, 0 },
	{ "umask", CHA_T_CTL, 8, 8, 0 },
	{ "tid_en", CHA_T_CTL, 16, 1, 0 },
	{ "edge", CHA_T_CTL, 18, 1, 0 },
	{ "inv", CHA_T_CTL, 23, 1, 0 },
	{ "thresh", CHA_T_CTL, 24, 8, 0 },
	{ "umask_ext", CHA_T_CTL, 32, 32, 0 },
	{ "filter_tid", CHA_T_FILTER0, 0, 10, 0 },
};

/* SKX: LLC_LOOKUP (0x34) needs FILTER0.STATE, TOR_INSERTS/TOR_OCCUPANCY (0x35/0x36) the
 * FILTER1 opcode group (Linux uncore_snbep.c skx_uncore_cha_extra_regs). */
static const struct cha_filter_use skx_filter_uses[] = {
	{ 0x34, CHA_FILTER0 }, { 0x35, CHA_FILTER1 }, { 0x36, CHA_FILTER1 },
};
/* Events 0x11 and 0x36 (TOR_OCCUPANCY) count on counter 0 only (Linux uncore_snbep.c
 * skx_uncore_chabox_constraints, used for ICX too). */
static const struct box_constraint skx_constraints[] = { { 0x11, 0x1 }, { 0x36, 0x1 } };
/* SPR/EMR/GNR: TOR_OCCUPANCY (0x36) on counter 0 only (Intel perfmon sapphirerapids_uncore v1.39,
 * emeraldrapids v1.24, graniterapids v1.20: every UNC_CHA_TOR_OCCUPANCY.* has "Counter": "0"). */
static const struct box_constraint spr_constraints[] = { { 0x36, 0x1 } };

/* TOR latency classes: the IO requests of the PCIe read and write formulas, hits and misses
 * apart (SKX: RdCur and ItoM, PCM src/pcm-pcie.h PurleyPlatform; ICX+: PCIRdCur, ItoM and
 * ItoMCacheNear, WhitleyPlatform). Each is a group of its own: TOR_OCCUPANCY on counter 0,
 * its TOR_INSERTS and CLOCKTICKS. */
#define LAT(cls, ev) { cls, "TOR_OCCUPANCY.IO_" ev, "TOR_INSERTS.IO_" ev }
static const struct cha_latency_class skx_latency[] = {
	LAT("RdCur_hit", "HIT_RDCUR"), LAT("RdCur_miss", "MISS_RDCUR"),
	LAT("ItoM_hit", "HIT_ITOM"), LAT("ItoM_miss", "MISS_ITOM"),
};
static const struct cha_latency_class icx_latency[] = {
	LAT("PCIRdCur_hit", "HIT_PCIRDCUR"), LAT("PCIRdCur_miss", "MISS_PCIRDCUR"),
	LAT("ItoM_hit", "HIT_ITOM"), LAT("ItoM_miss", "MISS_ITOM"),
	LAT("ItoMCacheNear_hit", "HIT_ITOMCACHENEAR"), LAT("ItoMCacheNear_miss", "MISS_ITOMCACHENEAR"),
};

static const char *const skx_defaults[] = {
	"TOR_INSERTS.IO_HIT_RDCUR", "TOR_INSERTS.IO_MISS_RDCUR", "TOR_INSERTS.IO_HIT_RFO",
	"TOR_INSERTS.IO_MISS_RFO", "TOR_INSERTS.IO_HIT_CRD", "TOR_INSERTS.IO_MISS_CRD",
	"TOR_INSERTS.IO_HIT_DRD", "TOR_INSERTS.IO_MISS_DRD", "TOR_INSERTS.IO_HIT_ITOM",
	"TOR_INSERTS.IO_MISS_ITOM", "TOR_INSERTS.IA_HIT_PRD", "TOR_INSERTS.IA_MISS_PRD",
	"TOR_INSERTS.IA_HIT_WIL", "TOR_INSERTS.IA_MISS_WIL",
};
/* ICX+: four counters hold the read (hit and miss) and both write opcodes: one group. */
static const char *const icx_defaults[] = {
	"TOR_INSERTS.IO_HIT_PCIRDCUR", "TOR_INSERTS.IO_MISS_PCIRDCUR", "TOR_INSERTS.IO_ITOM",
	"TOR_INSERTS.IO_ITOMCACHENEAR",
};

/* CTL bits an event may set: event 7:0, umask 15:8, edge 18, tid_en 19 (SPR: 16), inv 23,
 * thresh 31:24 and umask_ext (ICX 57:32, SPR+ 63:32): Linux uncore_snbep.c
 * HSWEP_S_MSR_PMON_RAW_EVENT_MASK, SNR_CHA_RAW_EVENT_MASK_EXT, SPR_RAW_EVENT_MASK_EXT. */
#define CTL_BASE_MASK 0xFF84FFFFull
#define SKX_EVENT_MASK (CTL_BASE_MASK | 1ull << 19)
#define ICX_EVENT_MASK (SKX_EVENT_MASK | 0x3FFFFFFull << 32)
#define SPR_EVENT_MASK (CTL_BASE_MASK | 1ull << 16 | 0xFFFFFFFFull << 32)

/* SKX/ICX box (Intel Xeon Scalable uncore performance monitoring reference manual, CHA
 * chapter; Linux uncore_snbep.c HSWEP_C0_MSR_PMON_* and SNBEP_PMON_*): 4 counters of 48
 * bits, CTL0 +1, FILTER0 +5, FILTER1 +6 (SKX), STATUS +7, CTR0 +8; BOX_CTL frz bit 8,
 * rst_ctrl bit 0, rst_ctrs bit 1; CTL en bit 22. Uncore global control U_MSR_PMON_GLOBAL_CTL
 * 0x700, bit 61 unfreezes (Intel Skylake-SP uncore manual, UBox global control). */
#define SNBEP_STYLE_BOX .name = "CHA", .access = BOX_ACCESS_MSR, .num_counters = 4, .ctr_bits = 48, \
	.reg_step = 1, .ctl0 = 1, .ctr0 = 8, .status = 7, .box_frz = 1ull << 8, .box_rst_ctrl = 1ull << 0, \
	.box_rst_ctrs = 1ull << 1, .ctl_en = 1ull << 22, .constraints = skx_constraints, \
	.nconstraints = N(skx_constraints), .global_ctl = 0x700, .global_unfreeze = 1ull << 61
/* SPR box (Intel 4th Gen Xeon Scalable uncore performance monitoring guide; Linux
 * uncore_snbep.c SPR_C0_MSR_PMON_*, GENERIC_PMON_BOX_CTL_*): BOX_CTL +0, STATUS +1, CTL0 +2,
 * CTR0 +8, FILTER0 +0xE; BOX_CTL frz bit 0, rst_ctrl 8, rst_ctrs 9; CTL bit 22 reserved (never
 * written). Global control 0x2FF0: 0 = unfreeze (PCM src/types.h
 * SPR_MSR_UNCORE_PMON_GLOBAL_CTL). Uncore discovery device 8086:09A7 (Linux
 * uncore_discovery.h UNCORE_DISCOVERY_TABLE_DEVICE). Up to 60 CHAs (libpfm4
 * docs/man3/libpfm_intel_spr_unc_cha.3: spr_unc_cha[0-59]). */
#define SPR_STYLE .box = { .name = "CHA", .access = BOX_ACCESS_MSR, .num_counters = 4, .ctr_bits = 48, \
	.reg_step = 1, .max_boxes = 60, .box_ctl = 0x2000, .box_stride = 0x10, .ctl0 = 2, .ctr0 = 8, \
	.filter = { 0xE, BOX_NO_REG }, .status = 1, .box_frz = 1ull << 0, .box_rst_ctrl = 1ull << 8, \
	.box_rst_ctrs = 1ull << 9, .ctl_en = 0, .event_mask = SPR_EVENT_MASK, .global_ctl = 0x2FF0, \
	.global_unfreeze = 0, .constraints = spr_constraints, .nconstraints = N(spr_constraints) }, \
	.latency = icx_latency, .nlatency = N(icx_latency), .clock_event = "CLOCKTICKS", \
	.fields = spr_fields, .nfields = N(spr_fields), \
	.count_method = CHA_COUNT_DISCOVERY_TABLE, .pci_device = 0x09A7, \
	.default_events = icx_defaults, .ndefault = N(icx_defaults), \
	.read_ops = CHA_OPBIT(CHA_OP_PCIRDCUR), \
	.write_ops = CHA_OPBIT(CHA_OP_ITOM) | CHA_OPBIT(CHA_OP_ITOMCACHENEAR), \
	.mmio_read_ops = CHA_OPBIT(CHA_OP_UCRDF), .mmio_write_ops = CHA_OPBIT(CHA_OP_WIL)

const struct cha_platform cha_platforms[] = {
	{
		.name = "SKX", .cpus = "Skylake-SP, Cascade Lake-SP", .models = { 0x55 },
		/* 28 CHAs: CAPID6 bits 27:0 (Linux skx_count_chabox), libpfm4 skx_unc_cha[0-27];
		 * box n at 0xE00 + 0x10 n (Linux HSWEP_C0_MSR_PMON_BOX_CTL, HSWEP_CBO_MSR_OFFSET) */
		.box = { SNBEP_STYLE_BOX, .max_boxes = 28, .box_ctl = 0xE00, .box_stride = 0x10,
			 .filter = { 5, 6 }, .event_mask = SKX_EVENT_MASK },
		.fields = skx_fields, .nfields = N(skx_fields),
		/* FILTER1 with no opcode match: rem|loc|all_opc|nm|not_nm = 0x3B (LIKWID
		 * perfmon_skylake.h skx_cbox_setup; PCM PMURegisterDeclarations/GenuineIntel-6-55-4.json
		 * Filter1 DefaultValue 59) */
		.filter_default = { 0, 0x3B },
		.filter_uses = skx_filter_uses, .nfilter_uses = N(skx_filter_uses),
		/* CAPID6 @0x9C of 8086:2083 (device 30 function 3), bits 27:0 (Linux uncore_snbep.c
		 * SKX_CAPID6, SKX_CHA_BIT_MASK) */
		.count_method = CHA_COUNT_CAPID, .pci_device = 0x2083, .capid_dev = 30, .capid_func = 3,
		.capid_off = { 0x9C, 0 }, .capid_mask = { 0x0FFFFFFF, 0 },
		.default_events = skx_defaults, .ndefault = N(skx_defaults), .events = cha_events_skx,
		.latency = skx_latency, .nlatency = N(skx_latency), .clock_event = "CLOCKTICKS",
		/* PCM src/pcm-pcie.h PurleyPlatform: read = RdCur + RFO + CRd + DRd, write = RFO + ItoM */
		.read_ops = CHA_OPBIT(CHA_OP_RDCUR) | CHA_OPBIT(CHA_OP_RFO) | CHA_OPBIT(CHA_OP_CRD) |
			    CHA_OPBIT(CHA_OP_DRD),
		.write_ops = CHA_OPBIT(CHA_OP_RFO) | CHA_OPBIT(CHA_OP_ITOM),
		.mmio_read_ops = CHA_OPBIT(CHA_OP_PRD), .mmio_write_ops = CHA_OPBIT(CHA_OP_WIL),
	},
	{
		.name = "ICX", .cpus = "Ice Lake-SP, Ice Lake-D", .models = { 0x6A, 0x6C },
		.box = { SNBEP_STYLE_BOX, .max_boxes = 40, .box_ctl_table = icx_box_ctl,
			 .filter = { 5, BOX_NO_REG }, .event_mask = ICX_EVENT_MASK },
		.fields = icx_fields, .nfields = N(icx_fields),
		/* CAPID6 @0x9C + CAPID7 @0xA0 of 8086:345B (device 30 function 3), hweight64 (Linux
		 * uncore_snbep.c icx_count_chabox) */
		.count_method = CHA_COUNT_CAPID, .pci_device = 0x345B, .capid_dev = 30, .capid_func = 3,
		.capid_off = { 0x9C, 0xA0 }, .capid_mask = { 0xFFFFFFFF, 0xFFFFFFFF },
		.default_events = icx_defaults, .ndefault = N(icx_defaults), .events = cha_events_icx,
		.latency = icx_latency, .nlatency = N(icx_latency), .clock_event = "CLOCKTICKS",
		/* PCM src/pcm-pcie.h WhitleyPlatform */
		.read_ops = CHA_OPBIT(CHA_OP_PCIRDCUR),
		.write_ops = CHA_OPBIT(CHA_OP_ITOM) | CHA_OPBIT(CHA_OP_ITOMCACHENEAR),
		.mmio_read_ops = CHA_OPBIT(CHA_OP_UCRDF), .mmio_write_ops = CHA_OPBIT(CHA_OP_WIL),
	},
	/* SPR/EMR: CBo count cross-check MSR 0x2FFE (Linux commit 38776cc45eb7 "Correct the number
	 * of CHAs on SPR"; the value is used whole, and 0 means "not implemented" on EMR XCC,
	 * 6f7f984fa85b). */
	{ .name = "SPR", .cpus = "Sapphire Rapids", .models = { 0x8F }, SPR_STYLE, .events = cha_events_spr,
	  .cbo_count_msr = 0x2FFE, .cbo_count_mask = ~0ull },
	{ .name = "EMR", .cpus = "Emerald Rapids", .models = { 0xCF }, SPR_STYLE, .events = cha_events_spr,
	  .cbo_count_msr = 0x2FFE, .cbo_count_mask = ~0ull },
	/* GNR: PCM reads MSR 0x3FED & 0x1FF (src/cpucounters.cpp getMaxNumOfCBoxesInternal,
	 * MSR_PMON_NUMBER_CBOS). The 60-CHA bound is SPR's; a larger GNR part fails discovery with
	 * that bound named, never a guess. */
	{ .name = "GNR", .cpus = "Granite Rapids", .models = { 0xAD, 0xAE }, SPR_STYLE, .events = cha_events_gnr,
	  .cbo_count_msr = 0x3FED, .cbo_count_mask = 0x1FF },
	/* Sierra Forest, Clearwater Forest: GNR's uncore (Linux uncore.c gnr_uncore_init for
	 * INTEL_ATOM_CRESTMONT_X and INTEL_ATOM_DARKMONT_X), and Intel's SRF and CWF uncore files
	 * encode every CHA event of GNR's table the same (tests/oracle/perfmon srf_cha.json,
	 * cwf_cha.json). PCM reads the same MSR 0x3FED for SRF; it has no Clearwater Forest case,
	 * so CWF's count rests on GNR's and SRF's register and the discovery table cross-checks it. */
	{ .name = "SRF", .cpus = "Sierra Forest (Xeon 6 E-cores)", .models = { 0xAF }, SPR_STYLE,
	  .events = cha_events_gnr, .cbo_count_msr = 0x3FED, .cbo_count_mask = 0x1FF },
	{ .name = "CWF", .cpus = "Clearwater Forest", .models = { 0xDD }, SPR_STYLE,
	  .events = cha_events_gnr, .cbo_count_msr = 0x3FED, .cbo_count_mask = 0x1FF },
};
const size_t cha_nplatforms = sizeof(cha_platforms) / sizeof(cha_platforms[0]);

const struct cha_platform *cha_platform_for_cpu(uint32_t family, uint32_t model)
{
	if (family != 6)
		return NULL;
	for (size_t i = 0; i < cha_nplatforms; i++)
		for (size_t k = 0; k < sizeof(cha_platforms[i].models); k++)
			if (cha_platforms[i].models[k] && cha_platforms[i].models[k] == model)
				return &cha_platforms[i];
	return NULL;
}

const struct cha_platform *cha_platform_by_name(const char *name)
{
	for (size_t i = 0; i < cha_nplatforms; i++)
		if (!strcmp(cha_platforms[i].name, name))
			return &cha_platforms[i];
	return NULL;
}

uint32_t cha_box_ctl(const struct cha_platform *p, unsigned n)
{
	return (uint32_t)box_reg(&p->box, NULL, n, BOX_REG_UNIT_CTL, 0).addr;
}

uint32_t cha_ctl_msr(const struct cha_platform *p, unsigned n, unsigned i)
{
	return (uint32_t)box_reg(&p->box, NULL, n, BOX_REG_CTL, i).addr;
}

uint32_t cha_ctr_msr(const struct cha_platform *p, unsigned n, unsigned i)
{
	return (uint32_t)box_reg(&p->box, NULL, n, BOX_REG_CTR, i).addr;
}

uint32_t cha_filter_msr(const struct cha_platform *p, unsigned n, unsigned f)
{
	return box_has(&p->box, BOX_REG_FILTER, f) ? (uint32_t)box_reg(&p->box, NULL, n, BOX_REG_FILTER, f).addr : 0;
}
