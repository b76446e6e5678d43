/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jsonl: one JSON object per record, written straight into a strbuf (efi/jsonl.h).
 *
 * j->depth is the index of the innermost open container: 0 is the record's own object,
 * -1 means no record is open (before json_begin, after json_end). A member written with no
 * record open, an open beyond JSON_MAX_DEPTH, a json_close with nothing nested open, a key
 * inside an array or a missing key inside an object all set j->error; the record is then not
 * to be trusted (callers check j->error and j->sb->overflow before logging it).
 */
#include "efi/out/jsonl.h"

#include <string.h>

#define JSON_NO_RECORD (-1)
#define JSON_FIRST_CONTROL 0x20u   /* RFC 8259 section 7: U+0000..U+001F must be escaped */

/* Short escapes of RFC 8259 section 7; every other control character is \u00XX. */
static const struct { char raw, esc; } json_short_escapes[] = {
	{ '"', '"' }, { '\\', '\\' }, { '\b', 'b' }, { '\f', 'f' },
	{ '\n', 'n' }, { '\r', 'r' }, { '\t', 't' },
};

/* Length of the well-formed UTF-8 sequence at s[0..n) (RFC 3629 section 4: no overlong forms,
 * no surrogates U+D800..U+DFFF, nothing above U+10FFFF), or 0 when s[0] begins none. */
size_t json_utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xBF;   /* the second byte's range; later ones are 80..BF */
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		lo = c == 0xE0 ? 0xA0 : 0x80;   /* E0 80..9F: overlong */
		hi = c == 0xED ? 0x9F : 0xBF;   /* ED A0..BF: surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		lo = c == 0xF0 ? 0x90 : 0x80;   /* F0 80..8F: overlong */
		hi = c == 0xF4 ? 0x8F : 0xBF;   /* F4 90..: above U+10FFFF */
	} else
		return 0;                       /* 80..C1 (continuation, overlong lead), F5..FF */
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return len;
}

void json_escape(struct strbuf *sb, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t run = 0;  /* bytes at s[i - run .. i) that need no escape, copied in one go */

	if (n == 0)
		return;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		char esc = 0;
		for (size_t k = 0; k < sizeof(json_short_escapes) / sizeof(json_short_escapes[0]); k++)
			if (json_short_escapes[k].raw == (char)c)
				esc = json_short_escapes[k].esc;
		size_t len = esc || c < JSON_FIRST_CONTROL ? 0 : json_utf8_len((const unsigned char *)s + i, n - i);
		if (len) {
			run += len;
			i += len;
			continue;
		}
		sb_putn(sb, s + i - run, run);
		run = 0;
		if (esc) {
			char e[2] = { '\\', esc };
			sb_putn(sb, e, sizeof(e));
		} else if (c < JSON_FIRST_CONTROL) {
			char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };
			sb_putn(sb, u, sizeof(u));
		} else {
			/* a byte that is not UTF-8: the text \xNN (an escaped backslash), as Python's
			 * backslashreplace shows it, so the record stays UTF-8 and the byte is named */
			char x[5] = { '\\', '\\', 'x', hex[c >> 4], hex[c & 0xf] };
			sb_putn(sb, x, sizeof(x));
		}
		i++;
	}
	sb_putn(sb, s + n - run, run);
}

static void put_quoted(struct strbuf *sb, const char *s, size_t n)
{
	sb_putc(sb, '"');
	json_escape(sb, s, n);
	sb_putc(sb, '"');
}

/* Separator and key of the next member of the innermost container. Returns 0 when no record
 * is open (nothing may be written). */
static int member(struct json *j, const char *key)
{
	if (j->depth < 0) {
		j->error = 1;
		return 0;
	}
	if (!j->first[j->depth])
		sb_putc(j->sb, ',');
	j->first[j->depth] = 0;
	int in_object = j->closer[j->depth] == '}';
	if ((key != NULL) != in_object)
		j->error = 1;
	if (key) {
		put_quoted(j->sb, key, strlen(key));
		sb_putc(j->sb, ':');
	}
	return 1;
}

static void open_container(struct json *j, const char *key, char opener, char closer)
{
	if (j->depth >= JSON_MAX_DEPTH) {
		j->error = 1;
		return;
	}
	if (!member(j, key))
		return;
	sb_putc(j->sb, opener);
	j->depth++;
	j->first[j->depth] = 1;
	j->closer[j->depth] = closer;
}

void json_begin(struct json *j, struct strbuf *sb)
{
	memset(j, 0, sizeof(*j));
	j->sb = sb;
	j->depth = 0;
	j->first[0] = 1;
	j->closer[0] = '}';
	sb_putc(sb, '{');
}

void json_end(struct json *j)
{
	if (j->depth < 0) {
		j->error = 1;
		return;
	}
	while (j->depth >= 0)
		sb_putc(j->sb, j->closer[j->depth--]);
}

void json_obj(struct json *j, const char *key)
{
	open_container(j, key, '{', '}');
}

void json_arr(struct json *j, const char *key)
{
	open_container(j, key, '[', ']');
}

void json_close(struct json *j)
{
	if (j->depth <= 0) {  /* the record's own object is closed by json_end */
		j->error = 1;
		return;
	}
	sb_putc(j->sb, j->closer[j->depth--]);
}

void json_strn(struct json *j, const char *key, const char *val, size_t n)
{
	if (!member(j, key))
		return;
	if (val)
		put_quoted(j->sb, val, n);
	else
		sb_puts(j->sb, "null");
}

void json_str(struct json *j, const char *key, const char *val)
{
	json_strn(j, key, val, val ? strlen(val) : 0);
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	if (member(j, key))
		sb_printf(j->sb, "%llu", (unsigned long long)val);
}

void json_i64(struct json *j, const char *key, int64_t val)
{
	if (member(j, key))
		sb_printf(j->sb, "%lld", (long long)val);
}

void json_bool(struct json *j, const char *key, int val)
{
	if (member(j, key))
		sb_puts(j->sb, val ? "true" : "false");
}

void json_null(struct json *j, const char *key)
{
	if (member(j, key))
		sb_puts(j->sb, "null");
}

void json_hex(struct json *j, const char *key, uint64_t val)
{
	if (member(j, key))
		sb_printf(j->sb, "\"0x%llx\"", (unsigned long long)val);
}

void json_milli(struct json *j, const char *key, uint64_t milli)
{
	char num[32];  /* 2^64-1 / 1000 with 3 decimals: 21 characters */
	if (!member(j, key))
		return;
	fmt_milli(num, sizeof(num), milli);
	sb_puts(j->sb, num);
}
