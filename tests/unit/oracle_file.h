/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * oracle_open: opens an extract under tests/oracle/ (e.g. "linux-perf/amd_core.txt") whether the
 * test runs from tests/ (make -C tests), from the repository root or from a build folder one or
 * two levels below it. Header-only, host only.
 */
#ifndef EFIPERF_TESTS_ORACLE_FILE_H
#define EFIPERF_TESTS_ORACLE_FILE_H

#include <stdio.h>

/* The opened file ("r"), or NULL when no folder has it. */
static inline FILE *oracle_open(const char *rel)
{
	static const char *const dirs[] = { "oracle/", "tests/oracle/", "../tests/oracle/", "../../tests/oracle/" };
	FILE *f = NULL;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !f; i++) {
		char path[256];
		snprintf(path, sizeof(path), "%s%s", dirs[i], rel);
		f = fopen(path, "r");
	}
	return f;
}

#endif
