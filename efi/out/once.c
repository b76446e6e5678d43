// SPDX-License-Identifier: BSD-2-Clause
#include <efi.h>
#include <stdarg.h>
#include <string.h>
#include "efi/out/once.h"
#include "efi/out/report.h"
#include "arch/lib/fmt.h"

#define ONCE_TEXT 128

static struct once_key {
	char key[ONCE_TEXT];   /* the key, cut to ONCE_TEXT - 1 bytes */
	char text[ONCE_TEXT];  /* what was printed, cut, leading blanks dropped */
	unsigned count;
} keys[ONCE_KEYS];
static int nkeys;

static struct once_key *find(const char *key)
{
	for (int i = 0; i < nkeys; i++)
		if (strncmp(keys[i].key, key, ONCE_TEXT - 1) == 0)
			return &keys[i];
	return NULL;
}

int rep_once(const char *key, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	const char *k = key ? key : line;
	struct once_key *o = find(k);
	if (o) {
		o->count++;
		return 0;
	}
	if (nkeys < ONCE_KEYS) {
		o = &keys[nkeys++];
		fmt_snprintf(o->key, sizeof(o->key), "%s", k);
		size_t k = 0;   /* the text without its indent, runs of blanks as one */
		for (const char *t = line; *t && k + 1 < sizeof(o->text); t++)
			if (*t != ' ' || (k && o->text[k - 1] != ' '))
				o->text[k++] = *t;
		o->text[k] = 0;
		o->count = 1;
	}
	rep_line("%s", line);
	return 1;
}

void rep_once_summary(void)
{
	int head = 0;
	for (int i = 0; i < nkeys; i++) {
		if (keys[i].count < 2)
			continue;
		if (!head)
			rep_line("said once:  these held in every window; the console showed each the first time only (every "
				 "value is in the log). Under an emulator they are what it cannot show: counters that do not "
				 "count, links faster than their negotiated speed:");
		head = 1;
		rep_line("            %3ux  %s", keys[i].count, keys[i].text);
	}
}
