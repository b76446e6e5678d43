/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the bounded AML reader (efi/fw/aml.c) over an arbitrary definition block.
 *   byte 0     bit 0: set the header's Length field to the input's size before parsing, so
 *              mutations reach the TermList walk instead of stopping at the Length check
 *   bytes 1..  the table (header + AML), in a buffer of exactly that size (ASan sees any read
 *              past it)
 * Seeds (tests/fuzz/corpus/fuzz_aml): tests/aml/nv_pmu_ssdt.asl compiled by iasl 20200925, as
 * is and with Device(BAD0)'s PkgLength patched past the table's end, and
 * tests/aml/cspmu_companion_ssdt.asl, each behind a 0x01 byte; and, added to the working corpus
 * by tests/unit.mk's fuzz rule, every real machine's table of tests/aml/real/ behind a 0x00 byte.
 * The reader's pool is calloc/free, so ASan also sees its device and method arrays.
 * Checks beyond not crashing: counts within their bounds, every string terminated, every kept
 * device with a _HID and an absolute path, defects named after the table; each kept device with
 * an integer _UID and a printable _HID found again as the companion of an APMT ACPI-device node
 * naming its _HID and _UID (efi/fw/apmt_companion.c), with the _HID and _UID it was looked up by.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "efi/fw/aml.h"
#include "efi/fw/apmt_companion.h"

static struct aml_info info;

static void *pool_alloc(size_t n)
{
	return calloc(1, n);
}

static int terminated(const char *s, size_t n)
{
	return memchr(s, 0, n) != NULL;
}

/* An APMT node's HID bytes are ASCII ID characters (0x21..0x7E); others name no companion. */
static int printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x21 || *s > 0x7E)
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > (1u << 20))
		return 0;
	uint32_t n = (uint32_t)(size - 1);
	uint8_t *t = malloc(n ? n : 1);
	memcpy(t, data + 1, n);
	if ((data[0] & 1) && n >= 8) {
		t[4] = (uint8_t)n;
		t[5] = (uint8_t)(n >> 8);
		t[6] = (uint8_t)(n >> 16);
		t[7] = 0;
	}
	aml_info_free(&info);
	memset(&info, 0, sizeof(info));
	info.pool_alloc = pool_alloc;
	info.pool_release = free;
	int rc = aml_parse_table(t, n, 0, &info);
	aml_parse_table(t, n, 1, &info);         /* a second table adds to the same info */
	free(t);
	assert(rc == 0 || rc == -1);
	assert(info.ntables == 2);
	assert(info.ndev <= info.dev_cap && info.ndefects <= AML_MAX_DEFECTS);
	assert(2 * info.nmethod <= info.method_cap);
	for (uint32_t i = 0; i < info.ndefects; i++) {
		assert(terminated(info.defect[i], AML_DEFECT_LEN));
		assert(strstr(info.defect[i], "[0] @0x") || strstr(info.defect[i], "[1] @0x"));
	}
	for (uint32_t i = 0; i < info.ndev; i++) {
		const struct aml_device *d = &info.dev[i];
		assert(terminated(d->path, AML_PATH_LEN) && d->path[0] == '\\');
		assert(terminated(d->hid, sizeof(d->hid)) && d->hid[0]);
		assert(d->hid_odd == 0 || d->hid_odd == 1);
		assert(terminated(d->uid_str, sizeof(d->uid_str)));
		assert(d->nranges <= AML_MAX_RANGES && d->nprops <= AML_MAX_PROPS);
		for (uint32_t k = 0; k < d->nprops; k++)
			assert(terminated(d->prop[k].name, AML_PROP_NAME) && terminated(d->prop[k].str, AML_PROP_NAME) &&
			       d->prop[k].kind <= AML_PROP_REF && d->prop[k].is_string == (d->prop[k].kind == AML_PROP_STR));
		uint32_t from = i;
		assert(aml_find_hid(&info, d->hid, &from) == &info.dev[i] || from <= i + 1);
		if (!d->has_uid || d->uid_is_string || d->uid > UINT32_MAX || !printable(d->hid) || strlen(d->hid) > 8)
			continue;
		struct acpi_apmt_node n = { .length = 56, .type = APMT_NODE_ACPI, .inst_secondary = (uint32_t)d->uid };
		memcpy(&n.inst_primary, d->hid, strlen(d->hid));   /* the HID's bytes in memory order */
		struct apmt_companion c;
		apmt_companion_of(&n, &info, &c);
		assert(c.found && !strcmp(c.hid, d->hid) && c.uid == d->uid && terminated(c.why, sizeof(c.why)));
		assert(terminated(c.path, sizeof(c.path)) && c.path[0] == '\\');
	}
	return 0;
}
