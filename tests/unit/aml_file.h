/* SPDX-License-Identifier: BSD-2-Clause */
/* The unit tests' AML files: iasl output of tests/aml/<name>.asl (tests/unit.mk builds it under
 * build/host/aml/), read from the tests/ directory or the repository root. */
#ifndef EFIPERF_TEST_AML_FILE_H
#define EFIPERF_TEST_AML_FILE_H

#include <stdint.h>
#include <stdio.h>

/* Bytes read into buf (at most cap), 0 when the file is missing. */
static inline uint32_t aml_file_load(const char *name, uint8_t *buf, size_t cap)
{
	char path[256];
	uint32_t n = 0;
	for (int i = 0; i < 2 && !n; i++) {
		snprintf(path, sizeof(path), "%sbuild/host/aml/%s.aml", i ? "" : "../", name);
		FILE *f = fopen(path, "rb");
		if (f) {
			n = (uint32_t)fread(buf, 1, cap, f);
			fclose(f);
		}
	}
	return n;
}

#endif
