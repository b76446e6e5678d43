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
	if (!c || !hb || !is_cxl) {
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
out:
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
