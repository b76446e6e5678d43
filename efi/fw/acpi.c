/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * acpi: RSDP -> XSDT (or RSDT) -> table list, validation of every table, dispatch to the
 * per-table parsers (efi/fw/acpi_madt.c, acpi_srat.c, acpi_misc.c, acpi_apmt.c). Spec: ACPI 6.5
 * chapter 5.2 ("ACPI System Description Tables").
 */
#include <stddef.h>
#include <string.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_common.h"
#include "efi/fw/acpi_dup.h"
#include "efi/fw/acpi_parsers.h"
#include "arch/lib/fmt.h"
#include "arch/lib/le.h"

/* ACPI 6.5 5.2.5.3: Root System Description Pointer structure. */
#define RSDP_SIG            "RSD PTR "
#define RSDP_SIG_LEN        8
#define RSDP_OFF_OEMID      9
#define RSDP_OFF_REVISION   15
#define RSDP_OFF_RSDT       16
#define RSDP_OFF_LENGTH     20
#define RSDP_OFF_XSDT       24
#define RSDP_V1_LEN         20    /* the ACPI 1.0 checksum covers these bytes */
#define RSDP_V2_LEN         36    /* size of the revision 2 structure */
#define RSDP_REV_EXTENDED   2     /* revision >= 2: Length, XsdtAddress, Extended Checksum */

/* ACPI 6.5 5.2.6: System Description Table header. */
#define HDR_OFF_LENGTH      4
#define HDR_OFF_REVISION    8
#define HDR_OFF_OEMID       10
#define HDR_OFF_OEMTABLEID  16
#define OEMID_LEN           6
#define OEMTABLEID_LEN      8

/* ACPI 6.5 5.2.7 (RSDT: 32-bit entries) and 5.2.8 (XSDT: 64-bit entries) after the header. */
#define RSDT_ENTRY_LEN      4
#define XSDT_ENTRY_LEN      8

/* Copies an OEM string field: non-printable bytes become '?', trailing blanks and NULs go. */
static void copy_ident(char *dst, const uint8_t *src, size_t n)
{
	size_t end = 0;
	for (size_t i = 0; i < n; i++) {
		dst[i] = acpi_printable(src[i]) ? (char)src[i] : '?';
		if (src[i] != ' ' && src[i] != 0)
			end = i + 1;
	}
	dst[end] = '\0';
}

/*
 * Validates the table at addr into t (ACPI 6.5 5.2.6: header, Length, checksum over Length
 * bytes) and returns its mapped bytes, or NULL with t->defect set.
 */
static const uint8_t *validate(const struct physmem *pm, uint64_t addr, struct acpi_table *t)
{
	memset(t, 0, sizeof(*t));
	t->addr = addr;
	const uint8_t *h = physmem_map(pm, addr, ACPI_HEADER_LEN);
	if (!h) {
		acpi_set_defect(t->defect, "not mappable at 0x%llx", (unsigned long long)addr);
		return NULL;
	}
	for (int i = 0; i < ACPI_SIG_LEN; i++)
		t->sig[i] = acpi_printable(h[i]) ? (char)h[i] : '?';
	t->length = le32(h + HDR_OFF_LENGTH);
	t->revision = h[HDR_OFF_REVISION];
	copy_ident(t->oem_id, h + HDR_OFF_OEMID, OEMID_LEN);
	copy_ident(t->oem_table_id, h + HDR_OFF_OEMTABLEID, OEMTABLEID_LEN);
	for (int i = 0; i < ACPI_SIG_LEN; i++)
		if (!acpi_printable(h[i])) {
			acpi_set_defect(t->defect, "signature not printable");
			return NULL;
		}
	if (t->length < ACPI_HEADER_LEN) {
		acpi_set_defect(t->defect, "length %u < header %u", t->length, ACPI_HEADER_LEN);
		return NULL;
	}
	if (t->length > ACPI_MAX_TABLE_LEN) {
		acpi_set_defect(t->defect, "length %u > limit %u", t->length, ACPI_MAX_TABLE_LEN);
		return NULL;
	}
	const uint8_t *p = physmem_map(pm, addr, t->length);
	if (!p) {
		acpi_set_defect(t->defect, "length %u not mappable at 0x%llx", t->length,
				(unsigned long long)addr);
		return NULL;
	}
	uint8_t sum = byte_sum(p, t->length);
	if (sum) {
		acpi_set_defect(t->defect, "checksum 0x%02x != 0", sum);
		return NULL;
	}
	t->valid = 1;
	return p;
}

static int rsdp_check(const struct physmem *pm, uint64_t addr, struct acpi_info *a)
{
	const uint8_t *r = physmem_map(pm, addr, RSDP_V1_LEN);
	if (!r) {
		acpi_set_defect(a->defect, "RSDP not mappable at 0x%llx", (unsigned long long)addr);
		return -1;
	}
	if (memcmp(r, RSDP_SIG, RSDP_SIG_LEN) != 0) {
		acpi_set_defect(a->defect, "RSDP signature is not \"RSD PTR \"");
		return -1;
	}
	uint8_t sum = byte_sum(r, RSDP_V1_LEN);
	if (sum) {
		acpi_set_defect(a->defect, "RSDP checksum 0x%02x != 0", sum);
		return -1;
	}
	a->rsdp_revision = r[RSDP_OFF_REVISION];
	copy_ident(a->oem_id, r + RSDP_OFF_OEMID, OEMID_LEN);
	a->rsdt_addr = le32(r + RSDP_OFF_RSDT);
	if (a->rsdp_revision < RSDP_REV_EXTENDED)
		return 0;
	r = physmem_map(pm, addr, RSDP_V2_LEN);
	if (!r) {
		acpi_set_defect(a->defect, "RSDP revision %u: %u bytes not mappable",
				a->rsdp_revision, RSDP_V2_LEN);
		return -1;
	}
	uint32_t len = le32(r + RSDP_OFF_LENGTH);
	if (len < RSDP_V2_LEN || len > ACPI_MAX_TABLE_LEN) {
		acpi_set_defect(a->defect, "RSDP length %u outside %u..%u", len, RSDP_V2_LEN,
				ACPI_MAX_TABLE_LEN);
		return -1;
	}
	r = physmem_map(pm, addr, len);
	if (!r) {
		acpi_set_defect(a->defect, "RSDP length %u not mappable", len);
		return -1;
	}
	sum = byte_sum(r, len);
	if (sum) {
		acpi_set_defect(a->defect, "RSDP extended checksum 0x%02x != 0", sum);
		return -1;
	}
	a->xsdt_addr = le64(r + RSDP_OFF_XSDT);
	return 0;
}

/* Validates the root table at addr as signature sig; returns its bytes or NULL with why. */
static const uint8_t *root_table(const struct physmem *pm, uint64_t addr, const char *sig,
				 struct acpi_table *t)
{
	const uint8_t *p = validate(pm, addr, t);
	if (p && memcmp(t->sig, sig, ACPI_SIG_LEN) != 0) {
		acpi_set_defect(t->defect, "signature \"%s\" != \"%s\"", t->sig, sig);
		p = NULL;
	}
	return p;
}

typedef void (*table_parser)(const uint8_t *t, uint32_t len, struct acpi_info *a);

static void p_mcfg(const uint8_t *t, uint32_t len, struct acpi_info *a) { acpi_parse_mcfg(t, len, a); }
static void p_madt(const uint8_t *t, uint32_t len, struct acpi_info *a) { acpi_parse_madt(t, len, &a->madt); }
static void p_srat(const uint8_t *t, uint32_t len, struct acpi_info *a) { acpi_parse_srat(t, len, &a->srat); }
static void p_fadt(const uint8_t *t, uint32_t len, struct acpi_info *a) { acpi_parse_fadt(t, len, &a->fadt); }
static void p_hpet(const uint8_t *t, uint32_t len, struct acpi_info *a) { acpi_parse_hpet(t, len, &a->hpet); }
static void p_slit(const uint8_t *t, uint32_t len, struct acpi_info *a) { acpi_parse_slit(t, len, &a->slit); }
static void p_apmt(const uint8_t *t, uint32_t len, struct acpi_info *a) { acpi_parse_apmt(t, len, &a->apmt); }
static void p_pptt(const uint8_t *t, uint32_t len, struct acpi_info *a) { acpi_parse_pptt(t, len, &a->pptt); }
static void p_cedt(const uint8_t *t, uint32_t len, struct acpi_info *a) { acpi_parse_cedt(t, len, &a->cedt); }
static void p_hmat(const uint8_t *t, uint32_t len, struct acpi_info *a) { acpi_parse_hmat(t, len, &a->hmat); }

/* ACPI 6.5 5.2.6: signatures of tables ACPI defines and reserves; APMT: ARM DEN0117; CEDT: CXL 3.1
 * 9.18.1. */
static const struct { char sig[ACPI_SIG_LEN + 1]; table_parser parse; } parsers[] = {
	{ "MCFG", p_mcfg }, { "APIC", p_madt }, { "SRAT", p_srat }, { "FACP", p_fadt },
	{ "HPET", p_hpet }, { "SLIT", p_slit }, { "APMT", p_apmt }, { "PPTT", p_pptt },
	{ "CEDT", p_cedt }, { "HMAT", p_hmat },
};
#define NPARSERS (sizeof(parsers) / sizeof(parsers[0]))

/* Describes t, a valid table with the signature of the parsed table a->table[first]. */
static void note_duplicate(const struct physmem *pm, struct acpi_info *a, uint32_t first,
			   uint32_t second)
{
	const struct acpi_table *u = &a->table[first], *o = &a->table[second];
	if (a->ndups >= ACPI_MAX_DUPS) {
		a->dups_dropped++;
		return;
	}
	struct acpi_dup *d = &a->dup[a->ndups++];
	memset(d, 0, sizeof(*d));
	memcpy(d->sig, u->sig, sizeof(d->sig));
	d->used = u->addr;
	d->other = o->addr;
	d->used_entry = first;
	d->other_entry = second;
	fmt_snprintf(d->why, sizeof(d->why), "first valid %s in %s order", u->sig,
		     a->root ? a->root : "root table");
	/* Both mapped again: validate() proved each window maps and sums to 0. */
	const uint8_t *pu = physmem_map(pm, u->addr, u->length);
	const uint8_t *po = physmem_map(pm, o->addr, o->length);
	if (pu && po)
		acpi_dup_diff(pu, u->length, po, o->length, d, &a->dup_fields_dropped);
}

static void dispatch(const struct physmem *pm, struct acpi_info *a)
{
	uint32_t first[NPARSERS] = { 0 };
	int seen[NPARSERS] = { 0 };
	for (uint32_t i = 0; i < a->ntables; i++) {
		struct acpi_table *t = &a->table[i];
		if (!t->valid)
			continue;
		for (size_t k = 0; k < NPARSERS; k++) {
			if (memcmp(t->sig, parsers[k].sig, ACPI_SIG_LEN) != 0)
				continue;
			if (seen[k]) {
				acpi_set_defect(t->defect, "duplicate of 0x%llx: not parsed",
						(unsigned long long)a->table[first[k]].addr);
				note_duplicate(pm, a, first[k], i);
				break;
			}
			/* Mapped again: validate() proved this window maps and sums to 0. */
			const uint8_t *p = physmem_map(pm, t->addr, t->length);
			if (!p)
				break;
			seen[k] = 1;
			first[k] = i;
			t->parsed = 1;
			parsers[k].parse(p, t->length, a);
			break;
		}
	}
}

/* Every counter (each a uint32_t) of things that went beyond a fixed limit, by its name. */
#define COUNTER(member) offsetof(struct acpi_info, member)
static const struct {
	size_t counter;
	const char *limit;
	uint32_t max;
	const char *what;
} limits[] = {
	{ COUNTER(tables_dropped), "ACPI_MAX_TABLES", ACPI_MAX_TABLES, "root table entries" },
	{ COUNTER(mcfg_dropped), "ACPI_MAX_MCFG", ACPI_MAX_MCFG, "MCFG allocations" },
	{ COUNTER(madt.cpu_dropped), "ACPI_MAX_CPU_IDS", ACPI_MAX_CPU_IDS, "enabled MADT CPU ids" },
	{ COUNTER(srat.cpu_dropped), "ACPI_MAX_SRAT_CPUS", ACPI_MAX_SRAT_CPUS, "enabled SRAT CPU entries" },
	{ COUNTER(srat.mem_dropped), "ACPI_MAX_SRAT_MEM", ACPI_MAX_SRAT_MEM, "enabled SRAT memory ranges" },
	{ COUNTER(apmt.dropped), "ACPI_MAX_APMT", ACPI_MAX_APMT, "APMT nodes" },
	{ COUNTER(pptt.cpu_dropped), "ACPI_MAX_CPU_IDS", ACPI_MAX_CPU_IDS, "PPTT processors" },
	{ COUNTER(cedt.chbs_dropped), "ACPI_MAX_CEDT_CHBS", ACPI_MAX_CEDT_CHBS, "CEDT host bridges" },
	{ COUNTER(cedt.cfmws_dropped), "ACPI_MAX_CEDT_CFMWS", ACPI_MAX_CEDT_CFMWS, "CEDT fixed memory windows" },
	{ COUNTER(dups_dropped), "ACPI_MAX_DUPS", ACPI_MAX_DUPS, "duplicate tables described" },
	{ COUNTER(dup_fields_dropped), "ACPI_DUP_FIELDS", ACPI_DUP_FIELDS, "differing fields listed" },
};
_Static_assert(sizeof(limits) / sizeof(limits[0]) <= ACPI_MAX_LIMITS, "ACPI_MAX_LIMITS too small");

static void collect_limits(struct acpi_info *a)
{
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		uint32_t n;
		memcpy(&n, (const uint8_t *)a + limits[i].counter, sizeof(n));
		if (!n)
			continue;
		struct acpi_limit l = { limits[i].limit, limits[i].max, n, limits[i].what };
		a->limit[a->nlimits++] = l;
	}
}

int acpi_parse(const struct physmem *pm, uint64_t rsdp_addr, struct acpi_info *a)
{
	memset(a, 0, sizeof(*a));
	if (rsdp_check(pm, rsdp_addr, a) != 0)
		return -1;

	const uint8_t *root = NULL;
	unsigned entry = XSDT_ENTRY_LEN;
	struct acpi_table t;
	if (a->xsdt_addr) {
		root = root_table(pm, a->xsdt_addr, "XSDT", &t);
		a->root = "XSDT";
		if (!root)
			acpi_set_defect(a->root_note, "XSDT at 0x%llx: %s; trying the RSDT",
					(unsigned long long)a->xsdt_addr, t.defect);
	} else {
		/* ACPI 6.5 5.2.5.3: an OS uses the XSDT when present; the RSDT is ACPI 1.0's. */
		acpi_set_defect(a->root_note, "no XSDT (RSDP revision %u): using the RSDT",
				a->rsdp_revision);
	}
	if (!root) {
		a->root = NULL;
		if (!a->rsdt_addr) {
			acpi_set_defect(a->root_note, "no RSDT either");
			return 0;
		}
		root = root_table(pm, a->rsdt_addr, "RSDT", &t);
		if (!root) {
			/* The note keeps the first reason; the RSDT's defect is appended. */
			char first[ACPI_DEFECT_LEN];
			memcpy(first, a->root_note, sizeof(first));
			fmt_snprintf(a->root_note, sizeof(a->root_note), "%s; RSDT: %s", first,
				     t.defect);
			return 0;
		}
		entry = RSDT_ENTRY_LEN;
		a->root = "RSDT";
	}
	uint32_t len = le32(root + HDR_OFF_LENGTH);
	uint32_t n = (len - ACPI_HEADER_LEN) / entry;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *e = root + ACPI_HEADER_LEN + (uint64_t)i * entry;
		uint64_t addr = entry == XSDT_ENTRY_LEN ? le64(e) : le32(e);
		if (a->ntables >= ACPI_MAX_TABLES) {
			a->tables_dropped++;
			continue;
		}
		struct acpi_table *t = &a->table[a->ntables++];
		if (!addr) {
			memset(t, 0, sizeof(*t));
			acpi_set_defect(t->defect, "null entry %u", i);
			continue;
		}
		validate(pm, addr, t);
	}
	dispatch(pm, a);
	collect_limits(a);
	return 0;
}

const struct acpi_table *acpi_find(const struct acpi_info *a, const char *sig)
{
	for (uint32_t i = 0; i < a->ntables && i < ACPI_MAX_TABLES; i++)
		if (a->table[i].valid && memcmp(a->table[i].sig, sig, ACPI_SIG_LEN) == 0)
			return &a->table[i];
	return NULL;
}

void acpi_to_json(const struct acpi_info *a, struct json *j)
{
	json_obj(j, "rsdp");
	json_u64(j, "revision", a->rsdp_revision);
	json_str(j, "oem", a->oem_id);
	json_hex(j, "rsdt", a->rsdt_addr);
	json_hex(j, "xsdt", a->xsdt_addr);
	json_str(j, "root", a->root);
	if (a->root_note[0])
		json_str(j, "note", a->root_note);
	if (a->defect[0])
		json_str(j, "defect", a->defect);
	json_close(j);

	json_arr(j, "tables");
	for (uint32_t i = 0; i < a->ntables && i < ACPI_MAX_TABLES; i++) {
		const struct acpi_table *t = &a->table[i];
		json_obj(j, NULL);
		json_str(j, "sig", t->sig);
		json_hex(j, "addr", t->addr);
		json_u64(j, "length", t->length);
		json_u64(j, "revision", t->revision);
		json_str(j, "oem_id", t->oem_id);
		json_str(j, "oem_table_id", t->oem_table_id);
		json_bool(j, "valid", t->valid);
		json_bool(j, "parsed", t->parsed);
		acpi_json_defect(j, t->defect);
		json_close(j);
	}
	json_close(j);
	if (a->tables_dropped)
		json_u64(j, "tables_dropped", a->tables_dropped);

	acpi_json_mcfg(a, j);
	acpi_json_madt(&a->madt, j);
	acpi_json_srat(&a->srat, j);
	acpi_json_fadt(&a->fadt, j);
	acpi_json_hpet(&a->hpet, j);
	acpi_json_slit(&a->slit, j);
	acpi_json_apmt(&a->apmt, j);
	acpi_json_pptt(&a->pptt, j);
	acpi_json_cedt(&a->cedt, j);
	acpi_json_hmat(&a->hmat, j);
	acpi_json_dups(a, j);

	json_arr(j, "limits");
	for (uint32_t i = 0; i < a->nlimits && i < ACPI_MAX_LIMITS; i++) {
		json_obj(j, NULL);
		json_str(j, "limit", a->limit[i].limit);
		json_u64(j, "max", a->limit[i].max);
		json_u64(j, "not_kept", a->limit[i].not_kept);
		json_str(j, "what", a->limit[i].what);
		json_close(j);
	}
	json_close(j);
}
