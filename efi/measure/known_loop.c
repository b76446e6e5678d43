/* SPDX-License-Identifier: BSD-2-Clause */
#include "efi/measure/known_loop.h"
#include "arch/arch.h"
#include "arch/lib/fmt.h"

static int same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

void known_loop_run(const struct core_set *s, uint64_t iterations, int masked, struct known_loop_result *r)
{
	*r = (struct known_loop_result){ .iterations = iterations,
					 .expected = arch_known_loop_expected(iterations) };
	const struct core_counter *c = NULL;
	for (int i = 0; s && i < s->n && !c; i++)
		if (s->c[i].event && same(s->c[i].event, arch_known_loop_event))
			c = &s->c[i];
	if (!c) {
		fmt_snprintf(r->why, sizeof(r->why), "no %s counter on this CPU", arch_known_loop_event);
		return;
	}
	if (!ctr_state_live(c->state)) {
		fmt_snprintf(r->why, sizeof(r->why), "%s %s: %s", arch_known_loop_event, ctr_state_name(c->state),
			     c->why);
		return;
	}
	if (!s->started) {
		fmt_snprintf(r->why, sizeof(r->why), "core counters not started");
		return;
	}
	if (iterations == 0 || iterations > arch_known_loop_max) {
		fmt_snprintf(r->why, sizeof(r->why), "iterations must be 1 .. %llu",
			     (unsigned long long)arch_known_loop_max);
		return;
	}
	uint64_t flags = masked ? arch_irq_disable() : 0;
	uint64_t raw = arch_known_loop_run(iterations);
	if (masked)
		arch_irq_restore(flags);
	r->counted = raw & (c->width_mask ? c->width_mask : ~0ull);
	r->valid = 1;
}
