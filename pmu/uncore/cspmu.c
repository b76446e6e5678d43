/* SPDX-License-Identifier: BSD-2-Clause */
/* Arm CoreSight PMU backend (pmu/uncore/cspmu.h). */
#include "pmu/uncore/cspmu.h"
#include "arch/lib/fmt.h"

#include <string.h>

uint32_t cspmu_pmiidr_from_pmpidr(const uint32_t p[5])
{
	uint32_t impl = ((p[1] >> 4) & 0xF) | (p[2] & 0x7) << 4 | (p[4] & 0xF) << 8;
	uint32_t rev = (p[3] >> 4) & 0xF, var = (p[2] >> 4) & 0xF;
	uint32_t prod = (p[0] & 0xFF) | (p[1] & 0xF) << 8;
	return impl | rev << 12 | var << 16 | prod << 20;
}

void cspmu_decode_pmcfgr(uint32_t v, struct cspmu_info *info)
{
	info->pmcfgr = v;
	info->nlogical = (uint16_t)((v & CSPMU_PMCFGR_N_MASK) + 1);
	info->width = (uint8_t)(((v >> CSPMU_PMCFGR_SIZE_SHIFT) & CSPMU_PMCFGR_SIZE_MASK) + 1);
	info->cc = (v & CSPMU_PMCFGR_CC) ? 1 : 0;
	uint16_t ev = (uint16_t)(info->nlogical - info->cc);
	info->nevcntr = ev > CSPMU_CYCLE_IDX ? CSPMU_CYCLE_IDX : ev;
}

static hw_status rd32(const struct hw *hw, uint64_t a, uint32_t *v)
{
	return hw_mmio_read32(hw, a, v);
}

int cspmu_pages_shared(const struct cspmu_node *a, const struct cspmu_node *b)
{
	uint64_t pa[2] = { a->base0, (a->flags & CSPMU_APMT_DUAL_PAGE) ? a->base1 : a->base0 };
	uint64_t pb[2] = { b->base0, (b->flags & CSPMU_APMT_DUAL_PAGE) ? b->base1 : b->base0 };
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++)
			if (pa[i] / CSPMU_PAGE_SIZE == pb[k] / CSPMU_PAGE_SIZE)
				return 1;
	return 0;
}

int cspmu_probe(const struct hw *hw, const struct cspmu_node *node, struct cspmu_info *info, char *why, size_t n)
{
	memset(info, 0, sizeof(*info));
	info->page0 = node->base0;
	info->page1 = (node->flags & CSPMU_APMT_DUAL_PAGE) ? node->base1 : node->base0;
	info->atomic = (node->flags & CSPMU_APMT_ATOMIC) ? 1 : 0;
	if (!info->page0 || (info->page0 & (CSPMU_PAGE_SIZE - 1)) || (info->page1 & (CSPMU_PAGE_SIZE - 1)) ||
	    !info->page1) {
		fmt_snprintf(why, n, "APMT node %u: page 0 0x%llx / page 1 0x%llx: zero or not 4 KiB aligned", node->id,
			     (unsigned long long)info->page0, (unsigned long long)info->page1);
		return -1;
	}
	uint32_t v;
	hw_status st = rd32(hw, info->page0 + CSPMU_PMCFGR, &v);
	const char *reg = "PMCFGR";
	uint64_t at = info->page0 + CSPMU_PMCFGR;
	if (st == HW_OK) {
		cspmu_decode_pmcfgr(v, info);
		at = info->page0 + CSPMU_PMIIDR;
		reg = "PMIIDR";
		st = rd32(hw, at, &info->pmiidr_reg);
	}
	for (unsigned i = 0; st == HW_OK && !info->pmiidr_reg && i < 5; i++) {
		at = i == 4 ? info->page0 + CSPMU_PMPIDR4 : info->page0 + CSPMU_PMPIDR0 + 4 * i;
		reg = "PMPIDR";
		st = rd32(hw, at, &info->pmpidr[i]);
	}
	if (st != HW_OK) {
		info->read_status = st;
		info->read_at = at;
		fmt_snprintf(why, n, "APMT node %u: read %s at MMIO 0x%llx: %s", node->id, reg, (unsigned long long)at,
			     hw_status_name(st));
		return -1;
	}
	if (node->impl_id) {
		info->pmiidr = node->impl_id;
		info->ident_src = CSPMU_ID_IMPL_ID;
	} else if (info->pmiidr_reg) {
		info->pmiidr = info->pmiidr_reg;
		info->ident_src = CSPMU_ID_PMIIDR;
	} else {
		info->pmiidr = cspmu_pmiidr_from_pmpidr(info->pmpidr);
		info->ident_src = CSPMU_ID_PMPIDR;
	}
	return 0;
}

int cspmu_assign(const struct cspmu_info *info, struct cspmu_event *ev, uint32_t nev, char *why, size_t n)
{
	unsigned next = 0, cycles = 0;
	if (nev > CSPMU_MAX_EVENTS) {
		fmt_snprintf(why, n, "%u events: at most %u per window", nev, CSPMU_MAX_EVENTS);
		return -1;
	}
	for (uint32_t i = 0; i < nev; i++) {
		if (ev[i].cycles) {
			if (!info->cc || cycles++) {
				fmt_snprintf(why, n, "event %u counts cycles: %s", i + 1,
					     info->cc ? "the cycle counter is taken by an earlier event"
						      : "PMCFGR.CC = 0, the PMU has no cycle counter");
				return -1;
			}
			ev[i].counter = CSPMU_CYCLE_IDX;
			continue;
		}
		if (next >= info->nevcntr) {
			fmt_snprintf(why, n, "event %u: all %u event counters taken (no multiplexing)", i + 1,
				     info->nevcntr);
			return -1;
		}
		ev[i].counter = (uint8_t)next++;
	}
	return 0;
}

static int wide(const struct cspmu_info *info)
{
	return info->width > 32;
}

uint64_t cspmu_counter_addr(const struct cspmu_info *info, unsigned idx)
{
	return info->page1 + CSPMU_PMEVCNTR + (uint64_t)idx * (wide(info) ? 8 : 4);
}

hw_status cspmu_read_counter(const struct hw *hw, const struct cspmu_info *info, unsigned idx, uint64_t *v,
			     uint8_t *retries)
{
	uint64_t a = cspmu_counter_addr(info, idx);
	uint32_t lo, hi, hi2;
	hw_status st;
	if (!wide(info)) {
		st = hw_mmio_read32(hw, a, &lo);
		*v = lo;
		return st;
	}
	if (info->atomic)
		return hw_mmio_read64(hw, a, v);
	if ((st = hw_mmio_read32(hw, a + 4, &hi)) != HW_OK)
		return st;
	for (unsigned t = 0; t < CSPMU_HILO_TRIES; t++) {
		if ((st = hw_mmio_read32(hw, a, &lo)) != HW_OK || (st = hw_mmio_read32(hw, a + 4, &hi2)) != HW_OK)
			return st;
		if (hi2 == hi) {
			*v = (uint64_t)hi << 32 | lo;
			return HW_OK;
		}
		hi = hi2;
		if (retries)
			(*retries)++;
	}
	return HW_ERROR;
}

/* ---- the sequence --------------------------------------------------------------------- */

struct seq {
	const struct hw *hw;
	const struct cspmu_info *info;
	struct cspmu_run *run;
};

static int fail(struct seq *s, const char *op, const char *reg, uint64_t addr, hw_status st)
{
	if (!s->run->status)
		fmt_snprintf(s->run->why, sizeof(s->run->why), "%s %s at MMIO 0x%llx: %s", op, reg,
			     (unsigned long long)addr, st == HW_ERROR && !strcmp(op, "read") ?
			     "hi-lo-hi did not settle" : hw_status_name(st));
	s->run->status = -1;
	return -1;
}

static int save(struct seq *s, const char *reg, uint64_t addr, uint64_t *v)
{
	s->run->accesses++;
	hw_status st = saveset_save(s->hw, &s->run->save, reg_mmio32(addr), v);
	return st == HW_OK ? 0 : fail(s, "read", reg, addr, st);
}

static int wr(struct seq *s, const char *reg, struct reg_ref r, uint64_t v)
{
	s->run->accesses += saveset_lookup(&s->run->save, r, NULL) ? 1 : 2;
	hw_status st = saveset_write(s->hw, &s->run->save, r, v);
	return st == HW_OK ? 0 : fail(s, "write", reg, r.addr, st);
}

static int wr32(struct seq *s, const char *reg, uint64_t addr, uint32_t v)
{
	return wr(s, reg, reg_mmio32(addr), v);
}

static int read_ctr(struct seq *s, unsigned idx, uint64_t *v)
{
	s->run->accesses++;
	hw_status st = cspmu_read_counter(s->hw, s->info, idx, v, &s->run->hilo_retries);
	return st == HW_OK ? 0 : fail(s, "read", "PMEVCNTR", cspmu_counter_addr(s->info, idx), st);
}

/* Save and zero counter idx (what the PMCR.P / C reset does to it). */
static int zero_ctr(struct seq *s, unsigned idx)
{
	uint64_t a = cspmu_counter_addr(s->info, idx);
	if (!wide(s->info))
		return wr32(s, "PMEVCNTR", a, 0);
	if (s->info->atomic)
		return wr(s, "PMEVCNTR", reg_mmio64(a), 0);
	return wr32(s, "PMEVCNTR", a, 0) || wr32(s, "PMEVCNTR", a + 4, 0);
}

static uint64_t ctr_mask(const struct cspmu_info *info)
{
	return info->width >= 64 ? ~0ull : (1ull << info->width) - 1;
}

static uint32_t ev_mask(const struct cspmu_event *ev, uint32_t nev)
{
	uint32_t m = 0;
	for (uint32_t i = 0; i < nev; i++)
		m |= 1u << ev[i].counter;
	return m;
}

static int program(struct seq *s, const struct cspmu_event *e)
{
	uint64_t p0 = s->info->page0;
	if (e->cycles)
		return wr32(s, "PMCCFILTR", p0 + CSPMU_PMCCFILTR, e->filt);
	unsigned n = e->counter;
	return wr32(s, "PMEVTYPER", p0 + CSPMU_PMEVTYPER + 4 * n, e->type) ||
	       (e->use_filt && wr32(s, "PMEVFILTR", p0 + CSPMU_PMEVFILTR + 4 * n, e->filt)) ||
	       (e->use_filt2 && wr32(s, "PMEVFILT2R", p0 + CSPMU_PMEVFILT2R + 4 * n, e->filt2));
}

int cspmu_start(const struct hw *hw, const struct cspmu_info *info, const struct cspmu_event *ev, uint32_t nev,
		struct cspmu_run *run)
{
	memset(run, 0, sizeof(*run));
	saveset_init(&run->save, run->saved, CSPMU_SAVE_CAP);
	struct seq s = { hw, info, run };
	uint64_t p0 = info->page0, pmcr, en, clr;
	if (save(&s, "PMCR", p0 + CSPMU_PMCR, &pmcr) || save(&s, "PMCNTENSET", p0 + CSPMU_PMCNTENSET, &en) ||
	    save(&s, "PMCNTENCLR", p0 + CSPMU_PMCNTENCLR, &clr))
		return -1;
	if ((pmcr & CSPMU_PMCR_E) || en) {
		run->busy = 1;
		fmt_snprintf(run->why, sizeof(run->why), "busy: PMCR 0x%llx, PMCNTENSET0 0x%llx: counting for someone else",
			     (unsigned long long)pmcr, (unsigned long long)en);
		return run->status = -1;
	}
	uint32_t stopped = (uint32_t)pmcr & ~(CSPMU_PMCR_E | CSPMU_PMCR_P | CSPMU_PMCR_C);
	/* the reset clears every event counter (P) and the cycle counter (C): only when all of
	 * them have a register this run can save and put back */
	if (info->nlogical <= CSPMU_MAX_RESET && (unsigned)(info->nlogical - info->cc) <= CSPMU_CYCLE_IDX) {
		for (unsigned i = 0; i < info->nevcntr; i++)
			if (zero_ctr(&s, i))
				return -1;
		if (info->cc && zero_ctr(&s, CSPMU_CYCLE_IDX))
			return -1;
		if (wr32(&s, "PMCR", p0 + CSPMU_PMCR, stopped | CSPMU_PMCR_P | (info->cc ? CSPMU_PMCR_C : 0)))
			return -1;
		run->reset = 1;
	}
	for (uint32_t i = 0; i < nev; i++)
		if (program(&s, &ev[i]) || read_ctr(&s, ev[i].counter, &run->base[i]))
			return -1;
	uint32_t m = ev_mask(ev, nev);
	if (wr32(&s, "PMCNTENSET", p0 + CSPMU_PMCNTENSET, m))
		return -1;
	run->enabled = m;
	return wr32(&s, "PMCR", p0 + CSPMU_PMCR, stopped | CSPMU_PMCR_E);
}

int cspmu_stop(const struct hw *hw, const struct cspmu_info *info, const struct cspmu_event *ev, uint32_t nev,
	       struct cspmu_run *run)
{
	struct seq s = { hw, info, run };
	uint64_t p0 = info->page0, pmcr = 0;
	if (run->status)
		return -1;
	saveset_lookup(&run->save, reg_mmio32(p0 + CSPMU_PMCR), &pmcr);
	uint32_t stopped = (uint32_t)pmcr & ~(CSPMU_PMCR_E | CSPMU_PMCR_P | CSPMU_PMCR_C);
	if (wr32(&s, "PMCR", p0 + CSPMU_PMCR, stopped) || wr32(&s, "PMCNTENCLR", p0 + CSPMU_PMCNTENCLR, run->enabled))
		return -1;
	run->enabled = 0;
	for (uint32_t i = 0; i < nev; i++) {
		uint64_t v;
		if (read_ctr(&s, ev[i].counter, &v))
			return -1;
		run->raw[i] = (v - run->base[i]) & ctr_mask(info);
	}
	return 0;
}

int cspmu_restore(const struct hw *hw, const struct cspmu_info *info, struct cspmu_run *run)
{
	if (run->enabled) {
		/* a failure after PMCNTENSET: the write-1-to-set register cannot be put back by
		 * writing the value found, so its partner clears the bits this run set */
		struct reg_ref clr = reg_mmio32(info->page0 + CSPMU_PMCNTENCLR);
		run->accesses++;
		hw_status st = saveset_write(hw, &run->save, clr, run->enabled);
		if (st != HW_OK)
			saveset_mark_failed(&run->save, reg_mmio32(info->page0 + CSPMU_PMCNTENSET), st);
		else
			run->enabled = 0;
	}
	for (uint32_t i = 0; i < run->save.n; i++)
		run->accesses += run->save.e[i].written;
	return saveset_restore(hw, &run->save) == HW_OK && !run->enabled ? 0 : -1;
}
