/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the PPTT parser (efi/fw/acpi_pptt.c) on arbitrary bytes taken as a whole
 * table (its Length is the input size; the table header's checksum is acpi.c's business, and
 * fuzz_acpi reaches the same parser through a full RSDP image). Checks beyond not crashing:
 * counts stay within their arrays, the defect is terminated, every processor kept is found by
 * its UID unless a defect withholds the topology, and the JSON is valid whenever it fit.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_parsers.h"
#include "../unit/json_check.h"

static struct acpi_pptt p;
static char json_buf[1 << 18];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < ACPI_HEADER_LEN || size > ACPI_MAX_TABLE_LEN)
		return 0;
	uint8_t *t = malloc(size);   /* exact size: ASan sees any read past the table */
	if (!t)
		return 0;
	memcpy(t, data, size);
	acpi_parse_pptt(t, (uint32_t)size, &p);
	assert(p.present && p.ncpu <= ACPI_MAX_CPU_IDS && p.npackages <= p.ncpu);
	assert(memchr(p.defect, '\0', ACPI_DEFECT_LEN) != NULL);
	for (uint32_t i = 0; i < p.ncpu; i++) {
		int k = acpi_pptt_find(&p, p.cpu[i].uid);
		assert(p.defect[0] ? k == -1 : (k >= 0 && p.cpu[k].uid == p.cpu[i].uid));
	}
	struct strbuf sb;
	struct json j;
	sb_init(&sb, json_buf, sizeof(json_buf));
	json_begin(&j, &sb);
	acpi_json_pptt(&p, &j);
	json_end(&j);
	assert(!j.error);
	if (!sb.overflow)
		assert(json_check_object(json_buf, sb.len));
	free(t);
	return 0;
}
