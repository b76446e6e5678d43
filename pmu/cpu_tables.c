/* SPDX-License-Identifier: BSD-2-Clause */
/* Whether any of efiperf's CPU tables serves an x86 CPU (pmu/cpu_tables.h). */
#include "pmu/cpu_tables.h"
#include "pmu/core/x86_corepmu.h"
#include "pmu/uncore/amd_uncore.h"
#include "pmu/uncore/intel_cha_regs.h"
#include "pmu/uncore/intel_uncore.h"
#include "arch/lib/fmt.h"

#include <string.h>

int cpu_tables_note(const char *vendor, uint32_t family, uint32_t model, char *buf, size_t n)
{
	int intel = !strcmp(vendor, "GenuineIntel");
	int amd = !strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine");
	if (!intel && !amd)
		return 0;
	uint16_t gens = corepmu_x86_gens(vendor, family, model);
	if (intel) {
		gens = (uint16_t)(gens & ~X86_GEN_ARCH);   /* every Intel CPU has those */
		if (family == 6)
			gens |= corepmu_intel_gens(model, 0);
		if (gens || cha_platform_for_cpu(family, model) || intel_uncore_platform_for(family, model))
			return 0;
	} else if (gens || amd_uncore_family_for(family, model))
		return 0;
	fmt_snprintf(buf, n, "%s family 0x%x model 0x%x: not in efiperf's CPU tables, %s", vendor, family, model,
		     intel ? "architectural events only" : "raw core events only (cpu/event=.../)");
	return 1;
}
