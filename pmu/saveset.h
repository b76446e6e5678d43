/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one save/restore mechanism of every PMU driver (core, IBS, uncore boxes): a register is
 * read and remembered before its first write, and every register written is put back, last
 * written first, on every exit path. A write-back that fails is kept, with its status, so the
 * record can name it (restore {status, registers, failed [...]}). Registers are named by their
 * space and address, so MSRs, Arm system registers, MMIO (uncore boxes, CoreSight PMUs) and PCI
 * config registers (uncore boxes on PCI functions) share one set.
 *
 * A set belongs to one CPU: the caller runs save, write and restore on the CPU the registers
 * belong to (MSRs and system registers are per CPU or per package). Storage is the caller's
 * (saveset_init), so an uncore sequence over hundreds of boxes sizes its own.
 */
#ifndef EFIPERF_PMU_SAVESET_H
#define EFIPERF_PMU_SAVESET_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"

enum reg_space { REG_MSR, REG_SYSREG, REG_MMIO32, REG_MMIO64, REG_PCI32 };

struct reg_ref {
	uint8_t space;           /* enum reg_space */
	uint64_t addr;           /* MSR index, MRS/MSR encoding, MMIO physical address, PCI offset */
	struct hw_pci_addr pci;  /* REG_PCI32: the function */
};

static inline struct reg_ref reg_msr(uint32_t msr) { return (struct reg_ref){ .space = REG_MSR, .addr = msr }; }
static inline struct reg_ref reg_sysreg(uint32_t enc) { return (struct reg_ref){ .space = REG_SYSREG, .addr = enc }; }
static inline struct reg_ref reg_mmio32(uint64_t a) { return (struct reg_ref){ .space = REG_MMIO32, .addr = a }; }
static inline struct reg_ref reg_mmio64(uint64_t a) { return (struct reg_ref){ .space = REG_MMIO64, .addr = a }; }
static inline struct reg_ref reg_pci32(struct hw_pci_addr f, uint16_t off)
{ return (struct reg_ref){ .space = REG_PCI32, .addr = off, .pci = f }; }

/* One access through the hardware interface, whatever the space (32-bit spaces use the low half). */
hw_status reg_read(const struct hw *hw, struct reg_ref r, uint64_t *value);
hw_status reg_write(const struct hw *hw, struct reg_ref r, uint64_t value);
int reg_same(struct reg_ref a, struct reg_ref b);
/* "MSR 0xe01", "sysreg 0xdce0", "MMIO 0xfe000010", "PCI 0000:7f:1e.3+0x94". Returns the length
 * the name needs (as snprintf). */
size_t reg_name(struct reg_ref r, char *buf, size_t n);

struct saved_reg {
	struct reg_ref r;
	uint64_t value;        /* as found: what restore writes back */
	uint8_t written;       /* written since it was saved, and not yet put back */
	uint8_t touched;       /* ever written by the driver */
	uint8_t restore_st;    /* hw_status of the last write-back (HW_OK when none failed) */
};

struct saveset {
	struct saved_reg *e;
	uint32_t n, cap;
	uint32_t dropped;      /* saves refused because the set was full */
};

void saveset_init(struct saveset *s, struct saved_reg *storage, uint32_t cap);

/* Read r and remember it unless it is already in the set (the first value read is the one to
 * restore). *value (may be NULL) gets the remembered value. The read's status; HW_BAD_ARG when
 * the set is full (counted in dropped). */
hw_status saveset_save(const struct hw *hw, struct saveset *s, struct reg_ref r, uint64_t *value);
/* Save r if not yet saved, then write value. A register that could not be saved is never
 * written (that status is returned). The entry is marked written even when the write itself
 * fails, so restore tries it: a faulting write may have taken effect in part. */
hw_status saveset_write(const struct hw *hw, struct saveset *s, struct reg_ref r, uint64_t value);
/* Write back every entry marked written, last saved first; keeps going past failures and
 * returns the first. An entry put back is unmarked, so calling it again only retries the
 * failures. */
hw_status saveset_restore(const struct hw *hw, struct saveset *s);
/* Name r (in the set) as not put back, with status st: for a driver whose restore needs one
 * more write than the set's own (a write-1-to-clear partner of a saved register) and that
 * write failed. 0, or -1 when r is not in the set. */
int saveset_mark_failed(struct saveset *s, struct reg_ref r, hw_status st);
/* 1 and *value when r is in the set. */
int saveset_lookup(const struct saveset *s, struct reg_ref r, uint64_t *value);

/* What a record says of a restore: its first failure, how many registers the set held, and
 * the registers that could not be put back (up to SAVESET_REPORT_FAILED of them). */
#define SAVESET_REPORT_FAILED 8
struct saveset_report {
	hw_status status;               /* HW_OK, or the first failed write-back */
	uint32_t registers;             /* registers saved */
	uint32_t written;               /* of those, written by the driver */
	uint32_t nfailed;               /* registers written and not put back: a failed write-back, or
					 * restore never ran (HW_ERROR); all of them, not only listed */
	uint32_t dropped;               /* registers that could not be saved (set full) */
	struct reg_ref failed[SAVESET_REPORT_FAILED];
	uint8_t failed_st[SAVESET_REPORT_FAILED];
};
/* Accumulates: call once per set (per CPU or per socket) on a zeroed report. */
void saveset_report_add(const struct saveset *s, struct saveset_report *r);

#endif
