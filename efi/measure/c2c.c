/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/c2c.h"
#include "efi/measure/c2c_group.h"
#include "efi/measure/measure.h"
#include "efi/out/report.h"
#include "efi/pages.h"
#include "efi/measure/c2c_run.h"
#include "efi/measure/health_window.h"
#include "efi/out/c2c_out.h"
#include "arch/arch.h"

/* Package, core and L3 domain of selected CPU i. x86: the APIC ID (MP services ProcessorId)
 * shifted past the SMT bits (threads_per_core) and past the bits of the CPUs sharing the
 * last-level cache (its CPUID sharing count), SDM Vol.2A CPUID leaf 04H EAX[25:14] and leaf 0BH.
 * Elsewhere the package (Arm: from the PPTT, efi/mp.c) stands for the L3 domain, and the core
 * is the PPTT's core where there is one (threads of a core are then `smt`), else the CPU. */
static struct c2c_cpu topo_of(const struct platform *p, const struct window_cpu *c, int i, int *l3_known)
{
	struct c2c_cpu t = { .cpu = c->cpu, .node = cpus_node(i), .core = c->cpu, .l3 = 0 };
	const struct cache_desc *llc = p->cpu.ncaches ? &p->cpu.cache[p->cpu.ncaches - 1] : NULL;
	*l3_known = 0;
	if (p->mp.cpu) {
		uint64_t id = p->mp.cpu[c->cpu].proc_id;
		t.package = p->mp.cpu[c->cpu].package;
		t.l3 = t.package;
		if (p->mp.topo)   /* PPTT core ids are unique within a package only */
			t.core = p->mp.topo[c->cpu].core;
		if (p->cpu.arch && p->cpu.arch[0] == 'x') {
			t.core = (uint32_t)(id >> c2c_apic_shift(p->cpu.threads_per_core));
			if (llc && llc->sharing) {
				t.l3 = (uint32_t)(id >> c2c_apic_shift(llc->sharing));
				*l3_known = 1;
			}
		}
	}
	return t;
}

/* The request from the config and the platform: the selection (2..C2C_MAX_CPUS CPUs) with each
 * CPU's topology, rounds and trips, the record's platform facts. Returns 0, or -1 after a config
 * error record naming the setting, where it was set and why (report: 1) or silently (0). */
static int c2c_request_build(const struct platform *p, const struct efiperf_config *cfg, struct c2c_request *req,
			     int report)
{
	struct window_cpu *sel = measure_work(WINDOW_MAX_CPUS * sizeof(*sel), "c2c");
	if (!sel)
		return -1;
	int n = cpus_selected(sel);
	if (n < 2 || n > C2C_MAX_CPUS) {
		if (report)
			rep_error("config", "%s: c2c = on: %s, and cpus = '%s' (%s) selects %d CPU(s)%s", cfg->origin[CFG_C2C],
				  n < 2 ? "a pair needs two CPUs" : "the matrix is limited to 64 CPUs (one window per pair)",
				  cfg->cpus, cfg->origin[CFG_CPUS], n, n < 2 ? ": set cpus = all or a list of two or more" : "");
		pool_free(sel);
		return -1;
	}
	*req = (struct c2c_request){ .n = n, .l3_known = 1, .trips = cfg->c2c_trips,
				     .rounds = cfg->c2c_rounds < C2C_MAX_ROUNDS ? cfg->c2c_rounds : C2C_MAX_ROUNDS,
				     .emulated = p->cpu.virtual_machine, .hypervisor = p->cpu.hypervisor,
				     .package_from = p->mp.package_source ? p->mp.package_source : "none" };
	for (int i = 0; i < n; i++) {
		int k;
		req->topo[i] = topo_of(p, &sel[i], i, &k);
		req->l3_known &= k;
	}
	req->l3_domain_from = req->l3_known ? p->cpu.cache_source
			      : "package (the CPU does not say which CPUs share its last-level cache)";
	pool_free(sel);
	return 0;
}

int c2c_plan(const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->c2c)
		return 0;
	struct c2c_request *req = measure_work(sizeof(*req), "c2c");
	int rc = req ? c2c_request_build(p, cfg, req, 1) : -1;
	pool_free(req);
	return rc;
}

int measure_c2c(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->c2c)
		return 0;
	struct c2c_work { struct c2c_request req; struct c2c_result res; struct health_opts health; } *wk = measure_work(sizeof(*wk), "c2c");
	if (!wk)
		return -1;
	struct cpu_place place;
	void *page = NULL;
	int rc = c2c_request_build(p, cfg, &wk->req, 0);   /* -1: c2c_plan named it */
	if (!rc && !(page = cpus_alloc(0, C2C_LINE_BYTES, &place))) {
		rep_error("c2c", "cannot allocate the shared line");
		rc = -1;
	}
	if (!rc) {
		wk->req.line = page;   /* page-aligned, so C2C_LINE_BYTES-aligned */
		wk->req.line_node = place.node;
		wk->req.line_local = place.local;
		struct measure_ctx ctx;
		measure_ctx_efi(&ctx, hw, p->timer_hz);
		health_window_opts(hw, p, NULL, cfg->aer_clear, NULL, 0, &wk->health);
		wk->req.health = &wk->health;
		rc = c2c_measure(&ctx, &wk->req, &wk->res);
		if (rc && !wk->res.npairs)
			rep_error("c2c", "cannot allocate the rounds' working memory (c2c_rounds %u)", wk->req.rounds);
		else
			c2c_record(&wk->req, &wk->res);
		ctx.free(wk->res.health);
		pages_free(page, C2C_LINE_BYTES);
	}
	pool_free(wk);
	return rc;
}
