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
static struct { unsigned family, lo, hi; char gen[8]; } amdc[MAX_MAPS];
static int namdc;

int linux_mapfile_load(void)
{
	FILE *f = oracle_open("linux-perf/amd_core.txt");
	if (!f)
		return 0;
	char line[512], a[96], b[96], c[96];
	nmaps = namdc = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned fam, lo, hi;
		char gen[8];
		if (sscanf(line, "amdc %x %x %x %7s", &fam, &lo, &hi, gen) == 4 && namdc < MAX_MAPS) {
			amdc[namdc].family = fam, amdc[namdc].lo = lo, amdc[namdc].hi = hi;
			snprintf(amdc[namdc].gen, sizeof(amdc[0].gen), "%s", gen);
			namdc++;
			continue;
		}
		if (line[0] != '#' && sscanf(line, "%95s %95s %95s", a, b, c) == 3 && !strcmp(a, "mapfile") &&
		    nmaps < MAX_MAPS) {
			snprintf(maps[nmaps].re, sizeof(maps[0].re), "%s", b);
			snprintf(maps[nmaps].dir, sizeof(maps[0].dir), "%s", c);
			nmaps++;
		}
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

const char *linux_amdc_gen(unsigned family, unsigned model)
{
	for (int i = 0; i < namdc; i++)
		if (amdc[i].family == family && model >= amdc[i].lo && model <= amdc[i].hi)
			return amdc[i].gen;
	return NULL;
}

const char *linux_agreed_dir(unsigned family, unsigned model)
{
	const char *dir = linux_mapfile_dir(family, model);
	if (family != 0x1A || !dir)
		return dir;
	const char *gen = linux_amdc_gen(family, model);
	char want[16];
	snprintf(want, sizeof(want), "amd%s", gen ? gen : "none");
	for (char *q = want; *q; q++)
		*q = (char)(*q >= 'A' && *q <= 'Z' ? *q + 32 : *q);
	return strcmp(want, dir) ? NULL : dir;
}
