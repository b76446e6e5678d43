/* SPDX-License-Identifier: BSD-2-Clause */
/* The link limit of a DMA path: overhead model and sources in efi/pcie/link_limit.h. */
#include "efi/pcie/link_limit.h"
#include "efi/pcie/pcie_regs.h"
#include "arch/lib/fmt.h"

#include <string.h>

#define MGTS_128B130B_FROM 8000u   /* 8.0 GT/s: first 128b/130b rate (PCIe Base 4.0 4.2.2) */
#define MGTS_FLIT_FROM 64000u      /* 64.0 GT/s: Flit Mode (PCIe 6.0), not modelled */
#define BITS_PER_BYTE 8u
#define MILLI 1000u

/* The effective rate as the fraction top / bottom milli-GB/s: milli-GT/s x lanes x encoding
 * / 8 bits x payload / (payload + overhead). 0 when not modelled. */
static int effective_ratio(uint32_t mgts, unsigned width, unsigned payload, unsigned hdr, unsigned __int128 *top,
			   unsigned __int128 *bottom)
{
	if (!mgts || mgts >= MGTS_FLIT_FROM || !width || !payload)
		return 0;
	uint64_t num = mgts >= MGTS_128B130B_FROM ? 128 : 8, den = mgts >= MGTS_128B130B_FROM ? 130 : 10;
	*top = (unsigned __int128)mgts * width * num * payload;
	*bottom = (unsigned __int128)den * BITS_PER_BYTE * (payload + hdr + LINK_TLP_LINK_BYTES);
	return 1;
}

uint64_t link_effective_mgbps(uint32_t mgts, unsigned width, unsigned payload, unsigned hdr)
{
	unsigned __int128 top, bottom;
	if (!effective_ratio(mgts, width, payload, hdr, &top, &bottom))
		return 0;
	return (uint64_t)((top + bottom / 2) / bottom);   /* one rounding */
}

/* Least time for `bytes` at the effective rate, in milli-ns: bytes / GB/s = ns, unrounded rate. */
static unsigned __int128 least_millins(uint64_t bytes, uint32_t mgts, unsigned width, unsigned payload, unsigned hdr)
{
	unsigned __int128 top, bottom;
	if (!bytes || !effective_ratio(mgts, width, payload, hdr, &top, &bottom))
		return 0;
	return (unsigned __int128)bytes * MILLI * MILLI * bottom / top;
}

static int downstream_facing(const struct link_hop *h)
{
	return h->exp && (h->port_type == PCI_EXP_TYPE_ROOT_PORT || h->port_type == PCI_EXP_TYPE_DOWNSTREAM);
}

static void bdf(const struct link_hop *h, char *buf, size_t n)
{
	pcie_bdf_str(h->addr, buf, n);
}

int link_limit_compute(struct link_limit *ll, int addr64)
{
	ll->nlinks = 0;
	ll->status = -1;
	ll->have_effective = 0;
	ll->mps = 0;
	for (uint32_t i = 0; i < ll->npath; i++)
		if (ll->path[i].exp && ll->path[i].mps && (!ll->mps || ll->path[i].mps < ll->mps))
			ll->mps = ll->path[i].mps;
	ll->mrrs = ll->npath ? ll->path[ll->npath - 1].mrrs : 0;
	ll->write_hdr = addr64 ? LINK_HDR_4DW : LINK_HDR_3DW;
	/* a link: a downstream-facing port and the upstream-facing function right below it */
	for (uint32_t i = 0; i + 1 < ll->npath; i++) {
		const struct link_hop *port = &ll->path[i], *dev = &ll->path[i + 1];
		if (!downstream_facing(port) || !dev->exp)
			continue;
		struct link_seg *s = &ll->links[ll->nlinks++];
		s->port = (uint8_t)i;
		s->dev = (uint8_t)(i + 1);
		/* the smaller of the two ends' LnkSta (a link runs at one rate; an end that is not up
		 * does not count) */
		const struct link_hop *a = port->up ? port : dev, *b = dev->up ? dev : port;
		s->mgts = a->mgts < b->mgts ? a->mgts : b->mgts;
		s->width = a->width < b->width ? a->width : b->width;
		s->ends_disagree = port->up && dev->up && (port->mgts != dev->mgts || port->width != dev->width);
		s->raw_mgbps = a->up ? pcie_link_mgbps(s->mgts, s->width) : 0;
	}
	if (!ll->nlinks) {
		char d[16];
		bdf(&ll->path[ll->npath ? ll->npath - 1 : 0], d, sizeof(d));
		fmt_snprintf(ll->why, sizeof(ll->why), "no PCI Express link on the path of %s", d);
		return -1;
	}
	/* the slowest link; of equal ones the nearest the device (its own link) */
	ll->bottleneck = 0;
	for (uint32_t k = 1; k < ll->nlinks; k++)
		if (ll->links[k].raw_mgbps <= ll->links[ll->bottleneck].raw_mgbps)
			ll->bottleneck = k;
	const struct link_seg *bn = &ll->links[ll->bottleneck];
	if (!bn->raw_mgbps) {
		char p[16], d[16];
		bdf(&ll->path[bn->port], p, sizeof(p));
		bdf(&ll->path[bn->dev], d, sizeof(d));
		fmt_snprintf(ll->why, sizeof(ll->why), "link %s - %s is down (LnkSta: no speed or width)", p, d);
		return -1;
	}
	ll->raw_mgbps = bn->raw_mgbps;
	ll->status = 0;
	if (!ll->mps) {
		fmt_snprintf(ll->why, sizeof(ll->why), "no Max_Payload_Size on the path: effective rate unknown");
		return 0;
	}
	unsigned cpl = ll->mrrs && ll->mrrs < ll->mps ? ll->mrrs : ll->mps;
	ll->eff_write_mgbps = link_effective_mgbps(bn->mgts, bn->width, ll->mps, ll->write_hdr);
	ll->eff_read_mgbps = link_effective_mgbps(bn->mgts, bn->width, cpl, LINK_HDR_3DW);
	ll->have_effective = ll->eff_write_mgbps && ll->eff_read_mgbps;
	if (!ll->have_effective)
		fmt_snprintf(ll->why, sizeof(ll->why), "%u milli-GT/s: Flit Mode overhead not modelled", bn->mgts);
	return 0;
}

static void hop_from(struct link_hop *h, const struct pcie_func *f)
{
	memset(h, 0, sizeof(*h));
	h->addr = f->addr;
	h->exp = f->exp.present;
	h->port_type = f->exp.port_type;
	h->up = f->exp.link.up;
	h->mgts = f->exp.link.mgts;
	h->width = f->exp.link.width;
	h->mps = f->exp.mps;
	h->mrrs = f->exp.mrrs;
}

/* The Type 1 function of segment seg on a bus below `bus` (within the range) whose Secondary
 * Bus Number is `bus` (PCIe 4.0 7.5.1.3.4). Returns 1 and *out when found. */
static int find_parent(const struct hw *h, const struct pcie_bus_range *r, uint8_t bus, struct hw_pci_addr *out)
{
	for (unsigned b = r->bus_start; b < bus; b++)
		for (unsigned d = 0; d < PCI_MAX_DEVICES; d++)
			for (unsigned fn = 0; fn < PCI_MAX_FUNCTIONS; fn++) {
				struct hw_pci_addr a = { r->segment, (uint8_t)b, (uint8_t)d, (uint8_t)fn };
				uint16_t vendor;
				uint8_t type;
				uint32_t buses;
				if (pcie_cfg_read16(h, a, PCI_VENDOR_ID, &vendor) != HW_OK || vendor == PCI_VENDOR_ID_NONE ||
				    vendor == PCI_VENDOR_ID_ZERO || pcie_cfg_read8(h, a, PCI_HEADER_TYPE, &type) != HW_OK) {
					if (fn == 0)
						break;   /* no function 0: no device */
					continue;
				}
				if ((type & PCI_HEADER_TYPE_LAYOUT) == PCI_HEADER_TYPE_BRIDGE &&
				    pcie_cfg_read32(h, a, PCI_PRIMARY_BUS, &buses) == HW_OK &&
				    ((buses >> PCI_SECONDARY_BUS_SHIFT) & PCI_BUS_MASK) == bus) {
					*out = a;
					return 1;
				}
				if (fn == 0 && !(type & PCI_HEADER_TYPE_MFD))
					break;
			}
	return 0;
}

int link_limit_for(const struct hw *h, const struct pcie_bus_range *ranges, int nranges, struct hw_pci_addr dev,
		   int addr64, struct link_limit *ll)
{
	static struct pcie_func f;   /* ~1.5 KiB: not on the firmware's stack */
	char d[16];
	memset(ll, 0, sizeof(*ll));
	ll->status = -1;
	pcie_bdf_str(dev, d, sizeof(d));
	const struct pcie_bus_range *r = NULL;
	for (int i = 0; i < nranges && !r; i++)
		if (ranges[i].segment == dev.segment && dev.bus >= ranges[i].bus_start && dev.bus <= ranges[i].bus_end)
			r = &ranges[i];
	if (!r) {
		fmt_snprintf(ll->why, sizeof(ll->why), "%s: outside every scanned bus range", d);
		return -1;
	}
	struct link_hop rev[LINK_MAX_PATH];   /* device first, Root Port last */
	uint32_t n = 0;
	struct hw_pci_addr a = dev;
	for (;;) {
		if (pcie_probe_func(h, a, &f) != HW_OK || f.vendor == PCI_VENDOR_ID_NONE || f.vendor == PCI_VENDOR_ID_ZERO) {
			char x[16];
			pcie_bdf_str(a, x, sizeof(x));
			fmt_snprintf(ll->why, sizeof(ll->why), "%s: no function at %s", d, x);
			return -1;
		}
		if (n == LINK_MAX_PATH) {
			fmt_snprintf(ll->why, sizeof(ll->why), "%s: more than %u functions up to the Root Port", d, LINK_MAX_PATH);
			return -1;
		}
		hop_from(&rev[n++], &f);
		if (f.exp.present && f.exp.port_type == PCI_EXP_TYPE_ROOT_PORT)
			break;
		struct hw_pci_addr up;
		if (!find_parent(h, r, a.bus, &up)) {
			if (n == 1) {
				fmt_snprintf(ll->why, sizeof(ll->why),
					     "%s sits on a root bus (Root Complex integrated): no PCI Express link to it", d);
				return -1;
			}
			break;   /* a bridge on a root bus that is no Root Port: the path ends there */
		}
		a = up;
	}
	ll->npath = n;
	for (uint32_t i = 0; i < n; i++)
		ll->path[i] = rev[n - 1 - i];
	return link_limit_compute(ll, addr64);
}

void link_limit_rate(struct link_limit *ll, uint64_t read_bytes, uint64_t write_bytes, uint64_t ns)
{
	ll->have_fraction = 0;
	ll->impossible = 0;
	ll->dir = LINK_DIR_NONE;
	if (ll->status || !ll->have_effective || !ns || (!read_bytes && !write_bytes))
		return;
	const struct link_seg *bn = &ll->links[ll->bottleneck];
	unsigned cpl = ll->mrrs && ll->mrrs < ll->mps ? ll->mrrs : ll->mps;
	unsigned __int128 t_read = least_millins(read_bytes, bn->mgts, bn->width, cpl, LINK_HDR_3DW);
	unsigned __int128 t_write = least_millins(write_bytes, bn->mgts, bn->width, ll->mps, ll->write_hdr);
	int w = t_write >= t_read;
	unsigned __int128 t = w ? t_write : t_read;   /* milli-ns */
	ll->dir = w ? LINK_DIR_WRITE : LINK_DIR_READ;
	ll->effective_mgbps = w ? ll->eff_write_mgbps : ll->eff_read_mgbps;
	ll->fraction_milli = (uint64_t)((t + ns / 2) / ns);
	ll->have_fraction = 1;
	ll->impossible = ll->fraction_milli > MILLI;
}
