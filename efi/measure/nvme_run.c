/* SPDX-License-Identifier: BSD-2-Clause */
/* The NVMe measurement's run (efi/measure/nvme_run.h): pure over the measure ctx and the
 * firmware ops; no record, no console text. */
#include <stdarg.h>
#include <string.h>
#include "efi/measure/nvme_run.h"
#include "efi/measure/dma_pattern.h"
#include "efi/measure/health_run.h"
#include "efi/nvme/nvme_regs.h"
#include "pmu/metrics.h"
#include "arch/lib/fmt.h"

#define NS_PER_S 1000000000ull

struct nrun;

/* One controller's state during the run (ctx memory: about 30 KiB with its queues). */
struct nctl {
	struct nvme_ctrl c;
	struct nvme_queue q;
	struct nvme_mem buf;
	uint64_t first_lba, lbas;     /* the region the points walk */
	uint32_t lba_bytes;
	struct nvme_lane lane;
	int held;                     /* acquire was called: release gives it back */
	int own;                      /* efiperf's queues are up */
	int dead;                     /* a point found it hung or failed: no more points */
	struct nrun *r;               /* nvme_env.arg: the run and this controller's index */
	int i;
};

struct nrun {
	const struct measure_ctx *ctx;
	const struct nvme_fw *fw;
	const struct nvme_request *q;
	struct nvme_result *res;
	struct nctl *x;
	uint64_t *lat, lat_cap;       /* per command clat ticks, lat_cap entries per controller */
	struct nvme_lane *lanes;      /* the lanes of the window being run, contiguous */
	int nlanes;
	int write;
};

static uint64_t run_now(void *arg)
{
	const struct nctl *x = arg;
	return x->r->ctx->clock();
}

static int run_alloc(void *arg, uint64_t bytes, struct nvme_mem *m)
{
	const struct nctl *x = arg;
	return x->r->fw->alloc(x->r->fw->arg, x->i, bytes, m);
}

uint64_t nvme_point_bytes(const struct nvme_request *q, uint32_t bs)
{
	uint64_t b = q->size - q->size % bs;
	return b ? b : bs;
}

static uint64_t per_second(uint64_t n, uint64_t ns)
{
	return ns ? (uint64_t)((unsigned __int128)n * NS_PER_S / ns) : 0;
}

static struct nvme_point_out *next_out(struct nrun *r, int ctrl)
{
	struct nvme_result *res = r->res;
	if (res->npt == res->cap)
		return NULL;   /* cap holds every record the loops can make */
	struct nvme_point_out *o = &res->pt[res->npt++];
	memset(o, 0, sizeof(*o));
	o->ctrl = ctrl;
	return o;
}

/* ---- taking a controller and giving it back ------------------------------------------------ */

static void gb_error(struct nvme_ctrl_result *cr, const char *name, const char *what, const char *detail)
{
	if (cr->ngb < 2)
		fmt_snprintf(cr->gb_err[cr->ngb++], sizeof(cr->gb_err[0]), "%s: %s: %s", name, what, detail);
}

static void give_back(struct nrun *r, int i, int at_take)
{
	struct nctl *x = &r->x[i];
	struct nvme_ctrl_result *cr = &r->res->ctrl[i];
	const char *name = r->q->ctrl[i].name;
	cr->given_back = "ok";
	cr->gb_at_take = at_take;
	if (x->own && nvme_release(&x->c, &x->q) != 0) {
		cr->given_back = "disable failed";
		gb_error(cr, name, "giving back", x->c.why);
	}
	x->own = 0;
	char err[160];
	if (x->held && r->fw->release(r->fw->arg, i, err, sizeof(err)) != 0) {
		cr->given_back = "ConnectController failed";
		gb_error(cr, name, "ConnectController", err);
	}
	x->held = 0;
}

static int fallback(struct nrun *r, int i, const char *why)
{
	struct nvme_ctrl_result *cr = &r->res->ctrl[i];
	fmt_snprintf(cr->why, sizeof(cr->why), "%s", why);
	cr->take = NVME_FALLBACK;
	give_back(r, i, 1);
	return -1;
}

/* A limit Identify showed that the settings break: a config error naming the key's line. */
static int limit(struct nrun *r, int i, int bs_key, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int limit(struct nrun *r, int i, int bs_key, const char *fmt, ...)
{
	struct nvme_ctrl_result *cr = &r->res->ctrl[i];
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(cr->limit_msg, sizeof(cr->limit_msg), fmt, ap);
	va_end(ap);
	cr->take = NVME_LIMIT;
	cr->limit_key = bs_key ? "nvme_bs" : "nvme_write_lba";
	cr->limit_where = bs_key ? r->q->where_bs : r->q->where_write_lba;
	give_back(r, i, 1);
	return -2;
}

/* The settings against what Identify said: 0, or -2 after a config error. */
static int check_limits(struct nrun *r, int i)
{
	const struct nvme_request *q = r->q;
	const struct nvme_ctrl *c = &r->x[i].c;
	const char *name = q->ctrl[i].name;
	for (int k = 0; k < q->nbs; k++) {
		if (q->bs[k] % c->lba_bytes)
			return limit(r, i, 1, "%u is not a multiple of %s's LBA size %u", q->bs[k], name, c->lba_bytes);
		if (q->bs[k] > c->max_xfer)
			return limit(r, i, 1, "%u is above %s's largest transfer %u bytes (Identify MDTS)", q->bs[k], name,
				     c->max_xfer);
	}
	if (r->write && q->write_last >= c->nsze)
		return limit(r, i, 0, "blocks %llu-%llu run past %s's namespace 1 of %llu LBAs: nothing written",
			     (unsigned long long)q->write_first, (unsigned long long)q->write_last, name,
			     (unsigned long long)c->nsze);
	uint64_t lbas = q->write_last - q->write_first + 1;
	if (r->write && q->max_bs % c->lba_bytes == 0 && !nvme_region_commands(lbas, q->max_bs, c->lba_bytes))
		return limit(r, i, 0, "blocks %llu-%llu of %s are %llu bytes (LBAs of %u bytes), less than one command of "
			     "nvme_bs %u: nothing written", (unsigned long long)q->write_first,
			     (unsigned long long)q->write_last, name, (unsigned long long)(lbas * c->lba_bytes),
			     c->lba_bytes, q->max_bs);
	return 0;
}

/* 0 own queues up, -1 fallen back to Block IO, -2 a config error (the run stops). */
static int take(struct nrun *r, int i)
{
	struct nctl *x = &r->x[i];
	const struct nvme_request *q = r->q;
	char why[200];
	x->held = 1;
	if (r->fw->acquire(r->fw->arg, i, why, sizeof(why)) != 0)
		return fallback(r, i, why);
	struct nvme_env env = { .hw = r->ctx->hw, .bar = q->ctrl[i].bar, .arg = x, .alloc = run_alloc, .now = run_now,
				.hz = r->ctx->timer_hz };
	if (nvme_take(&x->c, &env, &x->q, (uint16_t)(q->max_depth + 1)) != 0)
		return fallback(r, i, x->c.why);
	x->own = 1;
	x->lba_bytes = x->c.lba_bytes;
	if (check_limits(r, i))
		return -2;
	uint64_t bytes = (uint64_t)(q->max_depth + 1) * q->max_bs;
	if (run_alloc(x, bytes, &x->buf) != 0) {
		fmt_snprintf(why, sizeof(why), "no PCI I/O common buffer of %llu bytes for the data", (unsigned long long)bytes);
		return fallback(r, i, why);
	}
	x->first_lba = r->write ? q->write_first : 0;
	x->lbas = r->write ? q->write_last - q->write_first + 1 : x->c.nsze;
	r->res->ctrl[i].take = NVME_TAKEN;
	return 0;
}

/* ---- points --------------------------------------------------------------------------------- */

void nvme_point_times(struct nvme_point_result *res, uint64_t ticks, uint64_t *lat, uint64_t nlat, uint64_t hz)
{
	uint64_t p50, p99, max;
	res->ns = metric_ticks_to_ns(ticks, hz);
	res->bw_bytes = per_second(res->bytes, res->ns);
	res->iops = per_second(res->commands, res->ns);
	nvme_lat_summary(lat, nlat, &p50, &p99, &max);
	res->clat_p50_ns = metric_ticks_to_ns(p50, hz);
	res->clat_p99_ns = metric_ticks_to_ns(p99, hz);
	res->clat_max_ns = metric_ticks_to_ns(max, hz);
}

void nvme_point_skip(struct nvme_point_out *o, const struct nvme_request *q, int ctrl, const char *path, uint32_t bs,
		     uint32_t depth, uint64_t region_bytes)
{
	o->skipped = 1;
	fmt_snprintf(o->skip_why, sizeof(o->skip_why), "%s %llu bytes, less than one command of bs %u",
		     q->rw == CFG_RW_WRITE ? "the write range is" : "namespace 1 is", (unsigned long long)region_bytes, bs);
	fmt_snprintf(o->res.bdf, sizeof(o->res.bdf), "%s", q->ctrl[ctrl].name);
	o->res.path = path;
	o->res.window = "alone";
	o->res.bs = bs;
	o->res.iodepth = depth;
	fmt_snprintf(o->status, sizeof(o->status), "skipped");
}

/* Written data read back through the same queues, one command at a time, outside any window. */
static int verify_writes(const struct nrun *r, struct nctl *x, uint32_t bs)
{
	struct nvme_lane v = x->lane;
	v.opc = NVME_CMD_READ;
	v.iodepth = 1;
	v.bytes = bs;
	uint32_t nlb = bs / x->lba_bytes;
	uint64_t written = nvme_lane_written_lbas(&x->lane), bad;   /* exactly what the point wrote */
	for (uint64_t lba = 0; lba < written; lba += nlb) {
		v.first_lba = x->first_lba + lba;
		v.lbas = nlb;
		if (nvme_point_run(&v, 1, r->ctx->timer_hz * NVME_POINT_TIMEOUT_S) != 0 || nvme_point_verify(&v, &bad) != 1)
			return 0;
	}
	return 1;
}

static uint64_t point_kernel(void *arg)
{
	struct nrun *r = arg;
	return (uint64_t)(nvme_point_run(r->lanes, r->nlanes, r->ctx->timer_hz * NVME_POINT_TIMEOUT_S) + 1);
}

static int in_window(const struct nctl *x)
{
	return x->own && !x->dead && x->lane.bytes;
}

/* A point's traffic as the DMA window's slices (efi/measure/dma_window.h): with CHA multiplexing
 * the window has one slice per group round, and each slice runs the whole point again from the
 * lanes as the previous slice left them (every group sees the same traffic; the lanes keep
 * the last slice's results).
 * What the devices moved, from memory's side (NVMe 1.4 4.1-4.3): they read the 64-byte
 * submission entries, the PRP lists and, for writes, the data; they write the 16-byte
 * completion entries and, for reads, the data. */
struct own_slices {
	struct nrun *r;
	struct window_spec spec;
	struct window_result w;
	struct self_check_bytes moved;
	int masked;
};

static uint64_t own_slice(void *arg, uint32_t k, uint32_t n)
{
	struct own_slices *o = arg;
	struct nrun *r = o->r;
	(void)n;
	r->nlanes = 0;   /* the lanes of this window side by side for the kernel */
	for (int i = 0; i < r->q->n; i++)
		if (in_window(&r->x[i]))
			r->lanes[r->nlanes++] = r->x[i].lane;
	r->ctx->win.run(r->ctx->win.ctx, &o->spec, &o->w);
	/* keep each lane's state for the next slice: its queue's tail moved on, and the data
	 * check pairs each buffer slot with the LBA last read into it (slot_lba) */
	for (int i = 0, j = 0; i < r->q->n; i++)
		if (in_window(&r->x[i]))
			r->x[i].lane = r->lanes[j++];
	o->masked = (k == 0 || o->masked) && o->w.masked;
	for (int i = 0; i < r->nlanes; i++) {
		const struct nvme_dma *d = &r->lanes[i].dma;
		uint64_t data_in = r->write ? d->data_bytes : 0, data_out = r->write ? 0 : d->data_bytes;
		o->moved.read += d->sqe_bytes + d->prp_bytes + data_in;
		o->moved.write += d->cqe_bytes + data_out;
	}
	o->moved.have_read = o->moved.have_write = 1;
	return metric_ticks_to_ns(o->w.span_ticks, r->ctx->timer_hz);
}

static void lane_status(const struct nvme_lane *l, char *status, size_t n)
{
	if (l->fatal)
		fmt_snprintf(status, n, "controller fatal status (CSTS.CFS)");
	else if (l->timed_out)
		fmt_snprintf(status, n, "no completion within %u s", NVME_POINT_TIMEOUT_S);
	else if (l->failed)
		fmt_snprintf(status, n, "%llu commands failed, first SCT %u SC 0x%02x", (unsigned long long)l->failed,
			     l->first_status >> 8, l->first_status & 0xFF);
	else
		fmt_snprintf(status, n, "ok");
}

/* One controller's record of a point that ran in the window wr. */
static int lane_out(struct nrun *r, int i, const struct own_slices *o, const struct dma_window_result *wr, int first,
		    const char *window, uint32_t nctl)
{
	struct nctl *x = &r->x[i];
	const struct nvme_lane *l = &x->lane;
	struct nvme_point_out *po = next_out(r, i);
	if (!po)
		return -1;
	struct nvme_point_result *res = &po->res;
	*res = (struct nvme_point_result){ .path = "own-queues", .window = window, .controllers = nctl, .bs = l->bs,
					   .iodepth = l->iodepth, .interrupts_masked = o->masked, .dma = l->dma,
					   .commands = l->completed, .failed = l->failed, .bytes = l->dma.data_bytes };
	fmt_snprintf(res->bdf, sizeof(res->bdf), "%s", r->q->ctrl[i].name);
	nvme_point_times(res, l->t_last - l->t_first, l->lat, l->completed < l->lat_cap ? l->completed : l->lat_cap,
			 r->ctx->timer_hz);
	uint64_t bad = 0;
	res->verified = r->write ? verify_writes(r, x, l->bs) : nvme_point_verify(l, &bad);
	po->dw = *wr;
	uint64_t rd = l->dma.sqe_bytes + l->dma.prp_bytes + (r->write ? res->bytes : 0);
	uint64_t wb = l->dma.cqe_bytes + (r->write ? 0 : res->bytes);
	r->fw->link(r->fw->arg, first ? -1 : i, rd, wb, res->ns, &po->dw);
	lane_status(l, po->status, sizeof(po->status));
	if (l->fatal || l->timed_out)
		x->dead = 1;   /* no more points; give_back disables it */
	if (l->fatal || l->timed_out || l->failed || res->verified == 0) {
		po->err = NVME_PT_FAILED;
		return -1;
	}
	return 0;
}

/* One (bs, iodepth) point on the controllers whose lane.bytes is set, in one window under the
 * counters: the window's self_check covers every controller in it; each record carries its own
 * controller's link limit and rate. */
static int own_point(struct nrun *r, const char *window, uint32_t nctl)
{
	struct window_cpu cpu = { .cpu = r->q->cpu, .arg = r };
	struct own_slices o = { .r = r, .spec = { .kernel = point_kernel, .cpus = &cpu, .ncpus = 1, .mask_interrupts = 1 } };
	int first = -1;
	for (int i = 0; i < r->q->n && first < 0; i++)
		if (in_window(&r->x[i]))
			first = i;
	uint64_t bdf = r->q->ctrl[first].bdf;
	struct dma_window dw = { r->write ? "nvme_write" : "nvme_read", own_slice, &o, &o.moved, NULL,
				 { CFG_BDF_SEG(bdf), CFG_BDF_BUS(bdf), CFG_BDF_DEV(bdf), CFG_BDF_FN(bdf) }, 1,
				 nctl > 1 ? "several controllers in one window: the IIO part counts are compared per device "
					    "with one controller per window" : NULL };
	struct dma_window_result wr;
	memset(&wr, 0, sizeof(wr));
	uint32_t ctrls = 0, npt = r->res->npt;
	for (int i = 0; i < r->q->n; i++)
		ctrls |= (uint32_t)in_window(&r->x[i]) << i;
	struct health_run *h = r->ctx->alloc(sizeof(*h));
	r->fw->window(r->fw->arg, &dw, ctrls, h, &wr);
	int rc = 0;
	for (int i = 0; i < r->q->n; i++)
		if (in_window(&r->x[i]) && lane_out(r, i, &o, &wr, i == first, window, nctl))
			rc = -1;
	for (uint32_t k = npt; k < r->res->npt; k++)
		r->res->pt[k].health = h;
	if (npt == r->res->npt)
		r->ctx->free(h);
	return rc;
}

static void set_lane(struct nrun *r, int i, uint32_t bs, uint32_t depth)
{
	struct nctl *x = &r->x[i];
	x->lane = (struct nvme_lane){ .c = &x->c, .q = &x->q, .buf = &x->buf,
				      .opc = r->write ? NVME_CMD_WRITE : NVME_CMD_READ, .bs = bs, .iodepth = depth,
				      .first_lba = x->first_lba, .lbas = x->lbas, .bytes = nvme_point_bytes(r->q, bs),
				      .lat = r->lat + (uint64_t)i * r->lat_cap, .lat_cap = r->lat_cap };
}

/* Controller i alone at (bs, depth): own queues, the Block IO fallback, or skipped. */
static int point_alone(struct nrun *r, int i, uint32_t bs, uint32_t depth)
{
	struct nctl *x = &r->x[i];
	const struct nvme_ctrl_result *cr = &r->res->ctrl[i];
	if (cr->take == NVME_FALLBACK && cr->given_back && !strcmp(cr->given_back, "ok")) {
		struct nvme_point_out *o = next_out(r, i);
		return o ? r->fw->blockio_point(r->fw->arg, i, r->q, bs, depth, o) : -1;
	}
	if (!x->own || x->dead)
		return 0;
	if (!nvme_region_commands(x->lbas, bs, x->lba_bytes)) {
		struct nvme_point_out *o = next_out(r, i);
		if (o)
			nvme_point_skip(o, r->q, i, "own-queues", bs, depth, x->lbas * x->lba_bytes);
		return 0;
	}
	for (int k = 0; k < r->q->n; k++)
		r->x[k].lane.bytes = 0;
	set_lane(r, i, bs, depth);
	return own_point(r, "alone", 1);
}

/* Every controller with its own queues at (bs, depth) in one window; none when fewer than two. */
static int point_shared(struct nrun *r, uint32_t bs, uint32_t depth)
{
	uint32_t n = 0;
	for (int i = 0; i < r->q->n; i++) {
		struct nctl *x = &r->x[i];
		x->lane.bytes = 0;
		if (x->own && !x->dead && nvme_region_commands(x->lbas, bs, x->lba_bytes)) {
			set_lane(r, i, bs, depth);
			n++;
		}
	}
	return n >= 2 ? own_point(r, "shared", n) : 0;
}

static int points(struct nrun *r)
{
	const struct nvme_request *q = r->q;
	int rc = 0, nown = 0;
	for (int i = 0; i < q->n; i++)
		nown += r->x[i].own;
	for (int b = 0; b < q->nbs; b++)
		for (int d = 0; d < q->ndepth; d++) {
			for (int i = 0; i < q->n; i++)
				if (point_alone(r, i, q->bs[b], q->depth[d]))
					rc = -1;
			if (nown >= 2 && point_shared(r, q->bs[b], q->depth[d]))
				rc = -1;
		}
	return rc;
}

/* ---- the run -------------------------------------------------------------------------------- */

/* Every path: each controller taken is given back and checked. */
static int finish(struct nrun *r)
{
	int rc = 0;
	for (int i = 0; i < r->q->n; i++) {
		struct nctl *x = &r->x[i];
		struct nvme_ctrl_result *cr = &r->res->ctrl[i];
		cr->path = x->own ? "own-queues" : cr->take == NVME_FALLBACK ? "blockio" : "not run";
		if (x->own || x->held)
			give_back(r, i, 0);
		cr->after = r->fw->after(r->fw->arg, i);
		cr->after_bad = strcmp(cr->after, "ok") != 0 && r->q->ctrl[i].bound_before;
		if (cr->after_bad || cr->ngb)
			rc = -1;
		memcpy(cr->sn, x->c.sn, sizeof(cr->sn));
		memcpy(cr->mn, x->c.mn, sizeof(cr->mn));
		cr->mqes = x->c.mqes;
		cr->max_xfer = x->c.max_xfer;
		cr->lba_bytes = x->c.lba_bytes;
		cr->nsze = x->c.nsze;
	}
	return rc;
}

void nvme_run_abort(void *run)
{
	struct nrun *r = run;
	for (int i = 0; i < r->q->n; i++)
		if (r->x[i].own || r->x[i].held)
			give_back(r, i, 0);
}

static int run_alloc_state(struct nrun *r)
{
	const struct nvme_request *q = r->q;
	const struct measure_ctx *ctx = r->ctx;
	r->lat_cap = nvme_point_bytes(q, NVME_BS_MIN) / NVME_BS_MIN;
	for (int k = 0; k < q->nbs; k++)
		if (nvme_point_bytes(q, q->bs[k]) / q->bs[k] > r->lat_cap)
			r->lat_cap = nvme_point_bytes(q, q->bs[k]) / q->bs[k];
	r->res->cap = (uint32_t)(q->nbs * q->ndepth * q->n * 2);   /* alone + shared, per controller */
	r->x = ctx->alloc(sizeof(*r->x) * (uint64_t)q->n);
	r->lat = ctx->alloc(sizeof(uint64_t) * r->lat_cap * (uint64_t)q->n);
	r->lanes = ctx->alloc(sizeof(struct nvme_lane) * NVME_POINT_MAX_LANES);
	r->res->pt = ctx->alloc(sizeof(struct nvme_point_out) * (uint64_t)r->res->cap);
	if (r->x && r->lat && r->lanes && r->res->pt)
		return 0;
	fmt_snprintf(r->res->nomem, sizeof(r->res->nomem), "no memory for %u controllers' state and %llu latencies",
		     (unsigned)q->n, (unsigned long long)r->lat_cap * q->n);
	return -1;
}

static void run_free_state(struct nrun *r)
{
	r->ctx->free(r->x);
	r->ctx->free(r->lat);
	r->ctx->free(r->lanes);
}

int nvme_run(const struct measure_ctx *ctx, const struct nvme_fw *fw, const struct nvme_request *q,
	     struct nvme_result *res)
{
	memset(res, 0, sizeof(*res));
	res->n = q->n;
	struct nrun r = { .ctx = ctx, .fw = fw, .q = q, .res = res, .write = q->rw == CFG_RW_WRITE };
	if (run_alloc_state(&r) != 0) {
		run_free_state(&r);
		res->rc = -1;
		return -1;
	}
	for (int i = 0; i < q->n; i++) {
		r.x[i].r = &r;
		r.x[i].i = i;
	}
	if (fw->guard)
		fw->guard(fw->arg, &r);
	int rc = 0;
	for (int i = 0; i < q->n && !res->limit_stop; i++)
		if (take(&r, i) == -2)
			res->limit_stop = 1;
	if (!res->limit_stop)
		rc = points(&r);
	if (fw->guard)
		fw->guard(fw->arg, NULL);
	if (finish(&r) || res->limit_stop)
		rc = -1;
	run_free_state(&r);
	res->rc = rc;
	return rc;
}

void nvme_result_free(const struct measure_ctx *ctx, struct nvme_result *res)
{
	for (uint32_t k = 0; k < res->npt; k++)
		if (!k || res->pt[k].health != res->pt[k - 1].health)
			ctx->free(res->pt[k].health);   /* a window's records are side by side */
	ctx->free(res->pt);
	res->pt = NULL;
}
