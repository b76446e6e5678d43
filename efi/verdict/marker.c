/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * marker: the run-state marker's text and an earlier log's progress (efi/verdict/marker.h).
 */
#include "efi/verdict/marker.h"
#include "efi/verdict/jsonget.h"
#include "arch/lib/fmt.h"

#include <string.h>

#define MAGIC "efiperf-state=1"

void marker_path(char *buf, size_t n, const char *serial)
{
	fmt_snprintf(buf, n, "%s\\%s.running", MARKER_DIR, serial && *serial ? serial : "noserial");
}

size_t marker_format(char *buf, size_t n, const char *log, const char *started)
{
	size_t len = fmt_snprintf(buf, n, "%s\nlog=%s\nstarted=%s\n", MAGIC, log ? log : "", started ? started : "");
	return len < n ? len : (n ? n - 1 : 0);
}

/* The value of key= on a line of text[0..len) into out (n bytes), "" when absent. */
static void line_value(const char *text, size_t len, const char *key, char *out, size_t n)
{
	size_t kl = strlen(key);
	out[0] = 0;
	for (size_t i = 0; i < len;) {
		size_t e = i;
		while (e < len && text[e] != '\n')
			e++;
		size_t l = e - i;
		if (l && text[e - 1] == '\r')
			l--;
		if (l > kl && memcmp(text + i, key, kl) == 0 && text[i + kl] == '=') {
			fmt_snprintf(out, n, "%.*s", (int)(l - kl - 1), text + i + kl + 1);
			return;
		}
		i = e + 1;
	}
}

int marker_parse(const char *text, size_t len, struct marker *m)
{
	char magic[8];
	line_value(text, len, "efiperf-state", magic, sizeof(magic));
	line_value(text, len, "log", m->log, sizeof(m->log));
	line_value(text, len, "started", m->started, sizeof(m->started));
	return strcmp(magic, "1") == 0 ? 0 : -1;
}

void log_progress(const char *text, size_t len, struct log_progress *p)
{
	size_t start = 0;
	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < len; i++) {
		if (text[i] != '\n')
			continue;
		struct jv t;
		p->records++;
		p->last_type[0] = 0;
		if (jsonget(text + start, i - start, "type", &t) == 0 && t.kind == JV_STRING)
			fmt_snprintf(p->last_type, sizeof(p->last_type), "%.*s", (int)t.n, t.p);
		start = i + 1;
	}
	p->partial_bytes = len - start;
	p->ended = strcmp(p->last_type, "end") == 0;
}
