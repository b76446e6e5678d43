/* SPDX-License-Identifier: BSD-2-Clause */
/* CHA box model (tests/model/cha_model.h). */
#include "tests/model/cha_model.h"

#include <string.h>

#define GLOBAL_CTL 0x700u
#define CTR_MASK ((1ull << 48) - 1)
#define BOX_FRZ (1ull << 8)
#define CTL_EN (1ull << 22)
#define TOR_INSERTS 0x35u
#define TOR_OCCUPANCY 0x36u
#define CLOCKTICKS 0x00u

uint32_t cha_model_msr(enum cha_model_layout layout, unsigned box, unsigned reg)
{
	if (layout == CHA_MODEL_SKX)
		return 0xE00u + 0x10u * box + reg;      /* Linux HSWEP_C0_MSR_PMON_BOX_CTL, HSWEP_CBO_MSR_OFFSET */
	uint32_t base;                               /* Linux icx_cha_msr_offsets[]: stride 0xE, jump at 18 and 34 */
	if (box < 18)
		base = 0xE00u + 0xEu * box;
	else if (box < 34)
		base = 0xF0Au + 0xEu * (box - 18);
	else
		base = 0xB60u + 0xEu * (box - 34);
	return base + reg;
}

static uint64_t reg(struct hw_model *m, uint32_t id)
{
	struct hw_model_reg *r = hw_model_find(m, HWM_MSR, id);
	return r ? r->value : 0;
}

static int counts(const struct cha_model *c, uint64_t ctl, uint64_t f1, const struct cha_model_traffic *t)
{
	uint32_t umask = (ctl >> 8) & 0xFF;
	if (((ctl & 0xFF) != TOR_INSERTS && (ctl & 0xFF) != TOR_OCCUPANCY) || !(ctl & CTL_EN))
		return 0;
	if (c->layout == CHA_MODEL_SKX) {
		if (!(umask & (t->ia ? 0x01 : 0x04)) || !(umask & (t->hit ? 0x10 : 0x20)))
			return 0;
		uint32_t opc0 = (f1 >> 9) & 0x3FF, opc1 = (f1 >> 19) & 0x3FF;
		int opc_ok = (f1 & (1u << 3)) || opc0 == t->opc || opc1 == t->opc;
		return opc_ok && ((f1 >> 30) & 1) == t->nc && (f1 & (1u << 1));
	}
	uint64_t ext = (ctl >> 32) & 0x3FFFFFF;
	if (umask != (t->ia ? 0x01u : 0x04u) || !(ext & (t->hit ? 1u : 2u)))
		return 0;
	return (ext >> 8) == 0xC001 || (ext >> 8) == t->key;
}

static void hook(struct hw_model *m, unsigned n, void *arg)
{
	struct cha_model *c = arg;
	for (unsigned b = 0; b < c->nboxes; b++) {
		if (reg(m, cha_model_msr(c->layout, b, 0)) & BOX_FRZ)
			continue;
		uint64_t f1 = c->layout == CHA_MODEL_SKX ? reg(m, cha_model_msr(c->layout, b, 6)) : 0;
		for (unsigned k = 0; k < 4; k++) {
			uint64_t ctl = reg(m, cha_model_msr(c->layout, b, 1 + k)), add = 0;
			int occ = (ctl & 0xFF) == TOR_OCCUPANCY;
			if (occ && k != 0)
				continue;                  /* occupancy counts on counter 0 alone */
			if ((ctl & 0xFF) == CLOCKTICKS && (ctl & CTL_EN) && !(ctl & 0xFF00))
				add += c->clk_per_tick * n;
			for (unsigned i = 0; i < c->ntraffic; i++)
				if (counts(c, ctl, f1, &c->t[i]))
					add += c->t[i].per_tick * (occ ? c->t[i].latency : 1) * (b + 1) * n;
			struct hw_model_reg *ctr = hw_model_find(m, HWM_MSR, cha_model_msr(c->layout, b, 8 + k));
			if (ctr)
				ctr->value = (ctr->value + add) & CTR_MASK;
		}
	}
}

struct hw cha_model_machine(struct cha_model *c, struct hw_model *m, enum cha_model_layout layout, unsigned nboxes)
{
	hw_model_init(m);
	m->ncpus = 1;
	cha_model_init(c, m, layout, nboxes, 0);
	return hw_model_hw(m);
}

void cha_model_init(struct cha_model *c, struct hw_model *m, enum cha_model_layout layout, unsigned nboxes,
		    uint64_t ctr_start)
{
	memset(c, 0, sizeof(*c));
	c->m = m;
	c->layout = layout;
	c->nboxes = nboxes > CHA_MODEL_MAX_BOXES ? CHA_MODEL_MAX_BOXES : nboxes;
	hw_model_reg(m, HWM_MSR, GLOBAL_CTL, HWM_PLAIN, 0);
	for (unsigned b = 0; b < c->nboxes; b++)
		for (unsigned r = 0; r < 12; r++) {
			if (r == 6 && layout != CHA_MODEL_SKX)
				continue;    /* ICX has no FILTER1: an access faults */
			hw_model_reg(m, HWM_MSR, cha_model_msr(layout, b, r), HWM_PLAIN, r >= 8 ? ctr_start : 0);
		}
	m->tick_hook = hook;
	m->tick_arg = c;
}

void cha_model_add(struct cha_model *c, struct cha_model_traffic t)
{
	if (c->ntraffic < CHA_MODEL_MAX_TRAFFIC)
		c->t[c->ntraffic++] = t;
}

uint64_t cha_model_truth(const struct cha_model *c, int (*match)(const struct cha_model_traffic *, void *), void *arg)
{
	uint64_t sum = 0, boxes = 0;
	for (unsigned b = 0; b < c->nboxes; b++)
		boxes += b + 1;
	for (unsigned i = 0; i < c->ntraffic; i++)
		if (match(&c->t[i], arg))
			sum += c->t[i].per_tick * boxes;
	return sum;
}
