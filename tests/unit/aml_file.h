/* SPDX-License-Identifier: BSD-2-Clause */
/* The unit tests' AML files: iasl output of tests/aml/<name>.asl (tests/unit.mk builds it under
 * build/host/aml/), read from the tests/ directory or the repository root. */
#ifndef EFIPERF_TEST_AML_FILE_H
#define EFIPERF_TEST_AML_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "efi/fw/aml.h"

/* The reader's pool on the host: calloc and free. */
static inline void *aml_host_alloc(size_t n) { return calloc(1, n); }
static inline void aml_host_release(void *p) { free(p); }

/* Gives back what info holds and zeroes it, with the host pool set for the next tables. */
static inline void aml_host_reset(struct aml_info *info)
{
	aml_info_free(info);
	memset(info, 0, sizeof(*info));
	info->pool_alloc = aml_host_alloc;
	info->pool_release = aml_host_release;
}

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
