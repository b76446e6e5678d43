/* SPDX-License-Identifier: BSD-2-Clause */
/* The state of one counter after a window, shared by every core-PMU driver and record. */
#ifndef EFIPERF_CTR_STATE_H
#define EFIPERF_CTR_STATE_H

#include <stdint.h>

enum ctr_state { CTR_COUNTED, CTR_ABSENT, CTR_NOT_ADVANCING, CTR_FAULTED };

/* "counted", "absent", "not-advancing", "faulted" */
const char *ctr_state_name(uint8_t st);

#endif
