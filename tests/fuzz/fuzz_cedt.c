/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the CEDT parser (efi/fw/acpi_cedt.c) on arbitrary bytes taken as a whole
 * table (its Length is the input size; the checksum is acpi.c's business). Checks beyond not
 * crashing: counts stay within their arrays, every defect is terminated, each CFMWS target
 * resolves to the CHBS of that _UID or is -1 with a defect, the decoded ways/granularity follow
 * their encodings, and the JSON is valid whenever it fit.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_cedt.h"
#include "../unit/json_check.h"

static struct acpi_cedt c;
static char json_buf[1 << 16];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < ACPI_HEADER_LEN || size > ACPI_MAX_TABLE_LEN)
		return 0;
	uint8_t *t = malloc(size);   /* exact size: ASan sees any read past the table */
	if (!t)
		return 0;
	memcpy(t, data, size);
	acpi_parse_cedt(t, (uint32_t)size, &c);
	assert(c.present && c.nchbs <= ACPI_MAX_CEDT_CHBS && c.ncfmws <= ACPI_MAX_CEDT_CFMWS);
	assert(memchr(c.defect, '\0', ACPI_CEDT_DEFECT_LEN) != NULL);
	for (uint32_t i = 0; i < c.ncfmws; i++) {
		const struct acpi_cedt_cfmws *w = &c.cfmws[i];
		assert(memchr(w->defect, '\0', ACPI_CEDT_DEFECT_LEN) != NULL);
		assert(w->ntargets <= ACPI_CEDT_MAX_TARGETS);
		assert(w->ways == cedt_interleave_ways(w->eniw) && w->granularity == cedt_granularity(w->hbig));
		for (uint32_t k = 0; k < w->ntargets; k++) {
			int h = w->target_chbs[k];
			assert(h == -1 ? w->defect[0] != 0 : (h >= 0 && (uint32_t)h < c.nchbs && c.chbs[h].uid == w->target[k]));
		}
	}
	struct strbuf sb;
	struct json j;
	sb_init(&sb, json_buf, sizeof(json_buf));
	json_begin(&j, &sb);
	acpi_json_cedt(&c, &j);
	json_end(&j);
	assert(!j.error);
	if (!sb.overflow)
		assert(json_check_object(json_buf, sb.len));
	free(t);
	return 0;
}
