/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smbios: entry points (DSP0134 SMBIOS 3.7 section 5.2), the bounded structure-table walk
 * (6.1) and the JSON record. Field decoding is in efi/smbios_fields.c.
 */
#include <string.h>

#include "arch/lib/fmt.h"
#include "arch/lib/le.h"
#include "efi/fw/smbios_internal.h"

/* 5.2.2 table 2: SMBIOS 3.0 (64-bit) entry point. */
#define EP3_ANCHOR          "_SM3_"
#define EP3_ANCHOR_LEN      5
#define EP3_OFF_LEN         0x06
#define EP3_OFF_MAJOR       0x07
#define EP3_OFF_MINOR       0x08
#define EP3_OFF_DOCREV      0x09
#define EP3_OFF_MAX_SIZE    0x0C
#define EP3_OFF_ADDRESS     0x10
#define EP3_LEN             0x18

/* 5.2.1 table 1: SMBIOS 2.1 (32-bit) entry point with its intermediate "_DMI_" anchor. */
#define EP2_ANCHOR          "_SM_"
#define EP2_ANCHOR_LEN      4
#define EP2_OFF_LEN         0x05
#define EP2_OFF_MAJOR       0x06
#define EP2_OFF_MINOR       0x07
#define EP2_OFF_DMI         0x10
#define EP2_DMI_ANCHOR      "_DMI_"
#define EP2_DMI_ANCHOR_LEN  5
#define EP2_OFF_TABLE_LEN   0x16
#define EP2_OFF_ADDRESS     0x18
#define EP2_OFF_COUNT       0x1C
#define EP2_DMI_LEN         15     /* the intermediate checksum covers 0x10..0x1E */
#define EP2_LEN             0x1F
#define EP2_LEN_QUIRK       0x1E   /* 2.1 spec text said 0x1E; firmware of that era uses it */

/* 7.45 End-of-Table (type 127). */
#define TYPE_END_OF_TABLE   127

/* Structure tables beyond this are refused before mapping (real ones are a few KiB). */
#define SMBIOS_MAX_TABLE    (16u << 20)

static int entry_v3(const struct physmem *pm, uint64_t ep, struct smbios_info *s)
{
	const uint8_t *e = physmem_map(pm, ep, EP3_LEN);
	if (!e) {
		fmt_snprintf(s->defect, sizeof(s->defect), "_SM3_ entry point: %u bytes not mappable",
			     EP3_LEN);
		return -1;
	}
	uint8_t len = e[EP3_OFF_LEN];
	if (len < EP3_LEN || !(e = physmem_map(pm, ep, len))) {
		fmt_snprintf(s->defect, sizeof(s->defect), "_SM3_ entry point length %u bad", len);
		return -1;
	}
	uint8_t sum = byte_sum(e, len);
	if (sum) {
		fmt_snprintf(s->defect, sizeof(s->defect), "_SM3_ checksum 0x%02x != 0", sum);
		return -1;
	}
	s->entry = EP3_ANCHOR;
	s->major = e[EP3_OFF_MAJOR];
	s->minor = e[EP3_OFF_MINOR];
	s->docrev = e[EP3_OFF_DOCREV];
	s->table_len = le32(e + EP3_OFF_MAX_SIZE);
	s->table_addr = le64(e + EP3_OFF_ADDRESS);
	return 0;
}

static int entry_v2(const struct physmem *pm, uint64_t ep, struct smbios_info *s)
{
	const uint8_t *e = physmem_map(pm, ep, EP2_LEN_QUIRK);
	if (!e) {
		fmt_snprintf(s->defect, sizeof(s->defect), "_SM_ entry point: %u bytes not mappable",
			     EP2_LEN_QUIRK);
		return -1;
	}
	uint8_t len = e[EP2_OFF_LEN];
	if (len < EP2_LEN_QUIRK || !(e = physmem_map(pm, ep, len < EP2_LEN ? EP2_LEN : len))) {
		fmt_snprintf(s->defect, sizeof(s->defect), "_SM_ entry point length %u bad", len);
		return -1;
	}
	uint8_t sum = byte_sum(e, len);
	if (sum) {
		fmt_snprintf(s->defect, sizeof(s->defect), "_SM_ checksum 0x%02x != 0", sum);
		return -1;
	}
	if (memcmp(e + EP2_OFF_DMI, EP2_DMI_ANCHOR, EP2_DMI_ANCHOR_LEN) != 0) {
		fmt_snprintf(s->defect, sizeof(s->defect), "_SM_ entry point: no _DMI_ anchor");
		return -1;
	}
	sum = byte_sum(e + EP2_OFF_DMI, EP2_DMI_LEN);
	if (sum) {
		fmt_snprintf(s->defect, sizeof(s->defect), "_DMI_ checksum 0x%02x != 0", sum);
		return -1;
	}
	s->entry = EP2_ANCHOR;
	s->major = e[EP2_OFF_MAJOR];
	s->minor = e[EP2_OFF_MINOR];
	s->table_len = le16(e + EP2_OFF_TABLE_LEN);
	s->table_addr = le32(e + EP2_OFF_ADDRESS);
	s->declared_structs = le16(e + EP2_OFF_COUNT);
	return 0;
}

/* 6.1.3: the string-set after the formatted area ends with a double NUL. Returns the index
 * just past it, or 0 when it does not end within [from, end). */
static uint32_t strings_end(const uint8_t *t, uint32_t from, uint32_t end)
{
	for (uint32_t i = from; i + 1 < end; i++)
		if (t[i] == 0 && t[i + 1] == 0)
			return i + 2;
	return 0;
}

static void walk(const uint8_t *t, struct smbios_info *s)
{
	uint32_t len = s->table_len;
	/* Each step advances by >= SMBIOS_HDR_LEN + 2 bytes or stops: bounded by len / 6. */
	for (uint32_t off = 0; off < len;) {
		if (s->declared_structs && s->nstructs >= s->declared_structs)
			return;          /* 2.1: the entry point's structure count is reached */
		if (len - off < SMBIOS_HDR_LEN) {
			smbios_defect(s, "structure at 0x%x: header truncated (%u bytes left)", off,
				      len - off);
			return;
		}
		uint8_t type = t[off], flen = t[off + 1];
		if (flen < SMBIOS_HDR_LEN) {
			smbios_defect(s, "structure at 0x%x type %u: length %u < %u stops the walk",
				      off, type, flen, SMBIOS_HDR_LEN);
			return;
		}
		if (flen > len - off) {
			smbios_defect(s, "structure at 0x%x type %u: length %u runs past the table",
				      off, type, flen);
			return;
		}
		uint32_t next = strings_end(t, off + flen, len);
		if (!next) {
			smbios_defect(s, "structure at 0x%x type %u: strings never terminate", off,
				      type);
			return;
		}
		s->nstructs++;
		smbios_decode(s, t + off, flen, t + off + flen, next - (off + flen));
		if (type == TYPE_END_OF_TABLE) {
			s->end_found = 1;
			return;
		}
		off = next;
	}
}

int smbios_parse(const struct physmem *pm, uint64_t ep, struct smbios_info *s)
{
	memset(s, 0, sizeof(*s));
	const uint8_t *a = physmem_map(pm, ep, EP2_ANCHOR_LEN);
	int rc;
	if (a && physmem_map(pm, ep, EP3_ANCHOR_LEN) && memcmp(a, EP3_ANCHOR, EP3_ANCHOR_LEN) == 0)
		rc = entry_v3(pm, ep, s);
	else if (a && memcmp(a, EP2_ANCHOR, EP2_ANCHOR_LEN) == 0)
		rc = entry_v2(pm, ep, s);
	else {
		fmt_snprintf(s->defect, sizeof(s->defect), "no _SM3_ or _SM_ anchor at 0x%llx",
			     (unsigned long long)ep);
		rc = -1;
	}
	if (rc)
		return rc;
	if (s->table_len > SMBIOS_MAX_TABLE) {
		smbios_defect(s, "table length %u > limit %u", s->table_len, SMBIOS_MAX_TABLE);
		return 0;
	}
	if (s->table_len == 0) {
		smbios_defect(s, "table length 0");
		return 0;
	}
	const uint8_t *t = physmem_map(pm, s->table_addr, s->table_len);
	if (!t) {
		smbios_defect(s, "table at 0x%llx length %u not mappable",
			      (unsigned long long)s->table_addr, s->table_len);
		return 0;
	}
	walk(t, s);
	if (s->declared_structs && s->nstructs < s->declared_structs && s->ndefects == 0 &&
	    !s->end_found)
		smbios_defect(s, "%u of %u structures before the table length ran out", s->nstructs,
			      s->declared_structs);
	return 0;
}

void smbios_to_json(const struct smbios_info *s, struct json *j)
{
	char ver[16];
	fmt_snprintf(ver, sizeof(ver), "%u.%u", s->major, s->minor);
	json_str(j, "entry", s->entry);
	json_str(j, "version", s->entry ? ver : NULL);
	json_hex(j, "table_addr", s->table_addr);
	json_u64(j, "table_len", s->table_len);
	json_u64(j, "structures", s->nstructs);
	if (s->defect[0])
		json_str(j, "defect", s->defect);
	if (s->bios.present) {
		json_obj(j, "bios");
		json_str(j, "vendor", s->bios.vendor);
		json_str(j, "version", s->bios.version);
		json_str(j, "date", s->bios.date);
		json_close(j);
	}
	if (s->system.present) {
		json_obj(j, "system");
		json_str(j, "manufacturer", s->system.manufacturer);
		json_str(j, "product", s->system.product);
		json_str(j, "version", s->system.version);
		json_str(j, "serial", s->system.serial);
		json_str(j, "uuid", s->system.uuid);
		json_close(j);
	}
	if (s->board.present) {
		json_obj(j, "baseboard");
		json_str(j, "manufacturer", s->board.manufacturer);
		json_str(j, "product", s->board.product);
		json_str(j, "serial", s->board.serial);
		json_close(j);
	}
	json_u64(j, "processors", s->nprocs_total);
	json_arr(j, "processor");
	for (uint32_t i = 0; i < s->nprocs && i < SMBIOS_MAX_PROCS; i++) {
		json_obj(j, NULL);
		json_str(j, "socket", s->proc[i].socket);
		json_str(j, "manufacturer", s->proc[i].manufacturer);
		json_str(j, "version", s->proc[i].version);
		json_u64(j, "max_mhz", s->proc[i].max_mhz);
		json_u64(j, "current_mhz", s->proc[i].current_mhz);
		json_close(j);
	}
	json_close(j);
	json_obj(j, "memory");
	json_u64(j, "devices", s->mem.devices);
	json_u64(j, "populated", s->mem.populated);
	json_u64(j, "total_mib", s->mem.total_mib);
	json_u64(j, "unknown_size", s->mem.unknown_size);
	json_u64(j, "speed_mts", s->mem.speed_mts);
	json_u64(j, "configured_mts", s->mem.configured_mts);
	json_close(j);
	json_arr(j, "defects");
	for (uint32_t i = 0; i < s->ndefects && i < SMBIOS_MAX_DEFECTS; i++)
		json_str(j, NULL, s->defects[i]);
	json_close(j);
	if (s->defects_dropped)
		json_u64(j, "defects_dropped", s->defects_dropped);
}
