/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The core-to-core ping-pong: two CPUs pass one cache line back and forth with atomic
 * compare-and-swap. The line holds a counter; the initiator turns each even value 2k into 2k+1,
 * the responder each odd value 2k+1 into 2k+2, so every CAS succeeds only after the other CPU's
 * store reached it: one round trip is one CAS on each CPU, the line moving twice. The initiator
 * times rounds of `trips` round trips with its own timer. Portable C11 atomics (GCC __atomic
 * builtins: LOCK CMPXCHG on x86_64, CAS or LDAXR/STLXR on aarch64). No interrupt masking or
 * counters: the window does that around it. Pure: host-tested with two threads.
 */
#ifndef EFIPERF_ARCH_C2C_H
#define EFIPERF_ARCH_C2C_H

#include <stdint.h>

/* Bytes the line is aligned to and alone in: two 64-byte lines, so the adjacent-line prefetcher
 * of one CPU does not pull in a neighbour. */
#define C2C_LINE_BYTES 128u

struct c2c_run {
	/* in */
	uint64_t *line;            /* C2C_LINE_BYTES-aligned, 0 before the pair starts */
	uint32_t rounds, trips;    /* rounds of `trips` round trips each */
	uint64_t (*timer)(void);   /* arch_timer_read in the app */
	uint64_t timeout_ticks;    /* a wait longer than this gives up (the partner is gone) */
	uint64_t *round_ticks;     /* initiator: `rounds` entries, ticks per round */
	/* out */
	int status;                /* 0 ok, -1 a wait timed out */
};

/* The two sides; each returns the last counter value it saw (a kernel result the caller can
 * check: 2 x rounds x trips when both finished). */
uint64_t c2c_initiator(struct c2c_run *r);
uint64_t c2c_responder(struct c2c_run *r);

#endif
