/* SPDX-License-Identifier: BSD-2-Clause */
#include <string.h>
#include "efi/measure/numa_run.h"
#include "pmu/metrics.h"

#define LINE_BYTES 64u
#define CHASE_SEED 0xC0FFEEull
#define CHASE_PASSES 2u
#define READ_PASSES 2u

struct numa_work {
	struct window_cpu wc[WINDOW_MAX_CPUS];
	struct kernel_run runs[WINDOW_MAX_CPUS];
};

uint64_t numa_run_kernel(void *arg)
{
	kernel_run(arg);
	return ((struct kernel_run *)arg)->result;
}

/* One cell: chase on the node's first CPU, then the load kernel on all its CPUs. */
static void measure_cell(const struct measure_ctx *ctx, const struct numa_request *req, struct numa_work *w,
			 const struct numa_node *cn, void *buf, struct numa_cell *out)
{
	uint64_t size = req->size;
	kernel_chase_build(buf, size, LINE_BYTES, CHASE_SEED);
	w->runs[0] = (struct kernel_run){ .k = req->chase, .b = buf, .bytes = size, .passes = CHASE_PASSES,
					  .timer = ctx->clock };
	w->wc[0] = (struct window_cpu){ .cpu = req->cpu[cn->first], .arg = &w->runs[0] };
	struct window_spec spec = { .kernel = numa_run_kernel, .cpus = w->wc, .ncpus = 1, .mask_interrupts = 1 };
	out->ran = ctx->win.run(ctx->win.ctx, &spec, &out->wl) == 0 && w->runs[0].status == 0;
	out->ps = kernel_ps_per_load(w->runs[0].ticks_min, ctx->timer_hz, size / LINE_BYTES);
	/* read: the node's CPUs split the buffer in equal whole-block shares */
	int n = 0;
	for (int i = 0; i < req->nsel; i++)
		if (req->cpu_node[i] == (int32_t)cn->domain)
			w->wc[n++] = (struct window_cpu){ .cpu = req->cpu[i] };
	uint64_t share = size / (uint64_t)n / req->load->block_bytes * req->load->block_bytes;
	for (int i = 0; i < n; i++) {
		w->runs[i] = (struct kernel_run){ .k = req->load, .b = (char *)buf + share * (uint64_t)i, .bytes = share,
						  .passes = READ_PASSES, .timer = ctx->clock };
		w->wc[i].arg = &w->runs[i];
	}
	spec.ncpus = n;
	out->health = health_cpu_begin(ctx, req->health, &spec);
	out->ran &= share > 0 && ctx->win.run(ctx->win.ctx, &spec, &out->wb) == 0;
	health_end(out->health);
	uint64_t worst = 0;
	for (int i = 0; i < n; i++) {
		out->ran &= w->runs[i].status == 0;
		worst = w->runs[i].ticks_min > worst ? w->runs[i].ticks_min : worst;
	}
	/* all CPUs read at once: the slowest CPU's best pass bounds the total */
	out->gbps_milli = metric_gbps_milli(share * (uint64_t)n, metric_ticks_to_ns(worst, ctx->timer_hz));
}

int numa_measure(const struct measure_ctx *ctx, const struct numa_request *req, struct numa_result *res)
{
	memset(res, 0, sizeof(*res));
	struct numa_work *w = ctx->alloc(sizeof(*w));
	if (!w)
		return -1;
	int rc = 0;
	for (int c = 0; c < req->nn; c++)
		for (int m = 0; m < req->nn; m++) {
			struct numa_cell *x = &res->cell[c][m];
			if (!req->node[c].ncpu || !req->node[m].nr)
				continue;
			void *buf = ctx->alloc_in(req->size, req->node[m].r, req->node[m].nr);
			x->placed = buf != NULL;
			if (buf) {
				measure_cell(ctx, req, w, &req->node[c], buf, x);
				ctx->free_in(buf, req->size);
			}
			rc |= x->ran ? 0 : -1;
		}
	ctx->free(w);
	return rc;
}

int hmat_claims_beside(const struct acpi_hmat *h, uint32_t initiator, uint32_t target, uint64_t ps, uint64_t mbps,
		       struct numa_claim *out, int max)
{
	int n = 0;
	for (uint32_t i = 0; h && i < h->n && n < max; i++) {
		const struct acpi_hmat_claim *k = &h->claim[i];
		/* 0, 1 access/read latency (ps); 3, 4 access/read bandwidth (MB/s): what was measured */
		static const uint8_t measured_kind[ACPI_HMAT_NTYPES] = { 1, 1, 0, 2, 2, 0 };
		uint8_t m = k->data_type < ACPI_HMAT_NTYPES ? measured_kind[k->data_type] : 0;
		uint64_t v = m == 1 ? ps : m == 2 ? mbps : 0;
		if (k->initiator == initiator && k->target == target && v && k->value)
			out[n++] = (struct numa_claim){ k->data_type, k->value, v, v * 1000 / k->value };
	}
	return n;
}

int numa_cell_claims(const struct numa_request *req, const struct numa_result *res, int c, int m,
		     struct numa_claim *out, int max)
{
	const struct numa_cell *x = &res->cell[c][m];
	return x->ran ? hmat_claims_beside(req->hmat, req->node[c].domain, req->node[m].domain, x->ps, x->gbps_milli, out, max)
		      : 0;
}

int numa_cell_slit(const struct numa_request *req, const struct numa_result *res, int c, int m, uint32_t *dist,
		   uint64_t *claimed_milli, uint64_t *measured_milli)
{
	const struct acpi_slit *s = req->slit;
	uint32_t a = req->node[c].domain, b = req->node[m].domain;
	if (!s || !s->present || s->defect[0] || s->n > ACPI_SLIT_MAX || a >= s->n || b >= s->n)
		return -1;
	int local = -1;
	for (int k = 0; k < req->nn; k++)
		if (req->node[k].domain == a)
			local = k;
	const struct numa_cell *l = local >= 0 ? &res->cell[c][local] : NULL;
	if (!l || !l->ran || !l->ps || !res->cell[c][m].ran)
		return -1;
	*dist = s->dist[a * s->n + b];
	*claimed_milli = (uint64_t)*dist * 100;
	*measured_milli = res->cell[c][m].ps * 1000 / l->ps;
	return 0;
}

const char *numa_hmat_why(const struct numa_request *req, const struct numa_result *res)
{
	if (!req->hmat || !req->hmat->present)
		return "no ACPI HMAT";
	if (req->hmat->defect[0])
		return "the HMAT has a defect (the acpi record's hmat.defect names it)";
	struct numa_claim k;
	for (int c = 0; c < req->nn; c++)
		for (int m = 0; m < req->nn; m++)
			if (numa_cell_claims(req, res, c, m, &k, 1))
				return NULL;
	return "the HMAT claims no access or read latency or bandwidth for a measured cell";
}

void numa_result_free(const struct measure_ctx *ctx, struct numa_result *res)
{
	for (int c = 0; c < NUMA_MAX_NODES; c++)
		for (int m = 0; m < NUMA_MAX_NODES; m++) {
			ctx->free(res->cell[c][m].health);
			res->cell[c][m].health = NULL;
		}
}
