/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * arch_known_loop on aarch64: run arm_known_loop (known_loop.S) on event counter 0, which
 * pmu_armv8_pmuv3.start() programmed to INST_RETIRED, and compare with the count derived
 * from the loop's own instructions.
 */
#include "arch/arch.h"
#include "arch/aarch64/known_loop.h"
#include "pmu/core_counters.h"
#include "efi/fmt.h"

static int is_inst_retired(const char *ev)
{
	static const char want[] = "INST_RETIRED";
	for (size_t i = 0; i < sizeof(want); i++)
		if (!ev || ev[i] != want[i])
			return 0;
	return 1;
}

void arch_known_loop(const struct hw *hw, const struct core_set *s, uint64_t iterations,
		     int masked, struct known_loop_result *r)
{
	(void)hw;  /* the loop reads PMEVCNTR0_EL0 itself: no hw call may sit in the window */
	*r = (struct known_loop_result){ .iterations = iterations,
					 .expected = arm_known_loop_expected(iterations) };
	const struct core_counter *c = NULL;
	if (s && s->pmu == &pmu_armv8_pmuv3)
		for (int i = 0; i < s->n; i++)
			if (is_inst_retired(s->c[i].event))
				c = &s->c[i];
	if (!c) {
		fmt_snprintf(r->why, sizeof(r->why), "core counters are not Arm PMUv3");
		return;
	}
	if (c->state == CTR_ABSENT || c->state == CTR_FAULTED) {
		fmt_snprintf(r->why, sizeof(r->why), "INST_RETIRED %s: %s",
			     ctr_state_name(c->state), c->why);
		return;
	}
	if (!s->started) {
		fmt_snprintf(r->why, sizeof(r->why), "core counters not started");
		return;
	}
	if (iterations == 0 || iterations >= (1ull << 31)) {
		fmt_snprintf(r->why, sizeof(r->why), "iterations must be 1 .. 2^31-1");
		return;
	}
	uint64_t daif = masked ? arch_irq_disable() : 0;
	uint64_t raw = arm_known_loop(iterations);
	if (masked)
		arch_irq_restore(daif);
	r->counted = raw & (c->width_mask ? c->width_mask : ~0ull);
	r->valid = 1;
}
