/* SPDX-License-Identifier: BSD-2-Clause */
#include <string.h>
#include "efi/measure/c2c_run.h"
#include "pmu/metrics.h"

#define PS_PER_NS 1000u

uint64_t c2c_pair_kernel(void *arg)
{
	struct c2c_pair_arg *a = arg;
	return a->initiator ? c2c_initiator(&a->run) : c2c_responder(&a->run);
}

/* The pair's rounds as one line transfer each (round trip / 2 / trips, ps): min and median
 * into *lo and *med (at least 1 when measured: 0 means not measured). ps: rounds entries. */
static void pair_stats(const struct measure_ctx *ctx, const struct c2c_request *req, const uint64_t *ticks,
		       uint64_t *ps, uint64_t *lo, uint64_t *med)
{
	uint32_t rounds = req->rounds;
	uint64_t m = ~0ull;
	for (uint32_t r = 0; r < rounds; r++) {
		ps[r] = metric_ticks_to_ns(ticks[r] * PS_PER_NS, ctx->timer_hz) / (2ull * req->trips);
		m = ps[r] < m ? ps[r] : m;
	}
	uint64_t md;
	if (rounds <= METRIC_MAX_OUTLIER_N) {
		md = metric_median(ps, (int)rounds);
	} else {
		c2c_sort_u64(ps, rounds);
		md = ps[rounds / 2];
	}
	*lo = m ? m : 1;
	*med = md ? md : 1;
}

/* One window: CPUs a (initiator) and b of the selection. */
static void run_pair(const struct measure_ctx *ctx, const struct c2c_request *req, int a, int b, uint64_t *ticks,
		     uint64_t *ps, struct c2c_result *res)
{
	int n = req->n;
	*req->line = 0;
	struct c2c_pair_arg args[2];
	args[0] = (struct c2c_pair_arg){ { .line = req->line, .rounds = req->rounds, .trips = req->trips,
					   .timer = ctx->clock, .timeout_ticks = ctx->timer_hz * C2C_TIMEOUT_S,
					   .round_ticks = ticks }, 1 };
	args[1] = args[0];
	args[1].initiator = 0;
	args[1].run.round_ticks = NULL;
	struct window_cpu wc[2] = { { .cpu = req->topo[a].cpu, .arg = &args[0] },
				    { .cpu = req->topo[b].cpu, .arg = &args[1] } };
	struct window_spec spec = { .kernel = c2c_pair_kernel, .cpus = wc, .ncpus = 2, .mask_interrupts = 1 };
	struct window_result w = { 0 };
	struct c2c_pair *q = &res->pair[res->npairs++];
	q->a = wc[0].cpu;
	q->b = wc[1].cpu;
	q->ran = ctx->win.run(ctx->win.ctx, &spec, &w) == 0;
	q->ok = q->ran && args[0].run.status == 0 && args[1].run.status == 0 &&
		wc[0].ret == 2ull * req->rounds * req->trips;
	q->masked = w.masked;
	q->smi_st = w.smi_status;
	q->smi = w.smi_delta;
	uint64_t lo = 0, med = 0;
	if (q->ok)
		pair_stats(ctx, req, ticks, ps, &lo, &med);
	res->min_ps[a * n + b] = res->min_ps[b * n + a] = lo;
	res->median_ps[a * n + b] = res->median_ps[b * n + a] = med;
	res->failed += !q->ok;
}

int c2c_measure(const struct measure_ctx *ctx, const struct c2c_request *req, struct c2c_result *res)
{
	int n = req->n;
	memset(res, 0, sizeof(*res));
	res->n = n;
	res->all_masked = 1;
	res->smi_st = HW_OK;
	uint64_t rounds = req->rounds, npairs = (uint64_t)n * (uint64_t)(n - 1) / 2;
	uint64_t *work = ctx->alloc((2 * rounds + npairs) * sizeof(uint64_t));
	if (!work)
		return -1;
	uint64_t *ticks = work, *ps = work + rounds, *scratch = work + 2 * rounds;
	res->health = health_cpu_begin(ctx, req->health, NULL);
	for (int i = 0; i < n; i++)
		for (int k = i + 1; k < n; k++)
			run_pair(ctx, req, i, k, ticks, ps, res);
	health_end(res->health);
	for (int q = 0; q < res->npairs; q++) {
		const struct c2c_pair *p = &res->pair[q];
		res->all_masked &= p->masked != 0;
		res->smi += p->smi;
		if (p->smi_st != HW_OK)
			res->smi_st = p->smi_st;
	}
	c2c_summarise(req->topo, n, res->median_ps, scratch, res->rel, res->node);
	ctx->free(work);
	return res->failed ? -1 : 0;
}
