/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: efi/jsonl.c's escaping of arbitrary bytes. The first input byte picks the
 * output buffer size (exactly that much heap, so ASan sees any overflow); the rest is the
 * string. Checks: the buffer is terminated at ->len, no raw control character ever comes out,
 * a complete output is UTF-8 (json_check.h decodes it independently of the writer) and, when
 * the input was UTF-8, unescapes back to the input, and a record holding the bytes as key and
 * value is valid JSON.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "efi/out/jsonl.h"
#include "../unit/json_check.h"

#define CONTROL_LIMIT 0x20u
#define ESCAPE_GROWTH 6u   /* at most 6 output bytes (\u00XX) per input byte */
#define UTF8_LEAD 0x80u
#define RECORD_EXTRA 32u

static int hexval(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* Decodes json_escape's output s[0..n) into out; returns the decoded length. */
static size_t unescape(const char *s, size_t n, char *out)
{
	static const char from[] = "\"\\bfnrt", to[] = "\"\\\b\f\n\r\t";
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\') {
			out[o++] = s[i];
			continue;
		}
		char e = s[++i];
		if (e == 'u') {
			assert(s[i + 1] == '0' && s[i + 2] == '0');
			out[o++] = (char)(hexval(s[i + 3]) << 4 | hexval(s[i + 4]));
			i += 4;
		} else {
			const char *p = strchr(from, e);
			assert(p && e);
			out[o++] = to[p - from];
		}
	}
	return o;
}

static void check_clean(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert((unsigned char)s[i] >= CONTROL_LIMIT);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	size_t cap = data[0];
	const char *in = (const char *)data + 1;
	size_t n = size - 1;

	/* bounded buffer of the chosen size */
	char *small = malloc(cap ? cap : 1);
	struct strbuf sb;
	sb_init(&sb, cap ? small : NULL, cap);
	json_escape(&sb, in, n);
	if (cap) {
		assert(sb.len < cap && small[sb.len] == '\0' && strlen(small) == sb.len);
		check_clean(small, sb.len);
	}
	free(small);

	/* room for everything: complete, clean, and it decodes back to the input */
	size_t big_cap = n * ESCAPE_GROWTH + RECORD_EXTRA;
	char *big = malloc(big_cap);
	char *back = malloc(big_cap);
	sb_init(&sb, big, big_cap);
	json_escape(&sb, in, n);
	assert(!sb.overflow);
	check_clean(big, sb.len);
	int utf8 = 1;
	for (size_t i = 0; i < n && utf8;) {
		size_t len = (unsigned char)in[i] < UTF8_LEAD ? 1 : jc_utf8(in + i, n - i);
		utf8 = len != 0;
		i += len;
	}
	size_t back_n = unescape(big, sb.len, back);
	if (utf8)
		assert(back_n == n && memcmp(back, in, n) == 0);
	else
		assert(back_n > n);   /* each byte that is not UTF-8 became the four characters \xNN */

	/* the bytes as a key (up to a NUL) and as a value, in one record */
	char *key = malloc(n + 1);
	memcpy(key, in, n);
	key[n] = '\0';
	size_t rec_cap = 2 * n * ESCAPE_GROWTH + RECORD_EXTRA;
	char *rec = malloc(rec_cap);
	struct json j;
	sb_init(&sb, rec, rec_cap);
	json_begin(&j, &sb);
	json_strn(&j, key, in, n);
	json_end(&j);
	assert(!sb.overflow && !j.error);
	check_clean(rec, sb.len);
	assert(json_check_object(rec, sb.len));

	free(rec);
	free(key);
	free(back);
	free(big);
	return 0;
}
