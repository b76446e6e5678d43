/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/measure.h"
#include "efi/measure/health_window.h"
#include "efi/measure/copy_run.h"
#include "efi/measure/copy_counters.h"
#include "efi/out/copy_out.h"
#include "efi/out/report.h"
#include "efi/out/once.h"
#include "efi/out/pmu_json.h"
#include "efi/out/window_json.h"
#include "pmu/metrics.h"
#include "arch/arch.h"
#include "efi/pages.h"
#include "efi/measure/shape.h"
#include "efi/measure/cpu_arrays.h"
#include "efi/fw/numa.h"
#include "efi/measure/corepmu_run.h"
#include "efi/cpus.h"

/* How quiet a window was: interrupts masked, and the SMIs it saw (or why they are unknown). */
void measure_quiet_json(struct json *j, const struct window_result *w)
{
	rec_quiet_json(j, w->masked, w->smi_status, w->smi_delta);
}

void measure_place_json(struct json *j, const struct cpu_place *place, const void *buf)
{
	rec_place_json(j, place->node, place->local, buf);   /* and the CXL target: rec_target_json */
}

void measure_target_json(struct json *j, const void *buf)
{
	const struct pages_target *t = pages_target_of(buf);
	if (!t)
		return;
	json_obj(j, "cxl");
	json_str(j, "device", t->device);
	json_u64(j, "window", t->window);
	json_hex(j, "window_base", t->base);
	json_hex(j, "offset", (uint64_t)(uintptr_t)buf - t->base);
	json_close(j);
}

void measure_cxl(struct mem_cxl *c)
{
	const struct pages_target *t = pages_target_of(NULL);
	*c = t ? (struct mem_cxl){ t->device, t->window, t->link_mbps, t->hmat, t->domain, t->initiator }
	       : (struct mem_cxl){ .domain = -1, .initiator = -1 };
}

static int efi_window_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	return window_run(ctx, s, r);
}

/* Pages in a node's ranges, or (no ranges) anywhere. */
static void *efi_alloc_in(uint64_t bytes, const struct memrange *r, int nr)
{
	return nr ? pages_alloc_in(bytes, r, nr) : pages_alloc(bytes);
}

void measure_ctx_efi(struct measure_ctx *ctx, const struct hw *hw, uint64_t timer_hz)
{
	rec_target_writer(measure_target_json);
	*ctx = (struct measure_ctx){ .hw = hw, .win = { .run = efi_window_run, .ctx = (void *)hw }, .alloc = pool_zalloc,
				     .free = pool_free, .alloc_in = efi_alloc_in, .free_in = pages_free,
				     .clock = arch_timer_read, .timer_hz = timer_hz };
}

void measure_cpu_sel(const struct platform *p, struct cpu_sel *s)
{
	struct window_cpu sel[WINDOW_MAX_CPUS];
	s->n = cpus_selected(sel);
	s->nnodes = 0;
	for (int i = 0; i < s->n; i++) {
		s->cpu[i] = sel[i].cpu;
		s->node[i] = cpus_node(i);
		s->mem[i] = -1;
		int m = 0;
		while (s->node[i] >= 0 && m < s->nnodes && s->nodes[m].domain != s->node[i])
			m++;
		if (s->node[i] >= 0 && m == s->nnodes && m < CPU_SEL_NODES) {
			s->nodes[m].domain = s->node[i];
			s->nodes[m].nr = p->srat ? numa_domain_ranges(p->srat, p->acpi ? &p->acpi->cedt : NULL, (uint32_t)s->node[i], s->nodes[m].r, CPU_SEL_RANGES) : 0;
			s->nnodes++;
		}
		s->mem[i] = (int8_t)(s->node[i] >= 0 && m < s->nnodes ? m : -1);
	}
}

void *measure_work(uint64_t bytes, const char *where)
{
	void *w = pool_zalloc(bytes);
	if (!w)
		rep_error(where, "cannot allocate %llu bytes of working state", (unsigned long long)bytes);
	return w;
}

void measure_window_json(struct json *j, const char *key, const struct window_result *w, uint64_t hz)
{
	rec_window_json(j, key, w->span_ticks, metric_ticks_to_ns(w->span_ticks, hz), w->masked, w->smi_status, w->smi_delta);
}

static void copy_buffers_free(struct copy_request *req)
{
	for (int i = 0; req->cpu && i < req->n; i++) {
		pages_free(req->cpu[i].src, req->bytes);
		pages_free(req->cpu[i].dst, req->bytes);
	}
	pool_free(req->cpu);
	req->cpu = NULL;
}

/* The copy's request: the selected CPUs, each with its src and dst (copy_size bytes) placed in
 * its node's memory (cpus_alloc). Returns 0, or -1 after an error record. */
static int copy_request_build(const struct platform *p, const struct efiperf_config *cfg, struct copy_request *req)
{
	struct window_cpu *sel = measure_work(WINDOW_MAX_CPUS * sizeof(*sel), "measurement.copy");
	if (!sel)
		return -1;
	int n = cpus_selected(sel);
	*req = (struct copy_request){ .n = n, .bytes = cfg->copy_size, .passes = cfg->copy_passes, .windows = 1,
				      .copy = arch_copy, .timer_hz = p->timer_hz };
	req->cpu = measure_work((uint64_t)n * sizeof(*req->cpu), "measurement.copy");
	for (int i = 0; req->cpu && i < n; i++) {
		struct cpu_place ps, pd;
		struct copy_cpu *c = &req->cpu[i];
		*c = (struct copy_cpu){ .cpu = sel[i].cpu, .src = cpus_alloc(i, req->bytes, &ps),
					.dst = cpus_alloc(i, req->bytes, &pd) };
		c->node = ps.node;
		c->local = ps.local && pd.local;
		if (!c->src || !c->dst) {
			rep_error("measurement.copy", "cannot allocate 2 x %llu bytes for each of %d CPUs (copy_size, cpus)",
				  (unsigned long long)req->bytes, n);
			req->n = i + 1;
			copy_buffers_free(req);
			break;
		}
	}
	pool_free(sel);
	return req->cpu ? 0 : -1;
}

int measure_copy(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg)
{
	struct copy_request req;
	if (copy_request_build(p, cfg, &req) != 0)
		return -1;
	struct copy_counters *cc = copy_counters_new(hw, p, cfg, &req);
	int rc = -1;
	if (cc) {
		struct measure_ctx ctx;
		struct copy_result res;
		struct health_opts health;
		measure_ctx_efi(&ctx, hw, p->timer_hz);
		health_window_opts(hw, p, NULL, cfg->aer_clear, NULL, 0, &health);
		req.health = &health;
		rc = copy_measure(&ctx, &req, &res);
		copy_record(&req, &res);
		copy_result_free(&ctx, &res);
	}
	copy_counters_free(cc);
	copy_buffers_free(&req);
	return rc;
}
