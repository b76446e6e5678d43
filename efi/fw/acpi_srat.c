/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SRAT (System Resource Affinity Table), ACPI 6.5 section 5.2.16: which proximity domain each
 * enabled CPU and each enabled memory range belongs to.
 *
 * Table revision 1 (the SRAT of ACPI 2.0) has 8-bit proximity domains: the Processor Local
 * APIC/SAPIC Affinity structure's Proximity Domain is the byte at offset 2 (bytes 9..11 were
 * reserved), the Memory Affinity structure's the byte at offset 2 (bytes 3..5 were reserved).
 * ACPI 3.0 (SRAT revision 2) widened both to 32 bits in place. So for a revision below 2 only the
 * low 8 bits are read, as Linux does (drivers/acpi/numa/srat.c: acpi_srat_revision), and
 * entries whose reserved upper bytes are not zero are counted (domain_upper_ignored).
 */
#include <string.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_common.h"
#include "efi/fw/acpi_parsers.h"
#include "arch/lib/le.h"

/* 5.2.16: Reserved u32 @36 (1, for compatibility), Reserved u64 @40, structures from @48. */
#define SRAT_OFF_ENTRIES      48
#define SRAT_ENTRY_HDR        2

#define SRAT_TYPE_LAPIC       0      /* 5.2.16.1 Processor Local APIC/SAPIC Affinity */
#define SRAT_TYPE_MEMORY      1      /* 5.2.16.2 Memory Affinity */
#define SRAT_TYPE_X2APIC      2      /* 5.2.16.3 Processor Local x2APIC Affinity */
#define SRAT_TYPE_GICC        3      /* 5.2.16.4 GICC Affinity */

/* 5.2.16.1: Proximity Domain[7:0] @2, APIC ID @3, Flags @4, Proximity Domain[31:8] @9. */
#define LAPIC_AFF_OFF_DOM_LO  2
#define LAPIC_AFF_OFF_ID      3
#define LAPIC_AFF_OFF_FLAGS   4
#define LAPIC_AFF_OFF_DOM_HI  9
#define LAPIC_AFF_LEN         16
/* 5.2.16.2: Proximity Domain @2, Base @8 (low, high), Length @16 (low, high), Flags @28. */
#define MEM_AFF_OFF_DOM       2
#define MEM_AFF_OFF_BASE      8
#define MEM_AFF_OFF_LENGTH    16
#define MEM_AFF_OFF_FLAGS     28
#define MEM_AFF_LEN           40
/* 5.2.16.3: Proximity Domain @4, x2APIC ID @8, Flags @12. */
#define X2APIC_AFF_OFF_DOM    4
#define X2APIC_AFF_OFF_ID     8
#define X2APIC_AFF_OFF_FLAGS  12
#define X2APIC_AFF_LEN        24
/* 5.2.16.4: Proximity Domain @2, ACPI Processor UID @6, Flags @10. */
#define GICC_AFF_OFF_DOM      2
#define GICC_AFF_OFF_UID      6
#define GICC_AFF_OFF_FLAGS    10
#define GICC_AFF_LEN          18

#define SRAT_F_ENABLED        (1u << 0)   /* bit 0 Enabled, in every structure above */

#define SRAT_REV_DOMAIN32     2            /* ACPI 3.0: first revision with 32-bit domains */
#define SRAT_DOMAIN8_MASK     0xFFu        /* ACPI 2.0: Proximity Domain is one byte */
#define SRAT_DOMAIN_BITS_OLD  8
#define SRAT_DOMAIN_BITS      32

static void add_cpu(struct acpi_srat *s, uint32_t flags, uint32_t id, uint32_t dom, uint8_t kind)
{
	if (!(flags & SRAT_F_ENABLED)) {
		s->cpu_disabled++;
		return;
	}
	if (s->ncpu >= ACPI_MAX_SRAT_CPUS) {
		s->cpu_dropped++;
		return;
	}
	struct acpi_srat_cpu c = { .id = id, .domain = dom, .kind = kind };
	s->cpu[s->ncpu++] = c;
}

/* A 32-bit proximity domain as the table's revision defines it (see the top of this file). */
static uint32_t domain(struct acpi_srat *s, uint32_t dom)
{
	if (s->domain_bits == SRAT_DOMAIN_BITS)
		return dom;
	if (dom & ~SRAT_DOMAIN8_MASK)
		s->domain_upper_ignored++;
	return dom & SRAT_DOMAIN8_MASK;
}

static void add_mem(struct acpi_srat *s, const uint8_t *e, uint32_t off)
{
	uint32_t flags = le32(e + MEM_AFF_OFF_FLAGS);
	if (!(flags & SRAT_F_ENABLED)) {
		s->mem_disabled++;
		return;
	}
	if (s->nmem >= ACPI_MAX_SRAT_MEM) {
		s->mem_dropped++;
		return;
	}
	struct acpi_srat_mem m = {
		.base = le64(e + MEM_AFF_OFF_BASE), .length = le64(e + MEM_AFF_OFF_LENGTH),
		.domain = domain(s, le32(e + MEM_AFF_OFF_DOM)), .flags = flags,
	};
	/* the last byte, base + length - 1, must not wrap past 2^64 - 1: such a range is no memory */
	if (m.length && m.base + (m.length - 1) < m.base) {
		acpi_set_defect(s->defect, "memory affinity at 0x%x: base 0x%llx + length 0x%llx wraps past 2^64, skipped",
				off, (unsigned long long)m.base, (unsigned long long)m.length);
		return;
	}
	s->mem[s->nmem++] = m;
}

void acpi_parse_srat(const uint8_t *t, uint32_t len, struct acpi_srat *s)
{
	s->present = 1;
	s->revision = t[ACPI_HDR_OFF_REVISION];
	s->domain_bits = s->revision < SRAT_REV_DOMAIN32 ? SRAT_DOMAIN_BITS_OLD : SRAT_DOMAIN_BITS;
	if (len < SRAT_OFF_ENTRIES) {
		acpi_set_defect(s->defect, "length %u < %u", len, SRAT_OFF_ENTRIES);
		return;
	}
	/* Every step advances by Length >= 2 or stops: the walk is bounded by len / 2 steps. */
	for (uint32_t off = SRAT_OFF_ENTRIES; off < len;) {
		const uint8_t *e = t + off;
		if (len - off < SRAT_ENTRY_HDR) {
			acpi_set_defect(s->defect, "entry at 0x%x: header truncated", off);
			return;
		}
		uint8_t type = e[0], elen = e[1];
		if (elen < SRAT_ENTRY_HDR) {
			acpi_set_defect(s->defect, "entry at 0x%x type %u: length %u stops the walk",
					off, type, elen);
			return;
		}
		if (elen > len - off) {
			acpi_set_defect(s->defect, "entry at 0x%x type %u: length %u runs past the end %u",
					off, type, elen, len);
			return;
		}
		unsigned need = type == SRAT_TYPE_LAPIC ? LAPIC_AFF_LEN : type == SRAT_TYPE_MEMORY ?
				MEM_AFF_LEN : type == SRAT_TYPE_X2APIC ? X2APIC_AFF_LEN :
				type == SRAT_TYPE_GICC ? GICC_AFF_LEN : SRAT_ENTRY_HDR;
		if (elen < need) {
			acpi_set_defect(s->defect, "entry at 0x%x type %u: length %u < %u, skipped",
					off, type, elen, need);
		} else if (type == SRAT_TYPE_LAPIC) {
			uint32_t dom = e[LAPIC_AFF_OFF_DOM_LO] | (uint32_t)e[LAPIC_AFF_OFF_DOM_HI] << 8 |
				       (uint32_t)e[LAPIC_AFF_OFF_DOM_HI + 1] << 16 |
				       (uint32_t)e[LAPIC_AFF_OFF_DOM_HI + 2] << 24;
			add_cpu(s, le32(e + LAPIC_AFF_OFF_FLAGS), e[LAPIC_AFF_OFF_ID], domain(s, dom),
				ACPI_CPU_LAPIC);
		} else if (type == SRAT_TYPE_MEMORY) {
			add_mem(s, e, off);
		} else if (type == SRAT_TYPE_X2APIC) {
			add_cpu(s, le32(e + X2APIC_AFF_OFF_FLAGS), le32(e + X2APIC_AFF_OFF_ID),
				le32(e + X2APIC_AFF_OFF_DOM), ACPI_CPU_X2APIC);
		} else if (type == SRAT_TYPE_GICC) {
			add_cpu(s, le32(e + GICC_AFF_OFF_FLAGS), le32(e + GICC_AFF_OFF_UID),
				le32(e + GICC_AFF_OFF_DOM), ACPI_CPU_GICC);
		} else {
			s->other++;
		}
		off += elen;
	}
}

static const char *const kind_key[] = { "apic", "x2apic", "uid" };

void acpi_json_srat(const struct acpi_srat *s, struct json *j)
{
	if (!s->present) {
		json_null(j, "srat");
		return;
	}
	json_obj(j, "srat");
	json_u64(j, "revision", s->revision);
	json_u64(j, "domain_bits", s->domain_bits);
	json_u64(j, "domain_upper_ignored", s->domain_upper_ignored);
	/* [id, domain] pairs; the id is an APIC ID, x2APIC ID or (GICC) ACPI Processor UID. */
	json_str(j, "cpu_id", s->ncpu ? kind_key[s->cpu[0].kind % 3] : NULL);
	json_arr(j, "cpus");
	for (uint32_t i = 0; i < s->ncpu && i < ACPI_MAX_SRAT_CPUS; i++) {
		json_arr(j, NULL);
		json_u64(j, NULL, s->cpu[i].id);
		json_u64(j, NULL, s->cpu[i].domain);
		json_close(j);
	}
	json_close(j);
	json_u64(j, "cpus_disabled", s->cpu_disabled);
	json_arr(j, "memory");
	for (uint32_t i = 0; i < s->nmem && i < ACPI_MAX_SRAT_MEM; i++) {
		json_obj(j, NULL);
		json_hex(j, "base", s->mem[i].base);
		json_hex(j, "length", s->mem[i].length);
		json_u64(j, "domain", s->mem[i].domain);
		json_hex(j, "flags", s->mem[i].flags);
		json_close(j);
	}
	json_close(j);
	json_u64(j, "memory_disabled", s->mem_disabled);
	if (s->cpu_dropped || s->mem_dropped) {
		json_u64(j, "cpus_dropped", s->cpu_dropped);
		json_u64(j, "memory_dropped", s->mem_dropped);
	}
	json_u64(j, "other", s->other);
	acpi_json_defect(j, s->defect);
	json_close(j);
}
