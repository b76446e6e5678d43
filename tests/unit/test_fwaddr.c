/* SPDX-License-Identifier: BSD-2-Clause */
/* efi/fw/fwaddr.c: firmware-given register addresses judged against literal memory maps. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/fw/fwaddr.h"

/* A q35 + OVMF map as `memmap` in the UEFI shell prints it (types by number, UEFI 2.10 Table 7.6),
 * unsorted on purpose, plus one PCI BAR the map does not list. */
static const struct fwaddr_desc q35[] = {
	{ 0x00100000, 0x00800000, 7 },        /* Available (EfiConventionalMemory) */
	{ 0x00000000, 0x000A0000, 3 },        /* BS_Code */
	{ 0x7F000000, 0x7F800000, 6 },        /* RT_Data */
	{ 0x7F800000, 0x80000000, 10 },       /* ACPI_NVS */
	{ 0xB0000000, 0xC0000000, 0 },        /* Reserved: the ECAM window */
	{ 0xFED1C000, 0xFED20000, 11 },       /* MMIO (the LPC root complex register block) */
	{ 0xFED20000, 0xFED21000, 12 },       /* MMIO port space, adjacent to it */
	{ 0xFFC00000, 0x100000000ull, 0 },    /* Reserved: the flash */
	{ 0x100000000ull, 0x180000000ull, 7 }, /* Available above 4 GiB */
};
static const struct memrange bars[] = { { 0xC0000000, 0xC0004000 }, { 0xC0004000, 0xC0005000 } };
static const struct fwaddr_map map = { q35, (int)(sizeof(q35) / sizeof(q35[0])), bars, 2 };

static enum fwaddr_verdict check(uint64_t a, uint64_t len, char *why)
{
	return fwaddr_check(&map, a, len, why, 160);
}

static void test_device_memory(void **state)
{
	char why[160];
	(void)state;
	assert_int_equal(check(0xB0000000, 0x10000000, why), FWADDR_DEVICE);   /* the whole ECAM */
	assert_string_equal(why, "EfiReservedMemoryType");
	assert_int_equal(check(0xFED1C000, 0x4000, why), FWADDR_DEVICE);
	assert_string_equal(why, "EfiMemoryMappedIO");
	assert_int_equal(check(0xFED1F000, 0x2000, why), FWADDR_DEVICE);      /* across MMIO + port space */
	assert_int_equal(check(0xC0003000, 0x2000, why), FWADDR_DEVICE);      /* across two BARs */
	assert_string_equal(why, "PCI BAR");
	assert_int_equal(check(0xFFFFF000, 0x1000, why), FWADDR_DEVICE);      /* up to 4 GiB exactly */
}

static void test_unlisted(void **state)
{
	char why[160];
	(void)state;
	/* the APMT case: far above any descriptor */
	assert_int_equal(check(0xFFFFFFFF00000000ull, 0x1000, why), FWADDR_UNLISTED);
	assert_string_equal(why, "0xffffffff00000000 is in no memory-map descriptor or PCI BAR (read fault-safely)");
	/* the hole between the ECAM and the BARs ends at the first byte no range covers */
	assert_int_equal(check(0xBFFFF000, 0x8000, why), FWADDR_UNLISTED);
	assert_string_equal(why, "0xc0005000 is in no memory-map descriptor or PCI BAR (read fault-safely)");
	assert_int_equal(check(0xFEC00000, 4, why), FWADDR_UNLISTED);         /* IOAPIC: OVMF lists none */
	assert_int_equal(fwaddr_check(NULL, 0xFEC00000, 4, why, sizeof(why)), FWADDR_UNLISTED);
	struct fwaddr_map empty = { 0 };
	assert_int_equal(fwaddr_check(&empty, 0x1000, 4, why, sizeof(why)), FWADDR_UNLISTED);
}

static void test_refused(void **state)
{
	char why[160];
	(void)state;
	assert_int_equal(check(0x00200000, 0x1000, why), FWADDR_REFUSED);
	assert_string_equal(why, "0x200000-0x200fff is in EfiConventionalMemory 0x100000-0x7fffff (memory, not registers)");
	/* memory in an otherwise reserved window */
	assert_int_equal(check(0xFFFFFFFC, 8, why), FWADDR_REFUSED);      /* flash, then RAM above 4 GiB */
	assert_int_equal(check(0x7FFFF000, 0x2000, why), FWADDR_REFUSED);     /* ACPI NVS */
	assert_string_equal(why, "0x7ffff000-0x80000fff is in EfiACPIMemoryNVS 0x7f800000-0x7fffffff (memory, not registers)");
	assert_int_equal(check(0x17FFFFFFCull, 4, why), FWADDR_REFUSED);      /* last word of RAM */
	assert_int_equal(check(0x180000000ull, 4, why), FWADDR_UNLISTED);      /* the next one is not RAM */
	assert_int_equal(check(0x7F000000, 4, why), FWADDR_REFUSED);          /* runtime services data */
	assert_int_equal(check(0, 4, why), FWADDR_REFUSED);
	assert_string_equal(why, "address 0 (not set)");
	assert_int_equal(check(0x1000, 0, why), FWADDR_REFUSED);
	assert_string_equal(why, "zero length");
	assert_int_equal(check(UINT64_MAX - 3, 8, why), FWADDR_REFUSED);
	assert_string_equal(why, "the window wraps past the end of the address space");
	assert_int_equal(check(UINT64_MAX - 3, 4, why), FWADDR_UNLISTED);     /* ends at 2^64 - 1 exactly */
}

static void test_types(void **state)
{
	char buf[16];
	(void)state;
	static const struct { uint32_t type; const char *name; int device; } t[] = {
		{ 0, "EfiReservedMemoryType", 1 }, { 7, "EfiConventionalMemory", 0 }, { 9, "EfiACPIReclaimMemory", 0 },
		{ 11, "EfiMemoryMappedIO", 1 }, { 12, "EfiMemoryMappedIOPortSpace", 1 }, { 14, "EfiPersistentMemory", 0 },
		{ 15, "EfiUnacceptedMemoryType", 0 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_string_equal(fwaddr_type_name(t[i].type, buf, sizeof(buf)), t[i].name);
		assert_int_equal(fwaddr_type_is_device(t[i].type), t[i].device);
	}
	assert_string_equal(fwaddr_type_name(0x80000001u, buf, sizeof(buf)), "type 2147483649");
	/* an OEM type (0x80000000 and above, UEFI 2.10 Table 7.6) is not known to hold registers */
	static const struct fwaddr_desc oem[] = { { 0x1000, 0x2000, 0x80000001u } };
	struct fwaddr_map m = { oem, 1, NULL, 0 };
	char why[160];
	assert_int_equal(fwaddr_check(&m, 0x1000, 4, why, sizeof(why)), FWADDR_REFUSED);
}

/* A QWORD Address Space Descriptor as OVMF's PciBusDxe returns it for a 64-bit memory BAR, laid
 * out by hand from ACPI 6.5 6.4.3.5.1: 0x8A, length 0x2B, type 0 (memory), flags, granularity 64,
 * _MIN 0x800000000, _MAX 0x8000FFFFF, translation 0, _LEN 0x100000; then the End Tag 0x79 0x00. */
static const uint8_t bar64[] = {
	0x8a, 0x2b, 0x00, 0x00, 0x0c, 0x00,
	0x40, 0, 0, 0, 0, 0, 0, 0,                              /* _GRA */
	0x00, 0x00, 0x00, 0x00, 0x08, 0, 0, 0,                  /* _MIN */
	0xff, 0xff, 0x0f, 0x00, 0x08, 0, 0, 0,                  /* _MAX */
	0, 0, 0, 0, 0, 0, 0, 0,                                 /* _TRA */
	0x00, 0x00, 0x10, 0x00, 0x00, 0, 0, 0,                  /* _LEN */
	0x79, 0x00,
};

static void test_bar_descriptor(void **state)
{
	(void)state;
	struct memrange r = { 0, 0 };
	assert_true(fwaddr_bar_from_acpi(bar64, sizeof(bar64), &r));
	assert_int_equal(r.start, 0x800000000ull);
	assert_int_equal(r.end, 0x800100000ull);
	uint8_t b[sizeof(bar64)];
	memcpy(b, bar64, sizeof(b));
	b[3] = 1;                                    /* I/O space */
	assert_false(fwaddr_bar_from_acpi(b, sizeof(b), &r));
	memcpy(b, bar64, sizeof(b));
	memset(b + 38, 0, 8);                        /* unused BAR: length 0 */
	assert_false(fwaddr_bar_from_acpi(b, sizeof(b), &r));
	assert_false(fwaddr_bar_from_acpi(bar64, 45, &r));   /* cut short */
	static const uint8_t end_only[] = { 0x79, 0x00 };
	assert_false(fwaddr_bar_from_acpi(end_only, sizeof(end_only), &r));
	memcpy(b, bar64, sizeof(b));
	memset(b + 14, 0xff, 8);                     /* _MIN 2^64 - 1 with a 1 MiB length wraps */
	assert_false(fwaddr_bar_from_acpi(b, sizeof(b), &r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_memory),
		cmocka_unit_test(test_unlisted),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_bar_descriptor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
