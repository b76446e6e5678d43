/* SPDX-License-Identifier: BSD-2-Clause */
/* Linux perf mapfile.csv (AMD rows) reader and matcher; see linux_mapfile.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <regex.h>
#include <cmocka.h>

#include "tests/unit/linux_mapfile.h"
#include "tests/unit/oracle_file.h"

#define MAX_MAPS 16

static struct { char re[96], dir[96]; } maps[MAX_MAPS];
static int nmaps;

int linux_mapfile_load(void)
{
	FILE *f = oracle_open("linux-perf/amd_core.txt");
	if (!f)
		return 0;
	char line[512], a[96], b[96], c[96];
	nmaps = 0;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && sscanf(line, "%95s %95s %95s", a, b, c) == 3 && !strcmp(a, "mapfile") &&
		    nmaps < MAX_MAPS) {
			snprintf(maps[nmaps].re, sizeof(maps[0].re), "%s", b);
			snprintf(maps[nmaps].dir, sizeof(maps[0].dir), "%s", c);
			nmaps++;
		}
	fclose(f);
	return nmaps;
}

const char *linux_mapfile_dir(unsigned family, unsigned model)
{
	char id[48];
	snprintf(id, sizeof(id), "AuthenticAMD-%u-%X", family, model);
	for (int i = 0; i < nmaps; i++) {
		regex_t re;
		regmatch_t m;
		assert_int_equal(regcomp(&re, maps[i].re, REG_EXTENDED), 0);
		int hit = regexec(&re, id, 1, &m, 0) == 0 && m.rm_so == 0 && (size_t)m.rm_eo == strlen(id);
		regfree(&re);
		if (hit)
			return maps[i].dir;
	}
	return NULL;
}
