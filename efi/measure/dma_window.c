/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/dma_window.h"
#include "efi/measure/cha_run.h"
#include "efi/measure/box_attach.h"
#include "efi/measure/corepmu_run.h"
#include "efi/measure/cspmu_run.h"
#include "efi/measure/health_window.h"
#include "efi/out/health_json.h"
#include "efi/pages.h"
#include "efi/out/dma_json.h"
#include "efi/out/report.h"
#include "efi/out/once.h"
#include "arch/lib/fmt.h"
#include "arch/arch.h"

void dma_window_ranges(struct dma_plan *dp, const struct discovery *d, int aer_clear)
{
	dp->aer_clear = aer_clear;
	dp->nranges = 0;
	if (d->acpi && d->acpi_status == 0)
		for (uint32_t i = 0; i < d->acpi->nmcfg && i < ACPI_MAX_MCFG; i++)
			dp->ranges[dp->nranges++] = (struct pcie_bus_range){ d->acpi->mcfg[i].segment,
									     d->acpi->mcfg[i].start_bus,
									     d->acpi->mcfg[i].end_bus };
	if (!dp->nranges)
		dp->ranges[dp->nranges++] = (struct pcie_bus_range){ 0, 0, 0xFF };
}

/* The window's attachments in start order: the IIO part of its device, the CHA set, the
 * CoreSight PCIE PMUs and the core PMU of the boot CPU (the CPU that drives the traffic:
 * firmware drivers and efiperf's queues run on it). Each is optional: the IIO and CHA ones say
 * why in their self_check when they cannot count. */
struct dma_attach {
	struct attachment a[4];
	struct iio_attach iio;
	struct cha_attach cha;
	struct cspmu_attach cs;
	struct corepmu_attach core;
	int has_iio, has_cha, has_core;
};

static void attach_of(const struct platform *p, const struct dma_plan *dp, const struct dma_window *w,
		      struct dma_window_result *r, struct dma_attach *d, struct attach_list *l)
{
	int n = 0;
	d->has_iio = iio_window_attach(dp->iio, w->dev, w->expected, w->iio_skip_why, &r->iio, &d->iio, &d->a[n]);
	n += d->has_iio;
	d->has_cha = cha_run_attach(dp->cha, w->expected, w->no_dma_why, &d->cha, &d->a[n]);
	n += d->has_cha;
	d->cs = (struct cspmu_attach){ .p = p, .cp = &dp->cs, .kernel = w->kernel };
	d->a[n++] = (struct attachment){ .ops = &cspmu_attach_ops, .self = &d->cs };
	d->has_core = p->corepmu != NULL;
	d->core = (struct corepmu_attach){ .cp = p->corepmu, .cpu = p->mp.bsp };
	if (d->has_core)
		d->a[n++] = (struct attachment){ .ops = &corepmu_attach_ops, .self = &d->core };
	*l = (struct attach_list){ .a = d->a, .n = n };
}

/* The iio self_check's console line (the record carries it too). */
static void iio_line(const struct dma_window *w, const struct self_check *s)
{
	char ratio[24] = "-";
	if (s->have_ratio_write || s->have_ratio_read)
		fmt_milli(ratio, sizeof(ratio), s->have_ratio_write ? s->ratio_write_milli : s->ratio_read_milli);
	rep_line("            iio self_check (%s): %s (ratio %s)%s%s", w->kernel, self_check_state_name(s->state), ratio,
		 s->why[0] ? ": " : "", s->why);
}

int dma_window_run(const struct hw *hw, const struct platform *p, const struct dma_plan *dp,
		   const struct dma_window *w, struct dma_window_result *r)
{
	struct health_run *h = pool_zalloc(sizeof(*h));
	if (h) {
		health_window_opts(hw, p, dp, dp->aer_clear, &w->dev, 1, &h->o);
		health_begin(h, hw);
	}
	int rc = dma_window_counters(hw, p, dp, w, r);
	if (h)
		health_end(h);
	r->health = h;
	return rc;
}

int dma_window_counters(const struct hw *hw, const struct platform *p, const struct dma_plan *dp,
			const struct dma_window *w, struct dma_window_result *r)
{
	struct dma_attach d;
	struct attach_list l;
	r->health = NULL;
	attach_of(p, dp, w, r, &d, &l);
	l.hw = hw;
	attach_prepare_all(&l);
	attach_run_slices(&l, w->fn, w->arg);
	attach_read_all(&l);
	attach_restore_all(&l);
	r->status = 0;
	if (d.has_cha)
		r->status = cha_run_report(w->kernel, &d.cha, &r->sc);
	else
		cha_run_unattached(dp->cha, w->expected, &r->sc);
	if (d.has_iio && iio_window_report(&d.iio))
		r->status = -1;
	if (r->iio.on)
		iio_line(w, &r->iio.sc);
	if (cspmu_dma_report(hw, &d.cs, w->expected, w->no_dma_why))
		r->status = -1;
	r->have_cha = d.has_cha && !d.cha.res->status;   /* the CHA totals of a window counted without error */
	if (r->have_cha)
		r->cha = d.cha.res->total;
	if (d.has_core && d.core.started)
		corepmu_run_records(p->corepmu, p->mp.bsp, w->kernel, 0);
	dma_window_link(dp, hw, w->dev, w->addr64, &r->ll);
	return r->status;
}

void dma_window_link(const struct dma_plan *dp, const struct hw *hw, struct hw_pci_addr dev, int addr64,
		     struct link_limit *ll)
{
	link_limit_for(hw, dp->ranges, dp->nranges, dev, addr64, ll);
}

/* The run's baselines (from the pool on first use): each window's health is against the one
 * before it, across measurements, so this stays module state rather than a plan field (it is
 * the previous window's evidence, not something the plan decides). */
static struct health_baselines *last;

void health_window_opts(const struct hw *hw, const struct platform *p, const struct dma_plan *dp, int aer_clear,
			const struct hw_pci_addr *devs, int ndev, struct health_opts *o)
{
	*o = (struct health_opts){ .aer_clear = aer_clear, .now = arch_timer_read, .hz = p->timer_hz };
	for (int i = 0; i < ndev; i++) {
		struct link_limit ll;
		dma_window_link(dp, hw, devs[i], 1, &ll);
		health_add_path(o, &ll, devs[i]);
	}
	if (!last)
		last = pool_zalloc(sizeof(*last));
	o->last = last;
}

void dma_window_rate(struct dma_window_result *r, uint64_t read_bytes, uint64_t write_bytes, uint64_t ns)
{
	link_limit_rate(&r->ll, read_bytes, write_bytes, ns);
	dma_window_rate_text(r);
}

void dma_window_rate_text(const struct dma_window_result *r)
{
	if (r->ll.impossible) {
		char f[24];
		fmt_milli(f, sizeof(f), r->ll.fraction_milli);
		rep_once("link limit impossible", "            link limit: %s of the effective limit: impossible on real "
			 "hardware (an emulated link is not held to its negotiated speed, or a counting error)", f);
	}
}

void dma_window_json(struct json *j, const struct dma_window_result *r)
{
	self_check_json(j, "self_check", &r->sc);
	if (r->iio.on) {
		self_check_json(j, "iio_self_check", &r->iio.sc);
		if (r->iio.place.placed) {
			json_obj(j, "iio_part");
			json_u64(j, "socket", r->iio.place.socket);
			json_u64(j, "stack", r->iio.place.stack);
			json_u64(j, "part", r->iio.place.part);
			char port[16];
			fmt_snprintf(port, sizeof(port), "%04x:%02x:%02x.%u", r->iio.place.port.segment,
				     r->iio.place.port.bus, r->iio.place.port.dev, r->iio.place.port.func);
			json_str(j, "root_port", port);
			json_close(j);
		}
	}
	link_limit_json(j, "link_limit", &r->ll);
	if (r->health)
		health_json(j, r->health, NULL);
}
