/* SPDX-License-Identifier: BSD-2-Clause */
/* Intel UPI link layer and M2M/B2CMI as data (pmu/uncore/intel_upi.h: every fact's source). */
#include "pmu/uncore/intel_upi.h"
#include "arch/lib/fmt.h"

#include <string.h>

#define EN22 (1ull << 22)            /* SNBEP_PMON_CTL_EN */
#define INTEL_PCI_VENDOR 0x8086      /* Intel's PCI vendor ID */
#define CTL_BASE 0xFF84FFFFull       /* event, umask, edge 18, inv 23, thresh 31:24 */
#define UMASK_EXT_SHIFT 32           /* umask_ext / umask_ext3/4: config:32- */
/* SNBEP_PMON_BOX_CTL_RST_CTRL bit 0, RST_CTRS bit 1, FRZ bit 8, FRZ_EN bit 16 */
#define SNBEP_UNIT .box_frz = 1ull << 8 | 1ull << 16, .box_rst_ctrl = 1ull << 0, .box_rst_ctrs = 1ull << 1, \
	.ctl_en = EN22
#define UPI_PCI .access = BOX_ACCESS_PCI, .num_counters = 4, .ctr_bits = 48, .reg_step = 1, .ctl_step = 8, \
	.ctr_step = 8, .max_boxes = 3, .unit_ctl = 0, .filter = { BOX_NO_REG, BOX_NO_REG }, .status = BOX_NO_REG, \
	.ctr_split32 = 1, SNBEP_UNIT

#define SKX_UPI_BOX_CTL 0x378        /* SKX_UPI_PCI_PMON_BOX_CTL */
#define SKX_UPI_CTL0 0x350           /* SKX_UPI_PCI_PMON_CTL0 */
#define SKX_UPI_CTR0 0x318           /* SKX_UPI_PCI_PMON_CTR0 */
#define ICX_UPI_BOX_CTL 0x318        /* ICX_UPI_PCI_PMON_BOX_CTL */
#define ICX_UPI_CTL0 0x350           /* ICX_UPI_PCI_PMON_CTL0 */
#define ICX_UPI_CTR0 0x320           /* ICX_UPI_PCI_PMON_CTR0 */

static const struct uncore_box_type skx_upi_type = {
	.name = "UPI", UPI_PCI, .box_ctl = SKX_UPI_BOX_CTL, .ctl0 = SKX_UPI_CTL0 - SKX_UPI_BOX_CTL,
	.ctr0 = SKX_UPI_CTR0 - SKX_UPI_BOX_CTL, .event_mask = CTL_BASE | 0xFFFull << UMASK_EXT_SHIFT,
};
static const struct uncore_box_type icx_upi_type = {
	.name = "UPI", UPI_PCI, .box_ctl = ICX_UPI_BOX_CTL, .ctl0 = ICX_UPI_CTL0 - ICX_UPI_BOX_CTL,
	.ctr0 = ICX_UPI_CTR0 - ICX_UPI_BOX_CTL, .event_mask = CTL_BASE | 0xFFFFFFull << UMASK_EXT_SHIFT,
};
/* SPR and later: unit control, CTL0 / CTR0 offsets and counter geometry from the discovery
 * table (the values here are defaults it replaces); generic unit control (Linux
 * uncore_discovery.h GENERIC_PMON_BOX_CTL_FRZ bit 0, RST_CTRL bit 8, RST_CTRS bit 9) */
static const struct uncore_box_type spr_upi_type = {
	.name = "UPI", .access = BOX_ACCESS_PCI, .num_counters = 4, .ctr_bits = 48, .reg_step = 1, .ctl_step = 8,
	.ctr_step = 8, .max_boxes = 6, .unit_ctl = 0, .ctl0 = ICX_UPI_CTL0 - ICX_UPI_BOX_CTL,
	.ctr0 = ICX_UPI_CTR0 - ICX_UPI_BOX_CTL, .filter = { BOX_NO_REG, BOX_NO_REG }, .status = BOX_NO_REG,
	.ctr_split32 = 1, .box_frz = 1ull << 0, .box_rst_ctrl = 1ull << 8, .box_rst_ctrs = 1ull << 9, .ctl_en = EN22,
	.event_mask = CTL_BASE | 0xFFFFFFull << UMASK_EXT_SHIFT,
};

#define SKX_UPI_DID 0x2058
#define ICX_UPI_DID 0x3441
static const struct upi_link_pci skx_links[] = { { SKX_UPI_DID, 14, 0 }, { SKX_UPI_DID, 15, 0 }, { SKX_UPI_DID, 16, 0 } };
static const struct upi_link_pci icx_links[] = { { ICX_UPI_DID, 2, 1 }, { ICX_UPI_DID, 3, 1 }, { ICX_UPI_DID, 4, 1 } };
#define UNCORE_SPR_UPI 8             /* discovery box type of the UPI link layer */
#define SPR_PLUS(n) { n, &spr_upi_type, NULL, 0, UNCORE_SPR_UPI, 24, 24 }

const struct upi_platform upi_platforms[] = {
	{ "SKX", &skx_upi_type, skx_links, 3, 0, 12, 0 },
	{ "ICX", &icx_upi_type, icx_links, 3, 0, 24, 8 },
	SPR_PLUS("SPR"), SPR_PLUS("EMR"), SPR_PLUS("GNR"), SPR_PLUS("SRF"), SPR_PLUS("CWF"),
};
const unsigned upi_nplatforms = sizeof(upi_platforms) / sizeof(upi_platforms[0]);

const struct upi_platform *upi_platform_by_name(const char *name)
{
	for (unsigned i = 0; i < upi_nplatforms; i++)
		if (!strcmp(upi_platforms[i].name, name))
			return &upi_platforms[i];
	return NULL;
}

int upi_encode(const struct upi_platform *p, const char *unit, const struct gen_row *r, uint64_t *ctl,
	       char *why, size_t n)
{
	unsigned bits = !strcmp(unit, "upi") ? p->upi_ext_bits : p->m2m_ext_bits;
	const char *bad = r->port_mask || r->fc_mask ? "PortMask/FCMask"
			  : r->filter ? "FILTER_VALUE" : r->umask_ext >> bits ? "UMaskExt" : NULL;
	if (bad) {
		fmt_snprintf(why, n, "%s %s %s: %s has no field in this box's event select", p->name, unit, r->name, bad);
		return -1;
	}
	*ctl = r->event | (uint64_t)r->umask << 8 | EN22 | (uint64_t)r->umask_ext << UMASK_EXT_SHIFT;
	return 0;
}

uint64_t upi_flits_bytes(uint64_t flits)
{
	return flits / UPI_BYTES_PER_FLIT_DEN * UPI_BYTES_PER_FLIT_NUM +
	       flits % UPI_BYTES_PER_FLIT_DEN * UPI_BYTES_PER_FLIT_NUM / UPI_BYTES_PER_FLIT_DEN;
}

uint64_t upi_milli_gbps(uint64_t flits, uint64_t ns)
{
	return ns ? upi_flits_bytes(flits) * 1000 / ns : 0;
}

int upi_find_links(const struct upi_platform *p, const struct intel_pci_fn *fns, uint32_t nfns,
		   struct intel_unit *u, uint32_t max, uint32_t *n, char *why, size_t wn)
{
	*n = 0;
	if (!p->links) {
		fmt_snprintf(why, wn, "%s UPI: links come from the uncore discovery table (box type %u)", p->name,
			     p->disc_box_type);
		return -1;
	}
	int prev_bus = -1;
	uint16_t socket = 0;
	for (uint32_t i = 0; i < nfns; i++) {       /* scan order: ascending bus */
		for (uint8_t l = 0; l < p->nlinks; l++) {
			const struct upi_link_pci *k = &p->links[l];
			if (fns[i].vendor != INTEL_PCI_VENDOR || fns[i].device != k->device || fns[i].a.dev != k->dev ||
			    fns[i].a.func != k->func)
				continue;
			if (prev_bus >= 0 && fns[i].a.bus != prev_bus)
				socket++;
			prev_bus = fns[i].a.bus;
			if (*n < max)
				u[(*n)++] = (struct intel_unit){ .socket = socket, .unit = l, .site = { .pci = fns[i].a } };
		}
	}
	if (!*n) {
		fmt_snprintf(why, wn, "%s UPI: no link function 8086:%04x at device %u.%u (or the others of its table)",
			     p->name, p->links[0].device, p->links[0].dev, p->links[0].func);
		return -1;
	}
	return 0;
}

int upi_request(const struct upi_platform *p, const struct intel_unit *links, uint32_t nlinks, const uint32_t *cpu,
		struct unc_request *req, char *why, size_t n)
{
	memset(req, 0, sizeof(*req));
	req->type = *p->type;
	req->pmu = "uncore_upi";
	req->platform = p->name;
	req->scope = "link";
	req->rounds = 1;
	req->sited = 1;
	static const uint8_t ev[2] = { UPI_EV_TXL_FLITS, UPI_EV_RXL_FLITS };
	for (int i = 0; i < 2; i++) {
		struct unc_event *e = &req->ev[req->nevents++];
		e->ctl = ev[i] | (uint64_t)UPI_UMASK_ALL_DATA << 8 | EN22;
		fmt_snprintf(e->spec, sizeof(e->spec), "uncore_upi/event=0x%x,umask=0x%x/", ev[i], UPI_UMASK_ALL_DATA);
	}
	if (intel_units_to_pkgs(req, links, nlinks, cpu, -1, why, n))
		return -1;
	return unc_form_groups(req, why, n);
}

void upi_link_bw(const struct unc_result *res, uint32_t k, struct upi_link_bw *bw)
{
	uint64_t tx = res->scaled[k][0], rx = res->scaled[k][1];
	*bw = (struct upi_link_bw){ upi_flits_bytes(tx), upi_flits_bytes(rx), upi_milli_gbps(tx, res->window_ns),
				    upi_milli_gbps(rx, res->window_ns) };
}
