/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CXL discovery glue: after the PCIe scan, the component registers of every CEDT CHBS and
 * everything efi/pcie/cxl.h reads of every CXL function, written as `cxl_host_bridge` and `cxl`
 * records and a console tree, `cxl_node` records for CXL memory the firmware described, and the
 * plan of cxl_decoders = commit (efi/cxl_memory.c carries it out). Register windows are checked
 * against the UEFI memory map's system RAM; the mailbox timeout runs on arch_timer_read().
 */
#include <efi.h>
#include <efilib.h>
#include "efi/cxl_discovery.h"
#include "efi/fw/memmap.h"
#include "efi/fw/cxl_numa.h"
#include "efi/out/cxl_json.h"
#include "efi/out/pmu_json.h"
#include "efi/out/report.h"
#include "arch/arch.h"
#include "arch/lib/fmt.h"
#include <string.h>

#define LINE 256
#define TREE_MAX_DEPTH 8

static uint64_t now_ticks(void *arg)
{
	(void)arg;
	return arch_timer_read();
}

/* Depth of function i below its topmost CXL ancestor in the scan. */
static int cxl_depth(const struct pcie_func *funcs, const int *is_cxl, int i)
{
	int d = 0;
	for (int p = funcs[i].parent; p >= 0 && d < TREE_MAX_DEPTH; p = funcs[p].parent)
		d += is_cxl[p];
	return d;
}

#define GIB_ALIGN (256ull << 20)

/* What discovery keeps of each CXL function for cxl_decoders = commit. */
struct cxl_seen { uint64_t comp; uint64_t dev_bytes; uint64_t cpmu; uint8_t port_type; };

static struct cxl_commit_plan plan;

const struct cxl_commit_plan *cxl_commit_plan(void)
{
	return plan.asked ? &plan : NULL;
}

/* cxl_decoders = commit: the first one-way, defect-free CFMWS window to a CXL 2.0 host bridge,
 * the first Type 3 device below a root port with component registers, hops host bridge -> root
 * port -> device (efi/cxl_memory.c commits, measures on it and puts everything back). */
static void plan_window(const struct acpi_cedt *cedt, const struct pcie_func *funcs, const struct cxl_seen *seen, int n)
{
	const struct acpi_cedt_cfmws *w = NULL;
	const struct acpi_cedt_chbs *hb = NULL;
	plan = (struct cxl_commit_plan){ .asked = 1 };
	for (uint32_t k = 0; cedt && k < cedt->ncfmws && k < ACPI_MAX_CEDT_CFMWS && !w; k++)
		if (cedt->cfmws[k].ways == 1 && !cedt->cfmws[k].defect[0] && cedt->cfmws[k].target_chbs[0] >= 0 &&
		    cedt->chbs[cedt->cfmws[k].target_chbs[0]].version == CEDT_CHBS_VERSION_CXL2) {
			w = &cedt->cfmws[k];
			hb = &cedt->chbs[w->target_chbs[0]];
			plan.window = k;
		}
	int dev = -1;
	for (int i = 0; i < n && dev < 0; i++)
		if (seen[i].comp && seen[i].dev_bytes && funcs[i].parent >= 0 && seen[funcs[i].parent].comp)
			dev = i;
	if (!w)
		fmt_snprintf(plan.why, sizeof(plan.why), "no one-way CFMWS window to a CXL 2.0 host bridge in the CEDT");
	else if (dev < 0)
		fmt_snprintf(plan.why, sizeof(plan.why), "no CXL memory device below a root port with component registers");
	if (plan.why[0])
		return;
	int rp = funcs[dev].parent;
	fmt_snprintf(plan.name[0], sizeof(plan.name[0]), "host bridge _UID 0x%x", hb->uid);
	pcie_bdf_str(funcs[rp].addr, plan.name[1], sizeof(plan.name[1]));
	pcie_bdf_str(funcs[dev].addr, plan.name[2], sizeof(plan.name[2]));
	plan.base = w->base;
	plan.size = w->size < seen[dev].dev_bytes ? w->size : seen[dev].dev_bytes;
	plan.size -= plan.size % GIB_ALIGN;
	plan.cpmu = seen[dev].cpmu;
	/* the root port's target: the device's port, way 0 the root port's own Port Number */
	plan.hop[0] = (struct cxl_commit_hop){ plan.name[0], hb->base, 0, funcs[rp].exp.link.port_number };
	plan.hop[1] = (struct cxl_commit_hop){ plan.name[1], seen[rp].comp, 0, 0 };
	plan.hop[2] = (struct cxl_commit_hop){ plan.name[2], seen[dev].comp, 1, 0 };
	plan.len[0] = hb->length;
	plan.len[1] = plan.len[2] = CXL_COMPONENT_BLOCK_LEN;
	plan.link = funcs[dev].exp.link;
}

/* Firmware-committed CXL memory (efi/fw/cxl_numa.h): SRAT nodes and EFI_MEMORY_SP ranges inside
 * a CFMWS window, each named by the window and the device whose committed HDM decoder covers
 * it; one `cxl_node` record each, after the functions were read. */
struct cxl_nodes { int n; struct cxl_numa_node node[CXL_NUMA_MAX]; char dev[CXL_NUMA_MAX][16]; };

static void nodes_find(const struct discovery *d, const struct acpi_cedt *cedt, struct cxl_nodes *nd)
{
	int nsp = 0;
	struct memrange *sp = memmap_read(&nsp, MEMMAP_SP);
	const struct acpi_srat *srat = d->acpi && d->acpi_status == 0 && d->acpi->srat.present ? &d->acpi->srat : NULL;
	nd->n = cxl_numa_nodes(srat, cedt, sp, sp ? nsp : 0, nd->node, CXL_NUMA_MAX);
	if (sp)
		FreePool(sp);
}

/* The device of c, when one of its committed decoders covers node k's range. */
static void nodes_name(struct cxl_nodes *nd, const struct cxl_func *c)
{
	for (int k = 0; k < nd->n; k++)
		for (uint32_t i = 0; c->comp.hdm.present && i < c->comp.hdm.count && i < CXL_HDM_MAX_DECODERS; i++) {
			const struct cxl_hdm_decoder *dd = &c->comp.hdm.dec[i];
			if (dd->committed && c->devregs.present && nd->node[k].base >= dd->base &&
			    nd->node[k].base + nd->node[k].size <= dd->base + dd->size)
				pcie_bdf_str(c->addr, nd->dev[k], sizeof(nd->dev[k]));
		}
}

/* HMAT's claims for the node's domain beside it (efi/fw/acpi_hmat.h), or why there are none. */
static void hmat_json(struct json *j, const struct acpi_hmat *h, int32_t domain)
{
	struct acpi_hmat_claim c[ACPI_MAX_HMAT_CLAIMS];
	int n = domain >= 0 && h ? acpi_hmat_claims_for(h, (uint32_t)domain, c, ACPI_MAX_HMAT_CLAIMS) : 0;
	acpi_hmat_claims_json(j, "hmat", c, n);
	json_str(j, "hmat_why", n ? NULL : domain < 0 ? "no SRAT proximity domain: no HMAT claim can name it"
				 : !h ? "no HMAT" : "the HMAT claims nothing for this domain");
}

static void nodes_record(const struct cxl_nodes *nd, const struct acpi_hmat *hmat)
{
	for (int k = 0; k < nd->n; k++) {
		const struct cxl_numa_node *x = &nd->node[k];
		struct json *j = rep_begin("cxl_node");
		if (x->domain >= 0)
			json_u64(j, "node", (uint64_t)x->domain);
		else
			json_null(j, "node");
		json_u64(j, "window", x->window);
		json_hex(j, "base", x->base);
		json_hex(j, "size", x->size);
		json_bool(j, "efi_memory_sp", x->sp);
		json_bool(j, "hot_pluggable", x->hot_pluggable);
		json_bool(j, "non_volatile", x->non_volatile);
		json_str(j, "device", nd->dev[k][0] ? nd->dev[k] : NULL);
		hmat_json(j, hmat, x->domain);
		rep_end();
		char node[24] = "none (no SRAT entry)";
		if (x->domain >= 0)
			fmt_snprintf(node, sizeof(node), "%d (SRAT)", x->domain);
		rep_line("  CXL memory 0x%llx + 0x%llx in window %u: node %s, device %s%s", (unsigned long long)x->base,
			 (unsigned long long)x->size, x->window, node, nd->dev[k][0] ? nd->dev[k] : "none whose committed decoder covers it",
			 x->sp ? ", EFI_MEMORY_SP" : "");
	}
}

int discovery_cxl(const struct hw *hw, const struct discovery *d, const struct pcie_func *funcs, int n,
		  uint64_t timer_hz)
{
	const struct acpi_cedt *cedt = d->acpi && d->acpi_status == 0 && d->acpi->cedt.present ? &d->acpi->cedt : NULL;
	int ncxl = 0;
	for (int i = 0; i < n; i++)
		ncxl += cxl_is_cxl(&funcs[i]);
	if (!cedt && !ncxl)
		return 0;
	int nram = 0;
	struct memrange *ram = memmap_read(&nram, MEMMAP_RAM);
	struct cxl_env env = { .hw = hw, .ram = ram, .nram = ram ? nram : 0, .now = now_ticks, .hz = timer_hz };
	struct cxl_func *c = AllocateZeroPool(sizeof(*c));
	struct cxl_component *hb = AllocateZeroPool(sizeof(*hb));
	int *is_cxl = AllocateZeroPool((n ? n : 1) * sizeof(*is_cxl));
	struct cxl_seen *seen = AllocateZeroPool((n ? n : 1) * sizeof(*seen));
	struct cxl_nodes *nd = AllocateZeroPool(sizeof(*nd));
	if (!c || !hb || !is_cxl || !seen || !nd) {
		rep_error("cxl", "cannot allocate the CXL function records");
		goto out;
	}
	char line[LINE];
	if (!ram)
		rep_error("cxl", "the UEFI memory map could not be read: register windows are not checked against RAM");
	rep_line("cxl:        %u host bridge(s), %u fixed memory window(s) in the CEDT; %d CXL function(s)",
		 cedt ? cedt->nchbs : 0, cedt ? cedt->ncfmws : 0, ncxl);
	for (uint32_t k = 0; cedt && k < cedt->nchbs && k < ACPI_MAX_CEDT_CHBS; k++) {
		const struct acpi_cedt_chbs *h = &cedt->chbs[k];
		char defect[CXL_DEFECT_LEN] = "";
		if (h->version == CEDT_CHBS_VERSION_CXL2)
			cxl_read_component(&env, h->base, h->length, hb, defect, sizeof(defect));
		else {
			memset(hb, 0, sizeof(*hb));
			fmt_snprintf(defect, sizeof(defect), "CXL version %u (a CXL 1.1 RCRB): not read", h->version);
		}
		struct json *j = rep_begin("cxl_host_bridge");
		cxl_host_bridge_to_json(h, hb, defect, j);
		rep_end();
		rep_line("  host bridge _UID 0x%x: component registers 0x%llx+0x%llx%s%s", h->uid,
			 (unsigned long long)h->base, (unsigned long long)h->length, defect[0] ? ": " : "", defect);
		for (int i = 0; cxl_decoder_line(hb, 2, i, line, sizeof(line)); i++)
			rep_line("  %s", line);
	}
	for (uint32_t k = 0; cedt && k < cedt->ncfmws && k < ACPI_MAX_CEDT_CFMWS; k++) {
		const struct acpi_cedt_cfmws *w = &cedt->cfmws[k];
		rep_line("  window %u: 0x%llx + 0x%llx, %u way(s) x %u B, restrictions 0x%x, first target _UID 0x%x%s%s", k,
			 (unsigned long long)w->base, (unsigned long long)w->size, w->ways, w->granularity, w->restrictions,
			 w->ntargets ? w->target[0] : 0, w->defect[0] ? ": " : "", w->defect);
	}
	nodes_find(d, cedt, nd);
	for (int i = 0; i < n; i++)
		is_cxl[i] = cxl_is_cxl(&funcs[i]);
	for (int i = 0; i < n; i++) {
		if (!is_cxl[i])
			continue;
		cxl_probe(&env, &funcs[i], c);
		nodes_name(nd, c);
		seen[i] = (struct cxl_seen){ .comp = c->comp.present && c->comp.hdm.present ? c->comp.addr : 0,
					     .dev_bytes = c->devregs.cmd_identify.ok ? c->devregs.id.total : 0,
					     .cpmu = c->ncpmu && c->cpmu[0].ok ? c->cpmu[0].pmu.base : 0,
					     .port_type = c->port_type };
		char parent[16] = "";
		if (funcs[i].parent >= 0)
			pcie_bdf_str(funcs[funcs[i].parent].addr, parent, sizeof(parent));
		struct json *j = rep_begin("cxl");
		cxl_func_to_json(c, parent, j);
		rep_end();
		int depth = cxl_depth(funcs, is_cxl, i) + 1;
		for (int l = 0; cxl_func_line(c, depth, l, line, sizeof(line)); l++)
			rep_line("%s", line);
	}
	nodes_record(nd, d->acpi && d->acpi_status == 0 && d->acpi->hmat.present ? &d->acpi->hmat : NULL);
	if (d->cxl_commit)
		plan_window(cedt, funcs, seen, n);
out:
	if (nd)
		FreePool(nd);
	if (seen)
		FreePool(seen);
	if (c)
		FreePool(c);
	if (hb)
		FreePool(hb);
	if (is_cxl)
		FreePool(is_cxl);
	if (ram)
		FreePool(ram);
	return ncxl;
}
