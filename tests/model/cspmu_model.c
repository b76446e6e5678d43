/* SPDX-License-Identifier: BSD-2-Clause */
/* CoreSight PMU page-pair model (tests/model/cspmu_model.h). */
#include "tests/model/cspmu_model.h"
#include "tests/model/model_mmio.h"

#include <string.h>

#define PMEVTYPER 0x400u
#define PMEVFILTR 0xA00u
#define PMCNTENSET 0xC00u
#define PMCNTENCLR 0xC20u
#define PMCFGR 0xE00u
#define PMCR 0xE04u
#define PMIIDR 0xE08u

static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

uint32_t cspmu_model_reg(const struct cspmu_model *m, int p, uint32_t off)
{
	return get32(&m->page[p == CSPMU_MODEL_FILTER ? p : m->dual ? p : 0][off]);
}

void cspmu_model_set(struct cspmu_model *m, int p, uint32_t off, uint32_t v)
{
	put32(&m->page[p == CSPMU_MODEL_FILTER ? p : m->dual ? p : 0][off], v);
}

static unsigned width(const struct cspmu_model *m)
{
	return ((cspmu_model_reg(m, 0, PMCFGR) >> 8) & 0x3F) + 1;
}

static uint32_t stride(const struct cspmu_model *m)
{
	return width(m) > 32 ? 8 : 4;
}

uint64_t cspmu_model_counter(const struct cspmu_model *m, unsigned idx)
{
	uint32_t o = idx * stride(m);
	uint64_t v = cspmu_model_reg(m, 1, o);
	if (stride(m) == 8)
		v |= (uint64_t)cspmu_model_reg(m, 1, o + 4) << 32;
	return v;
}

void cspmu_model_set_counter(struct cspmu_model *m, unsigned idx, uint64_t v)
{
	unsigned w = width(m);
	if (w < 64)
		v &= (1ull << w) - 1;
	uint32_t o = idx * stride(m);
	cspmu_model_set(m, 1, o, (uint32_t)v);
	if (stride(m) == 8)
		cspmu_model_set(m, 1, o + 4, (uint32_t)(v >> 32));
}

void cspmu_model_init(struct cspmu_model *m, uint64_t base0, uint64_t base1, int dual, int hardware, int atomic,
		      uint32_t pmcfgr, uint32_t pmiidr)
{
	memset(m, 0, sizeof(*m));
	m->base0 = base0;
	m->base1 = dual ? base1 : base0;
	m->dual = (uint8_t)dual;
	m->hardware = (uint8_t)hardware;
	m->atomic = (uint8_t)atomic;
	cspmu_model_set(m, 0, PMCFGR, pmcfgr);
	cspmu_model_set(m, 0, PMIIDR, pmiidr);
}

void cspmu_model_add(struct cspmu_model *m, uint32_t type, uint32_t filt_need, uint64_t per_tick)
{
	if (m->ntraffic < CSPMU_MODEL_TRAFFIC)
		m->t[m->ntraffic++] = (struct cspmu_model_traffic){ type, filt_need, per_tick };
}

void cspmu_model_tick(struct cspmu_model *m, unsigned n)
{
	if (!(cspmu_model_reg(m, 0, PMCR) & 1))
		return;
	uint32_t en = cspmu_model_reg(m, 0, PMCNTENSET);
	for (unsigned c = 0; c < 32; c++) {
		if (!(en & (1u << c)))
			continue;
		uint64_t add = 0;
		if (c == 31)
			add = m->cycles_per_tick;
		else
			for (uint32_t i = 0; i < m->ntraffic; i++)
				if (cspmu_model_reg(m, 0, PMEVTYPER + 4 * c) == m->t[i].type &&
				    (cspmu_model_reg(m, 0, PMEVFILTR + 4 * c) & m->t[i].filt_need) == m->t[i].filt_need)
					add += m->t[i].per_tick;
		cspmu_model_set_counter(m, c, cspmu_model_counter(m, c) + add * n);
	}
}

/* Page and offset of addr, or -1. */
static int locate(const struct cspmu_model *m, uint64_t addr, uint32_t *off)
{
	if (m->filt_base && addr >= m->filt_base && addr < m->filt_base + 4096) {
		*off = (uint32_t)(addr - m->filt_base);
		return CSPMU_MODEL_FILTER;
	}
	if (m->dual && addr >= m->base1 && addr < m->base1 + 4096) {
		*off = (uint32_t)(addr - m->base1);
		return 1;
	}
	if (addr >= m->base0 && addr < m->base0 + 4096) {
		*off = (uint32_t)(addr - m->base0);
		return m->dual ? 0 : 0;
	}
	return -1;
}

static int is_counter(const struct cspmu_model *m, int p, uint32_t off)
{
	return p != CSPMU_MODEL_FILTER && (m->dual ? p == 1 : 1) && off < 32 * stride(m);
}

static void hw_write32(struct cspmu_model *m, int p, uint32_t off, uint32_t v)
{
	if (p == 0 && off == PMCNTENSET) {
		uint32_t e = cspmu_model_reg(m, 0, PMCNTENSET) | v;
		cspmu_model_set(m, 0, PMCNTENSET, e);
		cspmu_model_set(m, 0, PMCNTENCLR, e);
	} else if (p == 0 && off == PMCNTENCLR) {
		uint32_t e = cspmu_model_reg(m, 0, PMCNTENSET) & ~v;
		cspmu_model_set(m, 0, PMCNTENSET, e);
		cspmu_model_set(m, 0, PMCNTENCLR, e);
	} else if (p == 0 && off == PMCR) {
		unsigned cc = (cspmu_model_reg(m, 0, PMCFGR) >> 14) & 1;
		unsigned nev = (cspmu_model_reg(m, 0, PMCFGR) & 0xFF) + 1 - cc;
		if (v & 2)   /* P: the event counters (index 31 is one only without a cycle counter) */
			for (unsigned c = 0; c < nev && c < 32 - cc; c++)
				cspmu_model_set_counter(m, c, 0);
		if ((v & 4) && cc)
			cspmu_model_set_counter(m, 31, 0);
		cspmu_model_set(m, 0, PMCR, v & ~6u);
	} else if (p == 0 && (off == PMCFGR || off == PMIIDR || off >= 0xFD0)) {
		/* read-only: ignored */
	} else {
		cspmu_model_set(m, p, off, v);
	}
}

static hw_status access(struct cspmu_model *m, uint64_t addr, uint64_t *v, int write, int wide)
{
	uint32_t n = ++m->naccess;
	if ((m->fail_at && n == m->fail_at) || (m->fail_sticky && m->fail_at && n > m->fail_at)) {
		m->nfailed++;
		return HW_FAULT_SYNC;
	}
	uint32_t off;
	int p = locate(m, addr, &off);
	if (p < 0 || (off & 3) || (wide && (off & 7)))
		return HW_BAD_ARG;
	if (wide && m->hardware && !(m->atomic && is_counter(m, p, off)))
		return HW_FAULT_SYNC;     /* 64-bit access where the PMU has no 64-bit registers */
	if (m->nlog < CSPMU_MODEL_LOG)
		m->log[m->nlog++] = (struct cspmu_model_access){ addr, write ? *v : 0, (uint8_t)write, (uint8_t)wide };
	if (write) {
		if (m->hardware) {
			hw_write32(m, p, off, (uint32_t)*v);
			if (wide)
				hw_write32(m, p, off + 4, (uint32_t)(*v >> 32));
		} else {
			cspmu_model_set(m, p, off, (uint32_t)*v);
			if (wide)
				cspmu_model_set(m, p, off + 4, (uint32_t)(*v >> 32));
		}
	} else {
		*v = cspmu_model_reg(m, p, off);
		if (wide)
			*v |= (uint64_t)cspmu_model_reg(m, p, off + 4) << 32;
	}
	if (m->bump_after && n == m->bump_after)
		cspmu_model_set_counter(m, m->bump_idx, cspmu_model_counter(m, m->bump_idx) + m->bump);
	return HW_OK;
}

MODEL_MMIO_OPS(cm, access)

static const struct hw_ops ops = {
	.name = "cspmu-model", .mmio_read32 = cm_mr32, .mmio_read64 = cm_mr64, .mmio_write32 = cm_mw32,
	.mmio_write64 = cm_mw64,
};

struct hw cspmu_model_hw(struct cspmu_model *m)
{
	return (struct hw){ .ops = &ops, .ctx = m };
}
