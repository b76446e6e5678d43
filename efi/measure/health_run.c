/* SPDX-License-Identifier: BSD-2-Clause */
/* Health evidence attachments (health_run.h): aer, mca, energy, freq. */
#include <stddef.h>
#include "efi/measure/health_run.h"

static int same_fn(struct hw_pci_addr a, struct hw_pci_addr b)
{
	return a.segment == b.segment && a.bus == b.bus && a.dev == b.dev && a.func == b.func;
}

static struct pcie_health_snap *aer_baseline(struct health_baselines *b, struct hw_pci_addr a, int add)
{
	if (!b)
		return NULL;
	for (int i = 0; i < b->naer; i++)
		if (same_fn(b->aer[i].a, a))
			return &b->aer[i].s;
	if (!add || b->naer == HEALTH_BASELINES)
		return NULL;
	b->aer[b->naer].a = a;
	return &b->aer[b->naer++].s;
}

static void add_dev(struct health_opts *o, struct hw_pci_addr a)
{
	for (int i = 0; i < o->ndev; i++)
		if (same_fn(o->dev[i], a))
			return;
	if (o->ndev < HEALTH_MAX_FUNCS)
		o->dev[o->ndev++] = a;
}

void health_add_path(struct health_opts *o, const struct link_limit *ll, struct hw_pci_addr dev)
{
	if (ll && ll->status == 0)
		for (uint32_t i = 0; i < ll->npath; i++)
			add_dev(o, ll->path[i].addr);
	add_dev(o, dev);
}

static struct health_run *of(const struct attachment *a)
{
	return a->self;
}

/* ---- aer -------------------------------------------------------------------------------- */

static int aer_prepare(struct attachment *a, const struct hw *hw)
{
	struct health_run *h = of(a);
	if (!h->o.ndev) {
		a->st = HW_UNSUPPORTED;
		a->why = "the window has no PCIe device";
		return -1;
	}
	for (int i = 0; i < h->o.ndev; i++) {
		struct health_fn *f = &h->fn[h->nfn++];
		pcie_health_locate(hw, h->o.dev[i], &f->before);
		f->baseline = "window start";
		if (f->before.why)
			continue;
		if (h->o.aer_clear) {
			const struct pcie_health_snap *s = &f->before;
			f->cleared_devsta = s->devsta & PCI_EXP_DEVSTA_ERR_MASK;
			f->cleared_lnksta = s->lnksta & (PCI_EXP_LNKSTA_LBMS | PCI_EXP_LNKSTA_LABS);
			f->cleared_cor = s->cor;
			f->cleared_uncor = s->uncor;
			f->clear_failed = pcie_health_clear(hw, s) != 0;
			pcie_health_read(hw, &f->before);
			continue;
		}
		const struct pcie_health_snap *last = aer_baseline(h->o.last, f->before.addr, 0);
		if (last && !last->why && last->exp == f->before.exp) {
			f->before = *last;
			f->baseline = "previous window";
		}
	}
	return 0;
}

static int aer_read(struct attachment *a, const struct hw *hw)
{
	struct health_run *h = of(a);
	for (int i = 0; i < h->nfn; i++) {
		struct health_fn *f = &h->fn[i];
		f->after = f->before;
		if (f->before.why || pcie_health_read(hw, &f->after) != 0)
			continue;
		pcie_health_delta(&f->before, &f->after, &f->d);
		h->correctable += f->d.correctable;
		h->uncorrectable += f->d.uncorrectable;
		h->link_events += f->d.link_events;
		struct pcie_health_snap *last = aer_baseline(h->o.last, f->after.addr, 1);
		if (last)
			*last = f->after;
	}
	return 0;
}

/* ---- mca --------------------------------------------------------------------------------- */

static int mca_prepare(struct attachment *a, const struct hw *hw)
{
	struct health_run *h = of(a);
	mca_snapshot(hw, &h->mca0);
	h->mca_baseline = "window start";
	if (h->mca0.why) {
		a->st = HW_UNSUPPORTED;
		a->why = h->mca0.why;
		return -1;
	}
	if (h->o.last && h->o.last->mca_set && h->o.last->mca.nbanks == h->mca0.nbanks) {
		h->mca0 = h->o.last->mca;
		h->mca_baseline = "previous window";
	}
	return 0;
}

static int mca_read(struct attachment *a, const struct hw *hw)
{
	struct health_run *h = of(a);
	mca_snapshot(hw, &h->mca1);
	if (h->mca1.why) {
		a->why = h->mca1.why;
		return -1;
	}
	mca_delta(&h->mca0, &h->mca1, &h->mca);
	if (h->o.last) {
		h->o.last->mca = h->mca1;
		h->o.last->mca_set = 1;
	}
	return 0;
}

/* ---- energy and thermal ------------------------------------------------------------------ */

static int energy_prepare(struct attachment *a, const struct hw *hw)
{
	struct health_run *h = of(a);
	energy_snapshot(hw, &h->e0);
	therm_snapshot(hw, &h->t0);
	h->ticks0 = h->o.now ? h->o.now() : 0;
	if (h->e0.why && h->t0.why && h->t0.pkg_why) {
		a->st = HW_UNSUPPORTED;
		a->why = h->e0.why;
		return -1;
	}
	return 0;
}

static int energy_read(struct attachment *a, const struct hw *hw)
{
	struct health_run *h = of(a);
	h->ticks1 = h->o.now ? h->o.now() : 0;
	energy_snapshot(hw, &h->e1);
	therm_snapshot(hw, &h->t1);
	h->throttled = therm_throttled(&h->t0, &h->t1);
	return 0;
}

/* ---- freq -------------------------------------------------------------------------------- */

static int freq_prepare(struct attachment *a, const struct hw *hw)
{
	struct health_run *h = of(a);
	freq_snapshot(hw, &h->f0);
	if (h->f0.why) {
		a->st = HW_UNSUPPORTED;
		a->why = h->f0.why;
		return -1;
	}
	return 0;
}

static void freq_cpu_start(struct attachment *a, const struct hw *hw, int i)
{
	struct health_run *h = of(a);
	if (i >= 0 && i < HEALTH_FREQ_CPUS)
		freq_snapshot(hw, &h->cpu0[i]);
}

static void freq_cpu_stop(struct attachment *a, const struct hw *hw, int i)
{
	struct health_run *h = of(a);
	struct freq_snap s;
	if (i < 0 || i >= HEALTH_FREQ_CPUS)
		return;
	freq_snapshot(hw, &s);
	h->cpu_why[i] = h->cpu0[i].why ? h->cpu0[i].why : s.why;
	h->ratio_milli[i] = h->cpu_why[i] ? 0 : (uint32_t)freq_ratio_milli(&h->cpu0[i], &s);
	if (i + 1 > h->ncpus)
		h->ncpus = i + 1;
}

static int freq_read(struct attachment *a, const struct hw *hw)
{
	struct health_run *h = of(a);
	freq_snapshot(hw, &h->f1);
	if (h->f1.why) {
		a->why = h->f1.why;
		return -1;
	}
	return 0;
}

static const struct attachment_ops kinds[HEALTH_KINDS] = {
	{ .kind = "aer", .prepare = aer_prepare, .read = aer_read },
	{ .kind = "mca", .prepare = mca_prepare, .read = mca_read },
	{ .kind = "energy", .prepare = energy_prepare, .read = energy_read },
	{ .kind = "freq", .prepare = freq_prepare, .cpu_start = freq_cpu_start, .cpu_stop = freq_cpu_stop, .read = freq_read },
};

void health_begin(struct health_run *h, const struct hw *hw)
{
	struct health_opts o = h->o;
	__builtin_memset(h, 0, sizeof(*h));   /* no 8 KiB temporary on the stack */
	h->o = o;
	for (int k = 0; k < HEALTH_KINDS; k++)
		h->a[k] = (struct attachment){ .ops = &kinds[k], .self = h };
	h->l = (struct attach_list){ .a = h->a, .n = HEALTH_KINDS, .hw = hw };
	attach_prepare_all(&h->l);
}

const struct window_counters *health_counters(struct health_run *h)
{
	return h ? attach_counters(&h->l) : NULL;
}

void health_end(struct health_run *h)
{
	if (!h)
		return;
	attach_read_all(&h->l);
	attach_restore_all(&h->l);
}

const struct attachment *health_kind(const struct health_run *h, const char *kind)
{
	return attach_find(&h->l, kind);
}

struct health_run *health_cpu_begin(const struct measure_ctx *ctx, const struct health_opts *o, struct window_spec *spec)
{
	struct health_run *h = o ? ctx->alloc(sizeof(*h)) : NULL;
	if (!h)
		return NULL;
	h->o = *o;
	h->o.ndev = 0;
	health_begin(h, ctx->hw);
	if (spec && !spec->counters)
		spec->counters = health_counters(h);
	return h;
}
