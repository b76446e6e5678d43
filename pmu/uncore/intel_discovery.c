/* SPDX-License-Identifier: BSD-2-Clause */
/* Intel uncore discovery table parser (pmu/uncore/intel_discovery.h). */
#include "pmu/uncore/intel_discovery.h"
#include "arch/lib/fmt.h"

#include <stdarg.h>
#include <string.h>

#define G_STRIDE_SHIFT 8               /* global q0 stride [15:8], 8-byte units */
#define G_MAX_UNITS_SHIFT 16           /* global q0 max_units [25:16] */
#define G_MAX_UNITS_MASK 0x3FFu
#define ACCESS_SHIFT 62                /* q0 access type [63:62] of both entry kinds */
#define U_CTL_OFF_SHIFT 8
#define U_WIDTH_SHIFT 16
#define U_CTR_OFF_SHIFT 24
#define U_STATUS_SHIFT 32
#define U_ID_SHIFT 16                  /* unit q2 box_id [31:16] */
#define PCI_SEG_SHIFT 28               /* Linux UNCORE_DISCOVERY_PCI_DOMAIN: [30:28] */
#define PCI_SEG_MASK 0x7u
#define PCI_BUS_SHIFT 20
#define PCI_DEVFN_SHIFT 12
#define PCI_REG_MASK 0xFFFu
#define MSR_SPACE 0xFFFFFFFFull        /* MSR indexes are 32-bit (SDM Vol. 2B RDMSR: ECX) */
#define CFG_SPACE 0x1000u              /* PCIe extended configuration space per function */

static uint64_t q(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void defect(struct disc_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void defect(struct disc_table *t, const char *fmt, ...)
{
	if (t->ndefects < DISC_MAX_DEFECTS) {
		va_list ap;
		va_start(ap, fmt);
		fmt_vsnprintf(t->defect[t->ndefects], sizeof(t->defect[0]), fmt, ap);
		va_end(ap);
	}
	t->ndefects++;
}

const char *disc_access_name(uint8_t access)
{
	static const char *const n[] = { "MSR", "MMIO", "PCI" };
	return access < DISC_ACCESS_UNKNOWN ? n[access] : "unknown";
}

size_t disc_table_bytes(const uint8_t *buf, size_t len)
{
	if (len < 8)
		return 0;
	uint64_t g = q(buf);
	size_t stride = (size_t)((g >> G_STRIDE_SHIFT) & 0xFF) * 8;
	size_t units = (size_t)((g >> G_MAX_UNITS_SHIFT) & G_MAX_UNITS_MASK);
	return stride < DISC_ENTRY_BYTES ? 0 : (units + 1) * stride;
}

/* The last register a unit names, beyond its control: the larger of the last CTL and CTR. */
static uint64_t last_reg(const struct disc_unit *u)
{
	uint64_t ctl_step = u->access == DISC_MSR ? 1 : 4, ctr_step = u->access == DISC_MSR ? 1 : 8;
	uint64_t a = u->ctl_offset + (uint64_t)(u->num_regs - 1) * ctl_step + 3;
	uint64_t b = u->ctr_offset + (uint64_t)(u->num_regs - 1) * ctr_step + 7;
	if (u->access == DISC_MSR)
		a -= 3, b -= 7;
	return a > b ? a : b;
}

/* 0 when the unit is usable; else a defect named and -1. */
static int check_unit(struct disc_table *t, uint32_t i, const struct disc_unit *u)
{
	const char *acc = disc_access_name(u->access);
	if (u->access == DISC_ACCESS_UNKNOWN) {
		defect(t, "unit %u (box type %u id %u): access type 3 is unknown", i, u->box_type, u->box_id);
		return -1;
	}
	if (!u->num_regs || !u->bit_width || u->bit_width > 64) {
		defect(t, "unit %u (box type %u id %u): %u counters of %u bits", i, u->box_type, u->box_id, u->num_regs,
		       u->bit_width);
		return -1;
	}
	uint64_t end = last_reg(u);
	if ((u->access == DISC_MSR && u->ctl + end > MSR_SPACE) || (u->access == DISC_MMIO && u->ctl + end < u->ctl) ||
	    (u->access == DISC_PCI && u->pci_reg + end >= CFG_SPACE)) {
		defect(t, "unit %u (box type %u id %u): %s control 0x%llx + 0x%llx is outside the %s space", i, u->box_type,
		       u->box_id, acc, (unsigned long long)(u->access == DISC_PCI ? u->pci_reg : u->ctl),
		       (unsigned long long)end, acc);
		return -1;
	}
	if (disc_find(t, u->box_type, u->box_id) >= 0) {
		defect(t, "unit %u: box type %u id %u is listed twice", i, u->box_type, u->box_id);
		return -1;
	}
	return 0;
}

int disc_parse(const uint8_t *buf, size_t len, struct disc_table *t)
{
	memset(t, 0, sizeof(*t));
	if (len < DISC_ENTRY_BYTES) {
		defect(t, "global entry: %u bytes read, it needs %u", (unsigned)len, DISC_ENTRY_BYTES);
		return -1;
	}
	uint64_t g0 = q(buf);
	if (!g0 || g0 == ~0ull) {
		defect(t, "global entry reads 0x%llx", (unsigned long long)g0);
		return -1;
	}
	t->access = (uint8_t)(g0 >> ACCESS_SHIFT);
	t->stride = (uint32_t)((g0 >> G_STRIDE_SHIFT) & 0xFF) * 8;
	t->max_units = (uint16_t)((g0 >> G_MAX_UNITS_SHIFT) & G_MAX_UNITS_MASK);
	t->global_ctl = q(buf + 8);
	if (t->stride < DISC_ENTRY_BYTES) {
		defect(t, "global entry 0x%llx: stride %u bytes, below one %u-byte entry", (unsigned long long)g0, t->stride,
		       DISC_ENTRY_BYTES);
		return -1;
	}
	size_t want = ((size_t)t->max_units + 1) * t->stride;
	if (want > len)
		defect(t, "global entry: %u units of %u bytes need %u bytes, %u were read", t->max_units, t->stride,
		       (unsigned)want, (unsigned)len);
	for (uint32_t i = 0; i < t->max_units; i++) {
		size_t at = (size_t)(i + 1) * t->stride;
		if (at + DISC_ENTRY_BYTES > len)
			break;
		uint64_t w0 = q(buf + at), w1 = q(buf + at + 8), w2 = q(buf + at + 16);
		if (!w0 || !w1 || w0 == ~0ull || w1 == ~0ull || w2 == ~0ull) {   /* q2 0: CHA 0 */
			t->skipped++;
			continue;
		}
		struct disc_unit u = {
			.box_type = (uint16_t)w2, .box_id = (uint16_t)(w2 >> U_ID_SHIFT), .access = (uint8_t)(w0 >> ACCESS_SHIFT),
			.num_regs = (uint8_t)w0, .ctl_offset = (uint8_t)(w0 >> U_CTL_OFF_SHIFT),
			.bit_width = (uint8_t)(w0 >> U_WIDTH_SHIFT), .ctr_offset = (uint8_t)(w0 >> U_CTR_OFF_SHIFT),
			.status_offset = (uint8_t)(w0 >> U_STATUS_SHIFT), .ctl = w1,
		};
		if (u.access == DISC_PCI) {
			u.pci = (struct hw_pci_addr){ (uint16_t)((w1 >> PCI_SEG_SHIFT) & PCI_SEG_MASK), (uint8_t)(w1 >> PCI_BUS_SHIFT),
						      (uint8_t)((w1 >> PCI_DEVFN_SHIFT) >> 3 & 0x1F),
						      (uint8_t)((w1 >> PCI_DEVFN_SHIFT) & 7) };
			u.pci_reg = (uint16_t)(w1 & PCI_REG_MASK);
		}
		if (check_unit(t, i, &u))
			continue;
		if (t->nunits >= DISC_MAX_UNITS) {
			defect(t, "unit %u and later: more than %u units", i, DISC_MAX_UNITS);
			break;
		}
		t->unit[t->nunits++] = u;
	}
	return 0;
}

int disc_find(const struct disc_table *t, uint16_t box_type, uint16_t box_id)
{
	for (uint32_t i = 0; i < t->nunits; i++)
		if (t->unit[i].box_type == box_type && t->unit[i].box_id == box_id)
			return (int)i;
	return -1;
}

uint32_t disc_units_of(const struct disc_table *t, uint16_t box_type, uint32_t *idx, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nunits; i++) {
		if (t->unit[i].box_type != box_type)
			continue;
		uint32_t k = n < max ? n : max;          /* insertion by box_id */
		while (k > 0 && t->unit[idx[k - 1]].box_id > t->unit[i].box_id) {
			if (k < max)
				idx[k] = idx[k - 1];
			k--;
		}
		if (k < max)
			idx[k] = i;
		if (n < max)
			n++;
	}
	return n;
}
