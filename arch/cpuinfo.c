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
