/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/fw/firmware_tables.h"
#include "efi/fw/memranges.h"
#include "efi/fw/memmap.h"
#include "efi/fw/fwaddr.h"
#include "efi/out/report.h"

static struct memrange *ranges;   /* pool memory, nranges entries */
static int nranges;
static struct fwaddr_desc *typed;   /* the same map with types, for register addresses */
static int ntyped;
static struct memrange *bars;       /* memory BARs the PCI bus driver assigned, nbars entries */
static int nbars;

/* PCI BARs 0-5 of a Type 0 header (PCI Local Bus 3.0 6.2.5.1); GetBarAttributes takes the index. */
#define PCI_MAX_BARS 6

/* Every memory BAR of every EFI_PCI_IO_PROTOCOL instance, as the firmware assigned it
 * (GetBarAttributes, UEFI 2.10 14.4): no config-space write, unlike sizing a BAR. */
static void snapshot_bars(void)
{
	EFI_HANDLE *h = NULL;
	UINTN n = 0;
	if (bars)
		FreePool(bars);
	bars = NULL;
	nbars = 0;
	if (BS->LocateHandleBuffer(ByProtocol, &PciIoProtocol, NULL, &n, &h) != EFI_SUCCESS)
		return;
	bars = AllocatePool(n * PCI_MAX_BARS * sizeof(*bars));
	for (UINTN i = 0; bars && i < n; i++) {
		EFI_PCI_IO_PROTOCOL *pio;
		if (BS->HandleProtocol(h[i], &PciIoProtocol, (VOID **)&pio) != EFI_SUCCESS)
			continue;
		for (UINT8 b = 0; b < PCI_MAX_BARS; b++) {
			VOID *res = NULL;
			if (pio->GetBarAttributes(pio, b, NULL, &res) != EFI_SUCCESS || !res)
				continue;
			/* one QWORD descriptor and the End Tag: fwaddr_bar_from_acpi reads no further */
			if (fwaddr_bar_from_acpi(res, FWADDR_BAR_DESC_BYTES, &bars[nbars]))
				nbars++;
			FreePool(res);
		}
	}
	FreePool(h);
}

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
	if (typed)
		FreePool(typed);
	typed = memmap_read_typed(&ntyped);
	snapshot_bars();
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

void fw_addr_defect(const char *table, const char *field, uint64_t addr, uint64_t len, const char *status,
		   const char *why)
{
	struct json *j = rep_begin("firmware_defect");
	json_str(j, "table", table);
	json_str(j, "field", field);
	json_hex(j, "address", addr);
	json_u64(j, "length", len);
	json_str(j, "status", status);
	json_str(j, "why", why);
	rep_end();
	rep_line("firmware:   defect: %s %s 0x%llx (+0x%llx): %s: %s", table, field, (unsigned long long)addr,
		 (unsigned long long)len, status, why);
}

int fw_addr_use(const char *table, const char *field, uint64_t addr, uint64_t len)
{
	char why[200];
	struct fwaddr_map m = { typed, ntyped, bars, nbars };
	if (fwaddr_check(&m, addr, len, why, sizeof(why)) != FWADDR_REFUSED)
		return 0;
	if (table)
		fw_addr_defect(table, field, addr, len, "refused", why);
	return -1;
}

hw_status fw_addr_fault(const char *table, const char *field, uint64_t addr, hw_status st)
{
	if (st == HW_FAULT_PF || st == HW_FAULT_GP || st == HW_FAULT_ABORT || st == HW_FAULT_SYNC)
		fw_addr_defect(table, field, addr, 0, hw_status_name(st),
		       "the access faulted: the address is not mapped or no device answers there");
	return st;
}
