/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CPU's own health evidence around a window, read through struct hw only (host-tested on
 * tests/model/hw_model.c; nothing here writes a register):
 *
 *   machine checks  IA32_MCG_CAP.Count banks, IA32_MCi_STATUS/ADDR/MISC of each (SDM Vol.3B
 *                   16.3; AMD APM Vol.2 9.3: the same legacy MSRs), before and after; a bank
 *                   valid after and not (or not the same) before is a new entry, decoded to
 *                   what the SDM defines without platform tables (16.9: simple and compound
 *                   MCA error codes; MSCOD is model specific and given raw)
 *   energy          RAPL package and DRAM (Intel, SDM Vol.3B 15.10) or package and core (AMD,
 *                   PPR MSRC001_0299/029A/029B): 32-bit counters, one wraparound per window
 *                   assumed (a package at 200 W wraps in about 21 min with ESU 14)
 *   frequency       IA32_APERF / IA32_MPERF deltas (SDM Vol.3B 15.2): their ratio is the
 *                   average busy frequency over the nominal (TSC) frequency
 *   thermal         IA32_THERM_STATUS and IA32_PACKAGE_THERM_STATUS (SDM Vol.3B 15.8.5.2, 15.9.2):
 *                   throttling now, or its sticky log bit set during the window
 *
 * A source the CPU does not have is absent with why: CPUID says so, the MSR read faults (a
 * hypervisor or TCG that does not emulate it), or the architecture has no such register.
 */
#ifndef EFIPERF_PMU_HEALTH_H
#define EFIPERF_PMU_HEALTH_H

#include <stdint.h>
#include "arch/hw.h"

#define MCA_MAX_BANKS 32     /* the legacy MSR range 400H-47FH */
#define MCA_MAX_NEW 8        /* new entries kept per window (n_new counts all) */

struct mca_bank {
	uint64_t status, addr, misc;   /* addr/misc read only when ADDRV/MISCV say they are valid */
	hw_status st;                  /* of the STATUS read */
};

struct mca_snap {
	const char *why;               /* NULL: banks read; else why there are none */
	uint32_t nbanks;               /* read (at most MCA_MAX_BANKS) */
	uint32_t count;                /* IA32_MCG_CAP.Count as the CPU says */
	uint32_t unread;               /* banks whose STATUS read faulted (read as empty) */
	struct mca_bank b[MCA_MAX_BANKS];
};

struct mca_entry {
	uint32_t bank;
	uint64_t status, addr, misc;
	uint8_t uc, over, pcc, en, addrv, miscv, s, ar;
	uint16_t mcacod, mscod;
	const char *kind;              /* mca_code_kind(mcacod) */
};

struct mca_delta {
	uint32_t n_new, corrected, uncorrected;
	uint32_t nkept;
	struct mca_entry e[MCA_MAX_NEW];
};

/* Snapshot every bank of the CPU that runs it. Always fills s (why set when there are none). */
void mca_snapshot(const struct hw *hw, struct mca_snap *s);
/* The entries valid in b and not in a with the same STATUS and ADDR. */
void mca_delta(const struct mca_snap *a, const struct mca_snap *b, struct mca_delta *d);
/* Decode one STATUS value (bank and addr/misc copied by the caller). */
void mca_decode(uint64_t status, struct mca_entry *e);
/* The class of an MCA error code (SDM Vol.3B 16.9.1 Table 16-7 simple codes, 16.9.2 Table
 * 16-8 compound forms; the filter bit 12 ignored): "no error", "unclassified", "microcode ROM
 * parity", "external", "FRC", "internal parity", "SMM handler code access violation",
 * "internal timer", "I/O", "internal unclassified", "generic cache hierarchy", "TLB",
 * "memory controller", "cache hierarchy", "bus and interconnect", or "unknown". */
const char *mca_code_kind(uint16_t mcacod);

/* ---- energy, frequency, thermal ---------------------------------------------------------- */

#define ENERGY_MAX_DOMAINS 2

struct energy_domain {
	const char *name;              /* "package", "dram", "core" */
	uint32_t msr;
	uint32_t raw;                  /* the 32-bit counter */
	const char *why;               /* NULL: read */
};

struct energy_snap {
	const char *why;               /* NULL: a unit and at least one domain; else why none */
	uint32_t esu;                  /* energy status units: 1/2^esu J per count */
	uint32_t n;
	struct energy_domain d[ENERGY_MAX_DOMAINS];
};

/* 32-bit energy counter difference across at most one wraparound. */
uint64_t rapl_delta(uint32_t before, uint32_t after);
/* Counts of 1/2^esu J as microjoules (floor). */
uint64_t rapl_microjoules(uint64_t counts, uint32_t esu);
void energy_snapshot(const struct hw *hw, struct energy_snap *s);

struct freq_snap {
	const char *why;               /* NULL: both read */
	uint64_t aperf, mperf;
};
/* On the CPU that runs it. */
void freq_snapshot(const struct hw *hw, struct freq_snap *s);
/* APERF delta x 1000 / MPERF delta (busy frequency over nominal, thousandths); 0 when MPERF
 * did not move. */
uint64_t freq_ratio_milli(const struct freq_snap *a, const struct freq_snap *b);

struct therm_snap {
	const char *why;               /* NULL: the core register read */
	uint64_t core, pkg;
	const char *pkg_why;           /* NULL: the package register read */
};
void therm_snapshot(const struct hw *hw, struct therm_snap *s);
/* Throttled during the window: the status bit set after, or its log bit set after and not
 * before (core or package). */
int therm_throttled(const struct therm_snap *a, const struct therm_snap *b);

#endif
