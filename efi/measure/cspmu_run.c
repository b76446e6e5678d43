/* SPDX-License-Identifier: BSD-2-Clause */
/* CoreSight PMUs of the APMT around the copy window (efi/measure/cspmu_run.h). */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/cspmu_run.h"
#include "efi/out/cspmu_json.h"
#include "efi/out/report.h"
#include "efi/pcie/pcie.h"
#include "arch/lib/fmt.h"

#include <string.h>

/* edk2-nvidia's APMT parser writes processor-container UIDs as 1 << 28 | socket << 24
 * (ProcHierarchyInfoParser.h GEN_CONTAINER_UID); Linux takes the NUMA node of the CPU. */
#define CONTAINER_LEVEL_SHIFT 28
#define CONTAINER_SOCKET_SHIFT 24
#define CONTAINER_FIELD_MASK 0xFu

/* The self-check of a PMU counting the copy's memory bytes (UCF mem_bytes_rd / mem_bytes_wr). */
static const char convention[] =
	"copy of N bytes: memory reads 2N (source + destination write-allocate), writes N; "
	"self_check = (mem_bytes_rd + mem_bytes_wr) / 3N";

struct rp_sel {
	int on;
	char bdf[16];
	struct pcie_nvidia_map m;
};

struct cspmu_work {
	struct cspmu_info info;
	struct nv_cspmu_req req;
	struct cspmu_run run;
	struct nv_cspmu_metrics met;
	struct pcie_func f;
};

static void socket_of(const struct cspmu_node *n, uint32_t *socket, const char **how)
{
	if ((n->flags & CSPMU_APMT_AFF_CONTAINER) &&
	    ((n->affinity >> CONTAINER_LEVEL_SHIFT) & CONTAINER_FIELD_MASK) == 1) {
		*socket = (n->affinity >> CONTAINER_SOCKET_SHIFT) & CONTAINER_FIELD_MASK;
		*how = "processor container UID (1 << 28 | socket << 24)";
	} else {
		*socket = 0;
		*how = "0: the APMT affinity names no socket container";
	}
}

static void emit(const struct cspmu_record *r)
{
	struct json *j = rep_begin("uncore");
	cspmu_record_json(r, j);
	rep_end();
	rep_line("uncore:     %s (APMT node %u): %s%s%s", r->pmu ? r->pmu : "CoreSight PMU", r->node->id, r->status,
		 r->why ? ": " : "", r->why ? r->why : "");
}

/* One node: probe, request, window, record. 1 when measured, 0 when left out, -1 on error. */
static int one(const struct hw *hw, const struct efiperf_config *cfg, const struct acpi_apmt_node *an,
	       const struct cspmu_node *n,
	       const struct rp_sel *rp, unc_window_fn window, void *arg, uint64_t copy_bytes, struct cspmu_work *w)
{
	char why[200] = "", name[NV_CSPMU_NAME_MAX];
	struct cspmu_record r = { .node = an, .status = "error", .why = why };
	socket_of(n, &r.socket, &r.socket_source);
	if (cspmu_probe(hw, n, &w->info, why, sizeof(why))) {
		emit(&r);
		rep_error("uncore", "%s", why);
		return -1;
	}
	r.info = &w->info;
	const struct nv_cspmu_desc *d = nv_cspmu_match(w->info.pmiidr);
	if (d->per_rc) {
		r.rc = n->inst_secondary;
		r.rc_source = "APMT instance secondary (_UID); the _DSD instance_id is not read yet";
	}
	nv_cspmu_name(d, r.socket, r.rc, n->id, name, sizeof(name));
	r.pmu = name;
	int rc = nv_cspmu_request(d, name, &w->info, cfg->uncore_events, &w->req, why, sizeof(why));
	if (rc == 1) {
		r.status = "off";
		fmt_snprintf(why, sizeof(why), "uncore_events names none of its events");
		emit(&r);
		return 0;
	}
	if (rc) {
		emit(&r);
		rep_error("uncore", "%s", why);
		return -1;
	}
	r.req = &w->req;
	if (rp->on && d->rp_reg) {
		if (rp->m.socket != r.socket || rp->m.rc != r.rc) {
			r.status = "off";
			fmt_snprintf(why, sizeof(why), "pcie_pmu_rp %s is socket %u RC %u", rp->bdf, rp->m.socket, rp->m.rc);
			emit(&r);
			return 0;
		}
		nv_cspmu_set_rp(&w->req, rp->m.rp);
		r.rp_bdf = rp->bdf;
		r.rp_socket = rp->m.socket;
		r.rp_rc = rp->m.rc;
		r.rp = rp->m.rp;
	}
	if (!cspmu_start(hw, &w->info, w->req.ev, w->req.nev, &w->run)) {
		r.window_ns = window(arg, 0, 1);
		cspmu_stop(hw, &w->info, w->req.ev, w->req.nev, &w->run);
	}
	cspmu_restore(hw, &w->info, &w->run);
	r.run = &w->run;
	struct saveset_report rep = { 0 };
	saveset_report_add(&w->run.save, &rep);
	if (w->run.status || rep.nfailed || rep.dropped) {
		r.status = w->run.busy ? "busy" : "error";
		fmt_snprintf(why, sizeof(why), "%s: %s", name,
			     w->run.status ? w->run.why : "registers not restored (see restore)");
		r.check_why = why;
		emit(&r);
		if (!w->run.busy)
			rep_error("uncore", "%s", why);
		return w->run.busy ? 0 : -1;
	}
	r.status = "ok";
	r.why = NULL;
	for (uint32_t i = 0; i < w->req.nev; i++)
		r.counting |= w->run.raw[i] != 0;
	nv_cspmu_metrics(&w->req, w->run.raw, r.window_ns, &w->met);
	r.metrics = &w->met;
	if (!r.counting)
		r.check_why = "no counter advanced in the window";
	else if (d->check == NVC_CPU && w->met.have_bytes && copy_bytes) {
		r.check_ok = 1;
		r.check_milli = (uint64_t)(((unsigned __int128)w->met.bytes * 1000 + copy_bytes * 3 / 2) / (copy_bytes * 3));
		r.check_how = convention;
	} else if (d->check == NVC_DMA)
		r.check_why = "the copy window moves no PCIe bytes; DMA windows under CoreSight PMUs: not yet";
	else
		r.check_why = "no event of this PMU counts the copy's memory bytes";
	emit(&r);
	return 1;
}

int measure_cspmu(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		  unc_window_fn window, void *arg, uint64_t copy_bytes)
{
	const struct acpi_apmt *t = p->apmt;
	if (!t || !t->present)
		return 0;
	if (t->defect[0] || t->dropped)
		rep_line("uncore:     APMT defect (acpi record apmt_defects): %s%s; the %u node(s) before it are measured",
			 t->defect[0] ? t->defect : "", t->dropped ? " nodes beyond ACPI_MAX_APMT dropped" : "", t->nnodes);
	struct cspmu_work *w = AllocateZeroPool(sizeof(*w));
	if (!w) {
		rep_error("uncore", "cannot allocate %u bytes for the CoreSight PMU work area", (unsigned)sizeof(*w));
		return -1;
	}
	struct rp_sel rp = { 0 };
	int rc = 0, measured = 0;
	if (cfg->pcie_pmu_rp != CFG_BDF_NONE) {
		struct hw_pci_addr a = { CFG_BDF_SEG(cfg->pcie_pmu_rp), CFG_BDF_BUS(cfg->pcie_pmu_rp),
					 CFG_BDF_DEV(cfg->pcie_pmu_rp), CFG_BDF_FN(cfg->pcie_pmu_rp) };
		char why[160];
		pcie_bdf_str(a, rp.bdf, sizeof(rp.bdf));
		/* the run plan refused a bad value already; this reads the map it checked */
		rp.on = !pcie_nvidia_rp_lookup(hw, a, &w->f, &rp.m, why, sizeof(why));
		if (!rp.on) {
			rep_error("uncore", "pcie_pmu_rp: %s", why);
			rc = -1;
		}
	}
	for (uint32_t i = 0; i < t->nnodes && i < ACPI_MAX_APMT; i++) {
		const struct acpi_apmt_node *a = &t->node[i];
		struct cspmu_node n = { .id = a->id, .type = a->type, .flags = a->flags, .base0 = a->base0,
					.base1 = a->base1, .inst_primary = a->inst_primary,
					.inst_secondary = a->inst_secondary, .affinity = a->proc_affinity,
					.impl_id = a->impl_id };
		int k = one(hw, cfg, a, &n, &rp, window, arg, copy_bytes, w);
		if (k < 0)
			rc = -1;
		else
			measured += k;
	}
	FreePool(w);
	return rc ? -1 : measured;
}
