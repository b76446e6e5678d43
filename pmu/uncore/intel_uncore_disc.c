/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SPR and later: IMC channels and IIO stacks as the uncore discovery table lists them
 * (pmu/uncore/intel_discovery.h), and the IIO stack map from the table and the MSM function's
 * CPU-bus registers (pmu/uncore/intel_uncore.h). The units' box types and bits stay data of
 * the platform table; only addresses and geometry come from the table.
 */
#include "pmu/uncore/intel_uncore.h"
#include "pmu/uncore/intel_discovery.h"
#include "arch/lib/fmt.h"

#include <stdarg.h>
#include <string.h>

#define INTEL_VENDOR 0x8086u
#define BUSES_PER_REG 4

static uint8_t disc_access_of(uint8_t box_access)
{
	return box_access == BOX_ACCESS_MMIO ? DISC_MMIO : box_access == BOX_ACCESS_PCI ? DISC_PCI : DISC_MSR;
}

static void add_why(char *why, size_t wn, size_t *k, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add_why(char *why, size_t wn, size_t *k, const char *fmt, ...)
{
	if (*k >= wn)
		return;
	va_list ap;
	va_start(ap, fmt);
	*k += fmt_vsnprintf(why + *k, wn - *k, fmt, ap);
	va_end(ap);
}

int intel_disc_units(const struct intel_uncore_platform *p, enum intel_box b, const struct disc_table *t,
		     uint16_t socket, struct intel_unit *u, uint32_t max, uint32_t *n, struct uncore_box_type *ty,
		     char *why, size_t wn)
{
	const struct uncore_box_type *base = p->box[b].type;
	uint32_t idx[DISC_MAX_UNITS], k = disc_units_of(t, p->disc_box_type[b], idx, DISC_MAX_UNITS);
	const struct disc_unit *first = NULL;
	size_t w = 0;
	*n = 0;
	why[0] = 0;
	*ty = *base;
	for (uint32_t i = 0; i < k; i++) {
		const struct disc_unit *d = &t->unit[idx[i]];
		char left[64] = "";
		if (d->access != disc_access_of(base->access))
			fmt_snprintf(left, sizeof(left), "access type %s, not %s", disc_access_name(d->access),
				     disc_access_name(disc_access_of(base->access)));
		else if (d->box_id >= base->max_boxes)
			fmt_snprintf(left, sizeof(left), "box id beyond %u", base->max_boxes - 1);
		else if (first && (d->num_regs != first->num_regs || d->bit_width != first->bit_width ||
				   d->ctl_offset != first->ctl_offset || d->ctr_offset != first->ctr_offset))
			fmt_snprintf(left, sizeof(left), "geometry differs from unit %u's", first->box_id);
		if (left[0]) {
			add_why(why, wn, &w, "%s%s unit %u left out: %s (%u counters of %u bits, CTL +0x%x, CTR +0x%x)",
				w ? "; " : "", base->name, d->box_id, left, d->num_regs, d->bit_width, d->ctl_offset,
				d->ctr_offset);
			continue;
		}
		if (!first) {
			first = d;
			ty->num_counters = d->num_regs < BOX_MAX_COUNTERS ? d->num_regs : BOX_MAX_COUNTERS;
			ty->ctr_bits = d->bit_width;
			ty->ctl0 = d->ctl_offset;
			ty->ctr0 = d->ctr_offset;
			ty->box_ctl = 0;
			ty->box_stride = 0;
			ty->box_ctl_table = NULL;
		}
		if (*n >= max)
			break;
		struct intel_unit x = { socket, d->box_id, { 0 } };
		if (d->access == DISC_MMIO)
			x.site.mmio_base = d->ctl;
		else
			x.site.msr_base = (uint32_t)d->ctl;
		u[(*n)++] = x;
	}
	if (!*n) {
		if (!w)
			fmt_snprintf(why, wn, "no unit of box type %u (%s) in the discovery table of socket %u (%u units)",
				     p->disc_box_type[b], base->name, socket, t->nunits);
		return -1;
	}
	return 0;
}

const char *iio_map_source_name(uint8_t method)
{
	static const char *const n[] = {
		[IIO_MAP_NONE] = "none", [IIO_MAP_CPUBUSNO_MSR] = "cpubusno_msr",
		[IIO_MAP_SAD_CONTROL] = "sad_control_cfg", [IIO_MAP_DISCOVERY] = "discovery_table",
	};
	return method <= IIO_MAP_DISCOVERY ? n[method] : "none";
}

void iio_map_from_discovery(const struct intel_uncore_platform *p, const struct disc_table *t, uint8_t chop,
			    uint32_t valid, const uint32_t busno[8], struct iio_map *m)
{
	uint32_t idx[IIO_MAX_STACKS], k = disc_units_of(t, p->disc_box_type[INTEL_BOX_IIO], idx, IIO_MAX_STACKS);
	memset(m, 0, sizeof(*m));
	m->method = IIO_MAP_DISCOVERY;
	m->nstacks = p->nstacks < IIO_MAX_STACKS ? p->nstacks : IIO_MAX_STACKS;
	if (!k) {
		fmt_snprintf(m->why, sizeof(m->why), "the discovery table lists no IIO unit (box type %u)",
			     p->disc_box_type[INTEL_BOX_IIO]);
		return;
	}
	if (!p->msm) {
		fmt_snprintf(m->why, sizeof(m->why), "%s: %u IIO units, but no CPU-bus-to-IIO-box table for their buses (not yet)",
			     p->name, k);
		return;
	}
	int map = -1;
	for (int i = 0; i < p->msm->nmaps && i < MSM_MAX_MAPS && map < 0; i++)
		if (p->msm->map[i].chop == chop)
			map = i;
	if (map < 0) {
		fmt_snprintf(m->why, sizeof(m->why), "%s: CAPID4 chop %u names no die with a CPU-bus-to-IIO-box table",
			     p->name, chop);
		return;
	}
	const uint8_t *to_pmon = p->msm->map[map].to_pmon;
	fmt_snprintf(m->source, sizeof(m->source), "discovery table (%u IIO units); MSM CPUBUSNO_VALID = 0x%08x, %s die",
		     k, valid, p->msm->map[map].die);
	m->valid = 1;
	for (uint32_t b = 0; b < MSM_MAX_BUSES; b++) {
		if (!(valid >> b & 1))
			continue;
		uint8_t bus = (uint8_t)(busno[b / BUSES_PER_REG] >> (8 * (b % BUSES_PER_REG))), pmon = to_pmon[b];
		if (pmon == MSM_NOT_IIO)
			continue;
		if (pmon == MSM_NO_BOX || pmon >= m->nstacks) {
			iio_map_defect(m, "CPU bus %u (bus %02x) is valid but belongs to no IIO PMON box", b, bus);
			continue;
		}
		if (disc_find(t, p->disc_box_type[INTEL_BOX_IIO], pmon) < 0) {
			iio_map_defect(m, "CPU bus %u (bus %02x) belongs to IIO box %u, which the discovery table does not list",
				       b, bus, pmon);
			continue;
		}
		m->stack[pmon].present = 1;
		m->stack[pmon].bus = bus;
	}
}

/* The socket-th function vendor:device (at dev.func when fixed) among fns, or NULL; *seen: how many. */
static const struct intel_pci_fn *nth(const struct intel_pci_fn *fns, uint32_t nfns, uint16_t device, int fixed,
				      uint8_t dev, uint8_t func, uint32_t socket, uint32_t *seen)
{
	*seen = 0;
	for (uint32_t i = 0; i < nfns; i++)
		if (fns[i].vendor == INTEL_VENDOR && fns[i].device == device &&
		    (!fixed || (fns[i].a.dev == dev && fns[i].a.func == func)) && (*seen)++ == socket)
			return &fns[i];
	return NULL;
}

void intel_iio_map_disc(const struct hw *hw, const struct intel_uncore_platform *p, const struct intel_pci_fn *fns,
			uint32_t nfns, const struct disc_table *t, uint32_t socket, struct iio_map *m)
{
	uint32_t valid = 0, busno[8] = { 0 }, seen = 0, capid = 0;
	const struct intel_msm *ms = p->msm;
	if (!ms) {
		iio_map_from_discovery(p, t, MSM_NO_CHOP, 0, busno, m);
		return;
	}
	const struct intel_pci_fn *f = nth(fns, nfns, ms->device, 0, 0, 0, socket, &seen);
	if (!f) {
		iio_map_from_discovery(p, t, MSM_NO_CHOP, 0, busno, m);
		m->valid = 0;
		fmt_snprintf(m->why, sizeof(m->why), "no MSM function 8086:%04x for socket %u in the PCI scan (%u found)",
			     ms->device, socket, seen);
		return;
	}
	uint8_t chop = MSM_NO_CHOP;
	hw_status st = HW_OK;
	const struct intel_pci_fn *pcu = NULL;
	if (ms->chop_device) {
		pcu = nth(fns, nfns, ms->chop_device, 1, ms->chop_dev, ms->chop_func, socket, &seen);
		if (!pcu) {
			iio_map_from_discovery(p, t, MSM_NO_CHOP, 0, busno, m);
			m->valid = 0;
			fmt_snprintf(m->why, sizeof(m->why), "no PCU function 8086:%04x at device %u function %u for socket %u "
				     "(CAPID4, the die's chop)", ms->chop_device, ms->chop_dev, ms->chop_func, socket);
			return;
		}
		st = hw_pci_read32(hw, pcu->a, ms->chop_reg, &capid);
		chop = (uint8_t)((capid >> ms->chop_shift) & 3);
	}
	const struct intel_pci_fn *at = st == HW_OK ? f : pcu;
	if (st == HW_OK)
		st = hw_pci_read32(hw, f->a, ms->valid_reg, &valid);
	for (int r = 0; r < 8 && st == HW_OK; r++)
		st = hw_pci_read32(hw, f->a, (uint16_t)(ms->busno_reg[r / 4] + 4 * (r % 4)), &busno[r]);
	iio_map_from_discovery(p, t, chop, valid, busno, m);
	if (st != HW_OK) {
		m->valid = 0;
		fmt_snprintf(m->why, sizeof(m->why), "MSM / PCU registers at %02x:%02x.%x: %s", at->a.bus, at->a.dev, at->a.func,
			     hw_status_name(st));
		return;
	}
	iio_map_check(p, fns, nfns, m);
}
