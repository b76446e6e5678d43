/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/c2c.h"
#include "arch/barrier.h"

/* How many spins between two looks at the timer. */
#define SPINS_PER_TIMER_READ 256u

/* Every SPINS_PER_TIMER_READ spins: 1 when more than timeout_ticks passed since the first look
 * (*start, 0 before it). */
static int timed_out(const struct c2c_run *r, uint32_t spins, uint64_t *start)
{
	if (spins % SPINS_PER_TIMER_READ)
		return 0;
	uint64_t now = r->timer();
	if (!*start) {
		*start = now ? now : 1;
		return 0;
	}
	return now - *start > r->timeout_ticks;
}

/* Turn `from` into `from + 1` once the line holds it; 0, or -1 after timeout_ticks. */
static int cas_when(struct c2c_run *r, uint64_t from)
{
	uint64_t start = 0;
	for (uint32_t spins = 0;; spins++) {
		uint64_t expect = from;
		if (__atomic_load_n(r->line, __ATOMIC_ACQUIRE) == from &&
		    __atomic_compare_exchange_n(r->line, &expect, from + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return 0;
		if (timed_out(r, spins, &start))
			return -1;
		arch_spin_hint();
	}
}

/* Wait until the line holds `v`; 0, or -1 after timeout_ticks. */
static int wait_for(struct c2c_run *r, uint64_t v)
{
	uint64_t start = 0;
	for (uint32_t spins = 0; __atomic_load_n(r->line, __ATOMIC_ACQUIRE) != v; spins++) {
		if (timed_out(r, spins, &start))
			return -1;
		arch_spin_hint();
	}
	return 0;
}

uint64_t c2c_initiator(struct c2c_run *r)
{
	r->status = 0;
	uint64_t k = 0;
	for (uint32_t round = 0; round < r->rounds; round++) {
		uint64_t t0 = r->timer();
		for (uint32_t t = 0; t < r->trips; t++, k++)
			if (cas_when(r, 2 * k) != 0)
				goto timeout;
		if (wait_for(r, 2 * k) != 0)
			goto timeout;
		r->round_ticks[round] = r->timer() - t0;
	}
	return __atomic_load_n(r->line, __ATOMIC_ACQUIRE);
timeout:
	r->status = -1;
	return __atomic_load_n(r->line, __ATOMIC_ACQUIRE);
}

uint64_t c2c_responder(struct c2c_run *r)
{
	r->status = 0;
	uint64_t total = (uint64_t)r->rounds * r->trips;
	for (uint64_t k = 0; k < total; k++)
		if (cas_when(r, 2 * k + 1) != 0) {
			r->status = -1;
			break;
		}
	return __atomic_load_n(r->line, __ATOMIC_ACQUIRE);
}
