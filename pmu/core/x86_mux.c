/* SPDX-License-Identifier: BSD-2-Clause */
/* Multiplexing bookkeeping of the x86 core counters (pmu/core/x86_mux.h). */
#include "pmu/core/x86_mux.h"
#include "pmu/metrics.h"
#include "arch/lib/fmt.h"
#include <string.h>

void x86_mux_begin(struct x86_mux *m, uint64_t now, uint64_t timer_hz)
{
	uint8_t g = m->ngroups ? m->ngroups : 1;
	memset(m, 0, sizeof(*m));
	m->ngroups = g;
	m->slice = timer_hz / X86_MUX_SLICE_DIV;
	m->t_start = m->t_last = now;
	m->runs[0] = 1;
}

int x86_mux_due(const struct x86_mux *m, uint64_t now)
{
	return m->ngroups > 1 && now - m->t_last >= m->slice;
}

uint8_t x86_mux_next(const struct x86_mux *m)
{
	return (uint8_t)((m->cur + 1u) % (m->ngroups ? m->ngroups : 1u));
}

void x86_mux_switch(struct x86_mux *m, uint64_t now)
{
	m->running[m->cur] += now - m->t_last;
	m->cur = x86_mux_next(m);
	m->runs[m->cur]++;
	m->rotations++;
	m->t_last = now;
}

void x86_mux_end(struct x86_mux *m, uint64_t now)
{
	m->running[m->cur] += now - m->t_last;
	m->t_last = now;
	m->enabled = now - m->t_start;
}

void x86_mux_reset(struct x86_ctr *c, int n)
{
	for (int i = 0; i < n; i++)
		if (x86_ctr_live(&c[i])) {
			c[i].reads = 0;
			c[i].acc = c[i].running = c[i].scaled = 0;
		}
}

void x86_mux_finish(const struct x86_mux *m, struct x86_ctr *c, int n)
{
	for (int i = 0; i < n; i++) {
		struct x86_ctr *e = &c[i];
		if (!x86_ctr_live(e))
			continue;
		if (m->ngroups <= 1 || e->group == X86_PINNED || e->group >= X86_MUX_MAX_GROUPS) {
			e->running = m->enabled;
			e->scaled = e->acc;
			continue;
		}
		if (!m->runs[e->group] || (!m->running[e->group] && m->enabled)) {   /* never, or for 0 ticks */
			e->state = CTR_NOT_COUNTED;
			e->running = e->scaled = 0;
			fmt_snprintf(e->why, sizeof(e->why), "not counted: its group %u never ran; the window had %u rotations",
				     e->group, m->rotations);
			continue;
		}
		e->why[0] = 0;
		e->running = m->running[e->group];
		e->scaled = metric_mux_scale(e->acc, m->enabled, e->running);
	}
}
