/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CEDT parser (CXL 3.1 section 9.18.1): see efi/fw/acpi_cedt.h. Byte offsets are those of
 * CXL 3.1 Table 9-21 (CEDT structure header), Table 9-22 (CHBS) and Table 9-23 (CFMWS); the
 * same layout is in ACPICA's actbl1.h (struct acpi_cedt_chbs/cfmws), which iasl's decoding in
 * the tests comes from.
 */
#include <string.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_cedt.h"
#include "efi/fw/acpi_common.h"
#include "arch/lib/le.h"

/* 9.18.1.1: every structure starts with Type (1), Reserved (1), Record Length (2). */
#define CEDT_OFF_STRUCTS        ACPI_HEADER_LEN
#define CEDT_S_TYPE             0x00
#define CEDT_S_LENGTH           0x02
#define CEDT_S_HDR_LEN          4

enum { CEDT_CHBS = 0, CEDT_CFMWS = 1, CEDT_CXIMS = 2, CEDT_RDPAS = 3, CEDT_CSDS = 4 };

/* Table 9-22 CHBS: 32 bytes. */
#define CHBS_OFF_UID            0x04
#define CHBS_OFF_VERSION        0x08
#define CHBS_OFF_BASE           0x10
#define CHBS_OFF_LENGTH         0x18
#define CHBS_LEN                0x20

/* Table 9-23 CFMWS: 36 bytes + 4 per interleave target. */
#define CFMWS_OFF_BASE          0x08
#define CFMWS_OFF_SIZE          0x10
#define CFMWS_OFF_ENIW          0x18
#define CFMWS_OFF_ARITH         0x19
#define CFMWS_OFF_HBIG          0x1C
#define CFMWS_OFF_RESTRICT      0x20
#define CFMWS_OFF_QTG           0x22
#define CFMWS_OFF_TARGETS       0x24
#define CFMWS_TARGET_LEN        4
/* Table 9-23: Base HPA 256 MiB aligned; Window Size a multiple of ways * 256 MiB. */
#define CFMWS_ALIGN             (256ull << 20)

/* ENIW: 0..4 = 1, 2, 4, 8, 16 ways; 8..10 = 3, 6, 12 ways (CXL 3.1 Table 9-23). */
#define ENIW_POW2_MAX           4
#define ENIW_X3_FIRST           8
#define ENIW_X3_LAST            10
#define WAYS_X3                 3
/* HBIG (and the HDM decoders' IG): 0..6 = 256 B .. 16 KiB. */
#define GRAN_BASE               256u
#define GRAN_ENC_MAX            6

uint32_t cedt_interleave_ways(uint8_t eniw)
{
	if (eniw <= ENIW_POW2_MAX)
		return 1u << eniw;
	if (eniw >= ENIW_X3_FIRST && eniw <= ENIW_X3_LAST)
		return WAYS_X3 << (eniw - ENIW_X3_FIRST);
	return 0;
}

uint32_t cedt_granularity(uint32_t hbig)
{
	return hbig <= GRAN_ENC_MAX ? GRAN_BASE << hbig : 0;
}

const struct acpi_cedt_chbs *cedt_find_chbs(const struct acpi_cedt *c, uint32_t uid)
{
	for (uint32_t i = 0; i < c->nchbs && i < ACPI_MAX_CEDT_CHBS; i++)
		if (c->chbs[i].uid == uid)
			return &c->chbs[i];
	return NULL;
}

static void parse_chbs(const uint8_t *e, uint32_t off, uint16_t slen, struct acpi_cedt *c)
{
	if (slen < CHBS_LEN) {
		acpi_set_defect(c->defect, "CHBS at 0x%x: length %u < %u", off, slen, CHBS_LEN);
		return;
	}
	if (c->nchbs >= ACPI_MAX_CEDT_CHBS) {
		c->chbs_dropped++;
		return;
	}
	c->chbs[c->nchbs++] = (struct acpi_cedt_chbs){
		.uid = le32(e + CHBS_OFF_UID), .version = le32(e + CHBS_OFF_VERSION),
		.base = le64(e + CHBS_OFF_BASE), .length = le64(e + CHBS_OFF_LENGTH),
	};
}

static void parse_cfmws(const uint8_t *e, uint32_t off, uint16_t slen, struct acpi_cedt *c)
{
	if (slen < CFMWS_OFF_TARGETS) {
		acpi_set_defect(c->defect, "CFMWS at 0x%x: length %u < %u", off, slen, CFMWS_OFF_TARGETS);
		return;
	}
	if (c->ncfmws >= ACPI_MAX_CEDT_CFMWS) {
		c->cfmws_dropped++;
		return;
	}
	struct acpi_cedt_cfmws *w = &c->cfmws[c->ncfmws++];
	memset(w, 0, sizeof(*w));
	w->record_length = slen;
	w->base = le64(e + CFMWS_OFF_BASE);
	w->size = le64(e + CFMWS_OFF_SIZE);
	w->eniw = e[CFMWS_OFF_ENIW];
	w->ways = cedt_interleave_ways(w->eniw);
	w->arithmetic = e[CFMWS_OFF_ARITH];
	w->hbig = le32(e + CFMWS_OFF_HBIG);
	w->granularity = cedt_granularity(w->hbig);
	w->restrictions = le16(e + CFMWS_OFF_RESTRICT);
	w->qtg_id = le16(e + CFMWS_OFF_QTG);
	uint32_t listed = (uint32_t)(slen - CFMWS_OFF_TARGETS) / CFMWS_TARGET_LEN;
	w->ntargets = listed < ACPI_CEDT_MAX_TARGETS ? listed : ACPI_CEDT_MAX_TARGETS;
	for (uint32_t k = 0; k < w->ntargets; k++)
		w->target[k] = le32(e + CFMWS_OFF_TARGETS + k * CFMWS_TARGET_LEN);
	if (!w->ways)
		acpi_set_defect(w->defect, "ENIW %u is reserved", w->eniw);
	else if (slen != CFMWS_OFF_TARGETS + w->ways * CFMWS_TARGET_LEN)
		acpi_set_defect(w->defect, "record length %u != %u for %u interleave ways", slen,
				CFMWS_OFF_TARGETS + w->ways * CFMWS_TARGET_LEN, w->ways);
	if (!w->granularity)
		acpi_set_defect(w->defect, "HBIG %u is reserved", w->hbig);
	if (w->base % CFMWS_ALIGN)
		acpi_set_defect(w->defect, "base 0x%llx is not 256 MiB aligned", (unsigned long long)w->base);
	else if (w->ways && (!w->size || w->size % (CFMWS_ALIGN * w->ways)))
		acpi_set_defect(w->defect, "size 0x%llx is not a non-zero multiple of %u x 256 MiB",
				(unsigned long long)w->size, w->ways);
	else if (w->base + w->size < w->base)
		acpi_set_defect(w->defect, "window 0x%llx + 0x%llx wraps", (unsigned long long)w->base,
				(unsigned long long)w->size);
}

/* After the walk, when every CHBS is known: name each CFMWS target that is no host bridge. */
static void resolve_targets(struct acpi_cedt *c)
{
	for (uint32_t i = 0; i < c->ncfmws && i < ACPI_MAX_CEDT_CFMWS; i++) {
		struct acpi_cedt_cfmws *w = &c->cfmws[i];
		for (uint32_t k = 0; k < w->ntargets; k++) {
			const struct acpi_cedt_chbs *h = cedt_find_chbs(c, w->target[k]);
			w->target_chbs[k] = h ? (int)(h - c->chbs) : -1;
			if (!h)
				acpi_set_defect(w->defect, "target %u: _UID 0x%x is no CHBS host bridge", k,
						w->target[k]);
		}
	}
}

void acpi_parse_cedt(const uint8_t *t, uint32_t len, struct acpi_cedt *c)
{
	memset(c, 0, sizeof(*c));
	c->present = 1;
	c->revision = t[ACPI_HDR_OFF_REVISION];
	/* Every step advances by a Record Length >= 4 or stops: bounded by len / 4. */
	for (uint32_t off = CEDT_OFF_STRUCTS; off < len;) {
		const uint8_t *e = t + off;
		if (len - off < CEDT_S_HDR_LEN) {
			acpi_set_defect(c->defect, "structure at 0x%x: %u bytes left < header %u", off, len - off,
					CEDT_S_HDR_LEN);
			break;
		}
		uint8_t type = e[CEDT_S_TYPE];
		uint16_t slen = le16(e + CEDT_S_LENGTH);
		if (slen < CEDT_S_HDR_LEN) {
			acpi_set_defect(c->defect, "structure at 0x%x: length %u stops the walk", off, slen);
			break;
		}
		if (slen > len - off) {
			acpi_set_defect(c->defect, "structure at 0x%x: length %u runs past the end %u", off, slen, len);
			break;
		}
		if (type < ACPI_CEDT_NTYPES)
			c->ntype[type]++;
		else
			c->nreserved++;
		if (type == CEDT_CHBS)
			parse_chbs(e, off, slen, c);
		else if (type == CEDT_CFMWS)
			parse_cfmws(e, off, slen, c);
		off += slen;
	}
	resolve_targets(c);
}

static const char *const restriction_name[] = {
	"device_coherent", "host_only_coherent", "volatile", "persistent", "fixed_config",
};

void acpi_json_cedt(const struct acpi_cedt *c, struct json *j)
{
	if (!c->present) {
		json_null(j, "cedt");
		return;
	}
	json_obj(j, "cedt");
	json_u64(j, "revision", c->revision);
	json_arr(j, "chbs");
	for (uint32_t i = 0; i < c->nchbs && i < ACPI_MAX_CEDT_CHBS; i++) {
		const struct acpi_cedt_chbs *h = &c->chbs[i];
		json_obj(j, NULL);
		json_hex(j, "uid", h->uid);
		json_u64(j, "cxl_version", h->version);
		json_str(j, "kind", h->version == CEDT_CHBS_VERSION_RCH ? "RCRB (CXL 1.1)" :
			 h->version == CEDT_CHBS_VERSION_CXL2 ? "component registers (CXL 2.0+)" : "reserved");
		json_hex(j, "base", h->base);
		json_hex(j, "length", h->length);
		json_close(j);
	}
	json_close(j);
	json_arr(j, "cfmws");
	for (uint32_t i = 0; i < c->ncfmws && i < ACPI_MAX_CEDT_CFMWS; i++) {
		const struct acpi_cedt_cfmws *w = &c->cfmws[i];
		json_obj(j, NULL);
		json_hex(j, "base", w->base);
		json_hex(j, "size", w->size);
		json_u64(j, "eniw", w->eniw);
		json_u64(j, "ways", w->ways);
		json_str(j, "arithmetic", w->arithmetic == 0 ? "modulo" : w->arithmetic == 1 ? "xor" : "reserved");
		json_u64(j, "hbig", w->hbig);
		json_u64(j, "granularity", w->granularity);
		json_hex(j, "restrictions", w->restrictions);
		json_arr(j, "restriction_names");
		for (unsigned b = 0; b < sizeof(restriction_name) / sizeof(restriction_name[0]); b++)
			if (w->restrictions & (1u << b))
				json_str(j, NULL, restriction_name[b]);
		json_close(j);
		json_u64(j, "qtg_id", w->qtg_id);
		json_arr(j, "targets");
		for (uint32_t k = 0; k < w->ntargets; k++)
			json_hex(j, NULL, w->target[k]);
		json_close(j);
		acpi_json_defect(j, w->defect);
		json_close(j);
	}
	json_close(j);
	json_obj(j, "structures");
	static const char *const tname[ACPI_CEDT_NTYPES] = { "chbs", "cfmws", "cxims", "rdpas", "csds" };
	for (unsigned k = 0; k < ACPI_CEDT_NTYPES; k++)
		json_u64(j, tname[k], c->ntype[k]);
	json_u64(j, "reserved", c->nreserved);
	json_close(j);
	if (c->chbs_dropped || c->cfmws_dropped) {
		json_u64(j, "chbs_dropped", c->chbs_dropped);
		json_u64(j, "cfmws_dropped", c->cfmws_dropped);
	}
	acpi_json_defect(j, c->defect);
	json_close(j);
}
