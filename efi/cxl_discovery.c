/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CXL discovery glue: after the PCIe scan, the component registers of every CEDT CHBS and
 * everything efi/pcie/cxl.h reads of every CXL function, written as `cxl_host_bridge` and `cxl`
 * records and a console tree. Register windows are checked against the UEFI memory map's
 * system RAM; the mailbox timeout runs on arch_timer_read().
 */
#include <efi.h>
#include <efilib.h>
#include "efi/cxl_discovery.h"
#include "efi/fw/memmap.h"
#include "efi/out/cxl_json.h"
#include "efi/out/pmu_json.h"
#include "efi/pcie/cxl_commit.h"
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

#define COMMIT_SAVES 64
#define GIB_ALIGN (256ull << 20)

/* What discovery keeps of each CXL function for cxl_decoders = commit. */
struct cxl_seen { uint64_t comp; uint64_t dev_bytes; uint8_t port_type; };

/* Decoder 0 of a component block re-read: 1 when Committed (0 also when unreadable); *ctrl the
 * address of its Control register. */
static int decoder0_committed(const struct cxl_env *env, uint64_t base, uint64_t len, struct cxl_component *tmp,
			      uint64_t *ctrl)
{
	char why[CXL_DEFECT_LEN] = "";
	cxl_read_component(env, base, len, tmp, why, sizeof(why));
	*ctrl = 0;
	for (int k = 0; k < tmp->ncaps; k++)
		if (tmp->caps[k].id == CXL_CM_CAP_HDM)
			*ctrl = base + CXL_CM_OFFSET + tmp->caps[k].offset + CXL_HDM_DEC_CTRL(0);
	return tmp->hdm.present && tmp->hdm.count && tmp->hdm.dec[0].committed;
}

/* cxl_decoders = commit: the first one-way, defect-free CFMWS window to a CXL 2.0 host bridge,
 * the first Type 3 device below a root port with component registers, hops host bridge -> root
 * port -> device; commit, read back, restore, read back; one `cxl_commit` record. */
static void commit_window(const struct cxl_env *env, const struct acpi_cedt *cedt, const struct pcie_func *funcs,
			  const struct cxl_seen *seen, int n, struct cxl_component *tmp)
{
	struct json *j;
	const struct acpi_cedt_cfmws *w = NULL;
	const struct acpi_cedt_chbs *hb = NULL;
	for (uint32_t k = 0; cedt && k < cedt->ncfmws && k < ACPI_MAX_CEDT_CFMWS && !w; k++)
		if (cedt->cfmws[k].ways == 1 && !cedt->cfmws[k].defect[0] && cedt->cfmws[k].target_chbs[0] >= 0 &&
		    cedt->chbs[cedt->cfmws[k].target_chbs[0]].version == CEDT_CHBS_VERSION_CXL2) {
			w = &cedt->cfmws[k];
			hb = &cedt->chbs[w->target_chbs[0]];
		}
	int dev = -1;
	for (int i = 0; i < n && dev < 0; i++)
		if (seen[i].comp && seen[i].dev_bytes && funcs[i].parent >= 0 && seen[funcs[i].parent].comp)
			dev = i;
	char why[160] = "";
	if (!w)
		fmt_snprintf(why, sizeof(why), "no one-way CFMWS window to a CXL 2.0 host bridge in the CEDT");
	else if (dev < 0)
		fmt_snprintf(why, sizeof(why), "no CXL memory device below a root port with component registers");
	j = rep_begin("cxl_commit");
	if (why[0]) {
		json_str(j, "why", why);
		rep_end();
		rep_line("cxl commit: not done: %s", why);
		return;
	}
	int rp = funcs[dev].parent;
	char hb_name[32], rp_bdf[16], dev_bdf[16];
	fmt_snprintf(hb_name, sizeof(hb_name), "host bridge _UID 0x%x", hb->uid);
	pcie_bdf_str(funcs[rp].addr, rp_bdf, sizeof(rp_bdf));
	pcie_bdf_str(funcs[dev].addr, dev_bdf, sizeof(dev_bdf));
	uint64_t size = w->size < seen[dev].dev_bytes ? w->size : seen[dev].dev_bytes;
	size -= size % GIB_ALIGN;
	/* the root port's target: the device's port, way 0 the root port's own Port Number */
	struct cxl_commit_hop hops[3] = {
		{ hb_name, hb->base, 0, funcs[rp].exp.link.port_number },
		{ rp_bdf, seen[rp].comp, 0, 0 },
		{ dev_bdf, seen[dev].comp, 1, 0 },
	};
	static struct saved_reg store[COMMIT_SAVES];
	struct saveset ss;
	saveset_init(&ss, store, COMMIT_SAVES);
	int rc = cxl_commit_window(env, w->base, size, hops, 3, &ss, why, sizeof(why));
	int committed[3], after[3];
	uint64_t lens[3] = { hb->length, CXL_COMPONENT_BLOCK_LEN, CXL_COMPONENT_BLOCK_LEN }, ctrl;
	for (int h = 0; h < 3; h++)
		committed[h] = decoder0_committed(env, hops[h].comp, lens[h], tmp, &ctrl);
	hw_status rst = saveset_restore(env->hw, &ss);
	/* A write-back can succeed and leave the decoder committed (a device that cannot uncommit,
	 * as QEMU 7.2's, whose Committed bit only a reset clears): read back, and name it. */
	for (int h = 0; h < 3; h++) {
		after[h] = decoder0_committed(env, hops[h].comp, lens[h], tmp, &ctrl);
		if (after[h] && ctrl && saveset_mark_failed(&ss, reg_mmio32(ctrl), HW_ERROR) == 0 && rst == HW_OK)
			rst = HW_ERROR;
	}
	struct saveset_report rep = { 0 };
	saveset_report_add(&ss, &rep);
	json_hex(j, "window_base", w->base);
	json_hex(j, "size", size);
	json_arr(j, "hops");
	for (int h = 0; h < 3; h++) {
		json_obj(j, NULL);
		json_str(j, "name", hops[h].name);
		json_hex(j, "component", hops[h].comp);
		json_bool(j, "committed", committed[h]);
		json_bool(j, "committed_after_restore", after[h]);
		json_close(j);
	}
	json_close(j);
	json_bool(j, "ok", rc == 0);
	json_str(j, "why", rc ? why : NULL);
	json_restore_report(j, &rep, NULL);
	rep_end();
	rep_line("cxl commit: window 0x%llx + 0x%llx via %s, %s, %s: %s; restore %s, decoders %s after it",
		 (unsigned long long)w->base, (unsigned long long)size, hb_name, rp_bdf, dev_bdf,
		 rc ? why : "committed", rst == HW_OK ? "ok" : "incomplete",
		 after[0] || after[1] || after[2] ? "STILL COMMITTED (named in restore.failed)" : "uncommitted");
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
	if (!c || !hb || !is_cxl || !seen) {
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
	for (int i = 0; i < n; i++)
		is_cxl[i] = cxl_is_cxl(&funcs[i]);
	for (int i = 0; i < n; i++) {
		if (!is_cxl[i])
			continue;
		cxl_probe(&env, &funcs[i], c);
		seen[i] = (struct cxl_seen){ .comp = c->comp.present && c->comp.hdm.present ? c->comp.addr : 0,
					     .dev_bytes = c->devregs.cmd_identify.ok ? c->devregs.id.total : 0,
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
	if (d->cxl_commit)
		commit_window(&env, cedt, funcs, seen, n, hb);
out:
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
