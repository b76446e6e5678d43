/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/iio_window.h"
#include "efi/out/report.h"
#include "arch/lib/fmt.h"

#include <string.h>

/* The plan: pool memory (the request and result are large and gnu-efi's .bss is in the file). */
static struct {
	const struct intel_uncore_platform *ip;
	struct iio_units *units;
	struct iio_map *maps;
	uint32_t nsock;
	uint32_t cpu[UNC_MAX_PKGS];
	struct unc_request *req;
	struct unc_result *res;
} plan;

void iio_window_plan(const struct intel_uncore_platform *ip, const struct uncore_box_type *type,
		     const struct intel_unit *units, uint32_t nunits, const struct iio_map *maps, uint32_t nsock,
		     const uint32_t *cpu)
{
	if (nsock > UNC_MAX_PKGS)
		nsock = UNC_MAX_PKGS;
	if (nunits > UNC_MAX_PKGS)
		nunits = UNC_MAX_PKGS;
	if (!plan.maps)
		plan.maps = AllocatePool(UNC_MAX_PKGS * sizeof(*plan.maps));
	if (!plan.units)
		plan.units = AllocateZeroPool(sizeof(*plan.units));
	if (!plan.req)
		plan.req = AllocateZeroPool(sizeof(*plan.req));
	if (!plan.res)
		plan.res = AllocateZeroPool(sizeof(*plan.res));
	if (!plan.maps || !plan.units || !plan.req || !plan.res) {
		rep_error("uncore", "cannot allocate the IIO self-check plan (%llu bytes): DMA windows get none",
			  (unsigned long long)(UNC_MAX_PKGS * sizeof(*plan.maps) + sizeof(*plan.units) + sizeof(*plan.req) +
					       sizeof(*plan.res)));
		plan.ip = NULL;
		return;
	}
	plan.units->type = *type;
	memcpy(plan.units->unit, units, nunits * sizeof(*units));
	plan.units->n = nunits;
	memcpy(plan.maps, maps, nsock * sizeof(*maps));
	memcpy(plan.cpu, cpu, nsock * sizeof(*cpu));
	plan.nsock = nsock;
	plan.ip = ip;
}

struct once { iio_traffic_fn fn; void *arg; int ran; };

/* unc_window_fn: the request has one group, so one slice: the whole traffic. */
static uint64_t whole(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)slice;
	(void)nslices;
	struct once *o = arg;
	o->ran = 1;
	return o->fn(o->arg);
}

int iio_window_run(const struct hw *hw, struct hw_pci_addr dev, iio_traffic_fn traffic, void *arg,
		   const struct self_check_bytes *expected, const char *skip_why, struct iio_window_result *r)
{
	static const struct self_check_bytes none;
	memset(r, 0, sizeof(*r));
	r->on = plan.ip != NULL;
	if (!r->on) {
		traffic(arg);
		return 0;
	}
	char why[200] = "";
	if (skip_why) {
		traffic(arg);
		self_check_compute(expected ? expected : &none, NULL, 0, skip_why, &r->sc);
		return 0;
	}
	iio_place_device(plan.maps, plan.nsock, dev, &r->place);
	if (!r->place.placed ||
	    iio_device_request(plan.ip, plan.units, &r->place, plan.cpu[r->place.socket], plan.req, why, sizeof(why))) {
		traffic(arg);
		self_check_compute(expected ? expected : &none, NULL, 0, r->place.placed ? why : r->place.why, &r->sc);
		return 0;
	}
	struct once o = { traffic, arg, 0 };
	unc_measure(hw, plan.req, whole, &o, plan.res);
	if (!o.ran)
		traffic(arg);     /* the counters failed before the window: the traffic still runs */
	iio_device_self_check(plan.req, plan.res, &r->place, expected, &r->sc);
	int rc = 0;
	if (plan.res->status) {
		rep_error("uncore", "IIO self-check of %04x:%02x:%02x.%u: %s", dev.segment, dev.bus, dev.dev, dev.func,
			  plan.res->why);
		rc = -1;
	}
	if (plan.res->restore_why[0] && strcmp(plan.res->restore_why, plan.res->why))
		rep_error("uncore", "%s", plan.res->restore_why);
	return rc;
}
