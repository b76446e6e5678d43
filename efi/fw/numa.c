/* SPDX-License-Identifier: BSD-2-Clause */
/* numa: SRAT nodes of CPUs and memory, and node-local placement (efi/numa.h). */
#include "efi/fw/numa.h"
#include "efi/fw/cxl_numa.h"

#define SRAT_MEM_HOT_PLUGGABLE (1u << 1)   /* ACPI 6.5 Table 5.59, Memory Affinity Flags */
#define SRAT_MEM_NON_VOLATILE  (1u << 2)

static int srat_domain(const struct acpi_srat *s, uint8_t kind, uint64_t id, uint32_t *domain)
{
	for (uint32_t i = 0; i < s->ncpu && i < ACPI_MAX_SRAT_CPUS; i++)
		if (s->cpu[i].kind == kind && s->cpu[i].id == id) {
			*domain = s->cpu[i].domain;
			return 0;
		}
	return -1;
}

int numa_cpu_domain(const struct acpi_srat *s, const struct acpi_madt *madt, uint64_t proc_id, uint32_t *domain)
{
	if (!s || !s->present)
		return -1;
	/* x2APIC entries carry every ID; APIC entries only IDs below 256 (ACPI 6.5 5.2.16.3). */
	if (srat_domain(s, ACPI_CPU_X2APIC, proc_id, domain) == 0 || srat_domain(s, ACPI_CPU_LAPIC, proc_id, domain) == 0)
		return 0;
	for (uint32_t i = 0; madt && i < madt->ncpu && i < ACPI_MAX_CPU_IDS; i++)
		if (madt->cpu[i].kind == ACPI_CPU_GICC && madt->cpu[i].id == proc_id)
			return srat_domain(s, ACPI_CPU_GICC, madt->cpu[i].uid, domain);
	return -1;
}

int numa_domain_ranges(const struct acpi_srat *s, const struct acpi_cedt *cedt, uint32_t domain, struct memrange *out,
		       int max)
{
	int n = 0;
	for (uint32_t i = 0; s && i < s->nmem && i < ACPI_MAX_SRAT_MEM && n < max; i++) {
		const struct acpi_srat_mem *m = &s->mem[i];
		uint32_t skip = SRAT_MEM_NON_VOLATILE;
		if (cxl_numa_window(cedt, m->base, m->length) < 0)
			skip |= SRAT_MEM_HOT_PLUGGABLE;
		if (m->domain != domain || (m->flags & skip) || !m->length ||
		    m->base + m->length < m->base)
			continue;
		out[n++] = (struct memrange){ m->base, m->base + m->length };
	}
	return n;
}

int numa_place(const struct memrange *free, int nfree, const struct memrange *node, int nnode, uint64_t bytes,
	       uint64_t *addr)
{
	int found = 0;
	uint64_t best = 0;
	if (!bytes)
		return -1;
	for (int i = 0; i < nfree; i++)
		for (int k = 0; k < nnode; k++) {
			uint64_t start = free[i].start > node[k].start ? free[i].start : node[k].start;
			uint64_t hi = free[i].end < node[k].end ? free[i].end : node[k].end;
			uint64_t lo = (start + NUMA_PAGE_BYTES - 1) & ~(uint64_t)(NUMA_PAGE_BYTES - 1);
			if (lo < start || hi <= lo || hi - lo < bytes)   /* lo < start: rounding up wrapped */
				continue;
			uint64_t a = (hi - bytes) & ~(uint64_t)(NUMA_PAGE_BYTES - 1);
			if (!found || a > best) {
				best = a;
				found = 1;
			}
		}
	if (!found)
		return -1;
	*addr = best;
	return 0;
}
