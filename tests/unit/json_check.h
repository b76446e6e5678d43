/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json_check: a strict RFC 8259 validator for tests (and the fuzz targets): the records
 * efiperf writes are parsed back, independently of the writer. Header-only, host only.
 *
 *   json_check_object(s, n) -> 1 when s[0..n) is exactly one JSON object, else 0.
 *
 * Strict where the writer must be: no raw control characters in strings, strings are UTF-8
 * (RFC 8259 section 8.1), only the escapes
 * RFC 8259 section 7 lists, \u followed by 4 hex digits, numbers per section 6, and bounded
 * nesting (JSON_CHECK_MAX_DEPTH).
 */
#ifndef EFIPERF_TESTS_JSON_CHECK_H
#define EFIPERF_TESTS_JSON_CHECK_H

#include <stddef.h>
#include <string.h>

#define JSON_CHECK_MAX_DEPTH 32

struct jc { const char *s; size_t n, i; };

static int jc_value(struct jc *p, int depth);

static void jc_ws(struct jc *p)
{
	while (p->i < p->n && strchr(" \t\r\n", p->s[p->i]) && p->s[p->i])
		p->i++;
}

static int jc_lit(struct jc *p, const char *lit)
{
	size_t l = strlen(lit);
	if (p->n - p->i < l || memcmp(p->s + p->i, lit, l) != 0)
		return 0;
	p->i += l;
	return 1;
}

static int jc_digit(struct jc *p) { return p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9'; }

static int jc_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* One UTF-8 sequence at s[0..n): decoded, then refused when overlong, a surrogate or above
 * U+10FFFF (RFC 3629 sections 3 and 4). Returns its length, or 0. */
static size_t jc_utf8(const char *s, size_t n)
{
	static const unsigned long min_cp[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned char c = (unsigned char)s[0];
	size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
	if (!len || len > n)
		return 0;
	unsigned long cp = c & (0x7Fu >> len);
	for (size_t k = 1; k < len; k++) {
		unsigned char t = (unsigned char)s[k];
		if ((t & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (t & 0x3Fu);
	}
	if (cp < min_cp[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		return 0;
	return len;
}

static int jc_string(struct jc *p)
{
	if (p->i >= p->n || p->s[p->i] != '"')
		return 0;
	for (p->i++; p->i < p->n; p->i++) {
		unsigned char c = (unsigned char)p->s[p->i];
		if (c == '"') {
			p->i++;
			return 1;
		}
		if (c < 0x20)
			return 0;
		if (c >= 0x80) {
			size_t len = jc_utf8(p->s + p->i, p->n - p->i);
			if (!len)
				return 0;
			p->i += len - 1;
			continue;
		}
		if (c != '\\')
			continue;
		if (++p->i >= p->n)
			return 0;
		c = (unsigned char)p->s[p->i];
		if (c == 'u') {
			for (int k = 0; k < 4; k++)
				if (++p->i >= p->n || !jc_hex(p->s[p->i]))
					return 0;
		} else if (!strchr("\"\\/bfnrt", c) || c == 0) {
			return 0;
		}
	}
	return 0;
}

static int jc_number(struct jc *p)
{
	if (p->i < p->n && p->s[p->i] == '-')
		p->i++;
	if (!jc_digit(p))
		return 0;
	if (p->s[p->i] == '0')
		p->i++;
	else
		while (jc_digit(p))
			p->i++;
	if (p->i < p->n && p->s[p->i] == '.') {
		p->i++;
		if (!jc_digit(p))
			return 0;
		while (jc_digit(p))
			p->i++;
	}
	if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		p->i++;
		if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			p->i++;
		if (!jc_digit(p))
			return 0;
		while (jc_digit(p))
			p->i++;
	}
	return 1;
}

/* Members or items up to the closer; open char already consumed. */
static int jc_container(struct jc *p, int depth, char closer)
{
	if (depth > JSON_CHECK_MAX_DEPTH)
		return 0;
	jc_ws(p);
	if (p->i < p->n && p->s[p->i] == closer) {
		p->i++;
		return 1;
	}
	for (;;) {
		jc_ws(p);
		if (closer == '}') {
			if (!jc_string(p))
				return 0;
			jc_ws(p);
			if (!jc_lit(p, ":"))
				return 0;
		}
		if (!jc_value(p, depth + 1))
			return 0;
		jc_ws(p);
		if (p->i >= p->n)
			return 0;
		char c = p->s[p->i++];
		if (c == closer)
			return 1;
		if (c != ',')
			return 0;
	}
}

static int jc_value(struct jc *p, int depth)
{
	jc_ws(p);
	if (p->i >= p->n)
		return 0;
	switch (p->s[p->i]) {
	case '{': p->i++; return jc_container(p, depth, '}');
	case '[': p->i++; return jc_container(p, depth, ']');
	case '"': return jc_string(p);
	case 't': return jc_lit(p, "true");
	case 'f': return jc_lit(p, "false");
	case 'n': return jc_lit(p, "null");
	default: return jc_number(p);
	}
}

static inline int json_check_object(const char *s, size_t n)
{
	struct jc p = { s, n, 0 };
	jc_ws(&p);
	if (p.i >= n || s[p.i] != '{' || !jc_value(&p, 0))
		return 0;
	jc_ws(&p);
	return p.i == n;
}

#endif
