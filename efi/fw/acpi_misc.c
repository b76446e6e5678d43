/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Small fixed-layout ACPI tables: MCFG (PCI Firmware Specification 3.3 section 4.1.2, listed in
 * ACPI 6.5 5.2.6), FADT (ACPI 6.5 5.2.9), HPET (IA-PC HPET Specification 1.0a section
 * 3.2.4, listed in ACPI 6.5 5.2.6) and SLIT (ACPI 6.5 5.2.17).
 */
#include <string.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_common.h"
#include "efi/fw/acpi_parsers.h"
#include "arch/lib/le.h"

/* PCI Firmware 3.3 table 4-2: 8 reserved bytes after the header, then 16-byte allocations
 * (table 4-3): Base Address u64 @0, PCI Segment Group u16 @8, Start Bus @10, End Bus @11. */
#define MCFG_OFF_ALLOC      44
#define MCFG_ALLOC_LEN      16
#define MCFG_A_SEGMENT      8
#define MCFG_A_START_BUS    10
#define MCFG_A_END_BUS      11

void acpi_parse_mcfg(const uint8_t *t, uint32_t len, struct acpi_info *a)
{
	a->mcfg_present = 1;
	if (len < MCFG_OFF_ALLOC) {
		acpi_set_defect(a->mcfg_defect, "length %u < %u", len, MCFG_OFF_ALLOC);
		return;
	}
	if ((len - MCFG_OFF_ALLOC) % MCFG_ALLOC_LEN)
		acpi_set_defect(a->mcfg_defect, "%u stray bytes after the allocations",
				(len - MCFG_OFF_ALLOC) % MCFG_ALLOC_LEN);
	for (uint32_t off = MCFG_OFF_ALLOC; len - off >= MCFG_ALLOC_LEN; off += MCFG_ALLOC_LEN) {
		const uint8_t *e = t + off;
		struct acpi_mcfg_seg s = {
			.base = le64(e), .segment = le16(e + MCFG_A_SEGMENT),
			.start_bus = e[MCFG_A_START_BUS], .end_bus = e[MCFG_A_END_BUS],
		};
		if (s.end_bus < s.start_bus) {
			a->mcfg_rejected++;
			acpi_set_defect(a->mcfg_defect, "segment %u: end bus 0x%02x < start bus 0x%02x",
					s.segment, s.end_bus, s.start_bus);
			continue;
		}
		if (a->nmcfg >= ACPI_MAX_MCFG) {
			a->mcfg_dropped++;
			continue;
		}
		a->mcfg[a->nmcfg++] = s;
	}
}

void acpi_json_mcfg(const struct acpi_info *a, struct json *j)
{
	json_arr(j, "mcfg");
	for (uint32_t i = 0; i < a->nmcfg && i < ACPI_MAX_MCFG; i++) {
		json_obj(j, NULL);
		json_hex(j, "base", a->mcfg[i].base);
		json_u64(j, "segment", a->mcfg[i].segment);
		json_u64(j, "start_bus", a->mcfg[i].start_bus);
		json_u64(j, "end_bus", a->mcfg[i].end_bus);
		json_close(j);
	}
	json_close(j);
	if (a->mcfg_rejected || a->mcfg_dropped || a->mcfg_defect[0]) {
		json_obj(j, "mcfg_defects");
		json_u64(j, "rejected", a->mcfg_rejected);
		json_u64(j, "dropped", a->mcfg_dropped);
		acpi_json_defect(j, a->mcfg_defect);
		json_close(j);
	}
}

/* ACPI 6.5 5.2.3.2: Generic Address Structure, 12 bytes. */
#define GAS_LEN             12
#define GAS_OFF_WIDTH       1
#define GAS_OFF_OFFSET      2
#define GAS_OFF_ACCESS      3
#define GAS_OFF_ADDRESS     4

static struct acpi_gas read_gas(const uint8_t *p)
{
	struct acpi_gas g = {
		.space_id = p[0], .bit_width = p[GAS_OFF_WIDTH], .bit_offset = p[GAS_OFF_OFFSET],
		.access_size = p[GAS_OFF_ACCESS], .address = le64(p + GAS_OFF_ADDRESS),
	};
	return g;
}

void acpi_json_gas(struct json *j, const char *key, const struct acpi_gas *g)
{
	json_obj(j, key);
	json_str(j, "space", g->space_id == ACPI_GAS_SPACE_MEMORY ? "memory" :
		 g->space_id == ACPI_GAS_SPACE_IO ? "io" : "other");
	json_u64(j, "space_id", g->space_id);
	json_hex(j, "address", g->address);
	json_u64(j, "bit_width", g->bit_width);
	json_u64(j, "bit_offset", g->bit_offset);
	json_u64(j, "access_size", g->access_size);
	json_close(j);
}

/* ACPI 6.5 5.2.9: FADT field offsets. */
#define FADT_OFF_PM_TMR_BLK     76
#define FADT_OFF_PM_TMR_LEN     91
#define FADT_OFF_FLAGS          112
#define FADT_OFF_ARM_BOOT_ARCH  129    /* 2 bytes */
#define FADT_OFF_MINOR          131
#define FADT_OFF_X_PM_TMR_BLK   208
#define FADT_V1_LEN             (FADT_OFF_FLAGS + 4)   /* ACPI 1.0's FADT ends with Flags */
#define FADT_PM_TMR_LEN_MIN     4      /* PM_TMR_LEN must be 4 when the timer exists */
/* ACPI 6.5 5.2.9.1: fixed feature flags. */
#define FADT_F_TMR_VAL_EXT      (1u << 8)
#define FADT_F_HW_REDUCED_ACPI  (1u << 20)
/* ACPI 6.5 5.2.9.4 Table 5.12: ARM architecture boot flags. */
#define FADT_ARM_PSCI_COMPLIANT (1u << 0)
#define FADT_ARM_PSCI_USE_HVC   (1u << 1)
#define PM_TMR_BITS_EXT         32
#define PM_TMR_BITS             24

void acpi_parse_fadt(const uint8_t *t, uint32_t len, struct acpi_fadt *f)
{
	f->present = 1;
	f->revision = t[ACPI_HDR_OFF_REVISION];
	if (len < FADT_V1_LEN) {
		acpi_set_defect(f->defect, "length %u < %u: no Flags", len, FADT_V1_LEN);
		return;
	}
	f->flags = le32(t + FADT_OFF_FLAGS);
	f->hw_reduced = !!(f->flags & FADT_F_HW_REDUCED_ACPI);
	f->tmr_bits = (f->flags & FADT_F_TMR_VAL_EXT) ? PM_TMR_BITS_EXT : PM_TMR_BITS;
	if (len > FADT_OFF_MINOR)
		f->minor_revision = t[FADT_OFF_MINOR];
	if (len >= FADT_OFF_ARM_BOOT_ARCH + 2) {
		f->has_arm_boot_arch = 1;
		f->arm_boot_arch = le16(t + FADT_OFF_ARM_BOOT_ARCH);
		f->psci_compliant = !!(f->arm_boot_arch & FADT_ARM_PSCI_COMPLIANT);
		f->psci_use_hvc = !!(f->arm_boot_arch & FADT_ARM_PSCI_USE_HVC);
	}
	f->pm_tmr_blk = le32(t + FADT_OFF_PM_TMR_BLK);
	f->pm_tmr_len = t[FADT_OFF_PM_TMR_LEN];
	/* ACPI 6.5 5.2.9: X_PM_TMR_BLK, when non-zero, is used instead of PM_TMR_BLK. */
	struct acpi_gas x = { 0 };
	if (len >= FADT_OFF_X_PM_TMR_BLK + GAS_LEN)
		x = read_gas(t + FADT_OFF_X_PM_TMR_BLK);
	if (x.address) {
		f->pm_timer = x;
		f->pm_timer_source = "X_PM_TMR_BLK";
		f->pm_timer_present = 1;
	} else if (f->pm_tmr_blk) {
		struct acpi_gas io = { .space_id = ACPI_GAS_SPACE_IO, .bit_width = (uint8_t)f->tmr_bits,
				       .address = f->pm_tmr_blk };
		f->pm_timer = io;
		f->pm_timer_source = "PM_TMR_BLK";
		f->pm_timer_present = 1;
	}
	if (f->pm_timer_present && f->pm_tmr_len < FADT_PM_TMR_LEN_MIN)
		acpi_set_defect(f->defect, "PM_TMR_LEN %u < %u", f->pm_tmr_len, FADT_PM_TMR_LEN_MIN);
}

void acpi_json_fadt(const struct acpi_fadt *f, struct json *j)
{
	if (!f->present) {
		json_null(j, "fadt");
		return;
	}
	json_obj(j, "fadt");
	json_u64(j, "revision", f->revision);
	json_u64(j, "minor_revision", f->minor_revision);
	json_hex(j, "flags", f->flags);
	json_bool(j, "hw_reduced", f->hw_reduced);
	if (f->has_arm_boot_arch) {
		json_hex(j, "arm_boot_arch", f->arm_boot_arch);
		json_bool(j, "psci_compliant", f->psci_compliant);
		if (f->psci_compliant)
			json_str(j, "psci_conduit", f->psci_use_hvc ? "HVC" : "SMC");
	}
	if (f->pm_timer_present) {
		json_obj(j, "pm_timer");
		json_str(j, "source", f->pm_timer_source);
		json_str(j, "space", f->pm_timer.space_id == ACPI_GAS_SPACE_IO ? "io" :
			 f->pm_timer.space_id == ACPI_GAS_SPACE_MEMORY ? "memory" : "other");
		json_hex(j, "address", f->pm_timer.address);
		json_u64(j, "bits", (uint64_t)f->tmr_bits);
		json_u64(j, "pm_tmr_len", f->pm_tmr_len);
		json_close(j);
	} else {
		json_null(j, "pm_timer");
	}
	acpi_json_defect(j, f->defect);
	json_close(j);
}

/* IA-PC HPET 1.0a table 3: Event Timer Block ID @36, BASE_ADDRESS GAS @40, HPET Number @52,
 * Main Counter Minimum Clock_tick @53, Page Protection @55; 56 bytes. */
#define HPET_OFF_BLOCK_ID   36
#define HPET_OFF_BASE       40
#define HPET_OFF_NUMBER     52
#define HPET_OFF_MIN_TICK   53
#define HPET_LEN            56
/* Event Timer Block ID bits (mirrors the General Capabilities register, HPET 1.0a 2.3.4):
 * [12:8] NUM_TIM_CAP = index of the last comparator, [13] COUNT_SIZE_CAP, [31:16] vendor. */
#define HPET_ID_NUM_TIM_SHIFT   8
#define HPET_ID_NUM_TIM_MASK    0x1fu
#define HPET_ID_COUNT_SIZE_CAP  (1u << 13)
#define HPET_ID_VENDOR_SHIFT    16

void acpi_parse_hpet(const uint8_t *t, uint32_t len, struct acpi_hpet *h)
{
	h->present = 1;
	if (len < HPET_LEN) {
		acpi_set_defect(h->defect, "length %u < %u", len, HPET_LEN);
		return;
	}
	h->block_id = le32(t + HPET_OFF_BLOCK_ID);
	h->base = read_gas(t + HPET_OFF_BASE);
	h->number = t[HPET_OFF_NUMBER];
	h->min_tick = le16(t + HPET_OFF_MIN_TICK);
	h->comparators = ((h->block_id >> HPET_ID_NUM_TIM_SHIFT) & HPET_ID_NUM_TIM_MASK) + 1;
	h->counter_64bit = !!(h->block_id & HPET_ID_COUNT_SIZE_CAP);
	h->vendor = (uint16_t)(h->block_id >> HPET_ID_VENDOR_SHIFT);
}

void acpi_json_hpet(const struct acpi_hpet *h, struct json *j)
{
	if (!h->present) {
		json_null(j, "hpet");
		return;
	}
	json_obj(j, "hpet");
	json_hex(j, "block_id", h->block_id);
	acpi_json_gas(j, "base", &h->base);
	json_u64(j, "number", h->number);
	json_u64(j, "min_tick", h->min_tick);
	json_u64(j, "comparators", h->comparators);
	json_u64(j, "counter_bits", h->counter_64bit ? 64 : 32);
	json_hex(j, "vendor", h->vendor);
	acpi_json_defect(j, h->defect);
	json_close(j);
}

/* ACPI 6.5 5.2.17: Number of System Localities u64 @36, N*N bytes from @44. */
#define SLIT_OFF_N          36
#define SLIT_OFF_MATRIX     44

void acpi_parse_slit(const uint8_t *t, uint32_t len, struct acpi_slit *s)
{
	s->present = 1;
	if (len < SLIT_OFF_MATRIX) {
		acpi_set_defect(s->defect, "length %u < %u", len, SLIT_OFF_MATRIX);
		return;
	}
	s->n = le64(t + SLIT_OFF_N);
	if (s->n > ACPI_SLIT_MAX) {
		acpi_set_defect(s->defect, "%llu localities > limit ACPI_SLIT_MAX %u",
				(unsigned long long)s->n, ACPI_SLIT_MAX);
		return;
	}
	uint32_t need = SLIT_OFF_MATRIX + (uint32_t)(s->n * s->n);
	if (len < need) {
		acpi_set_defect(s->defect, "length %u < %u for %llu localities", len, need,
				(unsigned long long)s->n);
		return;
	}
	memcpy(s->dist, t + SLIT_OFF_MATRIX, (size_t)(s->n * s->n));
}

void acpi_json_slit(const struct acpi_slit *s, struct json *j)
{
	if (!s->present) {
		json_null(j, "slit");
		return;
	}
	json_obj(j, "slit");
	json_u64(j, "localities", s->n);
	json_arr(j, "distance");
	if (!s->defect[0])
		for (uint64_t r = 0; r < s->n; r++) {
			json_arr(j, NULL);
			for (uint64_t c = 0; c < s->n; c++)
				json_u64(j, NULL, s->dist[r * s->n + c]);
			json_close(j);
		}
	json_close(j);
	acpi_json_defect(j, s->defect);
	json_close(j);
}
