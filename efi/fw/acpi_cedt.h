/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CEDT, the CXL Early Discovery Table (Compute Express Link Specification Revision 3.1,
 * section 9.18.1): how the firmware describes the CXL host bridges and the host physical
 * address windows that route to them.
 *
 *   CHBS  (9.18.1.2, type 0): one per CXL host bridge: its _UID, the CXL version it follows
 *         (0: RCH, CXL 1.1 RCRB of 8 KiB; 1: CXL 2.0 or later, a 64 KiB component register
 *         block) and the base/length of that block.
 *   CFMWS (9.18.1.3, type 1): one per fixed memory window: base HPA, size, Encoded Number of
 *         Interleave Ways (ENIW), Interleave Arithmetic, Host Bridge Interleave Granularity
 *         (HBIG), Window Restrictions, QTG ID and the target list (host bridge _UIDs).
 *   CXIMS (9.18.1.4, 2), RDPAS (9.18.1.5, 3), CSDS (9.18.1.6, 4): counted by type, not decoded.
 *
 * Pure: acpi_parse_cedt() reads a validated table of len bytes (efi/fw/acpi.c dispatches it);
 * host-tested against iasl's decoding of QEMU's CEDT and fuzzed (tests/fuzz/fuzz_cedt.c).
 * Every structure's Record Length is checked before it is read; a CFMWS whose target list names
 * no CHBS _UID, whose ENIW/HBIG is reserved, or whose window is not 256 MiB aligned gets a
 * defect of its own and the walk goes on.
 */
#ifndef EFIPERF_ACPI_CEDT_H
#define EFIPERF_ACPI_CEDT_H

#include <stdint.h>
#include "efi/out/jsonl.h"

#define ACPI_MAX_CEDT_CHBS      16
#define ACPI_MAX_CEDT_CFMWS     16
#define ACPI_CEDT_MAX_TARGETS   16   /* ENIW 4 (16 ways) is the widest encoding */
#define ACPI_CEDT_DEFECT_LEN    96
#define ACPI_CEDT_NTYPES        5    /* structure types 0..4 of 9.18.1 */

/* CXL 3.1 Table 9-22 "CHBS": CXL Version. */
#define CEDT_CHBS_VERSION_RCH   0    /* CXL 1.1 host bridge: Base is its RCRB (8 KiB) */
#define CEDT_CHBS_VERSION_CXL2  1    /* CXL 2.0+: Base is the component register block */

/* CXL 3.1 Table 9-23 "CFMWS": Window Restrictions bits. */
#define CEDT_CFMWS_DEVICE_COHERENT  (1u << 0)   /* CXL Type 2 memory */
#define CEDT_CFMWS_HOST_ONLY        (1u << 1)   /* CXL Type 3 memory */
#define CEDT_CFMWS_VOLATILE         (1u << 2)
#define CEDT_CFMWS_PERSISTENT       (1u << 3)
#define CEDT_CFMWS_FIXED_CONFIG     (1u << 4)

struct acpi_cedt_chbs {
	uint32_t uid;        /* _UID of the host bridge's ACPI device */
	uint32_t version;    /* CEDT_CHBS_VERSION_* */
	uint64_t base, length;
};

struct acpi_cedt_cfmws {
	uint16_t record_length;
	uint64_t base, size;
	uint8_t eniw;              /* encoded; ways = interleave_ways(eniw) */
	uint32_t ways;             /* 0 when eniw is reserved */
	uint8_t arithmetic;        /* 0 standard modulo, 1 modulo XOR (CXIMS) */
	uint32_t hbig;             /* encoded; granularity = 256 << hbig */
	uint32_t granularity;      /* bytes; 0 when hbig is reserved */
	uint16_t restrictions;
	uint16_t qtg_id;
	uint32_t ntargets;         /* targets listed (== ways when the record is consistent) */
	uint32_t target[ACPI_CEDT_MAX_TARGETS];
	int target_chbs[ACPI_CEDT_MAX_TARGETS];   /* index into chbs[], -1: no such host bridge */
	char defect[ACPI_CEDT_DEFECT_LEN];
};

struct acpi_cedt {
	int present;
	uint8_t revision;
	uint32_t nchbs, chbs_dropped;
	struct acpi_cedt_chbs chbs[ACPI_MAX_CEDT_CHBS];
	uint32_t ncfmws, cfmws_dropped;
	struct acpi_cedt_cfmws cfmws[ACPI_MAX_CEDT_CFMWS];
	uint32_t ntype[ACPI_CEDT_NTYPES];   /* structures of each known type, kept or not */
	uint32_t nreserved;                  /* structures of a reserved type (skipped) */
	char defect[ACPI_CEDT_DEFECT_LEN];   /* the walk's first defect (it stops there) */
};

/* Parse a CEDT of len bytes (header included, checksum already verified). */
void acpi_parse_cedt(const uint8_t *t, uint32_t len, struct acpi_cedt *c);
/* Interleave ways of an ENIW encoding (1, 2, 4, 8, 16, 3, 6, 12), 0 when reserved. */
uint32_t cedt_interleave_ways(uint8_t eniw);
/* Bytes of an HBIG/IG encoding (256 << n for n <= 6), 0 when reserved. */
uint32_t cedt_granularity(uint32_t hbig);
/* The CHBS whose _UID is uid, or NULL. */
const struct acpi_cedt_chbs *cedt_find_chbs(const struct acpi_cedt *c, uint32_t uid);
/* The `acpi` record's "cedt" member (null when absent). */
void acpi_json_cedt(const struct acpi_cedt *c, struct json *j);

#endif
