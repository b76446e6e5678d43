/* SPDX-License-Identifier: BSD-2-Clause */
/* CXL memory described by SRAT and the memory map, by CFMWS window: see efi/fw/cxl_numa.h. */
#include "efi/fw/cxl_numa.h"

#define SRAT_MEM_ENABLED       (1u << 0)   /* ACPI 6.5 Table 5.59, Memory Affinity Flags */
#define SRAT_MEM_HOT_PLUGGABLE (1u << 1)
#define SRAT_MEM_NON_VOLATILE  (1u << 2)

int cxl_numa_window(const struct acpi_cedt *c, uint64_t base, uint64_t size)
{
	for (uint32_t k = 0; c && k < c->ncfmws && k < ACPI_MAX_CEDT_CFMWS; k++) {
		const struct acpi_cedt_cfmws *w = &c->cfmws[k];
		if (size && base >= w->base && base + size > base && base + size <= w->base + w->size)
			return (int)k;
	}
	return -1;
}

int cxl_numa_nodes(const struct acpi_srat *srat, const struct acpi_cedt *cedt, const struct memrange *sp, int nsp,
		   struct cxl_numa_node *out, int max)
{
	int n = 0;
	for (uint32_t i = 0; srat && i < srat->nmem && i < ACPI_MAX_SRAT_MEM && n < max; i++) {
		const struct acpi_srat_mem *m = &srat->mem[i];
		int w = cxl_numa_window(cedt, m->base, m->length);
		if (w < 0 || !(m->flags & SRAT_MEM_ENABLED))
			continue;
		out[n++] = (struct cxl_numa_node){ (int32_t)m->domain, (uint32_t)w, m->base, m->length,
						   (uint8_t)memranges_cover(sp, nsp, m->base, m->length),
						   !!(m->flags & SRAT_MEM_HOT_PLUGGABLE), !!(m->flags & SRAT_MEM_NON_VOLATILE) };
	}
	int nsrat = n;
	for (int i = 0; i < nsp && n < max; i++) {
		uint64_t b = sp[i].start, s = sp[i].end - sp[i].start;
		int w = cxl_numa_window(cedt, b, s), covered = 0;
		for (int k = 0; k < nsrat; k++)
			covered |= b < out[k].base + out[k].size && out[k].base < sp[i].end;
		if (w >= 0 && !covered)
			out[n++] = (struct cxl_numa_node){ -1, (uint32_t)w, b, s, 1, 0, 0 };
	}
	return n;
}
