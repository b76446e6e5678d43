/* SPDX-License-Identifier: BSD-2-Clause */
/* The state of one counter after a window, shared by every core-PMU driver and record. */
#ifndef EFIPERF_CTR_STATE_H
#define EFIPERF_CTR_STATE_H

#include <stdint.h>

/* CTR_NOT_COUNTED: multiplexed, and its group never ran in the window (perf's <not counted>):
 * no count, not a zero. */
enum ctr_state { CTR_COUNTED, CTR_ABSENT, CTR_NOT_ADVANCING, CTR_FAULTED, CTR_NOT_COUNTED };

/* "counted", "absent", "not-advancing", "faulted", "not-counted" */
const char *ctr_state_name(uint8_t st);

/* The counter was read before and after the window, so its delta stands (counted, or 0:
 * not-advancing); absent and faulted counters have none. */
static inline int ctr_state_read(uint8_t st)
{
	return st == CTR_COUNTED || st == CTR_NOT_ADVANCING;
}

/* The counter is there and has not faulted: it is programmed and read (a multiplexed one whose
 * group never ran, CTR_NOT_COUNTED, included). */
static inline int ctr_state_live(uint8_t st)
{
	return st != CTR_ABSENT && st != CTR_FAULTED;
}

#endif
