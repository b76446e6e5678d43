/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/arch.h"
#include "pmu/core_counters.h"
#include "efi/fmt.h"

uint64_t x86_known_loop(uint64_t iterations);

/* Instructions retired between the two counter reads (arch/x86_64/known_loop.S). */
#define LOOP_INSNS_PER_TURN 2u
#define LOOP_INSNS_FIXED 2u
#define FIXED_CTR_INST_RETIRED 0  /* core_set counter index of IA32_FIXED_CTR0 */

void arch_known_loop(const struct hw *hw, const struct core_set *s, uint64_t iterations, int masked,
		     struct known_loop_result *r)
{
	(void)hw;
	r->iterations = iterations;
	r->valid = 0;
	if (s->pmu != &pmu_x86_fixed || s->n <= FIXED_CTR_INST_RETIRED) {
		fmt_snprintf(r->why, sizeof(r->why), "no INST_RETIRED.ANY fixed counter on this CPU");
		return;
	}
	const struct core_counter *c = &s->c[FIXED_CTR_INST_RETIRED];
	if (c->state == CTR_ABSENT || c->state == CTR_FAULTED) {
		fmt_snprintf(r->why, sizeof(r->why), "INST_RETIRED.ANY %s: %s", ctr_state_name(c->state), c->why);
		return;
	}
	uint64_t flags = masked ? arch_irq_disable() : 0;
	uint64_t counted = x86_known_loop(iterations);
	if (masked)
		arch_irq_restore(flags);
	r->counted = counted & c->width_mask;
	r->expected = LOOP_INSNS_PER_TURN * iterations + LOOP_INSNS_FIXED;
	r->valid = 1;
}
