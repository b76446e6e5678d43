/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/uncore_run.h"
#include "efi/measure/cspmu_run.h"
#include "efi/measure/nv_acpi_run.h"
#include "efi/measure/uncore_disc.h"
#include "efi/measure/dma_window.h"
#include "efi/out/uncore_json.h"
#include "efi/out/pmu_out.h"
#include "efi/out/report.h"
#include "efi/measure/window.h"
#include "efi/measure/box_attach.h"
#include "efi/measure/copy_slices.h"
#include "efi/measure/iio_window.h"
#include "efi/pages.h"
#include "arch/arch.h"
#include "arch/lib/fmt.h"
#include "pmu/uncore/amd_uncore.h"
#include "pmu/uncore/intel_uncore.h"
#include "pmu/uncore/intel_imc_free.h"
#include "pmu/events/gen_events.h"
#include "pmu/event_string.h"
#include "pmu/metrics.h"

#include <string.h>

/* The traffic's bytes, as the self-check compares them (write-allocate counted: the copy's
 * destination lines are read before they are written, as on x86 write-back memory without
 * non-temporal stores). */
static const char *const convention =
	"copy of N bytes: DRAM reads 2N (source + destination write-allocate), writes N; "
	"self_check = dram_bytes / 3N";

/* free_why: the uncore_imc record's free_running {why}, or NULL for none. */
static void status_record_free(const char *pmu, const char *platform, const char *status, const char *why,
			       const char *free_why)
{
	uncore_status_record(pmu, platform, status, why, free_why);
	rep_line("uncore:     %s: %s (%s)", pmu, status, why);
}

static void status_record(const char *pmu, const char *platform, const char *status, const char *why)
{
	status_record_free(pmu, platform, status, why, NULL);
}

/* A request that could not be built: an `error` uncore record and an error record. Returns -1. */
static int request_failed(const char *pmu, const char *platform, const char *why)
{
	uncore_status_record(pmu, platform, "error", why, NULL);
	rep_error("uncore", "%s", why);
	return -1;
}

/* req's boxes around the copy (an uncore attachment riding on its slices), counted against
 * what the copy moved (the convention above). */
static void count_copy(const struct hw *hw, struct unc_request *req, struct copy_slices *ctx, struct unc_result *res)
{
	req->known_read_bytes = 2 * ctx->bytes;
	req->known_write_bytes = ctx->bytes;
	req->known_how = convention;
	struct unc_attach u = { .req = req, .res = res };
	struct attachment a = { .ops = &unc_attach_ops, .self = &u };
	struct attach_list l = { .a = &a, .n = 1, .hw = hw };
	attach_prepare_all(&l);
	attach_run_slices(&l, copy_slices_window, ctx);
	attach_read_all(&l);
	attach_restore_all(&l);
}

/* The console line of one box type's window and its errors (the count's, then the restore's
 * when it says something else). Returns res->status. */
static int box_summary(const char *platform, const char *pmu, const struct unc_request *req,
		       const struct unc_result *res)
{
	rep_line("uncore:     %s %s, %u %s(s), %u events in %u group(s): %s%s%s", platform, pmu, req->npkgs, req->scope,
		 req->nevents, req->ngroups, res->status ? "error" : res->state ? "not-advancing" : "counting",
		 res->status ? ": " : "", res->status ? res->why : "");
	if (res->status)
		rep_error("uncore", "%s", res->why);
	if (res->restore_why[0] && strcmp(res->restore_why, res->why))
		rep_error("uncore", "%s", res->restore_why);
	return res->status;
}

/* 1 when `events` names PMU pmu (a "pmu/" prefix) or one of its events by name. */
static int names_box(const struct amd_box_desc *b, const char *events)
{
	size_t n = strlen(b->pmu);
	for (const char *s = events; *s; s++)
		if ((s == events || s[-1] == ';' || s[-1] == ' ') && !strncmp(s, b->pmu, n) && s[n] == '/')
			return 1;
	for (uint16_t i = 0; i < b->nevents; i++) {
		size_t k = strlen(b->events[i].name);
		for (const char *s = events; *s; s++)
			if (!strncmp(s, b->events[i].name, k))
				return 1;
	}
	return 0;
}

static int measure_box(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		       const struct amd_uncore_family *f, enum amd_box bx, const struct amd_uncore_caps *caps,
		       struct copy_slices *ctx, struct unc_request *req, struct unc_result *res)
{
	const struct amd_box_desc *b = &f->box[bx];
	char why[160] = "", cpuid[96];
	if (cfg->uncore_events[0] && !names_box(b, cfg->uncore_events)) {
		status_record(b->pmu, f->name, "off", "uncore_events names none of its events");
		return 0;
	}
	int present = amd_uncore_present(b, caps, why, sizeof(why));
	fmt_snprintf(cpuid, sizeof(cpuid), "%s%s", present ? "present" : "absent: ", present ? "" : why);
	if (!present && cfg->uncore != CFG_UNCORE_FORCE) {
		status_record(b->pmu, f->name, "absent", why);
		return 0;
	}
	/* L3: the boot CPU's CCX (the copy runs there); DF and UMC: one CPU per socket */
	uint32_t npkgs = bx == AMD_BOX_L3 ? 1 : p->mp.packages ? p->mp.packages : 1;
	uint32_t cpu[UNC_MAX_PKGS], sock[UNC_MAX_PKGS];
	for (uint32_t s = 0; s < npkgs && s < UNC_MAX_PKGS; s++) {
		cpu[s] = bx == AMD_BOX_L3 ? p->mp.bsp : p->mp.package_cpu[s];
		sock[s] = s;
	}
	struct amd_uncore_caps use = *caps;
	if (!present && bx == AMD_BOX_UMC && (!use.num_umc || !use.umc_mask)) {
		use.num_umc = 4;              /* force without CPUID: one UMC, Linux's 4-counter minimum */
		use.umc_mask = 1;
	}
	if (amd_uncore_request(f, bx, &use, npkgs, cpu, sock, cfg->uncore_events, req, why, sizeof(why)))
		return request_failed(b->pmu, f->name, why);
	count_copy(hw, req, ctx, res);
	uint32_t nsock = bx == AMD_BOX_L3 ? 1 : npkgs;
	for (uint32_t s = 0; s < nsock; s++) {
		uncore_socket_record(req, res, s, cpuid, NULL, 0);
	}
	return box_summary(f->name, b->pmu, req, res);
}

/* ---- Intel IMC / IIO ---------------------------------------------------------------------- */

#define SCAN_MAX 1024

static const struct intel_uncore_platform *intel_platform(const struct platform *p)
{
	return strcmp(p->cpu.vendor, "GenuineIntel") ? NULL : intel_uncore_platform_for(p->cpu.family, p->cpu.model);
}

int uncore_run_plan(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		    struct uncore_scan *sc)
{
	if (!cfg->uncore || !intel_platform(p) || sc->fn)
		return 0;
	sc->fn = AllocatePool(SCAN_MAX * sizeof(*sc->fn));
	if (!sc->fn) {
		rep_error("uncore", "cannot allocate %u PCI function records for the IMC/IIO scan", SCAN_MAX);
		return -1;
	}
	sc->n = intel_pci_scan(hw, 0, 0, 0xFF, sc->fn, SCAN_MAX);
	rep_line("uncore:     PCI scan of segment 0 buses 00-ff for the IMC and IIO map: %u functions", sc->n);
	return 0;
}

static int names_intel(const struct intel_box_desc *b, const char *events)
{
	size_t n = strlen(b->pmu);
	for (const char *s = events; *s; s++)
		if ((s == events || s[-1] == ';' || s[-1] == ' ') && !strncmp(s, b->pmu, n) && (s[n] == '/' || s[n] == '_'))
			return 1;
	for (uint16_t i = 0; i < b->nevents; i++) {
		size_t k = strlen(b->events[i].name);
		for (const char *s = events; *s; s++)
			if (!strncmp(s, b->events[i].name, k))
				return 1;
	}
	/* a name of the box's unit in Intel's generated catalogue */
	const char *s = events, *tok;
	size_t len;
	struct gen_row r;
	while ((len = ev_next_token(&s, &tok)) != 0)
		if (intel_uncore_gen_find(b, tok, len, &r))
			return 1;
	return 0;
}

/* One uncore_iio_map record per socket: the map, where it came from, its defects. Fills
 * maps[0..nsock) (the caller's, from the pool) and returns it. */
static const struct iio_map *iio_maps_report(const struct hw *hw, const struct intel_uncore_platform *ip,
					     struct uncore_scan *sc, const uint32_t *cpu, uint32_t nsock,
					     struct iio_map *maps)
{
	if (ip->discovery)
		for (uint32_t s = 0; s < nsock; s++)
			uncore_disc_iio_map(hw, ip, sc, s, &maps[s]);
	else
		intel_iio_maps(hw, ip, sc->fn, sc->n, cpu, nsock, maps);
	for (uint32_t s = 0; s < nsock; s++) {
		uncore_iio_map_record(ip->name, s, &maps[s]);
		rep_line("uncore:     %s uncore_iio stack map of socket %u (%s): %s%s", ip->name, s,
			 iio_map_source_name(maps[s].method), maps[s].valid ? maps[s].source : "absent: ",
			 maps[s].valid ? "" : maps[s].why);
		for (uint32_t d = 0; d < maps[s].ndefects && d < IIO_MAX_DEFECTS; d++)
			rep_error("uncore", "IIO stack map defect (socket %u): %s", s, maps[s].defect[d]);
	}
	return maps;
}

/* The DMA windows' IIO self-check plan from these units and the sockets' stack maps (reported
 * here, one record per socket; the maps live in the pool only until the plan has copied them). */
static void iio_plan_report(const struct hw *hw, const struct intel_uncore_platform *ip, struct uncore_scan *sc,
			    struct iio_state **iio,
			    const struct uncore_box_type *ty, const struct intel_unit *units, uint32_t n,
			    const uint32_t *cpu, uint32_t nsock)
{
	struct iio_map *maps = pool_zalloc(UNC_MAX_PKGS * sizeof(*maps));
	if (!maps) {
		rep_error("uncore", "cannot allocate the IIO stack maps: DMA windows get no IIO self-check");
		return;
	}
	iio_window_plan(iio, ip, ty, units, n, iio_maps_report(hw, ip, sc, cpu, nsock, maps), nsock, cpu);
	pool_free(maps);
}

/* ---- IMC free-running DDR counters ---- */

/* The first read of the IMC free-running counters of the platform (every IMC MMIO block among
 * the scanned functions, sockets as intel_imc_find's, more than nsock: the last). Nothing is
 * written. When there are none, or a read fails, fr->why says why and the run goes on. */
static void free_running_start(const struct hw *hw, const struct intel_uncore_platform *ip,
			       const struct uncore_scan *sc, uint32_t nsock, struct imc_free_run *fr)
{
	const struct imc_free_layout *l = imc_free_layout_for(ip->name);
	struct intel_imc_block blk[INTEL_IMC_MAX_BLOCKS];
	uint32_t n = 0;
	char why[160];
	if (l && l->bytes_per_count &&
	    intel_imc_blocks(hw, ip, sc->fn, sc->n, blk, INTEL_IMC_MAX_BLOCKS, &n, why, sizeof(why))) {
		memset(fr, 0, sizeof(*fr));
		fmt_snprintf(fr->why, sizeof(fr->why), "%s: the IMC MMIO block is unavailable: %s", ip->name, why);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		if (blk[i].socket >= nsock)
			blk[i].socket = (uint16_t)(nsock - 1);
	imc_free_start(hw, ip->name, l, blk, n, fr);
	if (fr->faulted)
		rep_error("uncore", "%s", fr->why);
}

/* The DRAM bytes the programmable counters gave for socket s (0 when they did not count). */
static uint64_t programmable_bytes(const struct unc_request *req, const struct unc_result *res, uint32_t s)
{
	uint64_t b = 0;
	for (uint32_t p = 0; !res->status && res->state == UNC_STATE_COUNTING && p < req->npkgs; p++)
		if (req->socket[p] == s)
			b += res->m[p].dram_rw_bytes;
	return b;
}

static void free_running_line(const struct intel_uncore_platform *ip, uint32_t s, uint64_t prog,
			      const struct imc_free_run *fr)
{
	if (!fr->valid) {
		rep_line("uncore:     %s uncore_imc free-running DDR counters: absent (%s)", ip->name, fr->why);
		return;
	}
	uint64_t rd, wr;
	char ratio[24];
	imc_free_socket_bytes(fr, s, &rd, &wr);
	fmt_milli(ratio, sizeof(ratio), metric_ratio_milli(rd + wr, prog));
	rep_line("uncore:     %s uncore_imc free-running DDR counters, socket %u: read %llu, write %llu bytes; "
		 "%s x the programmable counters' %llu", ip->name, s, (unsigned long long)rd,
		 (unsigned long long)wr, ratio, (unsigned long long)prog);
}

static int measure_intel_box(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
			     const struct intel_uncore_platform *ip, struct uncore_scan *sc, struct dma_plan *dp,
			     enum intel_box bx,
			     struct copy_slices *ctx, struct unc_request *req, struct unc_result *res,
			     struct imc_free_run *fr)
{
	const struct intel_box_desc *b = &ip->box[bx];
	char why[160] = "";
	if (cfg->uncore_events[0] && !names_intel(b, cfg->uncore_events)) {
		status_record(b->pmu, ip->name, "off", "uncore_events names none of its events");
		return 0;
	}
	uint32_t nsock = p->mp.packages ? p->mp.packages : 1, cpu[UNC_MAX_PKGS], n = 0;
	if (nsock > UNC_MAX_PKGS)
		nsock = UNC_MAX_PKGS;
	for (uint32_t s = 0; s < nsock; s++)
		cpu[s] = p->mp.package_cpu[s];
	struct intel_unit units[UNC_MAX_PKGS];
	struct uncore_box_type ty = *b->type;
	int imc = bx == INTEL_BOX_IMC;
	if (imc)
		free_running_start(hw, ip, sc, nsock, fr);
	if (ip->discovery) {
		if (uncore_disc_units(hw, ip, bx, sc, nsock, units, UNC_MAX_PKGS, &n, &ty, why, sizeof(why))) {
			status_record_free(b->pmu, ip->name, "absent", why, imc ? fr->why : NULL);
			if (bx == INTEL_BOX_IIO)   /* no units: the DMA windows' IIO self_check is absent, the map says why */
				iio_plan_report(hw, ip, sc, &dp->iio, &ty, units, 0, cpu, nsock);
			return 0;
		}
	} else if (bx == INTEL_BOX_IMC) {
		if (intel_imc_find(hw, ip, sc->fn, sc->n, units, UNC_MAX_PKGS, &n, why, sizeof(why))) {
			status_record_free(b->pmu, ip->name, "absent", why, fr->why);
			return 0;
		}
		for (uint32_t i = 0; i < n; i++)
			if (units[i].socket >= nsock)
				units[i].socket = (uint16_t)(nsock - 1);   /* more IMC buses than packages: the last CPU */
	} else {
		for (uint32_t s = 0; s < nsock; s++)
			for (uint8_t k = 0; k < ip->nstacks && n < UNC_MAX_PKGS; k++)
				units[n++] = (struct intel_unit){ (uint16_t)s, k, { 0 } };
	}
	if (intel_uncore_request_as(ip, bx, &ty, units, n, cpu, cfg->uncore_events, req, why, sizeof(why)))
		return request_failed(b->pmu, ip->name, why);
	count_copy(hw, req, ctx, res);
	if (imc && !fr->faulted && imc_free_stop(hw, fr) && fr->faulted)
		rep_error("uncore", "%s", fr->why);  /* read only: nothing to restore either way */
	for (uint32_t s = 0; s < nsock; s++) {
		int any = 0;
		for (uint32_t k = 0; k < req->npkgs; k++)
			any |= req->socket[k] == s;
		if (!any)
			continue;
		uint64_t prog = imc ? programmable_bytes(req, res, s) : 0;
		uncore_socket_record(req, res, s, NULL, imc ? fr : NULL, prog);
		if (imc)
			free_running_line(ip, s, prog, fr);
	}
	int rc = box_summary(ip->name, b->pmu, req, res);
	if (bx == INTEL_BOX_IIO) {
		/* the DMA windows' iio_self_check programs the device's stack among these same units
		 * (fixed MSRs, or the discovery table's addresses and geometry on SPR and later) */
		iio_plan_report(hw, ip, sc, &dp->iio, &ty, units, n, cpu, nsock);
	}
	return rc;
}

static int measure_intel(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
			 const struct intel_uncore_platform *ip, struct uncore_scan *sc, struct dma_plan *dp,
			 struct copy_slices *ctx,
			 struct unc_request *req, struct unc_result *res)
{
	int rc = 0;
	if (!sc->fn && uncore_run_plan(hw, p, cfg, sc))
		return -1;
	/* the IMC's free-running counters of this pass (pool memory: about 3 KiB) */
	struct imc_free_run *fr = pool_zalloc(sizeof(*fr));
	if (!fr) {
		rep_error("uncore", "cannot allocate the IMC free-running counter state (%llu bytes)",
			  (unsigned long long)sizeof(*fr));
		return -1;
	}
	for (int b = 0; b < INTEL_NBOX; b++)
		if (measure_intel_box(hw, p, cfg, ip, sc, dp, (enum intel_box)b, ctx, req, res, fr))
			rc = -1;
	pool_free(fr);
	return rc;
}

int measure_uncore(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		   struct uncore_scan *sc, struct dma_plan *dp)
{
	if (!cfg->uncore)
		return 0;
	const struct intel_uncore_platform *ip = intel_platform(p);
	const struct amd_uncore_family *f = NULL;
	if (!strcmp(p->cpu.vendor, "AuthenticAMD") || !strcmp(p->cpu.vendor, "HygonGenuine"))
		f = amd_uncore_family_for(p->cpu.family, p->cpu.model);
	int apmt = p->apmt && p->apmt->nnodes;
	struct unc_request *req = AllocateZeroPool(sizeof(*req));
	struct unc_result *res = AllocateZeroPool(sizeof(*res));
	struct copy_slices ctx = { .bytes = cfg->copy_size };
	int rc = 0;
	uint32_t nv_found = 0;
	if (!req || !res || copy_slices_alloc(&ctx, hw, p, cfg->copy_size)) {
		rep_error("uncore", "cannot allocate the uncore request/result (%llu bytes) and 2 x %llu copy bytes",
			  (unsigned long long)(sizeof(*req) + sizeof(*res)), (unsigned long long)ctx.bytes);
		rc = -1;
		goto out;
	}
	/* PMUs in the ACPI namespace (NVIDIA Tegra410), whatever the CPU */
	rc = nv_acpi_run(hw, p, cfg, &dp->cs, copy_slices_whole, &ctx, &nv_found);
	if (apmt && measure_cspmu(hw, p, cfg, &dp->cs, copy_slices_window, &ctx, ctx.bytes) < 0)
		rc = -1;
	if (ip) {
		if (measure_intel(hw, p, cfg, ip, sc, dp, &ctx, req, res))
			rc = -1;
	} else if (f) {
		struct amd_uncore_caps caps;
		amd_uncore_caps_read(hw, &caps);
		for (int b = 0; b < AMD_NBOX; b++)
			if (f->box[b].pmu && measure_box(hw, p, cfg, f, (enum amd_box)b, &caps, &ctx, req, res))
				rc = -1;
			else if (!f->box[b].pmu && f->box[b].absent)
				status_record(amd_box_pmu[b], f->name, "absent", f->box[b].absent);
	} else if (!nv_found && !apmt) {
		char why[200];
		fmt_snprintf(why, sizeof(why), "no uncore box table (IMC/IIO, AMD DF/L3/UMC) for %s family 0x%x model 0x%x, "
			     "no NVIDIA PMU device in the ACPI namespace and no APMT", p->cpu.vendor, p->cpu.family,
			     p->cpu.model);
		status_record("uncore", NULL, "absent", why);
	}
out:
	copy_slices_free(&ctx);
	uncore_disc_free(sc);
	if (req)
		FreePool(req);
	if (res)
		FreePool(res);
	return rc;
}
