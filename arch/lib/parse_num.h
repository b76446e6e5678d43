/* SPDX-License-Identifier: BSD-2-Clause */
/* One number as users write them in settings and event strings. Pure: host-tested. */
#ifndef EFIPERF_PARSE_NUM_H
#define EFIPERF_PARSE_NUM_H

#include <stddef.h>
#include <stdint.h>

#define NUM_NOT_A_NUMBER (-1)
#define NUM_TOO_LARGE    (-2)

/* s[0..n) exactly, decimal or 0x/0X hex, into *out when it is at most max. Returns 0,
 * NUM_NOT_A_NUMBER (empty, a bare "0x", any other character), or NUM_TOO_LARGE. */
int num_parse_u64(const char *s, size_t n, uint64_t max, uint64_t *out);

#endif
