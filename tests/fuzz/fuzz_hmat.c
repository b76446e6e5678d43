/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the HMAT parser (efi/fw/acpi_hmat.c) on arbitrary bytes taken as a whole
 * table (its Length is the input size; the checksum is acpi.c's business). Checks beyond not
 * crashing: the claims stay within their array, the defect is terminated, every claim's data
 * type names one of ACPI 6.5 Table 5.150's six, claims + dropped equals what an independent walk
 * of the structures (5.2.28: 40-byte header; each structure Type @0 (2 bytes), Length @4; type 1
 * with initiator count @12, target count @16, Entry Base Unit @24, lists @32, 16-bit entries)
 * counts, the kept claims are that walk's first ones in order, and the JSON is valid whenever it
 * fit.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_hmat.h"
#include "../unit/json_check.h"

static struct acpi_hmat h;
static char json_buf[1 << 16];

static uint64_t rd(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The walk: hierarchy-0 claims of types 0..5 whose entry is neither 0 nor 0xFFFF, in table
 * order, compared with h's; returns how many there are. Stops at the first structure whose
 * Length is under 8 or runs past the table, as 5.2.28 gives no way to find the next one. */
static uint64_t walk(const uint8_t *t, size_t len)
{
	uint64_t count = 0;
	for (size_t off = 40; off + 8 <= len;) {
		size_t slen = (size_t)rd(t + off + 4, 4);
		if (slen < 8 || slen > len - off)
			break;
		const uint8_t *e = t + off;
		if (rd(e, 2) == 1 && slen >= 32) {
			uint64_t s = rd(e + 12, 4), n = rd(e + 16, 4);   /* each <= slen: no wrap below */
			if (s <= slen && n <= slen && 32 + 4 * s + 4 * n + 2 * s * n <= slen && (e[8] & 0xF) == 0 && e[9] < 6)
				for (uint64_t i = 0; i < s; i++)
					for (uint64_t k = 0; k < n; k++) {
						uint64_t v = rd(e + 32 + 4 * s + 4 * n + 2 * (i * n + k), 2);
						if (v == 0 || v == 0xFFFF)
							continue;
						if (count < h.n) {
							const struct acpi_hmat_claim *c = &h.claim[count];
							assert(c->initiator == rd(e + 32 + 4 * i, 4) &&
							       c->target == rd(e + 32 + 4 * s + 4 * k, 4) &&
							       c->data_type == e[9] && c->value == v * rd(e + 24, 8));
						}
						count++;
					}
		}
		off += slen;
	}
	return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < ACPI_HEADER_LEN || size > ACPI_MAX_TABLE_LEN)
		return 0;
	uint8_t *t = malloc(size);   /* exact size: ASan sees any read past the table */
	if (!t)
		return 0;
	memcpy(t, data, size);
	acpi_parse_hmat(t, (uint32_t)size, &h);
	assert(h.present && h.n <= ACPI_MAX_HMAT_CLAIMS);
	assert(memchr(h.defect, '\0', sizeof(h.defect)) != NULL);
	for (uint32_t i = 0; i < h.n; i++)
		assert(acpi_hmat_type_name(h.claim[i].data_type) != NULL);
	assert(walk(t, size) == (uint64_t)h.n + h.dropped);
	assert(h.dropped == 0 || h.n == ACPI_MAX_HMAT_CLAIMS);
	struct strbuf sb;
	struct json j;
	sb_init(&sb, json_buf, sizeof(json_buf));
	json_begin(&j, &sb);
	acpi_json_hmat(&h, &j);
	json_end(&j);
	assert(!j.error);
	if (!sb.overflow)
		assert(json_check_object(json_buf, sb.len));
	free(t);
	return 0;
}
