/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/out/pmu_json.h"
#include "efi/out/dma_json.h"
#include "efi/measure/cha_run.h"
#include "efi/out/report.h"
#include "efi/out/once.h"
#include "efi/measure/window.h"
#include "efi/pages.h"
#include "arch/arch.h"
#include "pmu/metrics.h"

#include <string.h>

#define WHY_BYTES 160
#define COPY_BLOCK 64u
#define ROUNDS 1u

/* The plan: pool memory (the request and result are large and gnu-efi's .bss is in the file). */
static struct {
	int on;                      /* cha = on */
	int ready;                   /* request prepared: windows run under the counters */
	int last_counted;            /* the last window ran under the counters without error */
	char why[WHY_BYTES];         /* why not ready */
	struct cha_request *req;
	struct cha_result *res;
} plan;

static void free_pool(void *p)
{
	if (p)
		FreePool(p);
}

/* cha = auto on a CPU with no CHA efiperf programs (AMD, Arm, a client part): the plan is off and
 * says why once, instead of the error cha = on gives there. Returns 1 when so. */
static int cha_auto_off(const struct platform *p, const struct efiperf_config *cfg)
{
	if (cfg->cha != CFG_CHA_AUTO || cha_platform_for_cpu(p->cpu.family, p->cpu.model))
		return 0;
	plan.on = 1;
	fmt_snprintf(plan.why, sizeof(plan.why), "cha = auto: no CHA efiperf programs on family 0x%x model 0x%x",
		     p->cpu.family, p->cpu.model);
	rep_line("cha:        %s", plan.why);
	return 1;
}

int cha_run_plan(const struct hw *hw, const struct platform *p, const struct discovery *d,
		 const struct efiperf_config *cfg)
{
	if (!cfg->cha || cha_auto_off(p, cfg))
		return 0;
	plan.on = 1;
	fmt_snprintf(plan.why, sizeof(plan.why), "CHA counters not prepared");
	plan.req = AllocateZeroPool(sizeof(*plan.req));
	plan.res = AllocateZeroPool(sizeof(*plan.res));
	if (!plan.req || !plan.res) {
		free_pool(plan.req);
		free_pool(plan.res);
		plan.req = NULL;
		plan.res = NULL;
		fmt_snprintf(plan.why, sizeof(plan.why), "cannot allocate the CHA request and result (%llu bytes)",
			     (unsigned long long)(sizeof(struct cha_request) + sizeof(struct cha_result)));
		rep_error("cha", "%s", plan.why);
		return 0;
	}
	struct cha_request *req = plan.req;
	char why[WHY_BYTES] = "";
	/* cha_events first, with the measurement's parser: a typo is a config error before any
	 * window ran */
	req->plat = cha_platform_for_cpu(p->cpu.family, p->cpu.model);
	if (req->plat && cha_request_events(req, cfg->cha_events, why, sizeof(why)) != 0) {
		rep_error("config", "%s: cha_events: %s", cfg->origin[CFG_CHA_EVENTS], why);
		return -1;
	}
	struct cha_pci_scope scope[ACPI_MAX_MCFG];
	size_t nscope = 0;
	if (d->acpi && d->acpi_status == 0)
		for (uint32_t i = 0; i < d->acpi->nmcfg && nscope < ACPI_MAX_MCFG; i++)
			scope[nscope++] = (struct cha_pci_scope){ d->acpi->mcfg[i].segment, d->acpi->mcfg[i].start_bus,
								  d->acpi->mcfg[i].end_bus };
	if (!nscope)
		scope[nscope++] = (struct cha_pci_scope){ 0, 0, 0xFF };
	req->disc_ws = cfg->cha_count ? NULL : pool_zalloc(sizeof(*req->disc_ws));   /* the table's, during discovery */
	int prepared = cha_prepare(hw, p->cpu.family, p->cpu.model, scope, nscope, p->mp.packages, p->mp.package_cpu,
				   cfg->cha_count, cfg->cha_events, ROUNDS, req, why, sizeof(why));
	pool_free(req->disc_ws);
	req->disc_ws = NULL;
	if (prepared != 0) {
		struct json *j = rep_begin("cha");
		cha_error_json(req, why, j);
		rep_end();
		rep_error("cha", "%s", why);
		fmt_snprintf(plan.why, sizeof(plan.why), "CHA counters not available: %s", why);
		return 0;
	}
	plan.ready = 1;
	plan.why[0] = 0;
	return 0;
}

/* The counted bytes of a finished measurement: the PCIe read/write formulas of the total. */
static void counted_of(const struct cha_result *res, struct self_check_bytes *c)
{
	*c = (struct self_check_bytes){ res->total.read_bytes, res->total.write_bytes, res->total.have_read,
					 res->total.have_write };
}

/* The TOR latency classes beside the bandwidth line: ns, or "-" and the first class's why.
 * scope: "" for the classes over every socket, " (socket N)" for one socket's CHAs alone. */
static void latency_line(const char *kernel, const char *scope, const struct cha_tor_latency *l)
{
	char buf[320], v[24];
	size_t k = 0;
	const char *why = NULL;
	for (uint32_t c = 0; c < l->nclass && k < sizeof(buf); c++) {
		if (l->c[c].have)
			fmt_milli(v, sizeof(v), l->c[c].ns_milli);
		else if (!why)
			why = l->c[c].why;
		k += fmt_snprintf(buf + k, sizeof(buf) - k, "%s%s %s%s", c ? ", " : "", l->c[c].name,
				  l->c[c].have ? v : "-", l->c[c].have ? " ns" : "");
	}
	if (l->nclass)
		rep_once(NULL, "cha:        %s: TOR latency%s %s%s%s", kernel, scope, buf, why ? "; null: " : "", why ? why : "");
}

int cha_run_window(const struct hw *hw, const char *kernel, cha_window_fn window, void *arg,
		   const struct self_check_bytes *expected, const char *no_dma_why, struct self_check *sc)
{
	static const struct self_check_bytes none;
	plan.last_counted = 0;
	if (!plan.ready) {
		window(arg, 0, 1);
		self_check_compute(expected ? expected : &none, NULL, 0, plan.on ? plan.why : "cha = off", sc);
		return 0;
	}
	struct cha_request *req = plan.req;
	struct cha_result *res = plan.res;
	cha_measure(hw, req, window, arg, res);
	plan.last_counted = !res->status;
	struct self_check_bytes counted;
	counted_of(res, &counted);
	self_check_compute(expected ? expected : &none, res->status ? NULL : &counted, 0,
			   res->status ? res->why : no_dma_why, sc);
	struct json *j = rep_begin("cha");
	json_str(j, "kernel", kernel);
	cha_result_json(req, res, j);
	self_check_json(j, "self_check", sc);
	rep_end();
	char ratio[24] = "-";
	if (sc->have_ratio_write || sc->have_ratio_read)
		fmt_milli(ratio, sizeof(ratio), sc->have_ratio_write ? sc->ratio_write_milli : sc->ratio_read_milli);
	rep_once(NULL, "cha:        %s: %s, %u socket(s), %u events in %u group(s): status %s%s%s; self_check %s (ratio %s)",
		 kernel, req->plat->name, req->topo.nsockets, req->nevents, req->ngroups,
		 res->status ? "error" : "ok", res->status ? ": " : "", res->status ? res->why : "",
		 self_check_state_name(sc->state), ratio);
	if (!res->status) {
		latency_line(kernel, "", &res->latency);
		for (uint32_t s = 0; res->nsockets > 1 && s < res->nsockets; s++) {
			char scope[24];
			fmt_snprintf(scope, sizeof(scope), " (socket %u)", s);
			latency_line(kernel, scope, &res->sock[s].latency);
		}
	}
	int rc = 0;
	if (res->status) {
		rep_error("cha", "%s: %s", kernel, res->why);
		rc = -1;
	}
	/* a register left changed is its own error, also when an earlier one ended the run */
	if (res->restore_why[0] && strcmp(res->restore_why, res->why))
		rep_error("cha", "%s", res->restore_why);
	return rc;
}

const struct cha_metric_values *cha_run_total(void)
{
	return plan.last_counted ? &plan.res->total : NULL;
}

/* ---- the copy window ------------------------------------------------------------------------ */

struct slice_ctx {
	const struct hw *hw;
	const struct platform *p;
	uint64_t *src, *dst;
	uint64_t bytes;          /* whole buffer; each slice copies its share */
	uint32_t cur_slice, nslices;
};

static uint64_t slice_kernel(void *arg)
{
	struct slice_ctx *c = arg;
	uint64_t share = c->bytes / c->nslices / COPY_BLOCK * COPY_BLOCK;
	if (!share)
		share = COPY_BLOCK;
	uint64_t off = (uint64_t)c->cur_slice * share % c->bytes;
	if (off + share > c->bytes)
		off = 0;
	arch_copy((char *)c->dst + off, (const char *)c->src + off, share);
	return 0;
}

/* cha_window_fn: one slice of the copy on the boot CPU, interrupts masked. Returns ns. */
static uint64_t window(void *arg, uint32_t slice, uint32_t nslices)
{
	struct slice_ctx *c = arg;
	c->cur_slice = slice;
	c->nslices = nslices ? nslices : 1;
	struct window_cpu cpu = { .cpu = c->p->mp.bsp, .arg = c };
	struct window_spec spec = { .kernel = slice_kernel, .cpus = &cpu, .ncpus = 1, .mask_interrupts = 1 };
	struct window_result w;
	window_run(c->hw, &spec, &w);
	return metric_ticks_to_ns(w.span_ticks, c->p->timer_hz);
}

int measure_cha(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->cha || !plan.ready)
		return 0;   /* off, or the plan's failure is already reported */
	struct slice_ctx ctx = { hw, p, NULL, NULL, cfg->copy_size, 0, 1 };
	ctx.src = pages_alloc(ctx.bytes);
	ctx.dst = pages_alloc(ctx.bytes);
	if (!ctx.src || !ctx.dst) {
		pages_free(ctx.src, ctx.bytes);
		pages_free(ctx.dst, ctx.bytes);
		rep_error("cha", "cannot allocate 2 x %llu bytes for the copy (copy_size)", (unsigned long long)ctx.bytes);
		return -1;
	}
	struct self_check sc;
	int rc = cha_run_window(hw, "copy", window, &ctx, NULL, "a memory copy moves no PCIe bytes", &sc);
	pages_free(ctx.src, ctx.bytes);
	pages_free(ctx.dst, ctx.bytes);
	return rc;
}
