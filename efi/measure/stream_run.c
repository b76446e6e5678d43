/* SPDX-License-Identifier: BSD-2-Clause */
/* STREAM's run (efi/measure/stream_run.h): pure over the measure_ctx and the request's ops. */
#include <string.h>
#include "efi/measure/stream_run.h"
#include "efi/measure/measure.h"
#include "pmu/metrics.h"

#define MS_PER_S 1000u
#define BYTE_VALUES 0xFFu

const enum kernel_kind stream_kinds[STREAM_NKINDS] = {
	KERNEL_LOAD, KERNEL_STORE, KERNEL_NTSTORE, KERNEL_COPY, KERNEL_NTCOPY, KERNEL_TRIAD,
};

void stream_link_split(enum kernel_kind kind, uint64_t mbps, uint64_t link_mbps, struct stream_link *o)
{
	uint64_t n = kernel_streams(kind), w = kind == KERNEL_LOAD || kind == KERNEL_CHASE ? 0 : 1;
	*o = (struct stream_link){ 0 };
	if (!n)
		return;
	o->write_mbps = mbps * w / n;
	o->read_mbps = mbps - o->write_mbps;
	if (link_mbps) {
		o->read_milli = o->read_mbps * 1000 / link_mbps;
		o->write_milli = o->write_mbps * 1000 / link_mbps;
	}
}

/* The run's working state: ctx->alloc memory, not .bss. */
struct stream_work {
	struct window_cpu cpus[WINDOW_MAX_CPUS];
	struct kernel_run runs[WINDOW_MAX_CPUS];
	struct cpu_arrays arr[WINDOW_MAX_CPUS];
	int of[WINDOW_MAX_CPUS];             /* each CPU's class index */
	uint64_t mbps[WINDOW_MAX_CPUS];
	uint32_t isa_only;                   /* the request's, 0 after kernel_refused */
	const struct kernel_desc *pinned;    /* the request's when offered */
	uint64_t budget_ticks, tuned_ticks;  /* the budget counts the tuner's own time only */
	struct kernel_tune tunes[STREAM_MAX_CLASSES];   /* kept from one function to the next */
};

/* b and c's first `words` doubles: any finite values. */
static void stream_values(double *b, double *c, uint64_t words)
{
	for (uint64_t w = 0; w < words; w++) {
		b[w] = (double)(w & BYTE_VALUES);
		c[w] = (double)((w >> 8) & BYTE_VALUES);
	}
}

void stream_arrays_init(void *a, void *b, void *c, uint64_t bytes)
{
	memset(a, 0, bytes);
	stream_values(b, c, bytes / 8);
}

uint64_t stream_kernel(void *arg)
{
	struct kernel_run *r = arg;
	kernel_run(r);
	return r->result;
}

/* MB/s (10^6 bytes/s) = bytes per microsecond: bytes x 1000 / ns, 0 for no time. */
static uint64_t mbps_of(uint64_t bytes, uint64_t ns)
{
	return ns ? (uint64_t)((unsigned __int128)bytes * 1000u / ns) : 0;
}

/* The CPU classes (arch_cpu_class): the first CPU of each, and each CPU's. */
static void classes_find(const struct measure_ctx *ctx, const struct stream_request *req, struct stream_work *wk,
			 struct stream_result *res)
{
	res->nclasses = 0;
	for (int i = 0; i < req->sel.n; i++) {
		uint32_t id = req->ops->cpu_class(ctx->hw, req->sel.cpu[i]);
		int c = 0;
		while (c < res->nclasses && res->class_id[c] != id)
			c++;
		if (c == res->nclasses && res->nclasses < STREAM_MAX_CLASSES) {
			res->class_id[c] = id;
			res->class_first[res->nclasses++] = i;
		}
		wk->of[i] = c < res->nclasses ? c : 0;
	}
}

/* `kernel` against what this CPU offers once the vector state is on: a pinned kernel or an ISA
 * it does not offer leaves the choice to the tuner among all. */
static void kernel_resolve(const struct stream_request *req, struct stream_work *wk, struct stream_result *res)
{
	wk->isa_only = req->isa_only;
	wk->pinned = req->pinned && kernel_offered(req->pinned, res->isa) ? req->pinned : NULL;
	if ((!req->auto_kernel && !wk->pinned) || (wk->isa_only && !(wk->isa_only & res->isa))) {
		res->kernel_refused = 1;
		wk->isa_only = 0;
	}
}

/* The tuner on the first CPU of each class for function s, over that CPU's own arrays; the
 * budget left is shared among the (function, class) pairs still to tune. */
static void tune_kind(const struct measure_ctx *ctx, const struct stream_request *req, struct stream_work *wk,
		      unsigned s, struct stream_result *res)
{
	struct stream_kind_out *ko = &res->kind[s];
	const enum kernel_kind kind = stream_kinds[s];
	const uint32_t streams = kernel_streams(kind);
	const uint64_t whole = (uint64_t)streams * req->size;
	const uint64_t pb = req->llc && 2 * req->llc < whole ? 2 * req->llc : whole;
	for (int c = 0; c < res->nclasses; c++) {
		struct kernel_tune *t = &wk->tunes[c];
		const int i = res->class_first[c];
		const uint64_t spent = wk->tuned_ticks, left = (uint64_t)(STREAM_NKINDS - s) * (uint64_t)res->nclasses - (uint64_t)c;
		*t = (struct kernel_tune){ .table = req->table, .n = req->ntable, .kind = kind, .a = wk->arr[i].a[0],
					   .b = wk->arr[i].a[1], .c = wk->arr[i].a[2], .probe_bytes = pb,
					   .slices = pb / streams / STREAM_TUNE_SLICES >= STREAM_TUNE_SLICE_MIN ? STREAM_TUNE_SLICES : 1,
					   .timer = ctx->clock, .scalar = STREAM_TRIAD_SCALAR,
					   .budget_ticks = spent < wk->budget_ticks ? (wk->budget_ticks - spent) / left : 0 };
		ko->tune_rc[c] = req->ops->tune(ctx->hw, req->sel.cpu[i], t, wk->isa_only);
		wk->tuned_ticks += t->spent_ticks;
		ko->tune[c] = *t;
	}
}

/* Each CPU's kernel for function s (pinned, tuned, or the default k) and its kernel_run over
 * freshly set arrays. */
static void runs_set(const struct stream_request *req, struct stream_work *wk, unsigned s, const struct kernel_desc *k,
		     struct stream_result *res, uint64_t (*clock)(void))
{
	struct stream_kind_out *ko = &res->kind[s];
	const enum kernel_kind kind = stream_kinds[s];
	const int pinned = wk->pinned && wk->pinned->kind == kind;
	for (int i = 0; i < req->sel.n; i++) {
		const struct kernel_tune *t = &wk->tunes[wk->of[i]];
		const struct kernel_desc *use = pinned ? wk->pinned : ko->tuning && t->status == 0 ? t->cand[t->choice].k : k;
		struct cpu_arrays *ar = &wk->arr[i];
		stream_values(ar->a[1], ar->a[2], KERNEL_TUNE_VERIFY_BYTES / 8);   /* the tuner's check wrote these */
		memset(ar->a[0], 0, req->size);
		ko->cpu[i].k = use;
		wk->runs[i] = (struct kernel_run){ .k = use, .a = ar->a[0], .b = ar->a[1], .c = ar->a[2], .bytes = req->size,
						   .scalar = kind == KERNEL_TRIAD ? STREAM_TRIAD_SCALAR : STREAM_STORE_VALUE,
						   .passes = req->passes, .timer = clock };
		wk->cpus[i] = (struct window_cpu){ .cpu = req->sel.cpu[i], .arg = &wk->runs[i] };
	}
}

/* Function s's rates from the CPUs' kernel_runs: the best pass; all CPUs moved their bytes at
 * once. Verified: every CPU ran it, and a copy's a equals its b. */
static void rates(const struct measure_ctx *ctx, const struct stream_request *req, struct stream_work *wk, unsigned s,
		  int ran_all, struct stream_kind_out *ko)
{
	uint64_t tmin = ~0ull, tmax = 0, tsum = 0;
	int bad = !ran_all, ok = 0, n = req->sel.n;
	for (int i = 0; i < n; i++) {
		const struct kernel_run *r = &wk->runs[i];
		wk->mbps[i] = 0;
		if (r->status) {
			bad = 1;
			continue;
		}
		ok++;
		ko->app += r->app_bytes / req->passes;
		wk->mbps[i] = mbps_of(r->app_bytes / req->passes, metric_ticks_to_ns(r->ticks_min, ctx->timer_hz));
		tmin = r->ticks_min < tmin ? r->ticks_min : tmin;
		tmax = r->ticks_max > tmax ? r->ticks_max : tmax;
		tsum += r->ticks_total;
	}
	if (stream_kinds[s] == KERNEL_COPY || stream_kinds[s] == KERNEL_NTCOPY)
		for (int i = 0; i < n; i++)
			bad |= memcmp(wk->arr[i].a[0], wk->arr[i].a[1], req->size) != 0;
	ko->min_ns = metric_ticks_to_ns(tmin, ctx->timer_hz);
	ko->max_ns = metric_ticks_to_ns(tmax, ctx->timer_hz);
	ko->avg_ns = ok ? metric_ticks_to_ns(tsum / ((uint64_t)ok * req->passes), ctx->timer_hz) : 0;
	ko->mbps10 = mbps_of(ko->app * 10u, ko->min_ns);   /* tenths for STREAM's one decimal */
	uint8_t out[WINDOW_MAX_CPUS] = { 0 };
	ko->outliers = metric_outliers(wk->mbps, n, MEASURE_OUTLIER_PCT, out, &ko->median_mbps);
	for (int i = 0; i < n; i++)
		ko->cpu[i] = (struct stream_cpu_out){ .mbps = wk->mbps[i], .outlier = out[i], .k = ko->cpu[i].k };
	ko->verified = !bad;
}

/* Function s: its kernels, the noise floor and the window. Returns 0, -1 when not verified. */
static int run_kind(const struct measure_ctx *ctx, const struct stream_request *req, struct stream_work *wk, unsigned s,
		    struct stream_result *res)
{
	struct stream_kind_out *ko = &res->kind[s];
	const enum kernel_kind kind = stream_kinds[s];
	const struct kernel_desc *k = kernel_best(req->table, req->ntable, kind,
						  wk->isa_only ? wk->isa_only & res->isa : res->isa);
	if (!k)
		return 0;
	ko->ran = 1;
	ko->deflt = k;
	for (int i = 0; i < req->sel.n; i++)
		stream_arrays_init(wk->arr[i].a[0], wk->arr[i].a[1], wk->arr[i].a[2], req->size);
	const int pinned = wk->pinned && wk->pinned->kind == kind;
	ko->tuning = !pinned && req->budget_ms > 0;
	ko->from = pinned ? "pinned" : ko->tuning ? "tuner" : "default";
	if (ko->tuning)
		tune_kind(ctx, req, wk, s, res);
	ko->probe_above_llc = req->llc && wk->tunes[0].probe_bytes > req->llc;
	runs_set(req, wk, s, k, res, ctx->clock);
	struct window_spec spec = { .kernel = stream_kernel, .cpus = wk->cpus, .ncpus = req->sel.n, .mask_interrupts = 1 };
	struct window_spec empty = spec;
	empty.kernel = NULL;
	ctx->win.run(ctx->win.ctx, &empty, &ko->floor);
	ko->floor_ns = metric_ticks_to_ns(ko->floor.span_ticks, ctx->timer_hz);
	if (req->health) {
		ko->health.o = *req->health;
		health_begin(&ko->health, ctx->hw);
		spec.counters = health_counters(&ko->health);
	}
	int ran_all = ctx->win.run(ctx->win.ctx, &spec, &ko->w) == 0;
	if (req->health)
		health_end(&ko->health);
	rates(ctx, req, wk, s, ran_all, ko);
	return ko->verified ? 0 : -1;
}

int stream_measure(const struct measure_ctx *ctx, const struct stream_request *req, struct stream_result *res)
{
	memset(res, 0, sizeof(*res));
	res->timer_hz = ctx->timer_hz;
	int n = req->sel.n;
	struct stream_work *wk = ctx->alloc(sizeof(*wk));
	if (!wk)
		return -1;
	if (cpu_arrays_alloc(ctx, &req->sel, n, req->size, 3, wk->arr) != 0) {
		ctx->free(wk);
		return -1;
	}
	res->placed = 1;
	for (int i = 0; i < n; i++) {
		res->place[i] = wk->arr[i].place;
		res->buf[i] = wk->arr[i].a[0];
	}
	if (req->vec) {
		attach_prepare_all(req->vec);
		res->vec_on = 1;
	}
	res->isa = req->ops->isa();
	classes_find(ctx, req, wk, res);
	kernel_resolve(req, wk, res);
	wk->budget_ticks = (uint64_t)req->budget_ms * ctx->timer_hz / MS_PER_S;
	int rc = 0;
	for (unsigned s = 0; s < STREAM_NKINDS; s++)
		rc |= run_kind(ctx, req, wk, s, res);
	if (req->vec && attach_restore_all(req->vec) != 0) {
		res->vec_not_restored = 1;
		rc = -1;
	}
	cpu_arrays_free(ctx, n, req->size, 3, wk->arr);
	ctx->free(wk);
	return rc;
}
