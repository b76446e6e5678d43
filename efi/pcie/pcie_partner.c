/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Link partners: a PCIe link has two ends, a downstream-facing port (Root Port, Switch
 * Downstream Port) and the upstream-facing function on its secondary bus (device 0; all
 * functions of a multi-function device share the link). The link trains to the highest speed
 * and widest width both ends support (PCIe Base 6.0 4.2.6 LTSSM: Configuration negotiates the
 * width, 4.2.7 / 4.2.6.4 speed change to the highest common data rate). So a link is
 * downtrained only below min(own LnkCap, partner's LnkCap); below its own LnkCap but at that
 * minimum, the partner is the limit (a qualification report must tell the two apart).
 */
#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"
#include <string.h>

#define DOWNTRAINED_PREFIX "downtrained:"

static int downstream_facing(const struct pcie_func *f)
{
	return f->exp.present && (f->exp.port_type == PCI_EXP_TYPE_ROOT_PORT ||
				  f->exp.port_type == PCI_EXP_TYPE_DOWNSTREAM);
}

/* Withdraw the "downtrained: ..." defect pcie_decode_exp recorded against the own LnkCap. */
static void withdraw_downtrained(struct pcie_func *f)
{
	int kept = f->ndefects < PCIE_MAX_DEFECTS ? f->ndefects : PCIE_MAX_DEFECTS;
	for (int i = 0; i < kept; i++)
		if (!strncmp(f->defects[i], DOWNTRAINED_PREFIX, sizeof(DOWNTRAINED_PREFIX) - 1)) {
			memmove(f->defects[i], f->defects[i + 1], (size_t)(kept - i - 1) * PCIE_DEFECT_LEN);
			f->ndefects--;
			return;
		}
}

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

static void judge(struct pcie_func *f, const struct pcie_func *partner)
{
	struct pcie_link *l = &f->exp.link;
	const struct pcie_link *p = &partner->exp.link;
	l->has_partner = 1;
	l->partner = partner->addr;
	l->partner_max_mgts = p->max_mgts;
	l->partner_max_width = p->max_width;
	if (!l->up || !l->downtrained || !p->max_mgts || !p->max_width)
		return;
	uint32_t speed = min_u32(l->max_mgts, p->max_mgts), width = min_u32(l->max_width, p->max_width);
	if (l->mgts >= speed && l->width >= width) {
		l->downtrained = 0;
		l->limited_by_partner = 1;
		withdraw_downtrained(f);
	}
}

void pcie_link_partners(struct pcie_scan *s)
{
	for (int i = 0; i < s->n; i++) {
		struct pcie_func *f = &s->funcs[i];
		if (!f->exp.link.present || f->parent < 0 || f->addr.dev != 0)
			continue;
		struct pcie_func *port = &s->funcs[f->parent];
		if (!downstream_facing(port) || !port->exp.link.present)
			continue;
		judge(port, f);
		judge(f, port);
		/* the other functions of the device share function 0's link */
		for (int k = 0; k < s->n; k++) {
			struct pcie_func *g = &s->funcs[k];
			if (k != i && g->parent == f->parent && g->addr.dev == 0 && g->exp.link.present)
				judge(g, port);
		}
	}
}
