/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Named CHA events per platform: manual name -> fields, each row with its source.
 *   "seed 3.2"  = /work/shared/seeds/001 section 3.2 (SKX TOR_INSERTS 0x35, umask 0x34 = IO,
 *                 FILTER1 opc: RdCur 0x21E, DRd 0x202, CRd 0x201, ItoM 0x248, RFO 0x200,
 *                 PRd 0x207, WiL 0x20F)
 *   "seed 3.3"  = seed 001 section 3.3 (ICX TOR_INSERTS umask 0x04 + umask_ext codes)
 *   "ref 4.1/4.2/5" = intel-cha-uncore.md sections: Intel perfmon skylakex_uncore.json /
 *                 icelakex_uncore.json v1.30 / sapphirerapids_uncore.json v1.39 (identical
 *                 umask_ext values for EMR v1.24 and GNR v1.20), PCM pcm-pcie.h.
 * SKX hit/miss: TOR umask bits IRQ 0x01, PRQ 0x04, HIT 0x10, MISS 0x20 (ref 4.1, PCM
 * types.h); IO = PRQ (0x34 = PRQ|HIT|MISS), IA = IRQ. PRd/WiL are core (IRQ) requests to
 * non-coherent MMIO: FILTER1 nc = 1 (ref 4.1, PCM PurleyPlatform).
 * SKX LLC_LOOKUP needs FILTER0.STATE: every state, 0x3FF (ref 1.4, LIKWID skx_cbox_setup).
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
	{ "TOR_INSERTS." #q "_" #name, TOR, SKX_##q, 0, opc, nc, 0, op, CHA_PART_ALL, src },      \
	{ "TOR_INSERTS." #q "_HIT_" #name, TOR, SKX_##q##_HIT, 0, opc, nc, 0, op, CHA_PART_HIT, src }, \
	{ "TOR_INSERTS." #q "_MISS_" #name, TOR, SKX_##q##_MISS, 0, opc, nc, 0, op, CHA_PART_MISS, src }
#define SKX_LLC(name, umask, src) \
	{ "LLC_LOOKUP." name, LLC_LOOKUP, umask, 0, 0, 0, SKX_STATE_ANY, CHA_OP_LLC, CHA_PART_ALL, src }

const struct cha_event cha_events_skx[] = {
	{ "TOR_INSERTS.IO", TOR, SKX_IO, 0, 0, 0, 0, CHA_OP_IO, CHA_PART_ALL, "seed 3.2; ref 4.1" },
	{ "TOR_INSERTS.IO_HIT", TOR, SKX_IO_HIT, 0, 0, 0, 0, CHA_OP_IO, CHA_PART_HIT, "ref 4.1" },
	{ "TOR_INSERTS.IO_MISS", TOR, SKX_IO_MISS, 0, 0, 0, 0, CHA_OP_IO, CHA_PART_MISS, "ref 4.1" },
	{ "TOR_INSERTS.IA", TOR, SKX_IA, 0, 0, 0, 0, CHA_OP_IA, CHA_PART_ALL, "ref 4.1" },
	{ "TOR_INSERTS.IA_HIT", TOR, SKX_IA_HIT, 0, 0, 0, 0, CHA_OP_IA, CHA_PART_HIT, "ref 4.1" },
	{ "TOR_INSERTS.IA_MISS", TOR, SKX_IA_MISS, 0, 0, 0, 0, CHA_OP_IA, CHA_PART_MISS, "ref 4.1" },
	SKX_OPC(IO, RDCUR, 0x21E, 0, CHA_OP_RDCUR, "seed 3.2; ref 4.1 (perfmon IO_MISS_RDCUR 0x43C33)"),
	SKX_OPC(IO, RFO, 0x200, 0, CHA_OP_RFO, "seed 3.2; ref 4.1 (perfmon IO_MISS_RFO 0x40033)"),
	SKX_OPC(IO, CRD, 0x201, 0, CHA_OP_CRD, "seed 3.2; ref 4.1"),
	SKX_OPC(IO, DRD, 0x202, 0, CHA_OP_DRD, "seed 3.2; ref 4.1"),
	SKX_OPC(IO, ITOM, 0x248, 0, CHA_OP_ITOM, "seed 3.2; ref 4.1 (perfmon IO_MISS_ITOM 0x49033)"),
	SKX_OPC(IA, PRD, 0x207, 1, CHA_OP_PRD, "seed 3.2; ref 4.1 (PCM PRd: IRQ, nc)"),
	SKX_OPC(IA, WIL, 0x20F, 1, CHA_OP_WIL, "seed 3.2; ref 4.1 (PCM WiL: IRQ, nc)"),
	SKX_LLC("ANY", 0x11, "ref 5 (perfmon UNC_CHA_LLC_LOOKUP.ANY)"),
	SKX_LLC("DATA_READ", 0x03, "ref 5"),
	SKX_LLC("WRITE", 0x05, "ref 5"),
	SKX_LLC("LOCAL", 0x31, "ref 5"),
	SKX_LLC("REMOTE", 0x91, "ref 5"),
	{ 0 },
};

/* ICX and SPR+: event 0x35, umask 0x04 = IO or 0x01 = IA, opcode/hit/miss in umask_ext. */
#define IO 0x04
#define IA 0x01
#define XTOR(name, umask, ext, op, part, src) \
	{ "TOR_INSERTS." name, TOR, umask, ext, 0, 0, 0, op, part, src }
#define XLLC(name, umask, ext, src) \
	{ "LLC_LOOKUP." name, LLC_LOOKUP, umask, ext, 0, 0, 0, CHA_OP_LLC, CHA_PART_ALL, src }

#define XTOR_IO_SET                                                                            \
	XTOR("IO", IO, 0xC001FF, CHA_OP_IO, CHA_PART_ALL, "seed 3.3; ref 4.2"),                       \
	XTOR("IO_HIT", IO, 0xC001FD, CHA_OP_IO, CHA_PART_HIT, "seed 3.3; ref 4.2"),                   \
	XTOR("IO_MISS", IO, 0xC001FE, CHA_OP_IO, CHA_PART_MISS, "seed 3.3; ref 4.2"),                 \
	XTOR("IA", IA, 0xC001FF, CHA_OP_IA, CHA_PART_ALL, "perfmon icelakex_uncore.json"),            \
	XTOR("IA_HIT", IA, 0xC001FD, CHA_OP_IA, CHA_PART_HIT, "perfmon icelakex_uncore.json"),        \
	XTOR("IA_MISS", IA, 0xC001FE, CHA_OP_IA, CHA_PART_MISS, "perfmon icelakex_uncore.json"),      \
	XTOR("IO_PCIRDCUR", IO, 0xC8F3FF, CHA_OP_PCIRDCUR, CHA_PART_ALL, "seed 3.3; ref 4.2"),        \
	XTOR("IO_HIT_PCIRDCUR", IO, 0xC8F3FD, CHA_OP_PCIRDCUR, CHA_PART_HIT, "seed 3.3; ref 4.2"),    \
	XTOR("IO_MISS_PCIRDCUR", IO, 0xC8F3FE, CHA_OP_PCIRDCUR, CHA_PART_MISS, "seed 3.3; ref 4.2"),  \
	XTOR("IO_ITOM", IO, 0xCC43FF, CHA_OP_ITOM, CHA_PART_ALL, "ref 4.2"),                          \
	XTOR("IO_HIT_ITOM", IO, 0xCC43FD, CHA_OP_ITOM, CHA_PART_HIT, "seed 3.3; ref 4.2"),            \
	XTOR("IO_MISS_ITOM", IO, 0xCC43FE, CHA_OP_ITOM, CHA_PART_MISS, "seed 3.3; ref 4.2"),          \
	XTOR("IO_ITOMCACHENEAR", IO, 0xCD43FF, CHA_OP_ITOMCACHENEAR, CHA_PART_ALL, "ref 4.2"),        \
	XTOR("IO_HIT_ITOMCACHENEAR", IO, 0xCD43FD, CHA_OP_ITOMCACHENEAR, CHA_PART_HIT, "seed 3.3; ref 4.2"), \
	XTOR("IO_MISS_ITOMCACHENEAR", IO, 0xCD43FE, CHA_OP_ITOMCACHENEAR, CHA_PART_MISS, "seed 3.3; ref 4.2"), \
	XTOR("IO_RFO", IO, 0xC803FF, CHA_OP_RFO, CHA_PART_ALL, "ref 4.2"),                            \
	XTOR("IO_HIT_RFO", IO, 0xC803FD, CHA_OP_RFO, CHA_PART_HIT, "seed 3.3; ref 4.2"),              \
	XTOR("IO_MISS_RFO", IO, 0xC803FE, CHA_OP_RFO, CHA_PART_MISS, "seed 3.3; ref 4.2"),            \
	/* core UC reads / partial writes to MMIO always miss the LLC: PCM counts IA_MISS_* */      \
	XTOR("IA_MISS_UCRDF", IA, 0xC877DE, CHA_OP_UCRDF, CHA_PART_ALL, "ref 4.2 (PCM UCRdF)"),       \
	XTOR("IA_MISS_WIL", IA, 0xC87FDE, CHA_OP_WIL, CHA_PART_ALL, "ref 4.2 (PCM WiL)")

const struct cha_event cha_events_icx[] = {
	XTOR_IO_SET,
	XLLC("ALL", 0xFF, 0x1FFF, "ref 5 (perfmon ICX LLC_LOOKUP.ALL)"),
	XLLC("MISS_ALL", 0x01, 0x1FE0, "ref 5"),
	XLLC("DATA_READ_MISS", 0x01, 0x1BC1, "ref 5"),
	XLLC("WRITE_LOCAL", 0xFF, 0x842, "ref 5"),
	{ 0 },
};

#define XTOR_SPR_GNR_SET                                                                       \
	XTOR_IO_SET,                                                                           \
	XTOR("IA_MISS_WCIL", IA, 0xC86FFE, CHA_OP_WCIL, CHA_PART_ALL, "ref 4.2 (PCM WCiL, SPR/GNR)"), \
	XTOR("IA_MISS_WCILF", IA, 0xC867FE, CHA_OP_WCILF, CHA_PART_ALL, "ref 4.2 (PCM WCiLF, SPR/GNR)"), \
	/* umask_ext above 24 bits: config bits 63:32 (Linux umask_ext5) */                     \
	XTOR("IA_MISS_DRD_CXL_ACC", IA, 0x10C81782, CHA_OP_NONE, CHA_PART_MISS, "perfmon SPR/GNR")

const struct cha_event cha_events_spr[] = {
	XTOR_SPR_GNR_SET,
	XTOR("NONCOH", 0x00, 0x1000000, CHA_OP_NONE, CHA_PART_ALL, "perfmon SPR"),
	XLLC("ALL", 0xFF, 0x1FFF, "ref 5 (perfmon SPR LLC_LOOKUP.ALL)"),
	XLLC("MISS_ALL", 0x01, 0x1FE0, "ref 5"),
	XLLC("DATA_READ_MISS", 0x01, 0x1FC1, "ref 5"),
	{ 0 },
};

/* GNR: perfmon graniterapids_uncore*.json has no LLC_LOOKUP.ALL / MISS_ALL. */
const struct cha_event cha_events_gnr[] = {
	XTOR_SPR_GNR_SET,
	XTOR("CXL_MISS_MEMPUSHWR", 0x20, 0x78CC6FFE, CHA_OP_NONE, CHA_PART_MISS, "perfmon GNR"),
	XLLC("DATA_READ_MISS", 0x01, 0x1FC1, "perfmon GNR"),
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
	[CHA_OP_WCILF] = "WCiLF", [CHA_OP_LLC] = "LLC",
};

const char *cha_op_name(uint8_t op)
{
	return op < CHA_NOPS ? op_names[op] : "?";
}
