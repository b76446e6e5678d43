/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where the firmware publishes its tables: the EFI configuration table (UEFI 2.10 section 4.6)
 * holds the ACPI RSDP and the SMBIOS entry points by GUID; fw_physmem() lets the pure
 * parsers read physical memory, but only ranges the UEFI memory map describes, so a corrupt
 * pointer in a table is refused instead of faulting the machine.
 */
#ifndef EFIPERF_FIRMWARE_TABLES_H
#define EFIPERF_FIRMWARE_TABLES_H

#include <stdint.h>
#include "efi/fw/physmem.h"
#include "arch/hw.h"

struct fw_tables {
	uint64_t rsdp;          /* ACPI 2.0+ RSDP (ACPI_20_TABLE_GUID), else ACPI 1.0; 0 if none */
	int rsdp_acpi20;        /* found through the ACPI 2.0 GUID */
	uint64_t smbios;        /* SMBIOS 3.0 entry point (SMBIOS3_TABLE_GUID), else 2.1; 0 if none */
	int smbios3;
	int memmap_ranges;      /* memory-map descriptors the physmem checks against (0: none) */
};

/* Look the entry points up and snapshot the memory map. Returns 0, or -1 when the memory
 * map could not be read (fw_physmem then refuses every address). */
int fw_tables_find(struct fw_tables *t);

/* Identity-mapped physical memory, limited to ranges of the memory map snapshot. */
struct physmem fw_physmem(void);

/* May efiperf touch the register window [addr, addr + len) that firmware table `table` gives in
 * `field` ("APMT", "node 3 Base Address 0")? Judged by efi/fw/fwaddr.h against the memory-map
 * snapshot of fw_tables_find: 0 yes (device memory, or in no descriptor: then only through the
 * fault-safe hw_mmio_* accessors, as every MMIO access is); -1 refused, after writing a
 * `firmware_defect` record {table, field, address, length, status "refused", why} (none when
 * table is NULL: a later use of an address already reported). */
int fw_addr_use(const char *table, const char *field, uint64_t addr, uint64_t len);

/* The `firmware_defect` record and its console line: table and field as above, status "refused",
 * a fault's name, "duplicate", "no functions"... and why. */
void fw_addr_defect(const char *table, const char *field, uint64_t addr, uint64_t len, const char *status,
		    const char *why);

/* After an access to such an address returned st: a fault (#PF, #GP, Data Abort, other
 * synchronous exception) writes a `firmware_defect` record with status = its name. Returns st. */
hw_status fw_addr_fault(const char *table, const char *field, uint64_t addr, hw_status st);

#endif
