/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Platform discovery: ACPI tables (RSDP -> XSDT -> MCFG, MADT, SRAT, FADT, HPET, SLIT, APMT),
 * SMBIOS (system, BIOS, board, processors, memory) and PCIe config space (ECAM through MCFG,
 * else EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL). Firmware glue around the pure parsers in efi/acpi*.c,
 * efi/smbios*.c and efi/pcie*.c: it finds the tables, hands them memory to read and writes the
 * `acpi`, `smbios`, `pcie` and `pcie_scan` records and the console summary.
 */
#ifndef EFIPERF_DISCOVERY_H
#define EFIPERF_DISCOVERY_H

#include "arch/hw.h"
#include "efi/fw/acpi.h"
#include "efi/fw/firmware_tables.h"
#include "efi/mp.h"
#include "efi/fw/smbios.h"

struct discovery {
	struct fw_tables fw;
	struct acpi_info *acpi;     /* pool memory; NULL when it could not be allocated */
	int acpi_status;            /* acpi_parse() result; -2 when no RSDP was published */
	struct smbios_info smbios;
	int smbios_status;          /* smbios_parse() result; -2 when no entry point was published */
	char serial[SMBIOS_LOG_SERIAL_MAX + 1];  /* for log names: SMBIOS serial or "noserial" */
	int cxl_commit;             /* cxl_decoders = commit (efi/cxl_discovery.c) */
};

/* Find and parse the ACPI and SMBIOS tables (no output yet: runs before the logs open so the
 * serial can name them). */
void discovery_firmware(struct discovery *d);

/* Write the `acpi` and `smbios` records and their console summary; cross-check the MADT's
 * enabled CPUs against MP services. */
void discovery_report(const struct discovery *d, const struct mp_info *mp);

/* Enumerate PCIe: ECAM for every MCFG allocation, else the root bridge I/O protocol for
 * segment 0; one `pcie` record and console line per function, the NVIDIA root-complex map
 * lines, and a `pcie_scan` record, then the CXL records (efi/cxl_discovery.h; timer_hz: the
 * mailbox timeout's clock). Returns the number of functions found. */
int discovery_pcie(const struct hw *hw, const struct discovery *d, uint64_t timer_hz);

#endif
