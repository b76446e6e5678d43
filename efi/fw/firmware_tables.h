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

#endif
