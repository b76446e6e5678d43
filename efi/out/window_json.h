/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The members every measurement's record writes about its windows and buffers, from the values
 * its result holds: how quiet a window was (interrupts_masked; smi_delta, a count or why it is
 * unknown), a window as an object (ticks, ns and its quietness: the noise floor), and where a
 * CPU's buffer lies (node or null, node_local, buffer).
 */
#ifndef EFIPERF_WINDOW_JSON_H
#define EFIPERF_WINDOW_JSON_H

#include <stdint.h>
#include "arch/hw.h"
#include "efi/out/jsonl.h"

/* interrupts_masked and smi_delta as members of the open object. */
void rec_quiet_json(struct json *j, int masked, hw_status smi_st, uint64_t smi_delta);
/* An object `key`: ticks, ns and the quietness. */
void rec_window_json(struct json *j, const char *key, uint64_t ticks, uint64_t ns, int masked, hw_status smi_st,
		     uint64_t smi_delta);
/* node (SRAT proximity domain, null when -1), node_local, buffer (its address), then what
 * rec_target_json adds for buf. */
void rec_place_json(struct json *j, int32_t node, int local, const void *buf);

/* Where a buffer lies beyond its node: the firmware side registers one writer (efi/measure/
 * measure.c: the "cxl" member naming the committed CXL window behind a memory target, efi/pages.h)
 * and rec_target_json calls it for buf; with none registered it writes nothing. */
void rec_target_writer(void (*fn)(struct json *j, const void *buf));
void rec_target_json(struct json *j, const void *buf);

#endif
