/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The generated event catalogue: every event of Intel's perfmon uncore files for the units
 * efiperf programs (CHA, IMC, IIO, UPI link layer, M2M, B2CMI) on every Intel server platform it serves, as
 * tests/tools/gen_events.py writes it into pmu/events/gen_intel_uncore.c (committed; regenerate
 * as the README's event reference says). The hand-written tables (pmu/events/intel_*_events.c)
 * stay for what they add: the measurement role of each event (bandwidth, latency class, hit or
 * miss), PCM-derived rows and the SKX filter programming; a name they lack is looked up here.
 *
 * Encoding (per unit, compact because the firmware image has a size limit): the union over the
 * platforms of (EventName, encoding) rows, sorted by name. Each row is, in this order, the
 * fields common (bytes of the name shared with the previous row's), suflen, suflen name
 * characters, plats (bit i: gen_intel_platforms[i] lists this row), evx (EventCode XOR the
 * previous row's), UMask, flags (GEN_F_*), then UMaskExt and PortMask (LEB128: 7 bits a byte,
 * low first, bit 7 = more) where flagged, FCMask (a byte) and FILTER_VALUE (LEB128). Every
 * field is a canonical Huffman code (RFC 1951 section 3.2.2: codes of one length are
 * consecutive, ordered by symbol) of its own table ("column"): tables[] holds, per column in
 * the order above, the number of codes of each length 1..GEN_MAX_BITS, then the symbols in
 * code order. Bits are read most significant first.
 */
#ifndef EFIPERF_PMU_EVENTS_GEN_EVENTS_H
#define EFIPERF_PMU_EVENTS_GEN_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#define GEN_NAME_MAX 80
#define GEN_MAX_BITS 15
#define GEN_NCOLUMNS 11
#define GEN_F_EXT 1
#define GEN_F_PORT 2
#define GEN_F_FC 4
#define GEN_F_FILTER 8

struct gen_platform {
	const char *name;        /* efiperf's platform name: "ICX" */
	const char *source;      /* Intel's files read, with their Header.Version */
};

struct gen_unit {
	const char *unit;        /* "cha", "imc", "iio", "upi", "m2m", "b2cmi" */
	const char *prefix;      /* perfmon name prefix a user may leave out: "UNC_CHA_" */
	const uint8_t *tables;
	const uint8_t *stream;
	uint32_t nbits;          /* bits of stream */
	uint16_t nrows;
};

#define GEN_INTEL_NPLAT 7
#define GEN_INTEL_NUNIT 6
extern const char gen_intel_commit[];            /* intel/perfmon commit the files came from */
extern const struct gen_platform gen_intel_platforms[GEN_INTEL_NPLAT];
extern const struct gen_unit gen_intel_units[GEN_INTEL_NUNIT];

struct gen_row {
	char name[GEN_NAME_MAX];  /* perfmon EventName, NUL-terminated */
	uint8_t plats;            /* bit i: gen_intel_platforms[i] */
	uint8_t event, umask, fc_mask;
	uint32_t umask_ext, port_mask, filter;
};

/* Sequential decoder of one unit's rows. */
struct gen_iter {
	const struct gen_unit *u;
	uint32_t pos;             /* next bit */
	uint16_t row;
	uint8_t ev;               /* the previous row's EventCode */
	uint8_t ncode[GEN_NCOLUMNS][GEN_MAX_BITS];
	const uint8_t *sym[GEN_NCOLUMNS];
};

void gen_iter_start(struct gen_iter *it, const struct gen_unit *u);
/* The next row into *r (its name continues the previous row's, so r must be the same buffer
 * each call): 1, or 0 after the last row or on a stream that ends early. */
int gen_iter_next(struct gen_iter *it, struct gen_row *r);

/* gen_intel_units[] entry named unit ("cha"), or NULL. */
const struct gen_unit *gen_unit_by_name(const char *unit);
/* Index of efiperf platform `name` in gen_intel_platforms, or -1. */
int gen_platform_index(const char *name);
/* The row of platform index plat in unit u named name[0..len) (the perfmon EventName, or it
 * without u->prefix): 1 with *r filled, 0 when there is none. */
int gen_find(const struct gen_unit *u, int plat, const char *name, size_t len, struct gen_row *r);
/* gen_find by unit and platform names ("cha", "ICX"); 0 when either is not in the catalogue. */
int gen_lookup(const char *unit, const char *plat, const char *name, size_t len, struct gen_row *r);
/* What an event-string lookup (pmu/event_string.h) returns for a catalogue row: a marker the
 * encoders turn into "no hand-table event" (named = NULL: the event is its fields). */
extern const char gen_named_marker;
/* The names of one platform's rows of a unit, for event-string name_at callbacks, which ask
 * for i = 0, 1, 2, ... in turn: each step decodes forward from the last; a smaller i starts
 * again. The name returned lives in c until the next call. */
struct gen_names {
	const struct gen_unit *u;
	int plat;
	size_t next;              /* names of plat decoded so far */
	struct gen_iter it;
	struct gen_row r;
};
void gen_names_start(struct gen_names *c, const char *unit, const char *plat);
/* The i-th name, or NULL past the last (or when unit or platform is not in the catalogue). */
const char *gen_names_at(struct gen_names *c, size_t i);

#endif
