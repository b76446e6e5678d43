/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/out/pmu_json.h"
#include "efi/measure/cha_run.h"
#include "efi/out/report.h"
#include "efi/measure/window.h"
#include "efi/pages.h"
#include "arch/arch.h"
#include "pmu/uncore/intel_cha.h"
#include "pmu/metrics.h"

#include <string.h>

#define WHY_BYTES 160
#define COPY_BLOCK 64u
#define ROUNDS 1u

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

static void free_pool(void *p)
{
	if (p)
		FreePool(p);
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

int measure_cha(const struct hw *hw, const struct platform *p, const struct discovery *d,
		const struct efiperf_config *cfg)
{
	if (!cfg->cha)
		return 0;
	struct cha_pci_scope scope[ACPI_MAX_MCFG];
	size_t nscope = 0;
	if (d->acpi && d->acpi_status == 0)
		for (uint32_t i = 0; i < d->acpi->nmcfg && nscope < ACPI_MAX_MCFG; i++)
			scope[nscope++] = (struct cha_pci_scope){ d->acpi->mcfg[i].segment, d->acpi->mcfg[i].start_bus,
								  d->acpi->mcfg[i].end_bus };
	if (!nscope)
		scope[nscope++] = (struct cha_pci_scope){ 0, 0, 0xFF };
	/* Pool memory: the request and result are large and gnu-efi's .bss is part of the file. */
	struct cha_request *req = AllocateZeroPool(sizeof(*req));
	struct cha_result *res = AllocateZeroPool(sizeof(*res));
	if (!req || !res) {
		/* either may have succeeded: free it (the copy buffers below had this fixed; these
		 * two had not) */
		free_pool(req);
		free_pool(res);
		rep_error("cha", "cannot allocate the CHA request and result (%llu bytes)",
			  (unsigned long long)(sizeof(*req) + sizeof(*res)));
		return -1;
	}
	char why[WHY_BYTES] = "";
	int rc = -1;
	if (cha_prepare(hw, p->cpu.family, p->cpu.model, scope, nscope, p->mp.packages, p->mp.package_cpu,
			cfg->cha_count, cfg->cha_events, ROUNDS, req, why, sizeof(why)) != 0) {
		struct json *j = rep_begin("cha");
		cha_error_json(req, why, j);
		rep_end();
		rep_error("cha", "%s", why);
		goto out;
	}
	struct slice_ctx ctx = { hw, p, NULL, NULL, cfg->copy_size, 0, 1 };
	ctx.src = pages_alloc(ctx.bytes);
	ctx.dst = pages_alloc(ctx.bytes);
	if (!ctx.src || !ctx.dst) {
		pages_free(ctx.src, ctx.bytes);
		pages_free(ctx.dst, ctx.bytes);
		rep_error("cha", "cannot allocate 2 x %llu bytes for the copy (copy_size)", (unsigned long long)ctx.bytes);
		goto out;
	}
	req->known_bytes = 0;  /* a memory copy moves no PCIe bytes: no self-check for this kernel */
	cha_measure(hw, req, window, &ctx, res);
	struct json *j = rep_begin("cha");
	cha_result_json(req, res, j);
	rep_end();
	rep_line("cha:        %s, %u socket(s), %u events in %u group(s): status %s%s%s", req->plat->name,
		 req->topo.nsockets, req->nevents, req->ngroups, res->status ? "error" : "ok",
		 res->status ? ": " : "", res->status ? res->why : "");
	pages_free(ctx.src, ctx.bytes);
	pages_free(ctx.dst, ctx.bytes);
	if (res->status)
		rep_error("cha", "%s", res->why);
	else
		rc = 0;
	/* a register left changed is its own error, also when an earlier one ended the run */
	if (res->restore_why[0] && strcmp(res->restore_why, res->why))
		rep_error("cha", "%s", res->restore_why);
out:
	free_pool(req);
	free_pool(res);
	return rc;
}
