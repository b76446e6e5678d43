/* SPDX-License-Identifier: BSD-2-Clause */
/* A window's health attachments from the pool (health_window.h). */
#include "efi/measure/health_window.h"
#include "efi/measure/dma_window.h"
#include "efi/pages.h"
#include "arch/arch.h"

static struct health_baselines *last;   /* the run's, from the pool on first use */

struct health_run *health_window_begin(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
				       const struct hw_pci_addr *devs, int ndev)
{
	struct health_run *h = pool_zalloc(sizeof(*h));
	if (!h)
		return NULL;
	for (int i = 0; i < ndev; i++) {
		struct link_limit ll;
		dma_window_link(hw, devs[i], 1, &ll);
		health_add_path(&h->o, &ll, devs[i]);
	}
	h->o.aer_clear = cfg->aer_clear;
	h->o.now = arch_timer_read;
	h->o.hz = p->timer_hz;
	if (!last)
		last = pool_zalloc(sizeof(*last));
	h->o.last = last;   /* NULL without memory: each window against its own start */
	health_begin(h, hw);
	return h;
}

void health_window_end(struct health_run *h)
{
	if (h)
		health_end(h);
}

void health_window_free(struct health_run *h)
{
	pool_free(h);
}
