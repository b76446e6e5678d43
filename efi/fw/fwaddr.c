/* SPDX-License-Identifier: BSD-2-Clause */
/* The firmware-address checker (efi/fw/fwaddr.h). */
#include "efi/fw/fwaddr.h"
#include "arch/lib/fmt.h"
#include "arch/lib/le.h"

/* ACPI 6.5 6.4.3.5.1 QWORD Address Space Descriptor. */
#define QWORD_TAG 0x8A
#define QWORD_LEN_FIELD 0x2B          /* bytes after the tag and length field */
#define QWORD_BYTES (3 + QWORD_LEN_FIELD)
_Static_assert(QWORD_BYTES == FWADDR_BAR_DESC_BYTES, "the descriptor's size in fwaddr.h");
#define QWORD_RES_TYPE 3
#define QWORD_RES_MEMORY 0
#define QWORD_MIN 14
#define QWORD_LEN 38

static const char *const type_names[] = {
	[UEFI_MEM_RESERVED] = "EfiReservedMemoryType",
	[UEFI_MEM_LOADER_CODE] = "EfiLoaderCode",
	[UEFI_MEM_LOADER_DATA] = "EfiLoaderData",
	[UEFI_MEM_BS_CODE] = "EfiBootServicesCode",
	[UEFI_MEM_BS_DATA] = "EfiBootServicesData",
	[UEFI_MEM_RT_CODE] = "EfiRuntimeServicesCode",
	[UEFI_MEM_RT_DATA] = "EfiRuntimeServicesData",
	[UEFI_MEM_CONVENTIONAL] = "EfiConventionalMemory",
	[UEFI_MEM_UNUSABLE] = "EfiUnusableMemory",
	[UEFI_MEM_ACPI_RECLAIM] = "EfiACPIReclaimMemory",
	[UEFI_MEM_ACPI_NVS] = "EfiACPIMemoryNVS",
	[UEFI_MEM_MMIO] = "EfiMemoryMappedIO",
	[UEFI_MEM_MMIO_PORT] = "EfiMemoryMappedIOPortSpace",
	[UEFI_MEM_PAL_CODE] = "EfiPalCode",
	[UEFI_MEM_PERSISTENT] = "EfiPersistentMemory",
	[UEFI_MEM_UNACCEPTED] = "EfiUnacceptedMemoryType",
};

const char *fwaddr_type_name(uint32_t type, char *buf, size_t n)
{
	if (type < sizeof(type_names) / sizeof(type_names[0]))
		return type_names[type];
	fmt_snprintf(buf, n, "type %u", type);
	return buf;
}

int fwaddr_type_is_device(uint32_t type)
{
	return type == UEFI_MEM_MMIO || type == UEFI_MEM_MMIO_PORT || type == UEFI_MEM_RESERVED;
}

/* Does [s, e) overlap the window [a, last] (last inclusive)? */
static int overlaps(uint64_t s, uint64_t e, uint64_t a, uint64_t last)
{
	return e > s && s <= last && e - 1 >= a;
}

int fwaddr_bar_from_acpi(const uint8_t *d, size_t n, struct memrange *r)
{
	if (!d || n < QWORD_BYTES || d[0] != QWORD_TAG || le16(d + 1) != QWORD_LEN_FIELD || d[QWORD_RES_TYPE] != QWORD_RES_MEMORY)
		return 0;
	uint64_t min = le64(d + QWORD_MIN), len = le64(d + QWORD_LEN);
	if (!len || min + (len - 1) < min || min + len < min)
		return 0;
	*r = (struct memrange){ min, min + len };
	return 1;
}

enum fwaddr_verdict fwaddr_check(const struct fwaddr_map *m, uint64_t addr, uint64_t len, char *why, size_t n)
{
	char tb[16];
	if (!len || addr + (len - 1) < addr) {
		fmt_snprintf(why, n, "%s", !len ? "zero length" : "the window wraps past the end of the address space");
		return FWADDR_REFUSED;
	}
	if (!addr) {
		fmt_snprintf(why, n, "address 0 (not set)");
		return FWADDR_REFUSED;
	}
	uint64_t last = addr + (len - 1);
	int ndesc = m ? m->ndesc : 0, nbar = m ? m->nbar : 0;
	/* memory anywhere in the window refuses it, whatever else covers the rest */
	for (int i = 0; i < ndesc; i++) {
		const struct fwaddr_desc *d = &m->desc[i];
		if (!fwaddr_type_is_device(d->type) && overlaps(d->start, d->end, addr, last)) {
			fmt_snprintf(why, n, "0x%llx-0x%llx is in %s 0x%llx-0x%llx (memory, not registers)",
				     (unsigned long long)addr, (unsigned long long)last, fwaddr_type_name(d->type, tb, sizeof(tb)),
				     (unsigned long long)d->start, (unsigned long long)(d->end - 1));
			return FWADDR_REFUSED;
		}
	}
	/* every byte described as device registers? Walk the window, extending over covering ranges
	 * (descriptors and BARs may be adjacent, overlapping and in any order). */
	uint64_t at = addr;
	const char *what = NULL;
	for (;;) {
		int moved = 0;
		for (int i = 0; i < ndesc + nbar && !moved; i++) {
			uint64_t s = i < ndesc ? m->desc[i].start : m->bar[i - ndesc].start;
			uint64_t e = i < ndesc ? m->desc[i].end : m->bar[i - ndesc].end;
			if (i < ndesc && !fwaddr_type_is_device(m->desc[i].type))
				continue;
			if (s <= at && e > at) {
				if (!what)
					what = i < ndesc ? fwaddr_type_name(m->desc[i].type, tb, sizeof(tb)) : "PCI BAR";
				if (e - 1 >= last) {
					fmt_snprintf(why, n, "%s", what);
					return FWADDR_DEVICE;
				}
				at = e;
				moved = 1;
			}
		}
		if (!moved)
			break;
	}
	fmt_snprintf(why, n, "0x%llx is in no memory-map descriptor or PCI BAR (read fault-safely)",
		     (unsigned long long)at);
	return FWADDR_UNLISTED;
}
