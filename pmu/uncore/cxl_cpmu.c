/* SPDX-License-Identifier: BSD-2-Clause */
/* CXL CPMU driver: see pmu/uncore/cxl_cpmu.h (CXL 3.1 8.2.7, Linux drivers/perf/cxl_pmu.c). */
#include <string.h>

#include "pmu/uncore/cxl_cpmu.h"
#include "arch/lib/fmt.h"

/* 8.2.7.1.1 CPMU Capability. */
#define CAP_REG                 0x000
#define CAP_NCTR_MASK           0x3Full
#define CAP_WIDTH_SHIFT         8
#define CAP_WIDTH_MASK          0xFFull
#define CAP_NEVCAP_SHIFT        20
#define CAP_NEVCAP_MASK         0x1Full
#define CAP_FILTERS_SHIFT       32
#define CAP_FILTERS_MASK        0xFFull
#define CAP_WRITABLE_FROZEN     (1ull << 48)
#define CAP_FREEZE              (1ull << 49)
#define CAP_OVERFLOW_IRQ        (1ull << 50)
#define CAP_VERSION_SHIFT       60
/* 8.2.7.1.2-3 Overflow Status, Freeze. */
#define OVERFLOW_REG            0x010
#define FREEZE_REG              0x018
/* 8.2.7.1.4 Event Capabilities n. */
#define EVCAP_REG(n)            (0x100 + 8u * (n))
#define EVCAP_GID_SHIFT         32
#define EVCAP_VID_SHIFT         48
/* 8.2.7.2.1 Counter Configuration n. */
#define CFG_REG(n)              (0x200 + 8u * (n))
#define CFG_TYPE_MASK           0x3ull
#define CFG_ENABLE              (1ull << 8)
#define CFG_INT_ON_OVERFLOW     (1ull << 9)
#define CFG_FREEZE_ON_OVERFLOW  (1ull << 10)
#define CFG_EDGE                (1ull << 11)
#define CFG_INVERT              (1ull << 12)
#define CFG_THRESHOLD_SHIFT     16
#define CFG_THRESHOLD_MASK      (0xFFull << CFG_THRESHOLD_SHIFT)
#define CFG_EVENTS_SHIFT        24
#define CFG_EVENTS_MASK         (0xFFFFFFFFull << CFG_EVENTS_SHIFT)
#define CFG_GRP_IDX_SHIFT       59
#define CFG_GRP_IDX_MASK        (0x1Full << CFG_GRP_IDX_SHIFT)
/* 8.2.7.2.2 Filter Configuration: filter f of counter n; 0 = HDM decoder filter. */
#define FILTER_REG(n, f)        (0x400 + 4u * ((f) + 8u * (n)))
#define FILTER_HDM              0
#define FILTER_NONE             0xFFFFFFFFu
#define CAP_FILTER_HDM          (1u << 0)
/* 8.2.7.3.1 Counter n. */
#define CTR_REG(n)              (0xC00 + 8u * (n))
/* Threshold 1: one count per event (8.2.7.2.1: events that occur at most once a clock). */
#define THRESHOLD_ONE           1ull

static hw_status rd64(const struct hw *hw, uint64_t a, uint64_t *v)
{
	return reg_read(hw, reg_mmio64(a), v);
}

int cxl_cpmu_probe(const struct hw *hw, uint64_t base, struct cxl_cpmu *p)
{
	memset(p, 0, sizeof(*p));
	p->base = base;
	hw_status st;
	if ((st = rd64(hw, base + CAP_REG, &p->cap)) != HW_OK) {
		fmt_snprintf(p->why, sizeof(p->why), "CPMU Capability at 0x%llx: %s", (unsigned long long)base, hw_status_name(st));
		return -1;
	}
	p->ncounters = (uint8_t)((p->cap & CAP_NCTR_MASK) + 1);
	p->width = (uint8_t)((p->cap >> CAP_WIDTH_SHIFT) & CAP_WIDTH_MASK);
	p->nevcaps = (uint8_t)(((p->cap >> CAP_NEVCAP_SHIFT) & CAP_NEVCAP_MASK) + 1);
	p->filters = (uint8_t)((p->cap >> CAP_FILTERS_SHIFT) & CAP_FILTERS_MASK);
	p->version = (uint8_t)(p->cap >> CAP_VERSION_SHIFT);
	p->freeze = !!(p->cap & CAP_FREEZE);
	p->writable_frozen = !!(p->cap & CAP_WRITABLE_FROZEN);
	p->overflow_irq = !!(p->cap & CAP_OVERFLOW_IRQ);
	if (!p->width || p->width > 64) {
		fmt_snprintf(p->why, sizeof(p->why), "Counter Width %u", p->width);
		return -1;
	}
	for (unsigned n = 0; n < p->ncounters; n++) {
		uint64_t cfg;
		if ((st = rd64(hw, base + CFG_REG(n), &cfg)) != HW_OK) {
			fmt_snprintf(p->why, sizeof(p->why), "Counter Configuration %u: %s", n, hw_status_name(st));
			return -1;
		}
		p->ctr[n].cfg = cfg;
		p->ctr[n].type = (uint8_t)(cfg & CFG_TYPE_MASK);
		p->ctr[n].events = (uint32_t)((cfg & CFG_EVENTS_MASK) >> CFG_EVENTS_SHIFT);
		p->ctr[n].group_idx = (uint8_t)((cfg & CFG_GRP_IDX_MASK) >> CFG_GRP_IDX_SHIFT);
	}
	for (unsigned k = 0; k < p->nevcaps; k++) {
		uint64_t e;
		if ((st = rd64(hw, base + EVCAP_REG(k), &e)) != HW_OK) {
			fmt_snprintf(p->why, sizeof(p->why), "Event Capabilities %u: %s", k, hw_status_name(st));
			return -1;
		}
		p->evcap[k].supported = (uint32_t)e;
		p->evcap[k].gid = (uint16_t)(e >> EVCAP_GID_SHIFT);
		p->evcap[k].vid = (uint16_t)(e >> EVCAP_VID_SHIFT);
	}
	/* A fixed counter's group is its own: configurable counters do not use that register. */
	for (unsigned n = 0; n < p->ncounters; n++)
		if (p->ctr[n].type == CXL_CPMU_FIXED && p->ctr[n].group_idx < p->nevcaps)
			p->evcap[p->ctr[n].group_idx].fixed_only = 1;
	if (!p->freeze || !p->writable_frozen) {
		fmt_snprintf(p->why, sizeof(p->why), "counters %s", !p->freeze ? "cannot be frozen (Counter Freeze Support 0)" :
			     "are not writable while frozen");
		return -1;
	}
	return 0;
}

/* Counter for ev (not in `used`), its event capability index in *grp; -1 when none. */
static int place(const struct cxl_cpmu *p, const struct cxl_cpmu_event *ev, uint64_t used, int *grp)
{
	for (int pass = 0; pass < 2; pass++)
		for (int n = 0; n < p->ncounters; n++) {
			if (used & (1ull << n))
				continue;
			uint8_t t = p->ctr[n].type, g = p->ctr[n].group_idx;
			if (pass == 0 && (t == CXL_CPMU_FIXED || t == CXL_CPMU_FREE_RUNNING) && g < p->nevcaps &&
			    p->evcap[g].vid == ev->vid && p->evcap[g].gid == ev->gid && p->ctr[n].events == ev->mask) {
				*grp = g;
				return n;
			}
			if (pass == 1 && t == CXL_CPMU_CONFIGURABLE)
				for (int k = 0; k < p->nevcaps; k++)
					if (!p->evcap[k].fixed_only && p->evcap[k].vid == ev->vid && p->evcap[k].gid == ev->gid &&
					    !(ev->mask & ~p->evcap[k].supported)) {
						*grp = k;
						return n;
					}
		}
	return -1;
}

static int fail(struct cxl_cpmu_set *set, const char *what, unsigned n, hw_status st)
{
	set->st = st;
	fmt_snprintf(set->why, sizeof(set->why), "%s %u: %s", what, n, hw_status_name(st));
	return -1;
}

int cxl_cpmu_program(const struct hw *hw, const struct cxl_cpmu *p, const struct cxl_cpmu_event *ev, int n,
		     struct cxl_cpmu_set *set, struct saveset *s)
{
	memset(set, 0, sizeof(*set));
	set->pmu = p;
	hw_status st;
	uint64_t base = p->base;
	for (int i = 0; i < n && set->n < CXL_CPMU_MAX_SLOTS; i++) {
		struct cxl_cpmu_slot *sl = &set->slot[set->n++];
		sl->ev = ev[i];
		int grp = -1;
		sl->counter = place(p, &ev[i], set->used, &grp);
		if (sl->counter < 0) {
			fmt_snprintf(sl->why, sizeof(sl->why), "no counter for vid 0x%x gid 0x%x mask 0x%x", ev[i].vid, ev[i].gid,
				     ev[i].mask);
			continue;
		}
		if (ev[i].filter_hdm && !(p->filters & CAP_FILTER_HDM)) {
			fmt_snprintf(sl->why, sizeof(sl->why), "HDM decoder filter not supported (Filters Supported 0x%x)", p->filters);
			sl->counter = -1;
			continue;
		}
		(void)grp;
		sl->type = p->ctr[sl->counter].type;
		set->used |= 1ull << sl->counter;
	}
	if (n > CXL_CPMU_MAX_SLOTS)
		fmt_snprintf(set->why, sizeof(set->why), "%d events beyond CXL_CPMU_MAX_SLOTS (%d) not counted",
			     n - CXL_CPMU_MAX_SLOTS, CXL_CPMU_MAX_SLOTS);
	if ((st = rd64(hw, base + OVERFLOW_REG, &set->overflow_found)) != HW_OK)
		return fail(set, "Overflow Status", 0, st);
	if ((st = saveset_save(hw, s, reg_mmio64(base + FREEZE_REG), &set->freeze_found)) != HW_OK)
		return fail(set, "Freeze", 0, st);
	uint64_t ours = 0;
	for (int i = 0; i < set->n; i++)
		if (set->slot[i].counter >= 0 && set->slot[i].type != CXL_CPMU_FREE_RUNNING)
			ours |= 1ull << set->slot[i].counter;
	if ((st = saveset_write(hw, s, reg_mmio64(base + FREEZE_REG), set->freeze_found | ours)) != HW_OK)
		return fail(set, "Freeze", 0, st);
	for (int i = 0; i < set->n; i++) {
		struct cxl_cpmu_slot *sl = &set->slot[i];
		if (sl->counter < 0 || sl->type == CXL_CPMU_FREE_RUNNING)
			continue;
		unsigned c = (unsigned)sl->counter;
		if (p->filters & CAP_FILTER_HDM) {
			uint32_t f = sl->ev.filter_hdm ? sl->ev.hdm_mask : FILTER_NONE;
			if ((st = saveset_write(hw, s, reg_mmio32(base + FILTER_REG(c, FILTER_HDM)), f)) != HW_OK)
				return fail(set, "Filter Configuration of counter", c, st);
		}
		uint64_t cfg = p->ctr[c].cfg;
		cfg &= ~(CFG_INT_ON_OVERFLOW | CFG_FREEZE_ON_OVERFLOW | CFG_EDGE | CFG_INVERT | CFG_THRESHOLD_MASK);
		cfg |= CFG_ENABLE | THRESHOLD_ONE << CFG_THRESHOLD_SHIFT;
		if (sl->type == CXL_CPMU_CONFIGURABLE) {
			int grp = -1;
			place(p, &sl->ev, set->used & ~(1ull << c), &grp);
			cfg &= ~(CFG_EVENTS_MASK | CFG_GRP_IDX_MASK);
			cfg |= (uint64_t)sl->ev.mask << CFG_EVENTS_SHIFT | (uint64_t)grp << CFG_GRP_IDX_SHIFT;
		}
		if ((st = saveset_write(hw, s, reg_mmio64(base + CFG_REG(c)), cfg)) != HW_OK)
			return fail(set, "Counter Configuration", c, st);
		if ((st = saveset_write(hw, s, reg_mmio64(base + CTR_REG(c)), 0)) != HW_OK)
			return fail(set, "Counter", c, st);
	}
	for (int i = 0; i < set->n; i++)
		if (set->slot[i].counter >= 0 && (set->overflow_found >> set->slot[i].counter & 1)) {
			set->slot[i].overflow_unknown = 1;
			fmt_snprintf(set->slot[i].why, sizeof(set->slot[i].why),
				     "Overflow Status bit %d already set: an overflow in the window is not seen", set->slot[i].counter);
		}
	return 0;
}

static int read_free_running(const struct hw *hw, struct cxl_cpmu_set *set, int at_end)
{
	for (int i = 0; i < set->n; i++) {
		struct cxl_cpmu_slot *sl = &set->slot[i];
		if (sl->counter < 0 || sl->type != CXL_CPMU_FREE_RUNNING)
			continue;
		hw_status st = rd64(hw, set->pmu->base + CTR_REG((unsigned)sl->counter), at_end ? &sl->end : &sl->start);
		if (st != HW_OK)
			return fail(set, "Counter", (unsigned)sl->counter, st);
	}
	return 0;
}

static uint64_t ours_frozen(const struct cxl_cpmu_set *set)
{
	uint64_t m = 0;
	for (int i = 0; i < set->n; i++)
		if (set->slot[i].counter >= 0 && set->slot[i].type != CXL_CPMU_FREE_RUNNING)
			m |= 1ull << set->slot[i].counter;
	return m;
}

int cxl_cpmu_start(const struct hw *hw, struct cxl_cpmu_set *set, struct saveset *s)
{
	if (read_free_running(hw, set, 0))
		return -1;
	hw_status st = saveset_write(hw, s, reg_mmio64(set->pmu->base + FREEZE_REG), set->freeze_found & ~ours_frozen(set));
	return st == HW_OK ? 0 : fail(set, "Freeze", 0, st);
}

int cxl_cpmu_stop(const struct hw *hw, struct cxl_cpmu_set *set, struct saveset *s)
{
	hw_status st = saveset_write(hw, s, reg_mmio64(set->pmu->base + FREEZE_REG), set->freeze_found | ours_frozen(set));
	if (st != HW_OK)
		return fail(set, "Freeze", 0, st);
	return read_free_running(hw, set, 1);
}

int cxl_cpmu_read(const struct hw *hw, struct cxl_cpmu_set *set)
{
	const struct cxl_cpmu *p = set->pmu;
	uint64_t ovf;
	hw_status st;
	if ((st = rd64(hw, p->base + OVERFLOW_REG, &ovf)) != HW_OK)
		return fail(set, "Overflow Status", 0, st);
	uint64_t wmask = p->width >= 64 ? ~0ull : (1ull << p->width) - 1;
	for (int i = 0; i < set->n; i++) {
		struct cxl_cpmu_slot *sl = &set->slot[i];
		if (sl->counter < 0)
			continue;
		unsigned c = (unsigned)sl->counter;
		int became = (ovf >> c & 1) && !(set->overflow_found >> c & 1);
		if (sl->type == CXL_CPMU_FREE_RUNNING) {
			sl->value = (sl->end - sl->start) & wmask;
			continue;
		}
		uint64_t v;
		if ((st = rd64(hw, p->base + CTR_REG(c), &v)) != HW_OK)
			return fail(set, "Counter", c, st);
		sl->value = v & wmask;
		if (became) {
			sl->overflowed = 1;
			if (p->width < 64)
				sl->value += wmask + 1;
		}
	}
	return 0;
}

static uint64_t lines(const struct cxl_cpmu_set *set, uint16_t gid, uint32_t bit, int *have)
{
	uint64_t v = 0;
	for (int i = 0; i < set->n; i++) {
		const struct cxl_cpmu_slot *sl = &set->slot[i];
		if (sl->counter >= 0 && sl->ev.vid == CXL_CPMU_VID_CXL && sl->ev.gid == gid && sl->ev.mask == bit &&
		    !sl->overflow_unknown) {
			v += sl->value;
			*have = 1;
		}
	}
	return v * CXL_CPMU_LINE_BYTES;
}

/* CXL 3.1 Table 3-46 (S2M DRS MemData, bit 0) and Table 3-35 (M2S RwD MemWr, bit 1). */
#define DRS_MEMDATA  (1u << 0)
#define RWD_MEMWR    (1u << 1)

void cxl_cpmu_self_check(const struct cxl_cpmu_set *set, uint64_t expected_read, uint64_t expected_write,
			 uint32_t tolerance_milli, struct self_check *out)
{
	int hr = 0, hw_ = 0;
	struct self_check_bytes exp = { expected_read, expected_write, 1, 1 };
	struct self_check_bytes got = { 0 };
	got.read = lines(set, CXL_CPMU_GID_S2M_DRS, DRS_MEMDATA, &hr);
	got.write = lines(set, CXL_CPMU_GID_M2S_RWD, RWD_MEMWR, &hw_);
	got.have_read = (uint8_t)hr;
	got.have_write = (uint8_t)hw_;
	self_check_compute(&exp, hr || hw_ ? &got : NULL, tolerance_milli,
			   "no CPMU counter counted S2M DRS MemData or M2S RwD MemWr", out);
}
