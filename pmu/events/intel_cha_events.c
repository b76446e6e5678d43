/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Named CHA events per platform: Intel's event name -> fields, each row with its source.
 * Every row Intel's perfmon files list (github.com/intel/perfmon: SKX/events/skylakex_uncore*.json
 * v1.37, CLX cascadelakex v1.25, ICX icelakex v1.30, SPR sapphirerapids v1.39, EMR emeraldrapids
 * v1.24, GNR graniterapids v1.20) is compared bit for bit with them by
 * tests/unit/test_cha_perfmon.c; rows they lack cite their own source.
 * SKX TOR_INSERTS umask bits: IRQ 0x01, PRQ 0x04, HIT 0x10, MISS 0x20 (Intel Xeon Processor
 * Scalable Family Uncore Performance Monitoring Reference Manual (2017), CHA TOR_INSERTS; PCM
 * src/types.h); IO = PRQ (0x34 = PRQ|HIT|MISS), IA = IRQ. Opcodes in FILTER1 opc0: RdCur 0x21E,
 * RFO 0x200, CRd 0x201, DRd 0x202, ItoM 0x248, PRd 0x207, WiL 0x20F (same manual, CHA opcode
 * match table; PCM src/pcm-pcie.h PurleyPlatform). PRd/WiL are core (IRQ) requests to
 * non-coherent MMIO: FILTER1 nc = 1 (PCM PurleyPlatform).
 * SKX LLC_LOOKUP needs FILTER0.STATE: every state, 0x3FF (perfmon "CHAFilter0[26:17]"; LIKWID
 * src/includes/perfmon_skylake.h skx_cbox_setup).
 */
#include "pmu/uncore/intel_cha_regs.h"

#include <string.h>

#define TOR 0x35
#define LLC_LOOKUP 0x34
#define SKX_IO 0x34
#define SKX_IO_HIT 0x14
#define SKX_IO_MISS 0x24
#define SKX_IA 0x31
#define SKX_IA_HIT 0x11
#define SKX_IA_MISS 0x21
#define SKX_STATE_ANY 0x3FF

/* SKX: one opcode, three queue/hit/miss umasks. */
#define SKX_OPC(q, name, opc, nc, op, src)                                                  \
	{ "TOR_INSERTS." #q "_" #name, TOR, SKX_##q, 0, opc, nc, 0, op, CHA_PART_ALL, src, CHA_K_INSERTS },      \
	{ "TOR_INSERTS." #q "_HIT_" #name, TOR, SKX_##q##_HIT, 0, opc, nc, 0, op, CHA_PART_HIT, src, CHA_K_INSERTS }, \
	{ "TOR_INSERTS." #q "_MISS_" #name, TOR, SKX_##q##_MISS, 0, opc, nc, 0, op, CHA_PART_MISS, src, CHA_K_INSERTS }
/* SKX TOR_OCCUPANCY (event 0x36): the TOR_INSERTS umasks and FILTER1 opcode match (Intel Xeon
 * Processor Scalable Family Uncore Performance Monitoring Reference Manual (2017), CHA
 * TOR_OCCUPANCY; perfmon skylakex_uncore_experimental v1.37 lists IO, IO_MISS_RDCUR
 * (FILTER_VALUE 0x43C33) and IO_MISS_ITOM (0x49033), the hit and all-requests rows follow the
 * same manual). */
#define OCC 0x36
#define SKX_MANUAL_OCC "Intel Xeon Scalable uncore manual (2017), CHA TOR_OCCUPANCY umasks + FILTER1 opcode match"
#define SKX_OCC(name, opc, op, src_all, src_hit, src_miss)                                          \
	{ "TOR_OCCUPANCY.IO_" #name, OCC, SKX_IO, 0, opc, 0, 0, op, CHA_PART_ALL, src_all, CHA_K_OCCUPANCY },  \
	{ "TOR_OCCUPANCY.IO_HIT_" #name, OCC, SKX_IO_HIT, 0, opc, 0, 0, op, CHA_PART_HIT, src_hit, CHA_K_OCCUPANCY }, \
	{ "TOR_OCCUPANCY.IO_MISS_" #name, OCC, SKX_IO_MISS, 0, opc, 0, 0, op, CHA_PART_MISS, src_miss, CHA_K_OCCUPANCY }
#define SKX_LLC(name, umask, src) \
	{ "LLC_LOOKUP." name, LLC_LOOKUP, umask, 0, 0, 0, SKX_STATE_ANY, CHA_OP_LLC, CHA_PART_ALL, src, CHA_K_INSERTS }

const struct cha_event cha_events_skx[] = {
	{ "TOR_INSERTS.IO", TOR, SKX_IO, 0, 0, 0, 0, CHA_OP_IO, CHA_PART_ALL, "perfmon skylakex_uncore v1.37", CHA_K_INSERTS },
	{ "TOR_INSERTS.IO_HIT", TOR, SKX_IO_HIT, 0, 0, 0, 0, CHA_OP_IO, CHA_PART_HIT, "perfmon skylakex_uncore v1.37", CHA_K_INSERTS },
	{ "TOR_INSERTS.IO_MISS", TOR, SKX_IO_MISS, 0, 0, 0, 0, CHA_OP_IO, CHA_PART_MISS, "perfmon skylakex_uncore v1.37", CHA_K_INSERTS },
	{ "TOR_INSERTS.IA", TOR, SKX_IA, 0, 0, 0, 0, CHA_OP_IA, CHA_PART_ALL, "perfmon skylakex_uncore v1.37", CHA_K_INSERTS },
	{ "TOR_INSERTS.IA_HIT", TOR, SKX_IA_HIT, 0, 0, 0, 0, CHA_OP_IA, CHA_PART_HIT, "perfmon skylakex_uncore v1.37", CHA_K_INSERTS },
	{ "TOR_INSERTS.IA_MISS", TOR, SKX_IA_MISS, 0, 0, 0, 0, CHA_OP_IA, CHA_PART_MISS, "perfmon skylakex_uncore v1.37", CHA_K_INSERTS },
	SKX_OPC(IO, RDCUR, 0x21E, 0, CHA_OP_RDCUR, "PCM src/pcm-pcie.h PurleyPlatform PCIRdCur; Intel SKX uncore manual, CHA opcode match"),
	SKX_OPC(IO, RFO, 0x200, 0, CHA_OP_RFO, "PCM src/pcm-pcie.h PurleyPlatform RFO; Intel SKX uncore manual, CHA opcode match"),
	SKX_OPC(IO, CRD, 0x201, 0, CHA_OP_CRD, "PCM src/pcm-pcie.h PurleyPlatform CRd; Intel SKX uncore manual, CHA opcode match"),
	SKX_OPC(IO, DRD, 0x202, 0, CHA_OP_DRD, "PCM src/pcm-pcie.h PurleyPlatform DRd; Intel SKX uncore manual, CHA opcode match"),
	SKX_OPC(IO, ITOM, 0x248, 0, CHA_OP_ITOM, "PCM src/pcm-pcie.h PurleyPlatform ItoM; Intel SKX uncore manual, CHA opcode match"),
	SKX_OPC(IA, PRD, 0x207, 1, CHA_OP_PRD, "PCM src/pcm-pcie.h PurleyPlatform PRd (IRQ, nc)"),
	SKX_OPC(IA, WIL, 0x20F, 1, CHA_OP_WIL, "PCM src/pcm-pcie.h PurleyPlatform WiL (IRQ, nc)"),
	SKX_LLC("ANY", 0x11, "perfmon skylakex_uncore v1.37"),
	SKX_LLC("DATA_READ", 0x03, "perfmon skylakex_uncore v1.37"),
	SKX_LLC("WRITE", 0x05, "perfmon skylakex_uncore v1.37"),
	SKX_LLC("LOCAL", 0x31, "perfmon skylakex_uncore v1.37"),
	SKX_LLC("REMOTE", 0x91, "perfmon skylakex_uncore v1.37"),
	{ "TOR_OCCUPANCY.IO", OCC, SKX_IO, 0, 0, 0, 0, CHA_OP_IO, CHA_PART_ALL, "perfmon skylakex_uncore v1.37", CHA_K_OCCUPANCY },
	SKX_OCC(RDCUR, 0x21E, CHA_OP_RDCUR, SKX_MANUAL_OCC, SKX_MANUAL_OCC, "perfmon skylakex_uncore v1.37"),
	SKX_OCC(ITOM, 0x248, CHA_OP_ITOM, SKX_MANUAL_OCC, SKX_MANUAL_OCC, "perfmon skylakex_uncore v1.37"),
	/* the CHA clock: event 0x00 (perfmon UNC_CHA_CLOCKTICKS, Counter 0,1,2,3) */
	{ "CLOCKTICKS", 0x00, 0x00, 0, 0, 0, 0, CHA_OP_CLOCK, CHA_PART_ALL, "perfmon skylakex_uncore v1.37", CHA_K_CLOCK },
	{ 0 },
};

/* Rows shared by the ICX, SPR/EMR and GNR tables: each is in all four of Intel's files. */
#define PERFMON_X "perfmon icelakex v1.30, sapphirerapids v1.39, emeraldrapids v1.24, graniterapids v1.20"

/* ICX and SPR+: event 0x35, umask 0x04 = IO or 0x01 = IA, opcode/hit/miss in umask_ext. */
#define IO 0x04
#define IA 0x01
#define XTOR(name, umask, ext, op, part, src) \
	{ "TOR_INSERTS." name, TOR, umask, ext, 0, 0, 0, op, part, src, CHA_K_INSERTS }
#define XLLC(name, umask, ext, src) \
	{ "LLC_LOOKUP." name, LLC_LOOKUP, umask, ext, 0, 0, 0, CHA_OP_LLC, CHA_PART_ALL, src, CHA_K_INSERTS }

#define XTOR_IO_SET                                                                            \
	XTOR("IO", IO, 0xC001FF, CHA_OP_IO, CHA_PART_ALL, PERFMON_X),                       \
	XTOR("IO_HIT", IO, 0xC001FD, CHA_OP_IO, CHA_PART_HIT, PERFMON_X),                   \
	XTOR("IO_MISS", IO, 0xC001FE, CHA_OP_IO, CHA_PART_MISS, PERFMON_X),                 \
	XTOR("IA", IA, 0xC001FF, CHA_OP_IA, CHA_PART_ALL, PERFMON_X),            \
	XTOR("IA_HIT", IA, 0xC001FD, CHA_OP_IA, CHA_PART_HIT, PERFMON_X),        \
	XTOR("IA_MISS", IA, 0xC001FE, CHA_OP_IA, CHA_PART_MISS, PERFMON_X),      \
	XTOR("IO_PCIRDCUR", IO, 0xC8F3FF, CHA_OP_PCIRDCUR, CHA_PART_ALL, PERFMON_X),        \
	XTOR("IO_HIT_PCIRDCUR", IO, 0xC8F3FD, CHA_OP_PCIRDCUR, CHA_PART_HIT, PERFMON_X),    \
	XTOR("IO_MISS_PCIRDCUR", IO, 0xC8F3FE, CHA_OP_PCIRDCUR, CHA_PART_MISS, PERFMON_X),  \
	XTOR("IO_ITOM", IO, 0xCC43FF, CHA_OP_ITOM, CHA_PART_ALL, PERFMON_X),                          \
	XTOR("IO_HIT_ITOM", IO, 0xCC43FD, CHA_OP_ITOM, CHA_PART_HIT, PERFMON_X),            \
	XTOR("IO_MISS_ITOM", IO, 0xCC43FE, CHA_OP_ITOM, CHA_PART_MISS, PERFMON_X),          \
	XTOR("IO_ITOMCACHENEAR", IO, 0xCD43FF, CHA_OP_ITOMCACHENEAR, CHA_PART_ALL, PERFMON_X),        \
	XTOR("IO_HIT_ITOMCACHENEAR", IO, 0xCD43FD, CHA_OP_ITOMCACHENEAR, CHA_PART_HIT, PERFMON_X), \
	XTOR("IO_MISS_ITOMCACHENEAR", IO, 0xCD43FE, CHA_OP_ITOMCACHENEAR, CHA_PART_MISS, PERFMON_X), \
	XTOR("IO_RFO", IO, 0xC803FF, CHA_OP_RFO, CHA_PART_ALL, PERFMON_X),                            \
	XTOR("IO_HIT_RFO", IO, 0xC803FD, CHA_OP_RFO, CHA_PART_HIT, PERFMON_X),              \
	XTOR("IO_MISS_RFO", IO, 0xC803FE, CHA_OP_RFO, CHA_PART_MISS, PERFMON_X),            \
	/* core UC reads / partial writes to MMIO always miss the LLC: PCM counts IA_MISS_* */      \
	XTOR("IA_MISS_UCRDF", IA, 0xC877DE, CHA_OP_UCRDF, CHA_PART_ALL, PERFMON_X " (PCM src/pcm-pcie.h UCRdF)"),       \
	XTOR("IA_MISS_WIL", IA, 0xC87FDE, CHA_OP_WIL, CHA_PART_ALL, PERFMON_X " (PCM src/pcm-pcie.h WiL)")

/* TOR_OCCUPANCY (0x36): the TOR_INSERTS umask / umask_ext of the same requests (Intel perfmon
 * UNC_CHA_TOR_OCCUPANCY.*, Counter "0"). */
#define XOCC(name, ext, op, part) \
	{ "TOR_OCCUPANCY." name, OCC, IO, ext, 0, 0, 0, op, part, PERFMON_X, CHA_K_OCCUPANCY }
#define XOCC_IO_SET                                                                          \
	XOCC("IO", 0xC001FF, CHA_OP_IO, CHA_PART_ALL),                                       \
	XOCC("IO_PCIRDCUR", 0xC8F3FF, CHA_OP_PCIRDCUR, CHA_PART_ALL),                        \
	XOCC("IO_HIT_PCIRDCUR", 0xC8F3FD, CHA_OP_PCIRDCUR, CHA_PART_HIT),                    \
	XOCC("IO_MISS_PCIRDCUR", 0xC8F3FE, CHA_OP_PCIRDCUR, CHA_PART_MISS),                  \
	XOCC("IO_ITOM", 0xCC43FF, CHA_OP_ITOM, CHA_PART_ALL),                                \
	XOCC("IO_HIT_ITOM", 0xCC43FD, CHA_OP_ITOM, CHA_PART_HIT),                            \
	XOCC("IO_MISS_ITOM", 0xCC43FE, CHA_OP_ITOM, CHA_PART_MISS),                          \
	XOCC("IO_ITOMCACHENEAR", 0xCD43FF, CHA_OP_ITOMCACHENEAR, CHA_PART_ALL),              \
	XOCC("IO_HIT_ITOMCACHENEAR", 0xCD43FD, CHA_OP_ITOMCACHENEAR, CHA_PART_HIT),          \
	XOCC("IO_MISS_ITOMCACHENEAR", 0xCD43FE, CHA_OP_ITOMCACHENEAR, CHA_PART_MISS)
/* the CHA clock: event 0x00 on ICX, 0x01 on SPR, EMR and GNR (perfmon UNC_CHA_CLOCKTICKS) */
#define XCLOCK(code, src) { "CLOCKTICKS", code, 0x00, 0, 0, 0, 0, CHA_OP_CLOCK, CHA_PART_ALL, src, CHA_K_CLOCK }

const struct cha_event cha_events_icx[] = {
	XTOR_IO_SET,
	XOCC_IO_SET,
	XCLOCK(0x00, "perfmon icelakex_uncore v1.30"),
	XLLC("ALL", 0xFF, 0x1FFF, "perfmon icelakex_uncore v1.30"),
	XLLC("MISS_ALL", 0x01, 0x1FE0, "perfmon icelakex_uncore v1.30"),
	XLLC("DATA_READ_MISS", 0x01, 0x1BC1, "perfmon icelakex_uncore v1.30"),
	XLLC("WRITE_LOCAL", 0xFF, 0x842, "perfmon icelakex_uncore v1.30"),
	{ 0 },
};

#define XTOR_SPR_GNR_SET                                                                       \
	XTOR_IO_SET,                                                                           \
	XTOR("IA_MISS_WCIL", IA, 0xC86FFE, CHA_OP_WCIL, CHA_PART_ALL, PERFMON_X " (PCM src/pcm-pcie.h WCiL)"), \
	XTOR("IA_MISS_WCILF", IA, 0xC867FE, CHA_OP_WCILF, CHA_PART_ALL, PERFMON_X " (PCM src/pcm-pcie.h WCiLF)"), \
	/* umask_ext above 24 bits: config bits 63:32 (Linux umask_ext5) */                     \
	XTOR("IA_MISS_DRD_CXL_ACC", IA, 0x10C81782, CHA_OP_NONE, CHA_PART_MISS, "perfmon sapphirerapids v1.39, emeraldrapids v1.24, graniterapids v1.20")

const struct cha_event cha_events_spr[] = {
	XTOR_SPR_GNR_SET,
	XOCC_IO_SET,
	XCLOCK(0x01, "perfmon sapphirerapids v1.39, emeraldrapids v1.24"),
	XTOR("NONCOH", 0x00, 0x1000000, CHA_OP_NONE, CHA_PART_ALL, "perfmon sapphirerapids v1.39, emeraldrapids v1.24"),
	XLLC("ALL", 0xFF, 0x1FFF, "perfmon sapphirerapids_uncore v1.39"),
	XLLC("MISS_ALL", 0x01, 0x1FE0, "perfmon sapphirerapids_uncore v1.39"),
	XLLC("DATA_READ_MISS", 0x01, 0x1FC1, "perfmon sapphirerapids_uncore v1.39"),
	{ 0 },
};

/* GNR: perfmon graniterapids_uncore*.json has no LLC_LOOKUP.ALL / MISS_ALL. */
const struct cha_event cha_events_gnr[] = {
	XTOR_SPR_GNR_SET,
	XOCC_IO_SET,
	XCLOCK(0x01, "perfmon graniterapids v1.20"),
	XTOR("CXL_MISS_MEMPUSHWR", 0x20, 0x78CC6FFE, CHA_OP_NONE, CHA_PART_MISS, "perfmon graniterapids v1.20"),
	XLLC("DATA_READ_MISS", 0x01, 0x1FC1, "perfmon graniterapids v1.20"),
	{ 0 },
};

const struct cha_event *cha_event_find(const struct cha_platform *p, const char *name, size_t len)
{
	for (const struct cha_event *e = p->events; e && e->name; e++)
		if (strlen(e->name) == len && !memcmp(e->name, name, len))
			return e;
	return NULL;
}

static const char *const op_names[CHA_NOPS] = {
	[CHA_OP_NONE] = "", [CHA_OP_IO] = "IO", [CHA_OP_IA] = "IA", [CHA_OP_RDCUR] = "RdCur",
	[CHA_OP_PCIRDCUR] = "PCIRdCur", [CHA_OP_RFO] = "RFO", [CHA_OP_CRD] = "CRd",
	[CHA_OP_DRD] = "DRd", [CHA_OP_ITOM] = "ItoM", [CHA_OP_ITOMCACHENEAR] = "ItoMCacheNear",
	[CHA_OP_PRD] = "PRd", [CHA_OP_WIL] = "WiL", [CHA_OP_UCRDF] = "UCRdF", [CHA_OP_WCIL] = "WCiL",
	[CHA_OP_WCILF] = "WCiLF", [CHA_OP_LLC] = "LLC", [CHA_OP_CLOCK] = "clock",
};

const char *cha_op_name(uint8_t op)
{
	return op < CHA_NOPS ? op_names[op] : "?";
}
