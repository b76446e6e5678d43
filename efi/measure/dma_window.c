/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/dma_window.h"
#include "efi/measure/cha_run.h"
#include "efi/measure/box_attach.h"
#include "efi/measure/corepmu_run.h"
#include "efi/measure/cspmu_run.h"
#include "efi/out/dma_json.h"
#include "efi/out/report.h"
#include "efi/out/once.h"
#include "arch/lib/fmt.h"

static struct pcie_bus_range ranges[ACPI_MAX_MCFG];
static int nranges;

void dma_window_ranges(const struct discovery *d)
{
	nranges = 0;
	if (d->acpi && d->acpi_status == 0)
		for (uint32_t i = 0; i < d->acpi->nmcfg && i < ACPI_MAX_MCFG; i++)
			ranges[nranges++] = (struct pcie_bus_range){ d->acpi->mcfg[i].segment, d->acpi->mcfg[i].start_bus,
								     d->acpi->mcfg[i].end_bus };
	if (!nranges)
		ranges[nranges++] = (struct pcie_bus_range){ 0, 0, 0xFF };
}

/* The traffic with the boot CPU's core PMU and the CoreSight PCIE PMUs started before the first
 * slice and stopped after the last (the CPU that drives the traffic: firmware drivers and
 * efiperf's queues run on it). */
struct core_ctx {
	const struct hw *hw;
	const struct platform *p;
	const struct dma_window *w;
	int started;
	uint64_t ns;
	struct cspmu_set *cs;
};

static uint64_t with_core(void *arg, uint32_t slice, uint32_t nslices)
{
	struct core_ctx *c = arg;
	struct corepmu *cp = c->p->corepmu;
	if (slice == 0 && !c->cs)
		c->cs = cspmu_dma_start(c->hw, c->p, c->w->kernel);
	if (cp && slice == 0) {
		corepmu_run_start(c->hw, cp);
		c->started = 1;
	}
	uint64_t ns = c->w->fn(c->w->arg, slice, nslices);
	c->ns += ns;
	if (cp && slice + 1 >= nslices && c->started)
		corepmu_run_stop(c->hw, cp);
	if (slice + 1 >= nslices)
		cspmu_dma_stop(c->hw, c->cs);
	return ns;
}

/* The window's attachments: the IIO part of its device around the CHA set (list order: the IIO
 * counters start first and stop last). Each is optional: without a plan it says why. */
struct dma_attach {
	struct attachment a[2];
	struct iio_attach iio;
	struct cha_attach cha;
	int has_iio, has_cha;
};

static void attach_of(const struct dma_window *w, struct dma_window_result *r, struct dma_attach *d,
		      struct attach_list *l)
{
	int n = 0;
	d->has_iio = iio_window_attach(w->dev, w->expected, w->iio_skip_why, &r->iio, &d->iio, &d->a[n]);
	n += d->has_iio;
	d->has_cha = cha_run_attach(w->expected, w->no_dma_why, &d->cha, &d->a[n], &r->sc);
	n += d->has_cha;
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

int dma_window_run(const struct hw *hw, const struct platform *p, const struct dma_window *w,
		   struct dma_window_result *r)
{
	struct dma_attach d;
	struct attach_list l;
	struct core_ctx c = { hw, p, w, 0, 0, NULL };
	attach_of(w, r, &d, &l);
	l.hw = hw;
	attach_prepare_all(&l);
	attach_run_slices(&l, with_core, &c);
	attach_read_all(&l);
	attach_restore_all(&l);
	r->status = d.has_cha ? cha_run_report(w->kernel, &d.cha, &r->sc) : 0;
	if (d.has_iio && iio_window_report(&d.iio))
		r->status = -1;
	if (r->iio.on)
		iio_line(w, &r->iio.sc);
	if (cspmu_dma_report(hw, c.cs, w->expected, w->no_dma_why, c.ns))
		r->status = -1;
	const struct cha_metric_values *total = cha_run_total();
	r->have_cha = total != NULL;
	if (total)
		r->cha = *total;
	if (p->corepmu && c.started)
		corepmu_run_report(hw, p->corepmu, p->mp.bsp, w->kernel, 0);
	dma_window_link(hw, w->dev, w->addr64, &r->ll);
	return r->status;
}

void dma_window_link(const struct hw *hw, struct hw_pci_addr dev, int addr64, struct link_limit *ll)
{
	link_limit_for(hw, ranges, nranges, dev, addr64, ll);
}

void dma_window_rate(struct dma_window_result *r, uint64_t read_bytes, uint64_t write_bytes, uint64_t ns)
{
	link_limit_rate(&r->ll, read_bytes, write_bytes, ns);
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
}
