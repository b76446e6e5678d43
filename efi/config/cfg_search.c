/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cfg_search: the per-machine config candidates (efi/config/cfg_search.h).
 */
#include "efi/config/cfg_search.h"
#include "arch/lib/fmt.h"

#include <string.h>

#define NAME_MAX_LEN 64
#define NO_SERIAL "noserial"

static int name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == ' ' ||
	       ch == '.' || ch == '_' || ch == '+' || ch == '(' || ch == ')' || ch == '-';
}

static int edge(char ch)
{
	return ch == ' ' || ch == '.' || ch == '\t';
}

/* A file-name part from s, at most NAME_MAX_LEN characters; "" when nothing is left. */
static void name_of(const char *s, char *out, size_t n)
{
	size_t len = 0, b = 0, e = s ? strlen(s) : 0;
	while (b < e && edge(s[b]))
		b++;
	while (e > b && edge(s[e - 1]))
		e--;
	for (; b < e && len < NAME_MAX_LEN && len + 1 < n; b++)
		out[len++] = name_char(s[b]) ? s[b] : '_';
	out[len] = 0;
}

/* Append \efiperf\<name>.cfg unless it is empty or already a candidate. */
static void add(char paths[][CFG_SEARCH_PATH_LEN], int *n, const char *name)
{
	char p[CFG_SEARCH_PATH_LEN];
	if (!name[0])
		return;
	fmt_snprintf(p, sizeof(p), "\\efiperf\\%s.cfg", name);
	for (int i = 0; i < *n; i++)
		if (strcmp(paths[i], p) == 0)
			return;
	memcpy(paths[(*n)++], p, sizeof(p));
}

int cfg_search_paths(const char *serial, const char *product, char paths[][CFG_SEARCH_PATH_LEN])
{
	char name[NAME_MAX_LEN + 1];
	int n = 0;
	name_of(serial, name, sizeof(name));
	if (strcmp(name, NO_SERIAL) != 0)
		add(paths, &n, name);
	name_of(product, name, sizeof(name));
	add(paths, &n, name);
	add(paths, &n, "efiperf");
	return n;
}
