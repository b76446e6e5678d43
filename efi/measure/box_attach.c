/* SPDX-License-Identifier: BSD-2-Clause */
/* Uncore boxes as window attachments (efi/measure/box_attach.h). */
#include <stddef.h>
#include "efi/measure/box_attach.h"

static const struct self_check_bytes no_bytes;

/* ---- CHA ---------------------------------------------------------------------------------- */

static int cha_prepare_a(struct attachment *a, const struct hw *hw)
{
	struct cha_attach *c = a->self;
	c->running = 0;
	c->begun = !cha_begin(hw, c->req, c->res);
	a->nslices = c->res->nslices;
	if (!c->begun || c->res->status) {
		a->st = HW_ERROR;
		a->why = c->res->why;
		return -1;
	}
	return 0;
}

static void cha_start_a(struct attachment *a, const struct hw *hw)
{
	struct cha_attach *c = a->self;
	c->running = !cha_slice_start(hw, c->req, c->res, a->slice->k);
}

static void cha_stop_a(struct attachment *a, const struct hw *hw)
{
	struct cha_attach *c = a->self;
	if (c->running)
		cha_slice_stop(hw, c->req, c->res, a->slice->k, a->slice->ns);
	c->running = 0;
}

static int cha_read_a(struct attachment *a, const struct hw *hw)
{
	(void)hw;
	struct cha_attach *c = a->self;
	if (cha_finish(c->req, c->res)) {
		a->why = c->res->why;
		return -1;
	}
	return 0;
}

static int cha_restore_a(struct attachment *a, const struct hw *hw)
{
	struct cha_attach *c = a->self;
	const struct cha_result *res = c->res;
	if (c->begun)
		cha_restore(hw, c->req, c->res);
	struct self_check_bytes counted = { res->total.read_bytes, res->total.write_bytes, res->total.have_read,
					    res->total.have_write };
	self_check_compute(c->expected ? c->expected : &no_bytes, res->status ? NULL : &counted, 0,
			   res->status ? res->why : c->no_dma_why, &c->sc);
	return c->begun && res->restore_why[0] ? -1 : 0;
}

const struct attachment_ops cha_attach_ops = { .kind = "cha", .prepare = cha_prepare_a,
	.start = cha_start_a, .stop = cha_stop_a, .read = cha_read_a, .restore = cha_restore_a };

/* ---- one box type (and the IIO part's request) --------------------------------------------- */

/* unc_begin for u's request; -1 (st, why) when nothing was programmed or the setup failed. */
static int unc_prepare_of(struct attachment *a, const struct hw *hw, const struct unc_request *req,
			  struct unc_result *res, int *begun)
{
	*begun = !unc_begin(hw, req, res);
	a->nslices = res->nslices;
	if (!*begun || res->status) {
		a->st = HW_ERROR;
		a->why = res->why;
		return -1;
	}
	return 0;
}

static int unc_prepare_a(struct attachment *a, const struct hw *hw)
{
	struct unc_attach *u = a->self;
	u->running = 0;
	return unc_prepare_of(a, hw, u->req, u->res, &u->begun);
}

static void unc_start_a(struct attachment *a, const struct hw *hw)
{
	struct unc_attach *u = a->self;
	u->running = !unc_slice_start(hw, u->req, u->res, a->slice->k);
}

static void unc_stop_a(struct attachment *a, const struct hw *hw)
{
	struct unc_attach *u = a->self;
	if (u->running)
		unc_slice_stop(hw, u->req, u->res, a->slice->k, a->slice->ns);
	u->running = 0;
}

static int unc_read_a(struct attachment *a, const struct hw *hw)
{
	(void)hw;
	struct unc_attach *u = a->self;
	if (unc_finish(u->req, u->res)) {
		a->why = u->res->why;
		return -1;
	}
	return 0;
}

static int unc_restore_a(struct attachment *a, const struct hw *hw)
{
	struct unc_attach *u = a->self;
	if (!u->begun)
		return 0;
	unc_restore(hw, u->req, u->res);
	return u->res->restore_why[0] ? -1 : 0;
}

const struct attachment_ops unc_attach_ops = { .kind = "uncore", .prepare = unc_prepare_a,
	.start = unc_start_a, .stop = unc_stop_a, .read = unc_read_a, .restore = unc_restore_a };

/* ---- the IIO part of a DMA device --------------------------------------------------------- */

static int iio_prepare_a(struct attachment *a, const struct hw *hw)
{
	struct iio_attach *x = a->self;
	const struct iio_plan *pl = x->plan;
	struct iio_window_result *r = x->out;
	*r = (struct iio_window_result){ .on = 1 };
	x->requested = x->box.begun = x->box.running = 0;
	x->box.req = x->req;
	x->why[0] = 0;
	a->st = HW_UNSUPPORTED;
	if (x->skip_why) {
		a->why = x->skip_why;
		return -1;
	}
	iio_place_device(pl->maps, pl->nsock, x->dev, &r->place);
	if (!r->place.placed) {
		a->why = r->place.why;
		return -1;
	}
	if (iio_device_request(pl->ip, pl->units, &r->place, pl->cpu[r->place.socket], x->req, x->why,
			       sizeof(x->why))) {
		a->why = x->why;
		return -1;
	}
	x->requested = 1;
	a->st = HW_OK;
	return unc_prepare_of(a, hw, x->box.req, x->box.res, &x->box.begun);
}

static int iio_restore_a(struct attachment *a, const struct hw *hw)
{
	struct iio_attach *x = a->self;
	struct iio_window_result *r = x->out;
	int rc = unc_restore_a(a, hw);
	if (x->requested)
		iio_device_self_check(x->box.req, x->box.res, &r->place, x->expected, &r->sc);
	else
		self_check_compute(x->expected ? x->expected : &no_bytes, NULL, 0, a->why, &r->sc);
	return rc;
}

/* start, stop and read: the uncore attachment's (struct iio_attach begins with its unc_attach) */
const struct attachment_ops iio_attach_ops = { .kind = "iio", .prepare = iio_prepare_a,
	.start = unc_start_a, .stop = unc_stop_a, .read = unc_read_a, .restore = iio_restore_a };

/* ---- the UPI links --------------------------------------------------------------------------- */

static int upi_restore_a(struct attachment *a, const struct hw *hw)
{
	struct upi_attach *x = a->self;
	int rc = unc_restore_a(a, hw);
	const struct unc_result *res = x->box.res;
	int ran = x->box.begun && !res->status;
	x->tx_bytes[0] = x->tx_bytes[1] = 0;
	for (uint32_t k = 0; ran && k < res->npkgs; k++) {
		struct upi_link_bw bw;
		upi_link_bw(res, k, &bw);
		x->tx_bytes[x->box.req->socket[k] != x->mem_socket] += bw.tx_bytes;
	}
	struct self_check_bytes counted = { x->tx_bytes[0], x->tx_bytes[1], 1, 1 };
	self_check_compute(x->expected ? x->expected : &no_bytes, ran ? &counted : NULL, 0,
			   ran ? NULL : a->why ? a->why : res->why, &x->sc);
	return rc;
}

/* prepare, start, stop and read: the uncore attachment's (struct upi_attach begins with its unc_attach) */
const struct attachment_ops upi_attach_ops = { .kind = "upi", .prepare = unc_prepare_a, .start = unc_start_a,
					       .stop = unc_stop_a, .read = unc_read_a, .restore = upi_restore_a };

/* ---- an NVIDIA ACPI-namespace PMU ------------------------------------------------------------ */

static int nv_prepare_a(struct attachment *a, const struct hw *hw)
{
	struct nv_apmu_attach *x = a->self;
	x->running = 0;
	if (!nv_apmu_begin(hw, x->d, x->res))
		return 0;
	a->st = HW_ERROR;
	a->why = x->res->why;
	return -1;
}

static void nv_start_a(struct attachment *a, const struct hw *hw)
{
	struct nv_apmu_attach *x = a->self;
	x->running = !nv_apmu_start(hw, x->d, x->res);
}

static void nv_stop_a(struct attachment *a, const struct hw *hw)
{
	struct nv_apmu_attach *x = a->self;
	if (x->running)
		nv_apmu_stop(hw, x->d, x->res, a->slice->ns);
	x->running = 0;
}

static int nv_read_a(struct attachment *a, const struct hw *hw)
{
	struct nv_apmu_attach *x = a->self;
	if (!nv_apmu_read(hw, x->d, x->res))
		return 0;
	a->why = x->res->why;
	return -1;
}

static int nv_restore_a(struct attachment *a, const struct hw *hw)
{
	struct nv_apmu_attach *x = a->self;
	nv_apmu_restore(hw, x->d, x->res);
	return x->res->restore_why[0] ? -1 : 0;
}

const struct attachment_ops nv_apmu_attach_ops = { .kind = "nv_apmu", .prepare = nv_prepare_a,
	.start = nv_start_a, .stop = nv_stop_a, .read = nv_read_a, .restore = nv_restore_a };
