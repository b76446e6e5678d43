/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/out/pmu_json.h"
#include "efi/out/dma_json.h"
#include "efi/measure/cha_run.h"
#include "efi/measure/dma_window.h"
#include "efi/out/pmu_out.h"
#include "efi/out/report.h"
#include "efi/out/once.h"
#include "efi/measure/window.h"
#include "efi/measure/box_attach.h"
#include "efi/measure/copy_slices.h"
#include "efi/pages.h"
#include "arch/arch.h"
#include "pmu/metrics.h"

#include <string.h>

#define WHY_BYTES 160
#define ROUNDS 1u

/* The plan, in the DMA plan (efi/measure/dma_window.h): pool memory, as are the request and
 * result (they are large and gnu-efi's .bss is in the file). */
struct cha_plan {
	int ready;                   /* request prepared: windows run under the counters */
	char why[WHY_BYTES];         /* why not ready */
	struct cha_request *req;
	struct cha_result *res;
};

static void free_pool(void *p)
{
	if (p)
		FreePool(p);
}

/* cha = auto on a CPU with no CHA efiperf programs (AMD, Arm, a client part): the plan is off and
 * says why once, instead of the error cha = on gives there. Returns 1 when so. */
static int cha_auto_off(struct cha_plan *plan, const struct platform *p, const struct efiperf_config *cfg)
{
	if (cfg->cha != CFG_CHA_AUTO || cha_platform_for_cpu(p->cpu.family, p->cpu.model))
		return 0;
	fmt_snprintf(plan->why, sizeof(plan->why), "cha = auto: no CHA efiperf programs on family 0x%x model 0x%x",
		     p->cpu.family, p->cpu.model);
	rep_line("cha:        %s", plan->why);
	return 1;
}

/* The CHA scopes: one per MCFG allocation, else segment 0 buses 0-255. Returns how many. */
static size_t pci_scopes(const struct discovery *d, struct cha_pci_scope *scope)
{
	size_t nscope = 0;
	if (d->acpi && d->acpi_status == 0)
		for (uint32_t i = 0; i < d->acpi->nmcfg && nscope < ACPI_MAX_MCFG; i++)
			scope[nscope++] = (struct cha_pci_scope){ d->acpi->mcfg[i].segment, d->acpi->mcfg[i].start_bus,
								  d->acpi->mcfg[i].end_bus };
	if (!nscope)
		scope[nscope++] = (struct cha_pci_scope){ 0, 0, 0xFF };
	return nscope;
}

int cha_run_plan(const struct hw *hw, const struct platform *p, const struct discovery *d,
		 const struct efiperf_config *cfg, struct cha_plan **out)
{
	if (!cfg->cha)
		return 0;
	struct cha_plan *plan = *out = AllocateZeroPool(sizeof(*plan));
	if (!plan) {
		rep_error("cha", "cannot allocate the CHA plan (%u bytes)", (unsigned)sizeof(*plan));
		return -1;
	}
	if (cha_auto_off(plan, p, cfg))
		return 0;
	fmt_snprintf(plan->why, sizeof(plan->why), "CHA counters not prepared");
	plan->req = AllocateZeroPool(sizeof(*plan->req));
	plan->res = AllocateZeroPool(sizeof(*plan->res));
	if (!plan->req || !plan->res) {
		free_pool(plan->req);
		free_pool(plan->res);
		plan->req = NULL;
		plan->res = NULL;
		fmt_snprintf(plan->why, sizeof(plan->why), "cannot allocate the CHA request and result (%llu bytes)",
			     (unsigned long long)(sizeof(struct cha_request) + sizeof(struct cha_result)));
		rep_error("cha", "%s", plan->why);
		return 0;
	}
	struct cha_request *req = plan->req;
	char why[WHY_BYTES] = "";
	/* cha_events first, with the measurement's parser: a typo is a config error before any
	 * window ran */
	req->plat = cha_platform_for_cpu(p->cpu.family, p->cpu.model);
	if (req->plat && cha_request_events(req, cfg->cha_events, why, sizeof(why)) != 0) {
		rep_error("config", "%s: cha_events: %s", cfg->origin[CFG_CHA_EVENTS], why);
		return -1;
	}
	struct cha_pci_scope scope[ACPI_MAX_MCFG];
	size_t nscope = pci_scopes(d, scope);
	req->disc_ws = cfg->cha_count ? NULL : pool_zalloc(sizeof(*req->disc_ws));   /* the table's, during discovery */
	int prepared = cha_prepare(hw, p->cpu.family, p->cpu.model, scope, nscope, p->mp.packages, p->mp.package_cpu,
				   cfg->cha_count, cfg->cha_events, ROUNDS, req, why, sizeof(why));
	pool_free(req->disc_ws);
	req->disc_ws = NULL;
	if (prepared != 0) {
		cha_error_record(req, why);
		rep_error("cha", "%s", why);
		fmt_snprintf(plan->why, sizeof(plan->why), "CHA counters not available: %s", why);
		return 0;
	}
	plan->ready = 1;
	plan->why[0] = 0;
	return 0;
}

static const struct self_check_bytes no_bytes;

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

int cha_run_attach(const struct cha_plan *plan, const struct self_check_bytes *expected, const char *no_dma_why,
		   struct cha_attach *c, struct attachment *a)
{
	if (!plan || !plan->ready)
		return 0;
	*c = (struct cha_attach){ .req = plan->req, .res = plan->res, .expected = expected, .no_dma_why = no_dma_why };
	*a = (struct attachment){ .ops = &cha_attach_ops, .self = c };
	return 1;
}

void cha_run_unattached(const struct cha_plan *plan, const struct self_check_bytes *expected, struct self_check *sc)
{
	self_check_compute(expected ? expected : &no_bytes, NULL, 0, plan ? plan->why : "cha = off", sc);
}

/* The console line of a finished window, its TOR latency lines, and its errors. */
static int cha_lines(const char *kernel, const struct cha_request *req, const struct cha_result *res,
		     const struct self_check *sc)
{
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

int cha_run_report(const char *kernel, const struct cha_attach *c, struct self_check *sc)
{
	const struct cha_request *req = c->req;
	const struct cha_result *res = c->res;
	*sc = c->sc;
	cha_window_record(kernel, req, res, sc);
	return cha_lines(kernel, req, res, sc);
}

int cha_run_window(const struct hw *hw, const struct cha_plan *plan, const char *kernel, cha_window_fn window,
		   void *arg, const struct self_check_bytes *expected, const char *no_dma_why, struct self_check *sc)
{
	struct cha_attach c;
	struct attachment a;
	if (!cha_run_attach(plan, expected, no_dma_why, &c, &a)) {
		window(arg, 0, 1);
		cha_run_unattached(plan, expected, sc);   /* the bytes are read after the window ran */
		return 0;
	}
	struct attach_list l = { .a = &a, .n = 1, .hw = hw };
	attach_prepare_all(&l);
	attach_run_slices(&l, window, arg);
	attach_read_all(&l);
	attach_restore_all(&l);
	return cha_run_report(kernel, &c, sc);
}

int measure_cha(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		const struct dma_plan *dp)
{
	const struct cha_plan *plan = dp->cha;
	if (!cfg->cha || !plan || !plan->ready)
		return 0;   /* off, or the plan's failure is already reported */
	struct copy_slices ctx;
	if (copy_slices_alloc(&ctx, hw, p, cfg->copy_size)) {
		rep_error("cha", "cannot allocate 2 x %llu bytes for the copy (copy_size)", (unsigned long long)ctx.bytes);
		return -1;
	}
	struct self_check sc;
	int rc = cha_run_window(hw, plan, "copy", copy_slices_window, &ctx, NULL, "a memory copy moves no PCIe bytes", &sc);
	copy_slices_free(&ctx);
	return rc;
}
