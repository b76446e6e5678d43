/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/hw_efi.h"
#include "efi/mp.h"
#include "arch/arch.h"

#define PCI_CONFIG_SPACE_BYTES 4096u
#define PCI_LEGACY_CONFIG_BYTES 256u

/* Root bridge of a PCI segment, or NULL. */
static EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *root_bridge(uint16_t segment)
{
	static EFI_GUID guid = EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_GUID;
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *found = NULL;
	if (BS->LocateHandleBuffer(ByProtocol, &guid, NULL, &n, &handles) != EFI_SUCCESS)
		return NULL;
	for (UINTN i = 0; i < n && !found; i++) {
		EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb;
		if (BS->HandleProtocol(handles[i], &guid, (VOID **)&rb) == EFI_SUCCESS &&
		    rb->SegmentNumber == segment)
			found = rb;
	}
	BS->FreePool(handles);
	return found;
}

/* EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_PCI_ADDRESS (UEFI spec 14.2): Register [7:0], Function
 * [15:8], Device [23:16], Bus [31:24], ExtendedRegister [63:32] used when non-zero. */
static UINT64 rb_address(struct hw_pci_addr a, uint16_t off)
{
	UINT64 addr = ((UINT64)a.bus << 24) | ((UINT64)a.dev << 16) | ((UINT64)a.func << 8);
	if (off < PCI_LEGACY_CONFIG_BYTES)
		return addr | off;
	return addr | ((UINT64)off << 32);
}

static hw_status pci_access(struct hw_pci_addr a, uint16_t off, uint32_t *val, int write)
{
	if (off >= PCI_CONFIG_SPACE_BYTES || (off & 3) || a.dev > 31 || a.func > 7)
		return HW_BAD_ARG;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = root_bridge(a.segment);
	if (!rb)
		return HW_BAD_ARG;
	EFI_STATUS st = write ? rb->Pci.Write(rb, EfiPciIoWidthUint32, rb_address(a, off), 1, val)
			      : rb->Pci.Read(rb, EfiPciIoWidthUint32, rb_address(a, off), 1, val);
	return st == EFI_SUCCESS ? HW_OK : HW_ERROR;
}

static hw_status op_pci_read32(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t *v)
{
	(void)ctx;
	return pci_access(a, off, v, 0);
}

static hw_status op_pci_write32(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t v)
{
	(void)ctx;
	return pci_access(a, off, &v, 1);
}

static hw_status op_run_on_cpu(void *ctx, uint32_t cpu, hw_cpu_fn fn, void *arg)
{
	(void)ctx;
	return mp_run_on_cpu(cpu, fn, arg);
}

struct hw hw_efi(void)
{
	static struct hw_ops ops;
	ops = arch_cpu_ops;
	ops.pci_read32 = op_pci_read32;
	ops.pci_write32 = op_pci_write32;
	ops.run_on_cpu = op_run_on_cpu;
	return (struct hw){ .ops = &ops, .ctx = NULL };
}
