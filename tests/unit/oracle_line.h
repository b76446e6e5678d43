/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Line scanner of the one-event-per-line oracle extracts (tests/oracle/perfmon/ extracts): the
 * value of "Key": "value" on a line, as text or as a number. Shared by the perfmon oracle tests.
 */
#ifndef EFIPERF_TEST_ORACLE_LINE_H
#define EFIPERF_TEST_ORACLE_LINE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "Key": "value" of one extract line into out; 0 when absent. */
static inline int field(const char *line, const char *key, char *out, size_t n)
{
	char pat[40];
	snprintf(pat, sizeof(pat), "\"%s\": \"", key);
	const char *p = strstr(line, pat);
	if (!p)
		return 0;
	p += strlen(pat);
	size_t k = 0;
	while (p[k] && p[k] != '"' && k + 1 < n) {
		out[k] = p[k];
		k++;
	}
	out[k] = 0;
	return 1;
}

/* The number under key (0x.. or decimal); the test fails when the line lacks it. */
static inline uint64_t num(const char *line, const char *key)
{
	char v[40];
	if (!field(line, key, v, sizeof(v)))
		fail_msg("extract line lacks %s: %s", key, line);
	return strtoull(v, NULL, 0);
}

/* The extract tests/oracle/perfmon/<name>, from the directory the test binary runs in (tests/,
 * the repository root, or a folder beside tests/), opened for reading; NULL when none is there. */
static inline FILE *oracle_open(const char *name)
{
	static const char *const dirs[] = { "oracle/perfmon", "tests/oracle/perfmon", "../tests/oracle/perfmon" };
	char path[160];
	FILE *f = NULL;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !f; i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		f = fopen(path, "r");
	}
	return f;
}

#endif
