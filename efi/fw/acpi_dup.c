/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * acpi_dup: what differs between a parsed table and a duplicate of it (efi/fw/acpi_dup.h).
 *
 * The two tables are compared byte by byte through one layout per signature (a data table of
 * named fields at their spec offsets): the System Description Table header (ACPI 6.5 5.2.6),
 * the fixed fields of the table, and for MCFG its repeated 16-byte allocations. A named field
 * that differs is listed with both values; differing bytes outside every named field (entry
 * lists such as MADT's interrupt controller structures) are listed as one byte range under the
 * layout's name for the rest.
 */
#include <string.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_common.h"
#include "efi/fw/acpi_dup.h"
#include "arch/lib/fmt.h"
#include "arch/lib/le.h"

enum field_kind { F_NUM, F_TEXT, F_SKIP };

struct field {
	uint16_t off;
	uint8_t len;                     /* F_NUM: at most 8 */
	uint8_t kind;                    /* enum field_kind */
	const char *name;
};

struct layout {
	char sig[ACPI_SIG_LEN + 1];
	const struct field *fields;      /* fixed fields after the header */
	unsigned nfields;
	uint16_t entry_off;              /* repeated fixed-size entries from here (0: none) */
	uint8_t entry_len;
	const struct field *entry;       /* offsets inside one entry */
	unsigned nentry;
	const char *entry_name;          /* "allocation" -> "allocation[2].end_bus" */
	const char *rest;                /* name of the bytes no field covers */
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ACPI 6.5 5.2.6 table 5.4; the Checksum differs whenever anything else does: not listed. */
static const struct field header[] = {
	{ 4, 4, F_NUM, "length" },        { 8, 1, F_NUM, "revision" },
	{ 9, 1, F_SKIP, "checksum" },     { 10, 6, F_TEXT, "oem_id" },
	{ 16, 8, F_TEXT, "oem_table_id" },{ 24, 4, F_NUM, "oem_revision" },
	{ 28, 4, F_TEXT, "creator_id" },  { 32, 4, F_NUM, "creator_revision" },
};

/* PCI Firmware Specification 3.3 table 4-3: one MCFG allocation. */
static const struct field mcfg_alloc[] = {
	{ 0, 8, F_NUM, "base_address" }, { 8, 2, F_NUM, "segment" },
	{ 10, 1, F_NUM, "start_bus" },   { 11, 1, F_NUM, "end_bus" },
};

/* IA-PC HPET Specification 1.0a table 3; BASE_ADDRESS is a Generic Address Structure
 * (ACPI 6.5 5.2.3.2: Space ID, Bit Width, Bit Offset, Access Size, Address). */
static const struct field hpet[] = {
	{ 36, 4, F_NUM, "event_timer_block_id" },   { 40, 1, F_NUM, "base_address.space_id" },
	{ 41, 1, F_NUM, "base_address.bit_width" }, { 42, 1, F_NUM, "base_address.bit_offset" },
	{ 43, 1, F_NUM, "base_address.access_size" },{ 44, 8, F_NUM, "base_address.address" },
	{ 52, 1, F_NUM, "hpet_number" },            { 53, 2, F_NUM, "min_clock_tick" },
	{ 55, 1, F_NUM, "page_protection" },
};

/* ACPI 6.5 5.2.12 table 5.43. */
static const struct field madt[] = {
	{ 36, 4, F_NUM, "local_interrupt_controller_address" }, { 40, 4, F_NUM, "flags" },
};

/* ACPI 6.5 5.2.9 table 5.9: the fields efiperf reads or that name other tables. */
static const struct field fadt[] = {
	{ 36, 4, F_NUM, "firmware_ctrl" },  { 40, 4, F_NUM, "dsdt" },
	{ 45, 1, F_NUM, "preferred_pm_profile" }, { 46, 2, F_NUM, "sci_int" },
	{ 48, 4, F_NUM, "smi_cmd" },        { 56, 4, F_NUM, "pm1a_evt_blk" },
	{ 64, 4, F_NUM, "pm1a_cnt_blk" },   { 76, 4, F_NUM, "pm_tmr_blk" },
	{ 91, 1, F_NUM, "pm_tmr_len" },     { 109, 2, F_NUM, "iapc_boot_arch" },
	{ 112, 4, F_NUM, "flags" },         { 131, 1, F_NUM, "fadt_minor_version" },
	{ 132, 8, F_NUM, "x_firmware_ctrl" },{ 140, 8, F_NUM, "x_dsdt" },
	{ 212, 8, F_NUM, "x_pm_tmr_blk.address" },
};

/* ACPI 6.5 5.2.17 table 5.70. */
static const struct field slit[] = {
	{ 36, 8, F_NUM, "number_of_system_localities" },
};

static const struct layout layouts[] = {
	{ "MCFG", NULL, 0, 44, 16, mcfg_alloc, N(mcfg_alloc), "allocation", "other_bytes" },
	{ "HPET", hpet, N(hpet), 0, 0, NULL, 0, NULL, "other_bytes" },
	{ "APIC", madt, N(madt), 0, 0, NULL, 0, NULL, "structures" },
	{ "FACP", fadt, N(fadt), 0, 0, NULL, 0, NULL, "other_fields" },
	{ "SLIT", slit, N(slit), 0, 0, NULL, 0, NULL, "distances" },
	{ "SRAT", NULL, 0, 0, 0, NULL, 0, NULL, "structures" },
	{ "APMT", NULL, 0, 0, 0, NULL, 0, NULL, "nodes" },
};
static const struct layout any_table = { "", NULL, 0, 0, 0, NULL, 0, NULL, "other_bytes" };

#define NUM_MAX_BYTES 8
#define ABSENT "absent"
#define PRESENT "present"

struct side { const uint8_t *p; uint32_t len; };

static void value(char *buf, const struct side *s, uint32_t off, const struct field *f)
{
	if (off + f->len > s->len) {
		fmt_snprintf(buf, ACPI_DUP_VALUE_LEN, ABSENT);
		return;
	}
	if (f->kind == F_TEXT) {
		unsigned n = f->len < ACPI_DUP_VALUE_LEN - 1 ? f->len : ACPI_DUP_VALUE_LEN - 1;
		for (unsigned i = 0; i < n; i++) {
			uint8_t c = s->p[off + i];
			buf[i] = acpi_printable(c) ? (char)c : '?';
		}
		buf[n] = '\0';
		return;
	}
	uint64_t v = 0;
	for (unsigned i = f->len; i-- > 0;)
		v = v << 8 | s->p[off + i];
	fmt_snprintf(buf, ACPI_DUP_VALUE_LEN, "0x%llx", (unsigned long long)v);
}

static struct acpi_dup_field *next_diff(struct acpi_dup *d, uint32_t *fields_dropped)
{
	if (d->ndiff++ < ACPI_DUP_FIELDS)
		return &d->diff[d->ndiff - 1];
	(*fields_dropped)++;
	return NULL;
}

/* Compares field f at table offset off; lists it when it differs (or is in one table only). */
static void compare(struct acpi_dup *d, const struct side *u, const struct side *o, uint32_t off,
		    const struct field *f, const char *prefix, uint32_t index, uint32_t *dropped)
{
	if (f->kind == F_SKIP)
		return;
	int in_u = off + f->len <= u->len, in_o = off + f->len <= o->len;
	if (!in_u && !in_o)
		return;
	if (in_u && in_o && memcmp(u->p + off, o->p + off, f->len) == 0)
		return;
	struct acpi_dup_field *df = next_diff(d, dropped);
	if (!df)
		return;
	if (prefix)
		fmt_snprintf(df->name, sizeof(df->name), "%s[%u].%s", prefix, index, f->name);
	else
		fmt_snprintf(df->name, sizeof(df->name), "%s", f->name);
	value(df->used, u, off, f);
	value(df->other, o, off, f);
}

static int covers(const struct field *f, unsigned n, uint32_t rel)
{
	for (unsigned i = 0; i < n; i++)
		if (rel >= f[i].off && rel < (uint32_t)f[i].off + f[i].len)
			return 1;
	return 0;
}

/* Byte i is reported by a named field (or, past the shorter table in the entry area, by the
 * "present" / "absent" line of a whole entry). */
static int named(const struct layout *l, uint32_t i, uint32_t minlen)
{
	if (covers(header, N(header), i) || covers(l->fields, l->nfields, i))
		return 1;
	if (!l->entry_len || i < l->entry_off)
		return 0;
	return i >= minlen || covers(l->entry, l->nentry, (i - l->entry_off) % l->entry_len);
}

/* Entry e of the layout's repeated entries: field by field when both tables hold it, else one
 * line saying which table has it. */
static void compare_entry(struct acpi_dup *d, const struct layout *l, const struct side *u,
			  const struct side *o, uint32_t e, uint32_t *dropped)
{
	uint32_t off = l->entry_off + e * l->entry_len, end = off + l->entry_len;
	if (end <= u->len && end <= o->len) {
		for (unsigned i = 0; i < l->nentry; i++)
			compare(d, u, o, off + l->entry[i].off, &l->entry[i], l->entry_name, e, dropped);
		return;
	}
	struct acpi_dup_field *df = next_diff(d, dropped);
	if (!df)
		return;
	fmt_snprintf(df->name, sizeof(df->name), "%s[%u]", l->entry_name, e);
	fmt_snprintf(df->used, sizeof(df->used), end <= u->len ? PRESENT : ABSENT);
	fmt_snprintf(df->other, sizeof(df->other), end <= o->len ? PRESENT : ABSENT);
}

void acpi_dup_diff(const uint8_t *used, uint32_t ulen, const uint8_t *other, uint32_t olen,
		   struct acpi_dup *d, uint32_t *fields_dropped)
{
	const struct layout *l = &any_table;
	for (size_t k = 0; k < N(layouts); k++)
		if (memcmp(d->sig, layouts[k].sig, ACPI_SIG_LEN) == 0)
			l = &layouts[k];
	struct side u = { used, ulen }, o = { other, olen };
	uint32_t maxlen = ulen > olen ? ulen : olen, minlen = ulen + olen - maxlen;

	for (size_t i = 0; i < N(header); i++)
		compare(d, &u, &o, header[i].off, &header[i], NULL, 0, fields_dropped);
	for (unsigned i = 0; i < l->nfields; i++)
		compare(d, &u, &o, l->fields[i].off, &l->fields[i], NULL, 0, fields_dropped);
	if (l->entry_len)
		for (uint32_t e = 0; l->entry_off + (e + 1) * l->entry_len <= maxlen; e++)
			compare_entry(d, l, &u, &o, e, fields_dropped);

	/* Differing bytes no field names, including the tail only the longer table has. */
	uint32_t first = maxlen, last = 0;
	for (uint32_t i = 0; i < maxlen; i++) {
		if (named(l, i, minlen))
			continue;
		if (i < ulen && i < olen && used[i] == other[i])
			continue;
		if (first == maxlen)
			first = i;
		last = i;
	}
	if (first == maxlen)
		return;
	struct acpi_dup_field *df = next_diff(d, fields_dropped);
	if (df)
		fmt_snprintf(df->name, sizeof(df->name), "%s @0x%x-0x%x", l->rest, first, last);
}

void acpi_json_dups(const struct acpi_info *a, struct json *j)
{
	json_arr(j, "duplicates");
	for (uint32_t i = 0; i < a->ndups && i < ACPI_MAX_DUPS; i++) {
		const struct acpi_dup *d = &a->dup[i];
		json_obj(j, NULL);
		json_str(j, "sig", d->sig);
		json_hex(j, "used", d->used);
		json_hex(j, "other", d->other);
		json_u64(j, "used_entry", d->used_entry);
		json_u64(j, "other_entry", d->other_entry);
		json_str(j, "why", d->why);
		json_bool(j, "identical", d->ndiff == 0);
		json_arr(j, "differences");
		for (uint32_t k = 0; k < d->ndiff && k < ACPI_DUP_FIELDS; k++) {
			const struct acpi_dup_field *f = &d->diff[k];
			json_obj(j, NULL);
			json_str(j, "field", f->name);
			json_str(j, "used", f->used[0] ? f->used : NULL);
			json_str(j, "other", f->other[0] ? f->other : NULL);
			json_close(j);
		}
		json_close(j);
		json_u64(j, "differences_not_listed", d->ndiff > ACPI_DUP_FIELDS ? d->ndiff - ACPI_DUP_FIELDS : 0);
		json_close(j);
	}
	json_close(j);
}
