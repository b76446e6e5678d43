/* SPDX-License-Identifier: BSD-2-Clause */
/* A device's IIO part counts as its self_check (pmu/uncore/iio_attrib.h). */
#include "pmu/uncore/iio_attrib.h"
#include "arch/lib/fmt.h"

#include <string.h>

static void bdf(char *buf, size_t n, struct hw_pci_addr a)
{
	fmt_snprintf(buf, n, "%04x:%02x:%02x.%u", a.segment, a.bus, a.dev, a.func);
}

void iio_place_device(const struct iio_map *maps, uint32_t nsock, struct hw_pci_addr dev, struct iio_place *out)
{
	char b[16];
	memset(out, 0, sizeof(*out));
	out->dev = dev;
	bdf(b, sizeof(b), dev);
	int any_valid = 0;
	for (uint32_t s = 0; s < nsock; s++) {
		const struct iio_map *m = &maps[s];
		if (!m->valid)
			continue;
		any_valid = 1;
		for (uint8_t k = 0; k < m->nstacks && k < IIO_MAX_STACKS; k++) {
			if (!m->stack[k].present || dev.bus < m->stack[k].bus || dev.bus > m->stack[k].bus_end)
				continue;
			for (uint8_t i = 0; i < m->stack[k].nports && i < UNC_MAX_PARTS; i++) {
				const typeof(m->stack[k].port[0]) *pt = &m->stack[k].port[i];
				if (dev.bus < pt->secondary || dev.bus > pt->subordinate)
					continue;
				if (m->ndefects) {
					fmt_snprintf(out->why, sizeof(out->why),
						     "%s: behind IIO stack %u part %u of socket %u, but that map has %u defect(s): %s",
						     b, k, pt->part, s, m->ndefects, m->defect[0]);
					return;
				}
				*out = (struct iio_place){ .placed = 1, .socket = s, .stack = k, .part = pt->part, .dev = dev,
							   .port = { dev.segment, m->stack[k].bus, pt->dev, pt->func } };
				return;
			}
			fmt_snprintf(out->why, sizeof(out->why),
				     "%s: on IIO stack %u of socket %u (buses %02x-%02x) but behind none of its root ports",
				     b, k, s, m->stack[k].bus, m->stack[k].bus_end);
			return;
		}
	}
	if (!any_valid)
		fmt_snprintf(out->why, sizeof(out->why), "%s: no IIO stack map to place it (%s)", b,
			     nsock && maps[0].why[0] ? maps[0].why : "no socket map");
	else
		fmt_snprintf(out->why, sizeof(out->why), "%s: bus %02x is on no IIO stack of the map", b, dev.bus);
}

int iio_device_request(const struct intel_uncore_platform *p, const struct iio_units *u, const struct iio_place *pl,
		       uint32_t cpu, struct unc_request *req, char *why, size_t n)
{
	if (!pl->placed) {
		fmt_snprintf(why, n, "%s", pl->why);
		return -1;
	}
	if (pl->socket >= UNC_MAX_PKGS) {
		fmt_snprintf(why, n, "socket %u: beyond %u", pl->socket, UNC_MAX_PKGS);
		return -1;
	}
	const struct intel_unit *unit = NULL;
	for (uint32_t i = 0; i < u->n && i < UNC_MAX_PKGS && !unit; i++)
		if (u->unit[i].socket == pl->socket && u->unit[i].unit == pl->stack)
			unit = &u->unit[i];
	if (!unit) {
		char b[16], rp[16];
		bdf(b, sizeof(b), pl->dev);
		bdf(rp, sizeof(rp), pl->port);
		fmt_snprintf(why, n, "%s: behind root port %s on IIO stack %u of socket %u, which is not among the %u "
			     "IIO unit(s) the IIO pass programs", b, rp, pl->stack, pl->socket, u->n);
		return -1;
	}
	char events[96];
	fmt_snprintf(events, sizeof(events), "DATA_REQ_OF_CPU.MEM_READ.PART%u;DATA_REQ_OF_CPU.MEM_WRITE.PART%u",
		     pl->part, pl->part);
	uint32_t cpus[UNC_MAX_PKGS] = { 0 };
	cpus[pl->socket] = cpu;
	return intel_uncore_request_as(p, INTEL_BOX_IIO, &u->type, unit, 1, cpus, events, req, why, n);
}

void iio_device_self_check(const struct unc_request *req, const struct unc_result *res, const struct iio_place *pl,
			   const struct self_check_bytes *expected, struct self_check *sc)
{
	static const struct self_check_bytes none;
	if (!pl->placed) {
		self_check_compute(expected ? expected : &none, NULL, 0, pl->why, sc);
		return;
	}
	if (res->status) {
		self_check_compute(expected ? expected : &none, NULL, 0, res->why, sc);
		return;
	}
	for (uint32_t k = 0; k < req->npkgs; k++) {
		if (req->socket[k] != pl->socket || req->first_box[k] != pl->stack)
			continue;
		struct self_check_bytes counted = { 0 };
		for (uint32_t i = 0; i < req->nevents; i++) {
			const struct unc_event *e = &req->ev[i];
			if (!e->per_part || e->channel != pl->part)
				continue;
			if (e->role == UNC_ROLE_IO_RD)
				counted.have_read = 1;
			else if (e->role == UNC_ROLE_IO_WR)
				counted.have_write = 1;
		}
		counted.read = res->m[k].part_bytes[0][pl->part];
		counted.write = res->m[k].part_bytes[1][pl->part];
		self_check_compute(expected ? expected : &none, &counted, 0, NULL, sc);
		return;
	}
	char why[120];
	fmt_snprintf(why, sizeof(why), "IIO stack %u of socket %u was not counted", pl->stack, pl->socket);
	self_check_compute(expected ? expected : &none, NULL, 0, why, sc);
}
