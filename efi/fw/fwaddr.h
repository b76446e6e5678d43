/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fwaddr: may efiperf touch a register block whose address came from firmware (an APMT node's
 * base, an MCFG allocation's ECAM window, an AML _CRS memory range, the FADT X_PM_TMR_BLK)?
 * One checker for every such address, over the UEFI memory map (gBS->GetMemoryMap, UEFI 2.10
 * section 7.2, types in Table 7.6 "Memory Type Usage before ExitBootServices()") and the memory
 * BARs of the PCI functions found. Pure: host-tested against literal memory maps.
 *
 * A window [addr, addr + len) is
 *   - FWADDR_DEVICE   every byte lies in an EfiMemoryMappedIO, EfiMemoryMappedIOPortSpace or
 *                     EfiReservedMemoryType descriptor or in a PCI memory BAR: device registers
 *                     as the firmware describes them;
 *   - FWADDR_UNLISTED some byte lies in no descriptor and no BAR, none in memory: allowed, because
 *                     firmware need not list MMIO in the map (OVMF lists neither its LAPIC/IOAPIC
 *                     nor every PCI host aperture); the register is reached only through the
 *                     fault-safe accessors (arch/hw.h: a #PF, #GP or Data Abort comes back as a
 *                     status), so a wrong address becomes a defect, not a hung machine;
 *   - FWADDR_REFUSED  zero length, a window that wraps past 2^64, address 0, or any byte in a
 *                     descriptor of memory (conventional, loader, boot/runtime services code and
 *                     data, ACPI reclaim and NVS, unusable, PAL code, persistent, unaccepted, or a
 *                     type the spec does not define): writing a PMU's control registers there
 *                     would corrupt memory the firmware or the OS owns, so it is never touched.
 */
#ifndef EFIPERF_FWADDR_H
#define EFIPERF_FWADDR_H

#include <stddef.h>
#include <stdint.h>
#include "efi/fw/memranges.h"

/* UEFI 2.10 Table 7.6 EFI_MEMORY_TYPE values (Uefi/UefiMultiPhase.h in edk2). */
enum uefi_mem_type {
	UEFI_MEM_RESERVED = 0,             /* EfiReservedMemoryType */
	UEFI_MEM_LOADER_CODE = 1,
	UEFI_MEM_LOADER_DATA = 2,
	UEFI_MEM_BS_CODE = 3,
	UEFI_MEM_BS_DATA = 4,
	UEFI_MEM_RT_CODE = 5,
	UEFI_MEM_RT_DATA = 6,
	UEFI_MEM_CONVENTIONAL = 7,
	UEFI_MEM_UNUSABLE = 8,
	UEFI_MEM_ACPI_RECLAIM = 9,
	UEFI_MEM_ACPI_NVS = 10,
	UEFI_MEM_MMIO = 11,                /* EfiMemoryMappedIO */
	UEFI_MEM_MMIO_PORT = 12,           /* EfiMemoryMappedIOPortSpace */
	UEFI_MEM_PAL_CODE = 13,
	UEFI_MEM_PERSISTENT = 14,
	UEFI_MEM_UNACCEPTED = 15,
};

/* One memory-map descriptor: [start, end) and its EFI_MEMORY_TYPE. */
struct fwaddr_desc { uint64_t start, end; uint32_t type; };

struct fwaddr_map {
	const struct fwaddr_desc *desc;    /* the memory map, any order */
	int ndesc;
	const struct memrange *bar;        /* PCI memory BARs [start, end), any order */
	int nbar;
};

enum fwaddr_verdict { FWADDR_DEVICE, FWADDR_UNLISTED, FWADDR_REFUSED };

/* The name of a memory type as the spec spells it ("EfiConventionalMemory"), "type N" unknown
 * ones (buf, n bytes, is used then). */
const char *fwaddr_type_name(uint32_t type, char *buf, size_t n);

/* 1 when a descriptor of this type describes device registers (MMIO, MMIO port space, reserved). */
int fwaddr_type_is_device(uint32_t type);

/* The memory range of one PCI BAR as EFI_PCI_IO_PROTOCOL.GetBarAttributes() gives it (UEFI 2.10
 * 14.4): ACPI resource descriptors, the BAR a QWORD Address Space Descriptor (ACPI 6.5 6.4.3.5.1:
 * tag 0x8A, length 0x2B, resource type 0 = memory, _MIN at byte 14, _LEN at byte 38), then an
 * End Tag (0x79). 1 with *r = [_MIN, _MIN + _LEN) for a memory BAR of non-zero length; 0 for an
 * I/O BAR, an unused one, a wrapping one or bytes that are no such descriptor (n bytes at d). */
int fwaddr_bar_from_acpi(const uint8_t *d, size_t n, struct memrange *r);
#define FWADDR_BAR_DESC_BYTES 46   /* the QWORD descriptor: what fwaddr_bar_from_acpi reads */

/* Judge [addr, addr + len). why (n bytes) gets the reason of a refusal ("0x1000-0x1fff is in
 * EfiConventionalMemory 0x0-0x9ffff") or what an allowed window is ("EfiMemoryMappedIO",
 * "PCI BAR", "in no memory-map descriptor"). m NULL or empty: every window is FWADDR_UNLISTED
 * unless refused by its shape. */
enum fwaddr_verdict fwaddr_check(const struct fwaddr_map *m, uint64_t addr, uint64_t len, char *why, size_t n);

#endif
