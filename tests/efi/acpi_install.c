/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test-only UEFI application: installs \ssdt.aml, \apmt.dat and \ssdt2.aml of the volume it was
 * loaded from (each when present) as ACPI tables through
 * EFI_ACPI_TABLE_PROTOCOL.InstallAcpiTable (UEFI 2.10 section 20.2), which adds them to the
 * XSDT/RSDT and fixes their checksums. The aarch64 QEMU test runs it from startup.nsh
 * before efiperf, because QEMU's aarch64 `virt` machine refuses `-acpitable`. The test's PMU
 * regions lie in the BAR of its ivshmem-plain device at PCI 00:05.0, whose memory decoding
 * AAVMF leaves off (no driver binds it; OVMF on q35 leaves it on), so this app also enables
 * it through EFI_PCI_IO_PROTOCOL.Attributes (UEFI 2.10 section 14.4). Not part of efiperf;
 * prints what it did and returns the status.
 */
#include <efi.h>
#include <efilib.h>

/* UEFI 2.10 section 20.2: EFI_ACPI_TABLE_PROTOCOL_GUID ffe06bdd-6107-46a6-7bb2-5a9c7ec5275c. */
static EFI_GUID acpi_table_guid = { 0xffe06bdd, 0x6107, 0x46a6, { 0x7b, 0xb2, 0x5a, 0x9c, 0x7e, 0xc5, 0x27, 0x5c } };

typedef struct acpi_table_protocol {
	EFI_STATUS (EFIAPI *InstallAcpiTable)(struct acpi_table_protocol *This, VOID *Buffer, UINTN Size, UINTN *Key);
	EFI_STATUS (EFIAPI *UninstallAcpiTable)(struct acpi_table_protocol *This, UINTN Key);
} ACPI_TABLE_PROTOCOL;

static CHAR16 *const table_file[] = { L"\\ssdt.aml", L"\\apmt.dat", L"\\ssdt2.aml" };
#define NFILES (sizeof(table_file) / sizeof(table_file[0]))
#define DECODE_DEV 5                  /* PCI 00:05.0: the QEMU test's ivshmem-plain device */

static void enable_decode(void)
{
	EFI_HANDLE *h = NULL;
	UINTN n = 0;
	EFI_STATUS st = uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &PciIoProtocol, NULL, &n, &h);
	for (UINTN i = 0; !EFI_ERROR(st) && i < n; i++) {
		EFI_PCI_IO_PROTOCOL *io;
		UINTN seg, bus, dev, fn;
		if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, h[i], &PciIoProtocol, (VOID **)&io)) ||
		    EFI_ERROR(uefi_call_wrapper(io->GetLocation, 5, io, &seg, &bus, &dev, &fn)) ||
		    seg || bus || dev != DECODE_DEV || fn)
			continue;
		EFI_STATUS a = uefi_call_wrapper(io->Attributes, 4, io, EfiPciIoAttributeOperationEnable,
						 EFI_PCI_IO_ATTRIBUTE_MEMORY, NULL);
		Print(L"acpi_install: memory decoding of PCI 00:%02x.0 enabled: %r\n", (UINT32)DECODE_DEV, a);
	}
	if (h)
		FreePool(h);
}

static EFI_STATUS read_file(EFI_HANDLE image, CHAR16 *name, VOID **buf, UINTN *size)
{
	EFI_LOADED_IMAGE *li;
	EFI_STATUS st = uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (VOID **)&li);
	if (EFI_ERROR(st))
		return st;
	EFI_FILE_HANDLE root = LibOpenRoot(li->DeviceHandle), f;
	if (!root)
		return EFI_NOT_FOUND;
	st = uefi_call_wrapper(root->Open, 5, root, &f, name, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(st))
		return st;
	EFI_FILE_INFO *info = LibFileInfo(f);
	if (!info)
		return EFI_DEVICE_ERROR;
	*size = info->FileSize;
	FreePool(info);
	*buf = AllocatePool(*size);
	if (!*buf)
		return EFI_OUT_OF_RESOURCES;
	st = uefi_call_wrapper(f->Read, 3, f, size, *buf);
	uefi_call_wrapper(f->Close, 1, f);
	return st;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st_in)
{
	InitializeLib(image, st_in);
	enable_decode();
	ACPI_TABLE_PROTOCOL *acpi;
	EFI_STATUS st = uefi_call_wrapper(BS->LocateProtocol, 3, &acpi_table_guid, NULL, (VOID **)&acpi), rc = EFI_NOT_FOUND;
	if (EFI_ERROR(st)) {
		Print(L"acpi_install: no EFI_ACPI_TABLE_PROTOCOL: %r\n", st);
		return st;
	}
	for (UINTN i = 0; i < NFILES; i++) {
		VOID *buf = NULL;
		UINTN size = 0, key = 0;
		st = read_file(image, table_file[i], &buf, &size);
		if (st == EFI_NOT_FOUND) {
			Print(L"acpi_install: %s absent\n", table_file[i]);
			continue;
		}
		if (!EFI_ERROR(st))
			st = uefi_call_wrapper(acpi->InstallAcpiTable, 4, acpi, buf, size, &key);
		Print(L"acpi_install: %s (%lu bytes): %r\n", table_file[i], (UINT64)size, st);
		if (buf)
			FreePool(buf);
		if (rc == EFI_NOT_FOUND || EFI_ERROR(st))
			rc = st;
	}
	return rc;
}
