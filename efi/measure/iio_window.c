/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/iio_window.h"
#include "efi/measure/box_attach.h"
#include "efi/out/report.h"
#include "arch/lib/fmt.h"

#include <string.h>

/* The plan (iio_window_plan) and the request and result a window's IIO attachment uses: pool
 * memory the DMA plan points at, kept from the uncore pass to the last DMA window (they are
 * large and gnu-efi's .bss is in the file). */
struct iio_state {
	struct iio_plan plan;
	struct unc_request req;
	struct unc_result res;
	struct iio_units units;
	struct iio_map maps[UNC_MAX_PKGS];
};

void iio_window_plan(struct iio_state **stp, const struct intel_uncore_platform *ip, const struct uncore_box_type *type,
		     const struct intel_unit *units, uint32_t nunits, const struct iio_map *maps, uint32_t nsock,
		     const uint32_t *cpu)
{
	if (nsock > UNC_MAX_PKGS)
		nsock = UNC_MAX_PKGS;
	if (nunits > UNC_MAX_PKGS)
		nunits = UNC_MAX_PKGS;
	if (!*stp)
		*stp = AllocateZeroPool(sizeof(**stp));
	struct iio_state *st = *stp;
	if (!st) {
		rep_error("uncore", "cannot allocate the IIO self-check plan (%llu bytes): DMA windows get none",
			  (unsigned long long)sizeof(*st));
		return;
	}
	st->units.type = *type;
	memcpy(st->units.unit, units, nunits * sizeof(*units));
	st->units.n = nunits;
	memcpy(st->maps, maps, nsock * sizeof(*maps));
	st->plan = (struct iio_plan){ ip, &st->units, st->maps, nsock, { 0 } };
	memcpy(st->plan.cpu, cpu, nsock * sizeof(*cpu));
}

int iio_window_attach(struct iio_state *st, struct hw_pci_addr dev, const struct self_check_bytes *expected,
		      const char *skip_why, struct iio_window_result *r, struct iio_attach *x, struct attachment *a)
{
	memset(r, 0, sizeof(*r));
	r->on = st && st->plan.ip;
	if (!r->on)
		return 0;
	*x = (struct iio_attach){ .box = { .res = &st->res }, .req = &st->req, .plan = &st->plan, .dev = dev,
				  .expected = expected, .skip_why = skip_why, .out = r };
	*a = (struct attachment){ .ops = &iio_attach_ops, .self = x };
	return 1;
}

int iio_window_report(const struct iio_attach *x)
{
	const struct unc_result *res = x->box.res;
	if (!x->requested)
		return 0;
	int rc = 0;
	if (res->status) {
		rep_error("uncore", "IIO self-check of %04x:%02x:%02x.%u: %s", x->dev.segment, x->dev.bus, x->dev.dev,
			  x->dev.func, res->why);
		rc = -1;
	}
	if (res->restore_why[0] && strcmp(res->restore_why, res->why))
		rep_error("uncore", "%s", res->restore_why);
	return rc;
}
