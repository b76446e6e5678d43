/* SPDX-License-Identifier: BSD-2-Clause */
/* HMAT latency and bandwidth claims: see efi/fw/acpi_hmat.h. */
#include <string.h>
#include "efi/fw/acpi_hmat.h"
#include "arch/lib/le.h"
#include "arch/lib/fmt.h"

#define HMAT_FIRST       40u   /* ACPI 6.5 Table 5.147: header (36) + reserved (4) */
#define HMAT_SLLBI       1u    /* System Locality Latency and Bandwidth Information */
#define SLLBI_FLAGS      8u
#define SLLBI_TYPE       9u
#define SLLBI_NINIT      12u
#define SLLBI_NTARGET    16u
#define SLLBI_BASE_UNIT  24u
#define SLLBI_LISTS      32u
#define HIERARCHY_MASK   0xFu
#define ENTRY_NONE       0u
#define ENTRY_UNREACHABLE 0xFFFFu

static void one(const uint8_t *e, uint32_t len, struct acpi_hmat *h)
{
	uint32_t s = le32(e + SLLBI_NINIT), t = le32(e + SLLBI_NTARGET);
	uint64_t need = SLLBI_LISTS + 4ull * s + 4ull * t + 2ull * s * t;
	if (len < SLLBI_LISTS || need > len) {
		if (!h->defect[0])
			fmt_snprintf(h->defect, sizeof(h->defect), "latency/bandwidth structure of %u bytes: %u x %u domains need %llu",
				     len, s, t, (unsigned long long)need);
		return;
	}
	uint8_t type = e[SLLBI_TYPE];
	uint64_t unit = le64(e + SLLBI_BASE_UNIT);
	if ((e[SLLBI_FLAGS] & HIERARCHY_MASK) != 0 || type >= ACPI_HMAT_NTYPES)
		return;
	const uint8_t *ini = e + SLLBI_LISTS, *tgt = ini + 4 * s, *ent = tgt + 4 * t;
	for (uint32_t i = 0; i < s; i++)
		for (uint32_t k = 0; k < t; k++) {
			uint16_t v = le16(ent + 2 * ((uint64_t)i * t + k));
			if (v == ENTRY_NONE || v == ENTRY_UNREACHABLE)
				continue;
			if (h->n >= ACPI_MAX_HMAT_CLAIMS) {
				h->dropped++;
				continue;
			}
			h->claim[h->n++] = (struct acpi_hmat_claim){ le32(ini + 4 * i), le32(tgt + 4 * k), type, v * unit };
		}
}

void acpi_parse_hmat(const uint8_t *t, uint32_t len, struct acpi_hmat *h)
{
	memset(h, 0, sizeof(*h));
	h->present = 1;
	for (uint32_t off = HMAT_FIRST; off + 8 <= len;) {
		uint32_t slen = le32(t + off + 4);
		if (slen < 8 || slen > len - off) {
			fmt_snprintf(h->defect, sizeof(h->defect), "structure at offset %u: length %u", off, slen);
			return;
		}
		if (le16(t + off) == HMAT_SLLBI)
			one(t + off, slen, h);
		off += slen;
	}
}

const char *acpi_hmat_type_name(uint8_t data_type)
{
	static const char *const names[ACPI_HMAT_NTYPES] = { "access_latency", "read_latency", "write_latency",
							     "access_bandwidth", "read_bandwidth", "write_bandwidth" };
	return data_type < ACPI_HMAT_NTYPES ? names[data_type] : NULL;
}

int acpi_hmat_claims_for(const struct acpi_hmat *h, uint32_t target, struct acpi_hmat_claim *out, int max)
{
	int n = 0;
	for (uint32_t i = 0; h && i < h->n && n < max; i++)
		if (h->claim[i].target == target)
			out[n++] = h->claim[i];
	return n;
}
