/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/fw/firmware_tables.h"
#include "efi/fw/memranges.h"
#include "efi/fw/memmap.h"

static struct memrange *ranges;   /* pool memory, nranges entries */
static int nranges;

static int guid_eq(const EFI_GUID *a, const EFI_GUID *b)
{
	return CompareGuid((EFI_GUID *)a, (EFI_GUID *)b) == 0;
}

/* Every descriptor of the memory map, kept for the run: table pointers are checked against it. */
static int snapshot_memory_map(void)
{
	if (ranges)
		FreePool(ranges);
	ranges = memmap_read(&nranges, 0);
	return ranges ? 0 : -1;
}

int fw_tables_find(struct fw_tables *t)
{
	static EFI_GUID acpi20 = ACPI_20_TABLE_GUID, smbios3 = SMBIOS3_TABLE_GUID;
	*t = (struct fw_tables){ 0 };
	for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *c = &ST->ConfigurationTable[i];
		uint64_t addr = (uint64_t)(uintptr_t)c->VendorTable;
		if (guid_eq(&c->VendorGuid, &acpi20)) {
			t->rsdp = addr;
			t->rsdp_acpi20 = 1;
		} else if (guid_eq(&c->VendorGuid, &AcpiTableGuid) && !t->rsdp_acpi20) {
			t->rsdp = addr;
		} else if (guid_eq(&c->VendorGuid, &smbios3)) {
			t->smbios = addr;
			t->smbios3 = 1;
		} else if (guid_eq(&c->VendorGuid, &SMBIOSTableGuid) && !t->smbios3) {
			t->smbios = addr;
		}
	}
	int r = snapshot_memory_map();
	t->memmap_ranges = nranges;
	return r;
}

static const void *map_identity(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx;
	if (!addr || !memranges_cover(ranges, nranges, addr, len))
		return NULL;
	return (const void *)(uintptr_t)addr;
}

struct physmem fw_physmem(void)
{
	return (struct physmem){ .map = map_identity, .ctx = NULL };
}
