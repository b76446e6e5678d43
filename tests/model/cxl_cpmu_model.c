/* SPDX-License-Identifier: BSD-2-Clause */
#include <string.h>

#include "tests/model/model_mmio.h"

#include "tests/model/cxl_cpmu_model.h"

void cxl_cpmu_model_init(struct cxl_cpmu_model *m, unsigned width)
{
	memset(m, 0, sizeof(*m));
	m->width = width;
	/* 8.2.7.1.1: Number of Counters 4 (3), Counter Width, Number of Event Capabilities 5 (4),
	 * Filters Supported bit 0 (HDM decoder), Writable While Frozen, Freeze Support, Version 1. */
	m->cap = 3ull | (uint64_t)width << 8 | 4ull << 20 | 1ull << 32 | 1ull << 48 | 1ull << 49 | 1ull << 60;
	/* 8.2.7.1.4: Vendor ID [63:48], Group ID [47:32], Supported Events [31:0]. */
	m->evcap[0] = 0x1E98ull << 48 | 0x0000ull << 32 | 0x1;      /* clock ticks */
	m->evcap[1] = 0x1E98ull << 48 | 0x0024ull << 32 | 0xFF;     /* S2M NDR */
	m->evcap[2] = 0x1E98ull << 48 | 0x0020ull << 32 | 0xFFFF;   /* M2S Req */
	m->evcap[3] = 0x1E98ull << 48 | 0x0021ull << 32 | 0x3F;     /* M2S RwD */
	m->evcap[4] = 0x1E98ull << 48 | 0x0025ull << 32 | 0x7;      /* S2M DRS */
	/* 8.2.7.2.1: type [1:0]; fixed/free-running: Events [55:24] and group index [63:59] fixed. */
	m->cfg[0] = 1ull | 0x1ull << 24 | 0ull << 59;               /* fixed: clock ticks */
	m->cfg[1] = 0ull | 0x1ull << 24 | 1ull << 59;               /* free-running: NDR Cmp */
	m->cfg[2] = 2ull;
	m->cfg[3] = 2ull;
	for (int n = 0; n < CPMUM_NCTR; n++)
		for (int f = 0; f < 8; f++)
			m->filter[n][f] = 0xFFFFFFFFu;
	m->ctr[1] = 0x1234;                                           /* free-running: already counting */
}

/* Events a counter counts for (reads, writes, clocks) by its group and mask. */
static uint64_t counted(const struct cxl_cpmu_model *m, int n, uint64_t r, uint64_t w, uint64_t clk)
{
	uint64_t cfg = m->cfg[n];
	unsigned g = (unsigned)(cfg >> 59) & 0x1F;
	uint32_t mask = (uint32_t)(cfg >> 24);
	if (g >= CPMUM_NEVCAP)
		return 0;
	uint16_t gid = (uint16_t)(m->evcap[g] >> 32);
	uint64_t v = 0;
	if (gid == 0x0000 && (mask & 1))
		v += clk;
	if (gid == 0x0020 && (mask & 2))      /* M2S Req MemRd */
		v += r;
	if (gid == 0x0021 && (mask & 2))      /* M2S RwD MemWr */
		v += w;
	if (gid == 0x0024 && (mask & 1))      /* S2M NDR Cmp: one per write */
		v += w;
	if (gid == 0x0025 && (mask & 1))      /* S2M DRS MemData: one per read */
		v += r;
	if (m->filter[n][0] != 0xFFFFFFFFu && !(m->filter[n][0] >> m->decoder & 1))
		v = 0;
	return m->double_count ? 2 * v : v;
}

void cxl_cpmu_model_traffic(struct cxl_cpmu_model *m, uint64_t reads, uint64_t writes, uint64_t clocks)
{
	uint64_t wmask = m->width >= 64 ? ~0ull : (1ull << m->width) - 1;
	uint64_t freeze_all = 0;
	for (int n = 0; n < CPMUM_NCTR; n++) {
		int type = (int)(m->cfg[n] & 3);
		int runs = type == 0 || ((m->cfg[n] >> 8 & 1) && !(m->freeze >> n & 1));
		if (!runs)
			continue;
		uint64_t add = counted(m, n, reads, writes, clocks);
		uint64_t before = m->ctr[n];
		m->ctr[n] = (before + add) & wmask;
		if (add && (before + add) > wmask) {
			m->overflow |= 1ull << n;
			if (m->cfg[n] >> 10 & 1)
				freeze_all = 1;
		}
	}
	if (freeze_all)
		m->freeze = (1ull << CPMUM_NCTR) - 1;
}

static hw_status access(void *ctx, uint64_t a, uint64_t *v, int write, int wide)
{
	struct cxl_cpmu_model *m = ctx;
	if (++m->accesses == m->fault_at)
		return HW_FAULT_GP;
	if (a < CPMUM_BASE || a >= CPMUM_BASE + 0x1000)
		return HW_BAD_ARG;
	uint64_t off = a - CPMUM_BASE;
	if (write)
		m->writes++;
	if (off >= 0x400 && off < 0x400 + 4 * 8 * CPMUM_NCTR) {        /* Filter Configuration (32-bit) */
		if (wide)
			return HW_BAD_ARG;
		unsigned i = (unsigned)(off - 0x400) / 4;
		if (write)
			m->filter[i / 8][i % 8] = (uint32_t)*v;
		else
			*v = m->filter[i / 8][i % 8];
		return HW_OK;
	}
	if (!wide || (off & 7))
		return HW_BAD_ARG;                                    /* every other register is 64-bit */
	uint64_t *reg = NULL, ro = ~0ull;                             /* ro: bits a write leaves alone */
	if (off == 0x000)
		reg = &m->cap;
	else if (off == 0x010) {
		if (write)
			m->overflow &= ~*v;                           /* RW1C */
		else
			*v = m->overflow;
		return HW_OK;
	} else if (off == 0x018)
		reg = &m->freeze, ro = 0;
	else if (off >= 0x100 && off < 0x100 + 8 * CPMUM_NEVCAP)
		reg = &m->evcap[(off - 0x100) / 8];
	else if (off >= 0x200 && off < 0x200 + 8 * CPMUM_NCTR) {
		unsigned n = (unsigned)(off - 0x200) / 8;
		reg = &m->cfg[n];
		int type = (int)(m->cfg[n] & 3);
		ro = type == 2 ? 3ull : type == 1 ? (3ull | 0xFFFFFFFFull << 24 | 0x1Full << 59) : ~0ull;
	} else if (off >= 0xC00 && off < 0xC00 + 8 * CPMUM_NCTR) {
		unsigned n = (unsigned)(off - 0xC00) / 8;
		reg = &m->ctr[n];
		int type = (int)(m->cfg[n] & 3);
		ro = type == 0 || !(m->freeze >> n & 1) ? ~0ull : 0;     /* writable only while frozen */
	}
	if (!reg) {
		if (!write)
			*v = 0;
		return HW_OK;
	}
	if (write)
		*reg = (*reg & ro) | (*v & ~ro);
	else
		*v = *reg;
	return HW_OK;
}

MODEL_MMIO_OPS(cpmu, access)

static const struct hw_ops ops = {
	.name = "cxl-cpmu-model", .mmio_read32 = cpmu_mr32, .mmio_read64 = cpmu_mr64, .mmio_write32 = cpmu_mw32, .mmio_write64 = cpmu_mw64,
};

struct hw cxl_cpmu_model_hw(struct cxl_cpmu_model *m)
{
	return (struct hw){ &ops, m };
}
