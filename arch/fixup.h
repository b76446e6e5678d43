/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Exception fixup table: for each instruction that may fault on purpose (rdmsr, wrmsr, rdpmc,
 * an MRS/MSR of an optional system register), the address to resume at instead. The firmware's
 * exception handler (efi/exceptions.c) looks the faulting instruction pointer up here; a hit
 * moves the saved IP to the fixup address and sets the return register to the fault code, a
 * miss falls through to the firmware's default handler (a real crash stays visible).
 * Pure: the lookup is unit-tested on the host.
 */
#ifndef EFIPERF_FIXUP_H
#define EFIPERF_FIXUP_H

#include <stddef.h>
#include <stdint.h>

struct fixup_entry {
	uintptr_t fault_ip;  /* address of the instruction that may fault */
	uintptr_t fixup_ip;  /* where execution resumes after that fault */
};

/* Returns the fixup address for ip, or 0 when ip is not in the table (n entries, any order). */
uintptr_t fixup_lookup(const struct fixup_entry *table, size_t n, uintptr_t ip);

/* Counters of faults recovered since start, per hw_status code (for the platform report). */
struct fixup_stats {
	uint32_t recovered;
	uint32_t unhandled_seen;  /* faults in efiperf's image that had no entry (should be 0) */
};

#endif
