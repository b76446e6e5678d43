/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/cpuinfo.h"
#include "arch/lib/fmt.h"

void cpuinfo_probe(struct cpu_info *ci, const char *name, const char *fmt, ...)
{
	if (ci->nprobes >= CPUINFO_MAX_PROBES)
		return;
	struct cpu_probe *p = &ci->probe[ci->nprobes++];
	fmt_snprintf(p->name, sizeof(p->name), "%s", name);
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(p->result, sizeof(p->result), fmt, ap);
	va_end(ap);
}

const char *cache_type_name(enum cache_type t)
{
	static const char *const names[] = { "none", "data", "instruction", "unified" };
	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "none";
}

const struct cache_desc *cache_of_level(const struct cpu_info *ci, uint32_t level)
{
	for (int i = 0; i < ci->ncaches; i++)
		if (ci->cache[i].level == level && (ci->cache[i].type == CACHE_DATA || ci->cache[i].type == CACHE_UNIFIED))
			return &ci->cache[i];
	return NULL;
}
