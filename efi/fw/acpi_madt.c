/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * MADT (signature "APIC"), ACPI 6.5 section 5.2.12: counts the processor structures (Local
 * APIC, x2APIC, GICC) by their flags and keeps the ids of the enabled ones, for the CPU count
 * cross-check against the firmware's MP services.
 */
#include <string.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_common.h"
#include "efi/fw/acpi_parsers.h"
#include "arch/lib/le.h"

/* ACPI 6.5 5.2.12: Local Interrupt Controller Address @36, Flags @40, structures @44. */
#define MADT_OFF_LAPIC_ADDR   36
#define MADT_OFF_FLAGS        40
#define MADT_OFF_ENTRIES      44
#define MADT_ENTRY_HDR        2      /* Type, Length */

/* ACPI 6.5 5.2.12 "Interrupt Controller Structure Types". */
#define MADT_TYPE_LAPIC       0x0
#define MADT_TYPE_X2APIC      0x9
#define MADT_TYPE_GICC        0xB

/* 5.2.12.2 Processor Local APIC Structure: UID @2, APIC ID @3, Flags @4; length 8. */
#define LAPIC_OFF_UID         2
#define LAPIC_OFF_ID          3
#define LAPIC_OFF_FLAGS       4
#define LAPIC_LEN             8
/* 5.2.12.12 Processor Local x2APIC Structure: x2APIC ID @4, Flags @8, UID @12; length 16. */
#define X2APIC_OFF_ID         4
#define X2APIC_OFF_FLAGS      8
#define X2APIC_OFF_UID        12
#define X2APIC_LEN            16
/* 5.2.12.14 GIC CPU Interface (GICC) Structure: UID @8, Flags @12, MPIDR @68; 80 bytes in ACPI 6.0, 82 since
 * 6.3. MPIDR is the last field this parser needs. */
#define GICC_OFF_UID          8
#define GICC_OFF_FLAGS        12
#define GICC_OFF_MPIDR        68
#define GICC_MIN_LEN          (GICC_OFF_MPIDR + 8)

/* 5.2.12.2 "Local APIC Flags" (x2APIC uses them too): Enabled bit 0, Online Capable bit 1.
 * 5.2.12.14 "GICC CPU Interface Flags": Enabled bit 0, Online Capable bit 3 (ACPI 6.5). */
#define LAPIC_F_ENABLED         (1u << 0)
#define LAPIC_F_ONLINE_CAPABLE  (1u << 1)
#define GICC_F_ENABLED          (1u << 0)
#define GICC_F_ONLINE_CAPABLE   (1u << 3)

static void count_cpu(struct acpi_madt *m, struct acpi_madt_count *c, uint32_t flags,
		      uint32_t f_enabled, uint32_t f_online, uint8_t kind, uint64_t id,
		      uint32_t uid)
{
	if (flags & f_enabled) {
		c->enabled++;
		if (m->ncpu < ACPI_MAX_CPU_IDS) {
			struct acpi_cpu_id e = { .id = id, .uid = uid, .kind = kind };
			m->cpu[m->ncpu++] = e;
		} else {
			m->cpu_dropped++;
		}
	} else if (flags & f_online) {
		c->online_capable++;
	} else {
		c->disabled++;
	}
}

void acpi_parse_madt(const uint8_t *t, uint32_t len, struct acpi_madt *m)
{
	m->present = 1;
	if (len < MADT_OFF_ENTRIES) {
		acpi_set_defect(m->defect, "length %u < %u", len, MADT_OFF_ENTRIES);
		return;
	}
	m->lapic_addr = le32(t + MADT_OFF_LAPIC_ADDR);
	m->flags = le32(t + MADT_OFF_FLAGS);
	/* Every step advances by Length >= 2 or stops: the walk ends within len / 2 steps. */
	for (uint32_t off = MADT_OFF_ENTRIES; off < len;) {
		const uint8_t *e = t + off;
		if (len - off < MADT_ENTRY_HDR) {
			acpi_set_defect(m->defect, "entry at 0x%x: header truncated", off);
			return;
		}
		uint8_t type = e[0], elen = e[1];
		if (elen < MADT_ENTRY_HDR) {
			acpi_set_defect(m->defect, "entry at 0x%x type 0x%x: length %u stops the walk",
					off, type, elen);
			return;
		}
		if (elen > len - off) {
			acpi_set_defect(m->defect, "entry at 0x%x type 0x%x: length %u runs past the end %u",
					off, type, elen, len);
			return;
		}
		unsigned need = type == MADT_TYPE_LAPIC ? LAPIC_LEN : type == MADT_TYPE_X2APIC ?
				X2APIC_LEN : type == MADT_TYPE_GICC ? GICC_MIN_LEN : MADT_ENTRY_HDR;
		if (elen < need) {
			acpi_set_defect(m->defect, "entry at 0x%x type 0x%x: length %u < %u, skipped",
					off, type, elen, need);
		} else if (type == MADT_TYPE_LAPIC) {
			count_cpu(m, &m->lapic, le32(e + LAPIC_OFF_FLAGS), LAPIC_F_ENABLED,
				  LAPIC_F_ONLINE_CAPABLE, ACPI_CPU_LAPIC, e[LAPIC_OFF_ID],
				  e[LAPIC_OFF_UID]);
		} else if (type == MADT_TYPE_X2APIC) {
			count_cpu(m, &m->x2apic, le32(e + X2APIC_OFF_FLAGS), LAPIC_F_ENABLED,
				  LAPIC_F_ONLINE_CAPABLE, ACPI_CPU_X2APIC, le32(e + X2APIC_OFF_ID),
				  le32(e + X2APIC_OFF_UID));
		} else if (type == MADT_TYPE_GICC) {
			count_cpu(m, &m->gicc, le32(e + GICC_OFF_FLAGS), GICC_F_ENABLED,
				  GICC_F_ONLINE_CAPABLE, ACPI_CPU_GICC, le64(e + GICC_OFF_MPIDR),
				  le32(e + GICC_OFF_UID));
		} else {
			m->other++;
		}
		off += elen;
	}
}

static void json_count(struct json *j, const char *key, const struct acpi_madt_count *c)
{
	json_obj(j, key);
	json_u64(j, "enabled", c->enabled);
	json_u64(j, "online_capable", c->online_capable);
	json_u64(j, "disabled", c->disabled);
	json_close(j);
}

void acpi_json_madt(const struct acpi_madt *m, struct json *j)
{
	if (!m->present) {
		json_null(j, "madt");
		return;
	}
	json_obj(j, "madt");
	json_hex(j, "lapic_addr", m->lapic_addr);
	json_hex(j, "flags", m->flags);
	json_count(j, "lapic", &m->lapic);
	json_count(j, "x2apic", &m->x2apic);
	json_count(j, "gicc", &m->gicc);
	json_u64(j, "other", m->other);
	json_u64(j, "enabled_cpus", (uint64_t)m->lapic.enabled + m->x2apic.enabled + m->gicc.enabled);
	/* APIC / x2APIC IDs and MPIDRs of the enabled CPUs, in table order. */
	json_arr(j, "cpu_ids");
	for (uint32_t i = 0; i < m->ncpu && i < ACPI_MAX_CPU_IDS; i++)
		json_hex(j, NULL, m->cpu[i].id);
	json_close(j);
	if (m->cpu_dropped)
		json_u64(j, "cpu_ids_dropped", m->cpu_dropped);
	acpi_json_defect(j, m->defect);
	json_close(j);
}
