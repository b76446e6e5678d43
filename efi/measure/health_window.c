/* SPDX-License-Identifier: BSD-2-Clause */
/* The firmware's part of a window's health attachments (health_window.h). */
#include "efi/measure/health_window.h"
#include "efi/measure/dma_window.h"
#include "efi/pages.h"
#include "arch/arch.h"

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
