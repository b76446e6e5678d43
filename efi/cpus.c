/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/cpus.h"
#include "efi/config/cpuset.h"
#include "efi/fw/numa.h"
#include "efi/pages.h"
#include "efi/out/report.h"

#define NODE_RANGES_MAX 16

/* WINDOW_MAX_CPUS entries each, from the pool (cpus_init; .bss is stored in the image) */
static uint32_t *sel;
static int32_t *sel_node;
static uint32_t boot_sel[1];   /* cpus_selected() without a selection: the boot CPU alone */
static int32_t boot_node[1];
static int nsel;
static const struct acpi_srat *srat;   /* the platform's, for cpus_alloc() */
static const struct acpi_cedt *cedt;   /* its CXL windows (hot-pluggable CXL ranges are placed) */

/* The node of each selected CPU, as numa_cpu_domain() finds it. */
static void find_nodes(const struct platform *p)
{
	for (int i = 0; i < nsel; i++) {
		uint32_t d;
		sel_node[i] = -1;
		if (p->mp.cpu && numa_cpu_domain(p->srat, p->madt, p->mp.cpu[sel[i]].proc_id, &d) == 0)
			sel_node[i] = (int32_t)d;
	}
}

int cpus_init(const struct platform *p, const struct efiperf_config *cfg)
{
	struct cpuset set;
	char msg[160];
	struct cpuset_topo topo = { p->mp.logical, p->mp.bsp, p->mp.cpu };
	int n = -1;
	if (!sel || sel == boot_sel) {
		sel = pool_zalloc(WINDOW_MAX_CPUS * sizeof(*sel));
		sel_node = pool_zalloc(WINDOW_MAX_CPUS * sizeof(*sel_node));
	}
	if (!sel || !sel_node) {
		nsel = 0;
		rep_error("cpus", "no pool memory for the CPU selection");
		return -1;
	}
	if (cpuset_parse(cfg->cpus, strlena((CHAR8 *)cfg->cpus), &set, msg, sizeof(msg)) == 0)
		n = cpuset_resolve(&set, &topo, sel, WINDOW_MAX_CPUS, msg, sizeof(msg));
	if (n < 0) {
		nsel = 0;
		rep_error("config", "%s: cpus: '%s' on this machine: %s", cfg->origin[CFG_CPUS], cfg->cpus, msg);
		return -1;
	}
	nsel = n;
	srat = p->srat;
	cedt = p->acpi ? &p->acpi->cedt : NULL;
	find_nodes(p);
	struct json *j = rep_begin("cpus");
	json_str(j, "setting", cfg->cpus);
	json_u64(j, "count", (uint64_t)nsel);
	json_str(j, "numa", p->srat && p->srat->present ? "SRAT" : "no SRAT: buffers anywhere");
	json_str(j, "package_source", p->mp.package_source ? p->mp.package_source : "none");
	if (p->mp.package_why[0])
		json_str(j, "package_why", p->mp.package_why);
	json_u64(j, "packages", p->mp.packages);
	json_arr(j, "selected");
	for (int i = 0; i < nsel; i++) {
		json_obj(j, NULL);
		json_u64(j, "cpu", sel[i]);
		if (p->mp.cpu) {
			json_u64(j, "package", p->mp.cpu[sel[i]].package);
			json_hex(j, "proc_id", p->mp.cpu[sel[i]].proc_id);
			if (p->mp.topo) {   /* PPTT */
				json_u64(j, "cluster", p->mp.topo[sel[i]].cluster);
				json_u64(j, "core", p->mp.topo[sel[i]].core);
			}
		}
		if (sel_node[i] >= 0)
			json_u64(j, "node", (uint64_t)sel_node[i]);
		else
			json_null(j, "node");
		json_close(j);
	}
	json_close(j);
	rep_end();
	rep_line("cpus:       %s: %d CPU(s), first %u, last %u%s", cfg->cpus, nsel, sel[0], sel[nsel - 1],
		 p->srat && p->srat->present ? ", buffers from each CPU's SRAT node" : "");
	return 0;
}

int cpus_selected(struct window_cpu *cpus)
{
	if (!nsel) {
		struct mp_info mi;
		mp_init(&mi);
		if (!sel || !sel_node) {   /* cpus_init never ran, or had no pool: the boot CPU alone */
			sel = boot_sel;
			sel_node = boot_node;
		}
		sel[0] = mi.bsp;
		sel_node[0] = -1;
		nsel = 1;
	}
	for (int i = 0; i < nsel; i++)
		cpus[i] = (struct window_cpu){ .cpu = sel[i] };
	return nsel;
}

int32_t cpus_node(int i)
{
	return i >= 0 && i < nsel ? sel_node[i] : -1;
}

void *cpus_alloc(int i, uint64_t bytes, struct cpu_place *place)
{
	*place = (struct cpu_place){ .node = i >= 0 && i < nsel ? sel_node[i] : -1 };
	if (place->node >= 0 && !pages_target_of(NULL)) {
		struct memrange r[NODE_RANGES_MAX];
		int nr = numa_domain_ranges(srat, cedt, (uint32_t)place->node, r, NODE_RANGES_MAX);
		void *b = nr ? pages_alloc_in(bytes, r, nr) : NULL;
		if (b) {
			place->local = 1;
			return b;
		}
	}
	return pages_alloc(bytes);
}

int cpus_count(void)
{
	struct window_cpu one;   /* before cpus_init: the boot CPU alone, as cpus_selected says */
	return nsel ? nsel : cpus_selected(&one);
}

int cpus_has(uint32_t cpu)
{
	int n = cpus_count();
	for (int i = 0; i < n; i++)
		if (sel[i] == cpu)
			return 1;
	return 0;
}
