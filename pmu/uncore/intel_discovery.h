/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel uncore discovery table (Sapphire Rapids and later): a PCIe DVSEC (extended capability
 * 0x23, DVSEC ID 1 at DVSEC offset 0x8, BIR at 0xC bits 2:0) of an Intel function points
 * through BAR 0x10 + 4 BIR at an MMIO table: one global entry, then max_units unit entries,
 * each `stride` x 8 bytes apart (the first unit at base + stride x 8). Layout, after Linux
 * arch/x86/events/intel/uncore_discovery.h (struct uncore_global_discovery,
 * struct uncore_unit_discovery) and Intel's "Sapphire Rapids Uncore Performance Monitoring"
 * reference manual, "Uncore Performance Monitoring Discovery":
 *
 *   global  q0: type [7:0], stride [15:8] (8-byte units), max_units [25:16], access [63:62]
 *           q1: global control address; q2: status offset [7:0], num_status [23:8]
 *   unit    q0: num_regs [7:0], ctl_offset [15:8], bit_width [23:16], ctr_offset [31:24],
 *               status_offset [39:32], access_type [63:62] (0 MSR, 1 MMIO, 2 PCI, 3 unknown)
 *           q1: unit control address (MSR index; MMIO physical address; PCI: segment [30:28],
 *               bus [27:20], devfn [19:12], register [11:0])
 *           q2: box_type [15:0], box_id [31:16]
 *
 * A unit whose q0 or q1 is 0, or whose q0, q1 or q2 is all ones, is not a unit (Linux
 * uncore_discovery_invalid_unit since "perf/x86/intel/uncore: Fix invalid unit check": q2 is 0
 * for box type 0 id 0, the first CHA) and is skipped without a word. Everything else that is wrong
 * is a named defect and parsing goes on with the next unit: an unknown access type, a counter
 * width of 0 or above 64, no counters, a register beyond its access space, a unit number the
 * table cannot hold, a (box type, box id) seen twice, a table longer than the bytes read.
 * Pure: parses bytes, builds on the host (tests/unit/test_intel_discovery.c,
 * tests/fuzz/fuzz_discovery.c).
 */
#ifndef EFIPERF_INTEL_DISCOVERY_H
#define EFIPERF_INTEL_DISCOVERY_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"

#define DISC_MAX_UNITS 512             /* SPR: about 140 units per socket (60 CHAs, ...); GNR-AP: 128 CHAs and more */
#define DISC_MAX_DEFECTS 8
#define DISC_ENTRY_BYTES 24            /* three 64-bit words */
#define DISC_MAX_TABLE_UNITS 1023      /* max_units is 10 bits */

enum disc_access { DISC_MSR, DISC_MMIO, DISC_PCI, DISC_ACCESS_UNKNOWN };

struct disc_unit {
	uint16_t box_type, box_id;
	uint8_t access;                /* enum disc_access */
	uint8_t num_regs, ctl_offset, ctr_offset, bit_width, status_offset;
	uint64_t ctl;                  /* unit control: MSR index or MMIO address (PCI: as read) */
	struct hw_pci_addr pci;        /* DISC_PCI: the function of the unit control */
	uint16_t pci_reg;              /* DISC_PCI: its register */
};

struct disc_table {
	uint8_t access;                /* global entry's access type */
	uint32_t stride;               /* bytes between entries */
	uint16_t max_units;            /* as the global entry says */
	uint64_t global_ctl;
	uint32_t nunits;               /* valid units kept, at most DISC_MAX_UNITS */
	uint32_t skipped;              /* not-a-unit entries (zero or all-ones words) */
	struct disc_unit unit[DISC_MAX_UNITS];
	uint32_t ndefects;             /* may exceed DISC_MAX_DEFECTS: the first ones are kept */
	char defect[DISC_MAX_DEFECTS][120];
};

/* Parse len bytes read from the table base (little-endian 64-bit words). 0 when the global
 * entry is usable (units may still carry defects), -1 when it is not (why in defect[0]). */
int disc_parse(const uint8_t *buf, size_t len, struct disc_table *t);

/* Bytes the table spans by its global entry ((max_units + 1) x stride), 0 when len < 8 or
 * the stride is below one entry. */
size_t disc_table_bytes(const uint8_t *buf, size_t len);

/* The index of unit (box_type, box_id), or -1. */
int disc_find(const struct disc_table *t, uint16_t box_type, uint16_t box_id);

/* Units of box_type, in ascending box_id order, their indexes into idx[max]. Returns how many. */
uint32_t disc_units_of(const struct disc_table *t, uint16_t box_type, uint32_t *idx, uint32_t max);

/* "MSR", "MMIO", "PCI", "unknown". */
const char *disc_access_name(uint8_t access);

#endif

/* ---- firmware glue (pmu/uncore/intel_discovery_read.c), through arch/hw.h ---------------- */

#define DISC_DEVICE 0x09A7             /* Linux uncore_discovery.h UNCORE_DISCOVERY_TABLE_DEVICE */
/* Bytes of one table read at most: 1024 entries of 32 bytes (max_units is 10 bits); a table
 * that claims more is read this far and named short by the parser. */
#define DISC_READ_MAX (1024u * 32u)

/* Read the table behind the PMON discovery DVSEC of function a: its address into *base, up to
 * max bytes of it into buf (the span the global entry gives), *len bytes read. A read that
 * faults midway ends the copy there (*len, and why names the address; returns 0, the parser
 * then names the short table). -1 with why: no PMON DVSEC in the extended capabilities, BIR
 * reserved bits set, BAR 0, or the global entry unreadable. */
int disc_read(const struct hw *hw, struct hw_pci_addr a, uint8_t *buf, size_t max, size_t *len, uint64_t *base,
	      char *why, size_t n);
