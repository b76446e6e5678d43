/* SPDX-License-Identifier: BSD-2-Clause */
/* Register model of the NVIDIA Tegra410 CMEM latency and C2C PMUs (tests/model/nv_apmu_model.h). */
#include "tests/model/nv_apmu_model.h"

#include <string.h>

static const uint16_t cmem_ctr[] = { 0x818, 0x820, 0x838, 0x850, 0x830, 0x848, 0x860 };
static const uint16_t c2c_ctr[] = { 0x86C, 0x874, 0x87C, 0x884, 0x88C, 0x898, 0x8A0, 0x8A8, 0x8B0 };
#define CMEM_CG 0x800
#define CMEM_CTRL 0x808
#define C2C_CTRL 0x864

static const uint16_t *ctrs(const struct nv_apmu_model *m, uint32_t *n)
{
	*n = m->kind == NVM_CMEM ? sizeof(cmem_ctr) / 2 : sizeof(c2c_ctr) / 2;
	return m->kind == NVM_CMEM ? cmem_ctr : c2c_ctr;
}

uint64_t nv_model_get(const struct nv_apmu_model *m, uint32_t r, uint32_t off, int wide)
{
	uint64_t v = 0;
	memcpy(&v, &m->mem[r][off], wide ? 8 : 4);
	return v;
}

void nv_model_set(struct nv_apmu_model *m, uint32_t r, uint32_t off, uint64_t v, int wide)
{
	memcpy(&m->mem[r][off], &v, wide ? 8 : 4);
}

void nv_model_init(struct nv_apmu_model *m, enum nvm_kind kind, uint32_t ninst, uint64_t base)
{
	memset(m, 0, sizeof(*m));
	m->kind = (uint8_t)kind;
	m->ninst = ninst;
	m->base = base;
}

static void zero_counters(struct nv_apmu_model *m)
{
	uint32_t n;
	const uint16_t *c = ctrs(m, &n);
	for (uint32_t i = 0; i < m->ninst; i++)
		for (uint32_t k = 0; k < n; k++)
			nv_model_set(m, i, c[k], 0, 1);
}

static int counting(const struct nv_apmu_model *m, uint32_t i)
{
	if (m->kind == NVM_CMEM)
		return nv_model_get(m, i, CMEM_CG, 1) == 1 && nv_model_get(m, i, CMEM_CTRL, 1) == 1;
	return nv_model_get(m, i, C2C_CTRL, 0) == 1;
}

void nv_model_tick(struct nv_apmu_model *m, uint32_t n)
{
	uint32_t nc;
	const uint16_t *c = ctrs(m, &nc);
	for (uint32_t i = 0; i < m->ninst; i++)
		if (counting(m, i))
			for (uint32_t k = 0; k < nc; k++)
				nv_model_set(m, i, c[k], nv_model_get(m, i, c[k], 1) + (uint64_t)n * m->inc[i][k], 1);
}

/* Region and offset of addr; -1 outside the device. */
static int locate(const struct nv_apmu_model *m, uint64_t addr, int wide, uint32_t *r, uint32_t *off)
{
	if (addr < m->base || addr - m->base >= (uint64_t)(m->ninst + 1) * NVM_REGION)
		return -1;
	*r = (uint32_t)((addr - m->base) / NVM_REGION);
	*off = (uint32_t)((addr - m->base) % NVM_REGION);
	return *off + (wide ? 8u : 4u) <= NVM_REGION && !(*off % 4u) ? 0 : -1;   /* C2C counters sit at 4 mod 8 */
}

static hw_status inject(struct nv_apmu_model *m, int write)
{
	if (m->fail_writes_only && !write)
		return HW_OK;
	m->naccess++;
	if (m->fail_at && (m->naccess == m->fail_at || (m->fail_sticky && m->naccess > m->fail_at))) {
		m->nfailed++;
		return HW_FAULT_SYNC;
	}
	return HW_OK;
}

static hw_status rd(void *ctx, uint64_t addr, uint64_t *v, int wide)
{
	struct nv_apmu_model *m = ctx;
	uint32_t r, off;
	hw_status st = inject(m, 0);
	if (st)
		return st;
	if (locate(m, addr, wide, &r, &off))
		return HW_FAULT_SYNC;
	*v = nv_model_get(m, r, off, wide);
	if (m->bump_addr && !m->bumped && addr == m->bump_addr + 4) {
		m->bumped = 1;
		uint32_t br, boff;
		if (!locate(m, m->bump_addr, 1, &br, &boff))
			nv_model_set(m, br, boff, nv_model_get(m, br, boff, 1) + m->bump_value, 1);
	}
	return HW_OK;
}

static hw_status wr(void *ctx, uint64_t addr, uint64_t v, int wide)
{
	struct nv_apmu_model *m = ctx;
	uint32_t r, off;
	hw_status st = inject(m, 1);
	if (st)
		return st;
	if (locate(m, addr, wide, &r, &off))
		return HW_FAULT_SYNC;
	if (m->nlog < NVM_MAX_LOG)
		m->log[m->nlog++] = (struct nvm_write){ addr, v, (uint8_t)wide };
	nv_model_set(m, r, off, v, wide);
	if (r != m->ninst)
		return HW_OK;
	/* broadcast: the control register of every instance */
	int ctrl = m->kind == NVM_CMEM ? off == CMEM_CTRL || off == CMEM_CG : off == C2C_CTRL;
	if (!ctrl)
		return HW_OK;
	for (uint32_t i = 0; i < m->ninst; i++)
		nv_model_set(m, i, off, v, wide);
	if ((m->kind == NVM_CMEM && off == CMEM_CTRL && v == 2) || (m->kind == NVM_C2C && v == 1))
		zero_counters(m);
	return HW_OK;
}

static hw_status r32(void *ctx, uint64_t a, uint32_t *v)
{
	uint64_t x = 0;
	hw_status st = rd(ctx, a, &x, 0);
	*v = (uint32_t)x;
	return st;
}
static hw_status r64(void *ctx, uint64_t a, uint64_t *v) { return rd(ctx, a, v, 1); }
static hw_status w32(void *ctx, uint64_t a, uint32_t v) { return wr(ctx, a, v, 0); }
static hw_status w64(void *ctx, uint64_t a, uint64_t v) { return wr(ctx, a, v, 1); }

static const struct hw_ops ops = {
	.name = "nv_apmu_model",
	.mmio_read32 = r32,
	.mmio_read64 = r64,
	.mmio_write32 = w32,
	.mmio_write64 = w64,
};

struct hw nv_model_hw(struct nv_apmu_model *m)
{
	return (struct hw){ &ops, m };
}
