/* SPDX-License-Identifier: BSD-2-Clause */
/* The table of core PMU drivers and the probe that picks one (pmu/core/core_counters.h).
 * Apart from the drivers' shared helpers (core_counters.c), so the drivers depend on the
 * helpers and only this file depends on the drivers. */
#include "pmu/core/core_counters.h"
#include "arch/lib/fmt.h"

/* Every core PMU architecture efiperf knows; core_probe() takes the first that applies. */
static const struct core_pmu *const core_pmus[] = {
	&pmu_x86_fixed,
	&pmu_armv8_pmuv3,
};

int core_probe(const struct hw *hw, struct core_set *s)
{
	for (unsigned i = 0; i < sizeof(core_pmus) / sizeof(core_pmus[0]); i++) {
		struct core_set t = { .pmu = core_pmus[i] };
		if (core_pmus[i]->probe(hw, &t) == 0) {
			*s = t;
			return 0;
		}
	}
	*s = (struct core_set){ 0 };
	fmt_snprintf(s->probe, sizeof(s->probe), "no core PMU architecture known for this CPU");
	return -1;
}
