/* SPDX-License-Identifier: BSD-2-Clause */
/* Line reader of the Intel perfmon uncore extracts; see perfmon_oracle.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <cmocka.h>

#include "tests/unit/perfmon_oracle.h"

int perfmon_field(const char *line, const char *key, char *out, size_t n)
{
	char pat[48];
	snprintf(pat, sizeof(pat), "\"%s\": \"", key);
	const char *p = strstr(line, pat);
	if (!p)
		return 0;
	p += strlen(pat);
	const char *q = strchr(p, '"');
	if (!q || (size_t)(q - p) >= n)
		return 0;
	memcpy(out, p, (size_t)(q - p));
	out[q - p] = 0;
	return 1;
}

uint64_t perfmon_num(const char *line, const char *key)
{
	char v[40];
	if (!perfmon_field(line, key, v, sizeof(v)))
		fail_msg("perfmon extract line lacks %s: %s", key, line);
	return strtoull(v, NULL, 0);
}

const char *perfmon_oracle_dir(void)
{
	static const char *const dirs[] = { "oracle/perfmon", "tests/oracle/perfmon", "../tests/oracle/perfmon" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		DIR *d = opendir(dirs[i]);
		if (d) {
			closedir(d);
			return dirs[i];
		}
	}
	return NULL;
}

uint8_t perfmon_counter_mask(const char *s)
{
	uint8_t m = 0;
	for (; *s; s++)
		if (*s >= '0' && *s <= '7')
			m |= (uint8_t)(1u << (*s - '0'));
	return m;
}

unsigned perfmon_oracle_load(const char *plat, const char *suffix, unsigned flags, struct perfmon_row *rows)
{
	char path[160], line[512];
	const char *dir = perfmon_oracle_dir();
	snprintf(path, sizeof(path), "%s/%s_%s.json", dir ? dir : "tests/oracle/perfmon", plat, suffix);
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("no extract %s", path);
	unsigned n = 0;
	while (fgets(line, sizeof(line), f)) {
		struct perfmon_row *r = &rows[n];
		memset(r, 0, sizeof(*r));
		if (!perfmon_field(line, "EventName", r->name, sizeof(r->name)))
			continue;
		assert_true(n + 1 < PERFMON_ORACLE_MAX_ROWS);
		r->code = perfmon_num(line, "EventCode");
		r->umask = perfmon_num(line, "UMask");
		r->umask_ext = perfmon_num(line, "UMaskExt");
		r->port = perfmon_num(line, "PortMask");
		r->fc = perfmon_num(line, "FCMask");
		if (flags & PERFMON_ORACLE_FILTERS) {
			r->filter_value = perfmon_num(line, "FILTER_VALUE");
			perfmon_field(line, "Filter", r->filter, sizeof(r->filter));
		}
		perfmon_field(line, "Counter", r->counter, sizeof(r->counter));
		r->counters = perfmon_counter_mask(r->counter);
		n++;
	}
	fclose(f);
	return n;
}
