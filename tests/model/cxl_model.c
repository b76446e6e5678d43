/* SPDX-License-Identifier: BSD-2-Clause */
#include <string.h>

#include "tests/model/model_mmio.h"

#include "tests/model/cxl_model.h"

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

/* Device register block (CXL 3.1 8.2.8.1/8.2.8.2, QEMU's offsets): capability headers at 0x10,
 * 0x20, 0x30; Event Status at 0x80, mailbox at 0x88 (0x820 bytes), Memory Device at 0x8a8. */
#define DEV_STATUS_OFF 0x80
#define DEV_MBOX_OFF   0x88
#define DEV_MBOX_LEN   0x820
#define DEV_MEMDEV_OFF 0x8a8

void cxl_model_init(struct cxl_model *m)
{
	memset(m, 0, sizeof(*m));
	pci_model_init(&m->pci);
	/* 8086:0d93 class 0502 (CXL memory device), header type 0. */
	struct pci_model_func *f = m->f = pci_model_add(&m->pci, 0, CXLM_BDF_BUS, 0, 0, 0x8086, 0x0d93, 0x050210, 0);
	pci_model_add_exp(f, 0x40, 0x0, 1, 1, 1, 1, 0x1);
	pci_model_set_bar(f, 0, CXLM_COMP_BASE, CXLM_COMP_SIZE, 0x4);
	pci_model_set_bar(f, 2, CXLM_DEV_BASE, CXLM_DEV_SIZE, 0x4);
	/* CXL 3.1 8.1.3: DVSEC ID 0, length 0x38; Capability at +0xA = 0x1e (IO, Mem_Capable,
	 * Mem_HwInit_Mode, HDM_Count 1); Range 1 Size Low at +0x1C: 256 MiB | Active | Valid. */
	pci_model_add_dvsec(f, 0x100, 0x1e98, 1, 0x38, 0);
	pci_model_w16(f, 0x100 + 0x0A, 0x001e);
	pci_model_w32(f, 0x100 + 0x1C, 0x10000003);
	/* 8.1.9: Register Locator, DVSEC ID 8, 3 entries from +0xC: BIR 0 block 1 (component) at 0,
	 * BIR 2 block 3 (memory device) at 0, BIR 4 block 4 (CPMU) at 0. */
	pci_model_add_dvsec(f, 0x140, 0x1e98, 0, 0x24, 8);
	pci_model_w32(f, 0x140 + 0x0C, 0x00000100);
	pci_model_w32(f, 0x140 + 0x14, 0x00000302);
	/* the third entry: BIR 4, block 4 (CPMU) at 0 */
	pci_model_w32(f, 0x140 + 0x1C, 0x00000404);
	pci_model_set_bar(f, 4, CPMUM_BASE, 0x1000, 0x4);
	cxl_cpmu_model_init(&m->cpmu, 48);
	/* Component: CXL 3.1 8.2.4.1 CXL Capability Header at 0x1000: ID 1, version 1, cache/mem
	 * version 1, Array_Size 3; elements RAS (ID 2, v2) at 0x80, link (ID 4, v2) at 0xd8, HDM
	 * decoder (ID 5, v1) at 0x110 (pointer in [31:20]). */
	uint32_t *cm = m->comp + 0x1000 / 4;
	cm[0] = 0x03110001;
	cm[1] = 0x08020002;
	cm[2] = 0x0d820004;
	cm[3] = 0x11010005;
	/* 8.2.4.17 RAS: UE mask/severity as QEMU resets them, CE mask 0x7f. */
	cm[(0x80 + 0x4) / 4] = 0x1cfff;
	cm[(0x80 + 0x8) / 4] = 0x1cfff;
	cm[(0x80 + 0x10) / 4] = 0x7f;
	/* 8.2.4.20.1 HDM Decoder Capability: Decoder Count 0 (one decoder), Target Count 1. */
	cm[0x110 / 4] = 0x00000310;
	memcpy(m->hb, m->comp, sizeof(m->hb));
	memcpy(m->rp, m->comp, sizeof(m->rp));
	/* Device registers: Capabilities Array: ID 0, version 1, count 3 (8.2.8.1). */
	m->dev[0] = 0x00010000;
	m->dev[1] = 3;
	static const uint32_t hdr[3][3] = { { 0x00010001, DEV_STATUS_OFF, 8 }, { 0x00010002, DEV_MBOX_OFF, DEV_MBOX_LEN },
					    { 0x00014000, DEV_MEMDEV_OFF, 8 } };
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 3; k++)
			m->dev[(0x10 * (i + 1)) / 4 + k] = hdr[i][k];
	m->dev[DEV_MBOX_OFF / 4] = 11;          /* 8.2.8.4.3: Payload Size 2^11 = 2048 bytes */
	m->dev[DEV_MEMDEV_OFF / 4] = 0x14;      /* 8.2.8.5.1.1: media ready (01b at [3:2]), mailbox ready [4] */
	/* Identify (Table 8-127): FW revision, total/persistent capacity 1 x 256 MiB, LSA 256 MiB. */
	memcpy(m->identify, "BWFW VERSION 00", 15);
	put64(m->identify + 0x10, 1);
	put64(m->identify + 0x20, 1);
	put32(m->identify + 0x38, 256u << 20);
	put64(m->partition + 0x08, 1);
	/* Get Health Info (Table 8-135): life used 7%, 38 C, 2 and 5 corrected errors. */
	m->health[0x03] = 7;
	put16(m->health + 0x04, 38);
	put32(m->health + 0x0A, 2);
	put32(m->health + 0x0E, 5);
}

/* The mailbox runs a command when the doorbell is rung (8.2.8.4): output into the payload,
 * its length into Command [36:16], the return code into Status [47:32]. */
static void mbox_run(struct cxl_model *m)
{
	uint32_t *mb = m->dev + DEV_MBOX_OFF / 4;
	uint8_t *pl = (uint8_t *)(mb + 0x20 / 4);
	uint16_t op = (uint16_t)mb[0x08 / 4];
	m->last_opcode = op;
	m->commands++;
	const uint8_t *out = NULL;
	uint32_t len = 0;
	uint16_t rc = m->mbox_rc;
	uint8_t ev[0x20 + 2 * 0x80];
	if (op == 0x4000) {
		out = m->identify, len = sizeof(m->identify);
	} else if (op == 0x4100) {
		out = m->partition, len = sizeof(m->partition);
	} else if (op == 0x4200) {
		out = m->health, len = sizeof(m->health);
	} else if (op == 0x0100) {
		uint8_t log = pl[0];
		memset(ev, 0, sizeof(ev));
		uint16_t n = log < 4 ? m->event_count[log] : 0;
		if (n > 2)
			n = 2, ev[0] |= 2;     /* More Event Records */
		put16(ev + 0x14, n);
		for (int k = 0; k < n; k++) {
			put16(ev + 0x20 + k * 0x80 + 0x14, (uint16_t)(0x10 * (log + 1) + k));
			put64(ev + 0x20 + k * 0x80 + 0x18, 1000 + k);
		}
		out = ev, len = 0x20 + n * 0x80u;
	} else if (!rc) {
		rc = 0x3;   /* Unsupported */
	}
	if (!rc && out)
		memcpy(pl, out, len);
	uint64_t cmd = (uint64_t)op | (uint64_t)(rc ? 0 : len) << 16;
	mb[0x08 / 4] = (uint32_t)cmd;
	mb[0x0C / 4] = (uint32_t)(cmd >> 32);
	mb[0x10 / 4] = 0;
	mb[0x14 / 4] = rc;
	if (!m->mbox_stuck)
		mb[0x04 / 4] &= ~1u;
}

static hw_status access(void *ctx, uint64_t a, uint64_t *v, int write, int wide)
{
	struct cxl_model *m = ctx;
	if (++m->accesses == m->fault_at)
		return HW_FAULT_GP;
	uint32_t *reg;
	uint32_t *blk = a >= CXLM_COMP_BASE && a < CXLM_COMP_BASE + CXLM_COMP_SIZE ? m->comp :
			a >= CXLM_HB_BASE && a < CXLM_HB_BASE + CXLM_COMP_SIZE ? m->hb :
			a >= CXLM_RP_BASE && a < CXLM_RP_BASE + CXLM_COMP_SIZE ? m->rp : NULL;
	uint64_t bbase = blk == m->comp ? CXLM_COMP_BASE : blk == m->hb ? CXLM_HB_BASE : CXLM_RP_BASE;
	if (blk && a + (wide ? 8 : 4) <= bbase + CXLM_COMP_SIZE) {
		reg = blk + (a - bbase) / 4;
		if (write)
			m->comp_writes++;
		/* HDM decoder n Control (0x1000 + 0x110 + 0x20 + 0x20 n): Commit -> Committed or Error */
		uint64_t o = a - bbase;
		if (write && !wide && o >= 0x1130 && o < 0x1130 + 0x20 * 1 && (o - 0x1130) % 0x20 == 0) {
			uint32_t *dec = blk + (0x1110 + 0x10 + (o - 0x1130)) / 4;   /* base low of this decoder */
			uint32_t nv = (uint32_t)*v & ~(3u << 10);
			if (nv & (1u << 9)) {
				int ok = (dec[0] & 0x0FFFFFFF) == 0 && (dec[2] & 0x0FFFFFFF) == 0 && (dec[2] | dec[3]);
				if (m->commit_error || !ok)
					nv |= 1u << 11;
				else if (!m->commit_never)
					nv |= 1u << 10;
			}
			*reg = nv;
			return HW_OK;
		}
	} else if (a >= CXLM_DEV_BASE && a + (wide ? 8 : 4) <= CXLM_DEV_BASE + CXLM_DEV_SIZE) {
		uint64_t off = a - CXLM_DEV_BASE;
		reg = m->dev + off / 4;
		if (write && off >= DEV_MBOX_OFF && off < DEV_MBOX_OFF + DEV_MBOX_LEN)
			m->mbox_writes++;
		else if (write)
			m->dev_writes_outside_mbox++;
	} else if (a >= CPMUM_BASE && a < CPMUM_BASE + 0x1000) {
		struct hw c = cxl_cpmu_model_hw(&m->cpmu);
		if (wide)
			return write ? hw_mmio_write64(&c, a, *v) : hw_mmio_read64(&c, a, v);
		uint32_t x = (uint32_t)*v;
		hw_status st = write ? hw_mmio_write32(&c, a, x) : hw_mmio_read32(&c, a, &x);
		*v = x;
		return st;
	} else {
		return HW_BAD_ARG;
	}
	if (a & 3)
		return HW_BAD_ARG;
	if (!write) {
		*v = reg[0] | (wide ? (uint64_t)reg[1] << 32 : 0);
		return HW_OK;
	}
	reg[0] = (uint32_t)*v;
	if (wide)
		reg[1] = (uint32_t)(*v >> 32);
	if (a == CXLM_DEV_BASE + DEV_MBOX_OFF + 0x04 && (*v & 1))
		mbox_run(m);
	return HW_OK;
}

MODEL_MMIO_OPS(cxlm, access)

static hw_status pr32(void *c, struct hw_pci_addr a, uint16_t off, uint32_t *v)
{
	struct cxl_model *m = c;
	struct hw h = pci_model_hw(&m->pci);
	return hw_pci_read32(&h, a, off, v);
}
static hw_status pw32(void *c, struct hw_pci_addr a, uint16_t off, uint32_t v)
{
	struct cxl_model *m = c;
	struct hw h = pci_model_hw(&m->pci);
	return hw_pci_write32(&h, a, off, v);
}

static const struct hw_ops ops = {
	.name = "cxl-model", .mmio_read32 = cxlm_mr32, .mmio_read64 = cxlm_mr64, .mmio_write32 = cxlm_mw32, .mmio_write64 = cxlm_mw64,
	.pci_read32 = pr32, .pci_write32 = pw32,
};

struct hw cxl_model_hw(struct cxl_model *m)
{
	return (struct hw){ &ops, m };
}

uint64_t cxl_model_now(void *m)
{
	return ++((struct cxl_model *)m)->ticks;
}
