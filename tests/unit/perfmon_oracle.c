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
#include <ctype.h>
#include <regex.h>
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

static int whole_match(const char *pattern, const char *id)
{
	regex_t re;
	regmatch_t m;
	assert_int_equal(regcomp(&re, pattern, REG_EXTENDED), 0);
	int hit = regexec(&re, id, 1, &m, 0) == 0 && m.rm_so == 0 && (size_t)m.rm_eo == strlen(id);
	regfree(&re);
	return hit;
}

unsigned perfmon_uncore_dirs(unsigned model, char dirs[][8], unsigned max)
{
	char path[160], line[512];
	const char *dir = perfmon_oracle_dir();
	snprintf(path, sizeof(path), "%s/mapfile_uncore.csv", dir ? dir : "tests/oracle/perfmon");
	unsigned n = 0;
	for (unsigned step = 0; step < 16; step++) {
		FILE *f = fopen(path, "r");
		if (!f)
			fail_msg("no extract %s", path);
		char id[40], id_step[40], found[8] = "";
		snprintf(id, sizeof(id), "GenuineIntel-6-%02X", model);
		snprintf(id_step, sizeof(id_step), "GenuineIntel-6-%02X-%X", model, step);
		while (!found[0] && fgets(line, sizeof(line), f)) {
			/* Family-model,Version,Filename,EventType,...: "/SKX/events/skylakex_uncore.json" */
			char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL, *c3 = c2 ? strchr(c2 + 1, ',') : NULL;
			if (!c3 || strncmp(c3 + 1, "uncore,", 7) || c2[1] != '/')
				continue;
			*c1 = 0;
			int dashes = 0;
			for (const char *q = line; *q; q++)
				dashes += *q == '-';
			if (!whole_match(line, dashes >= 3 ? id_step : id))
				continue;
			size_t k = 0;
			for (const char *q = c2 + 2; *q && *q != '/' && k + 1 < sizeof(found); q++)
				found[k++] = (char)tolower((unsigned char)*q);
			found[k] = 0;
		}
		fclose(f);
		unsigned i = 0;
		while (found[0] && i < n && strcmp(dirs[i], found))
			i++;
		if (found[0] && i == n && n < max)
			snprintf(dirs[n++], 8, "%s", found);
	}
	return n;
}

unsigned perfmon_check_served_models(const char *what, const char *(*table_of)(unsigned model),
				     const char *(*compared_with)(const char *folder), unsigned *served)
{
	unsigned pairs = 0;
	*served = 0;
	for (unsigned m = 0; m < 256; m++) {
		const char *table = table_of(m);
		if (!table)
			continue;
		(*served)++;
		char dirs[4][8];
		unsigned n = perfmon_uncore_dirs(m, dirs, 4);
		if (!n)
			fail_msg("family 6 model 0x%02X: efiperf's %s %s table, but no uncore file in Intel's mapfile.csv", m,
				 table, what);
		for (unsigned d = 0; d < n; d++) {
			const char *with = compared_with(dirs[d]);
			if (!with)
				fail_msg("family 6 model 0x%02X: efiperf's %s %s table; Intel serves the model with %s files, "
					 "which no test compares with it", m, table, what, dirs[d]);
			if (strcmp(with, table))
				fail_msg("family 6 model 0x%02X: efiperf serves the %s %s table; Intel's %s file is compared with %s",
					 m, table, what, dirs[d], with);
			printf("perfmon mapfile: model 0x%02X -> %s, compared with efiperf's %s %s table\n", m, dirs[d], table,
			       what);
			pairs++;
		}
	}
	return pairs;
}
