/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CXL Performance Monitoring Unit (CPMU), the register block a Register Locator entry with
 * Block Identifier 4 points at (Compute Express Link Specification Revision 3.1, 8.2.7 "CPMU
 * Register Interface"; the layout also in Linux drivers/perf/cxl_pmu.c):
 *
 *   0x000 CPMU Capability (64): Number of Counters [5:0] (N-1), Counter Width [15:8], Number of
 *         Event Capabilities Supported [24:20] (N-1), Filters Supported [39:32] (bit 0: HDM
 *         decoder, bit 1: channel/rank/bank), Interrupt Message Number [47:44], Counters
 *         Writable While Frozen [48], Counter Freeze Support [49], Interrupt on Overflow
 *         Support [50], Version [63:60]
 *   0x010 Overflow Status (64, RW1C)        0x018 Freeze (64: bit n freezes counter n)
 *   0x100 + 8n Event Capabilities n (64): Supported Events [31:0], Event Group ID [47:32],
 *         Event Vendor ID [63:48]
 *   0x200 + 8n Counter Configuration n (64): Counter Type [1:0] (0 free-running, 1 fixed
 *         function, 2 configurable; read-only), Enable [8], Interrupt on Overflow [9], Freeze
 *         on Overflow [10], Edge [11], Invert [12], Threshold [23:16], Events [55:24], Event
 *         Group ID Index [63:59] (Events and the index read-only on fixed counters)
 *   0x400 + 4 (f + 8n) Filter Configuration f of counter n (32): filter 0 = HDM decoders
 *         (bitmask), 0xFFFFFFFF = no filtering
 *   0xC00 + 8n Counter n (64, Counter Width bits)
 *
 * A request is an event group (vendor ID + group ID + events mask, perf's cxl_pmu
 * config = vid << 48 | gid << 32 | mask) with an optional HDM decoder filter. A fixed-function
 * counter takes a request whose group and mask it matches exactly; a configurable counter one
 * whose group an Event Capabilities register not used by a fixed counter lists, with the mask a
 * subset of its Supported Events; a free-running counter one it matches exactly (it is only
 * read, at start and at stop). Programming goes through the caller's saveset (pmu/saveset.h),
 * so every register written is put back by saveset_restore; the Overflow Status register is
 * RW1C and is never written (writing back its saved value would clear bits of others): overflow
 * is what became set during the window, and a counter whose bit was already set is named.
 * Pure, over struct hw (host-tested on tests/model/cxl_cpmu_model.c).
 */
#ifndef EFIPERF_CXL_CPMU_H
#define EFIPERF_CXL_CPMU_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"
#include "pmu/saveset.h"
#include "pmu/self_check.h"

#define CXL_CPMU_MAX_COUNTERS   64
#define CXL_CPMU_MAX_EVCAPS     32
#define CXL_CPMU_MAX_SLOTS      8
#define CXL_CPMU_WHY_LEN        112
#define CXL_CPMU_BLOCK_LEN      0x1000    /* through Counter 63 at 0xDF8 */

enum cxl_cpmu_type { CXL_CPMU_FREE_RUNNING = 0, CXL_CPMU_FIXED = 1, CXL_CPMU_CONFIGURABLE = 2 };

/* Event groups of CXL vendor ID 0x1E98 (CXL 3.1 Table 13-5) efiperf names. */
#define CXL_CPMU_VID_CXL        0x1E98
#define CXL_CPMU_GID_CLOCK      0x0000   /* bit 0: clock ticks */
#define CXL_CPMU_GID_M2S_REQ    0x0020   /* bit 1: MemRd */
#define CXL_CPMU_GID_M2S_RWD    0x0021   /* bit 1: MemWr */
#define CXL_CPMU_GID_S2M_NDR    0x0024   /* bit 0: Cmp */
#define CXL_CPMU_GID_S2M_DRS    0x0025   /* bit 0: MemData */
#define CXL_CPMU_LINE_BYTES     64       /* a CXL.mem data transfer moves one 64-byte line */

struct cxl_cpmu_event {
	uint16_t vid, gid;
	uint32_t mask;
	uint8_t filter_hdm;      /* 1: count only for the HDM decoders in hdm_mask */
	uint32_t hdm_mask;
};

struct cxl_cpmu {
	uint64_t base;
	uint64_t cap;
	uint8_t ncounters, width, nevcaps, filters, version;
	uint8_t freeze, writable_frozen, overflow_irq;
	struct { uint8_t type, group_idx; uint32_t events; uint64_t cfg; } ctr[CXL_CPMU_MAX_COUNTERS];
	struct { uint16_t vid, gid; uint32_t supported; uint8_t fixed_only; } evcap[CXL_CPMU_MAX_EVCAPS];
	char why[CXL_CPMU_WHY_LEN];
};

struct cxl_cpmu_slot {
	struct cxl_cpmu_event ev;
	int counter;             /* -1: not placed (why) */
	uint8_t type;
	uint64_t start, end;     /* free-running: raw values at start and stop */
	uint64_t value;          /* events counted over the window */
	uint8_t overflowed;      /* Overflow Status bit became set: value includes one wrap */
	uint8_t overflow_unknown;/* the bit was already set before the window */
	char why[CXL_CPMU_WHY_LEN];
};

struct cxl_cpmu_set {
	const struct cxl_cpmu *pmu;
	int n;
	struct cxl_cpmu_slot slot[CXL_CPMU_MAX_SLOTS];
	uint64_t used;           /* bit n: counter n is ours */
	uint64_t freeze_found, overflow_found;
	hw_status st;            /* first failed access, HW_OK otherwise */
	char why[CXL_CPMU_WHY_LEN];
};

/* Read the capability, every counter's configuration and every Event Capabilities register
 * (reads only). 0, or -1 with pmu->why (a failed read, a CPMU without freeze support or whose
 * counters cannot be written while frozen, as Linux also refuses). */
int cxl_cpmu_probe(const struct hw *hw, uint64_t base, struct cxl_cpmu *pmu);

/* Place each event on a counter and program it, frozen, at 0: Freeze (ours set), Filter
 * Configuration, Counter Configuration (Enable; the group index and Events on configurable
 * counters), Counter = 0; all through s. An event that fits no counter gets its slot's why and
 * the rest go on. 0, or -1 with set->why when an access failed (what was written is in s). */
int cxl_cpmu_program(const struct hw *hw, const struct cxl_cpmu *pmu, const struct cxl_cpmu_event *ev, int n,
		     struct cxl_cpmu_set *set, struct saveset *s);
/* Unfreeze / freeze our counters (the Freeze register, through s). */
int cxl_cpmu_start(const struct hw *hw, struct cxl_cpmu_set *set, struct saveset *s);
int cxl_cpmu_stop(const struct hw *hw, struct cxl_cpmu_set *set, struct saveset *s);
/* After stop: each slot's value (Counter, with one wrap of 2^width when its Overflow Status bit
 * became set; free-running: end - start modulo 2^width). */
int cxl_cpmu_read(const struct hw *hw, struct cxl_cpmu_set *set);

/* Bytes the CXL.mem counters saw against the bytes the kernel moved to the CXL memory:
 * read = S2M DRS MemData x 64 (data the device returned), write = M2S RwD MemWr x 64. */
void cxl_cpmu_self_check(const struct cxl_cpmu_set *set, uint64_t expected_read, uint64_t expected_write,
			 uint32_t tolerance_milli, struct self_check *out);

#endif
