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
	uint32_t s = len >= SLLBI_LISTS ? le32(e + SLLBI_NINIT) : 0, t = len >= SLLBI_LISTS ? le32(e + SLLBI_NTARGET) : 0;
	/* s x t bounded by len first, so the arithmetic below cannot wrap */
	uint64_t need = s > len || t > len || (t && s > len / t) ? ~0ull : SLLBI_LISTS + 4ull * s + 4ull * t + 2ull * s * t;
	if (len < SLLBI_LISTS || need > len) {
		if (!h->defect[0])
			fmt_snprintf(h->defect, sizeof(h->defect), "latency/bandwidth structure of %u bytes: %u x %u domains do not fit",
				     len, s, t);
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
			if (!h->defect[0])   /* the first defect is the one named */
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

void acpi_hmat_claims_json(struct json *j, const char *key, const struct acpi_hmat_claim *c, int n)
{
	json_arr(j, key);
	for (int i = 0; i < n; i++) {
		json_obj(j, NULL);
		json_u64(j, "initiator", c[i].initiator);
		json_u64(j, "target", c[i].target);
		json_str(j, "claim", acpi_hmat_type_name(c[i].data_type));
		json_u64(j, "value", c[i].value);
		json_str(j, "unit", c[i].data_type < ACPI_HMAT_NTYPES / 2 ? "ps" : "MB/s");
		json_close(j);
	}
	json_close(j);
}

void acpi_hmat_compare_json(struct json *j, const char *key, const char *key_why, const struct acpi_hmat *h,
			    int32_t initiator, int32_t target, const uint64_t measured[ACPI_HMAT_NTYPES])
{
	const char *why = !h || !h->present ? "the firmware has no HMAT"
			  : target < 0 ? "the memory has no SRAT proximity domain: no HMAT claim can name it"
			  : initiator < 0 ? "the measuring CPU has no SRAT proximity domain" : NULL;
	if (why) {
		json_null(j, key);
		json_str(j, key_why, why);
		return;
	}
	int claimed[ACPI_HMAT_NTYPES] = { 0 };
	json_obj(j, key);
	json_u64(j, "initiator", (uint32_t)initiator);
	json_u64(j, "target", (uint32_t)target);
	json_arr(j, "claims");
	for (uint32_t i = 0; i < h->n; i++) {
		const struct acpi_hmat_claim *c = &h->claim[i];
		if (c->initiator != (uint32_t)initiator || c->target != (uint32_t)target)
			continue;
		uint64_t m = measured[c->data_type];
		claimed[c->data_type] = 1;
		json_obj(j, NULL);
		json_str(j, "claim", acpi_hmat_type_name(c->data_type));
		json_u64(j, "claimed", c->value);
		if (m) {
			json_u64(j, "measured", m);
		} else {
			json_null(j, "measured");
		}
		json_str(j, "unit", c->data_type < ACPI_HMAT_NTYPES / 2 ? "ps" : "MB/s");
		if (m && c->value && m <= ~0ull / 1000)
			json_milli(j, "fraction", m * 1000 / c->value);
		else
			json_null(j, "fraction");
		json_close(j);
	}
	json_close(j);
	json_arr(j, "missing");
	for (uint8_t t = 0; t < ACPI_HMAT_NTYPES; t++)
		if (measured[t] && !claimed[t])
			json_str(j, NULL, acpi_hmat_type_name(t));
	json_close(j);
	json_close(j);
}

void acpi_json_hmat(const struct acpi_hmat *h, struct json *j)
{
	if (!h->present) {
		json_null(j, "hmat");
		return;
	}
	json_obj(j, "hmat");
	acpi_hmat_claims_json(j, "claims", h->claim, (int)h->n);
	json_u64(j, "dropped", h->dropped);
	json_str(j, "defect", h->defect[0] ? h->defect : NULL);
	json_close(j);
}
