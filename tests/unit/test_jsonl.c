/* SPDX-License-Identifier: BSD-2-Clause */
/* efi/jsonl.c: exact records, RFC 8259 escaping of every byte, nesting misuse, truncation. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "efi/out/jsonl.h"
#include "json_check.h"

#define REC_MAX 512

struct rec {
	char buf[REC_MAX];
	struct strbuf sb;
	struct json j;
};

static void rec_begin(struct rec *r)
{
	sb_init(&r->sb, r->buf, sizeof(r->buf));
	json_begin(&r->j, &r->sb);
}

/* Ends the record and checks it is exactly `want`, valid JSON, with no misuse flagged. */
static void rec_expect(struct rec *r, const char *want)
{
	json_end(&r->j);
	assert_string_equal(r->buf, want);
	assert_false(r->j.error);
	assert_false(r->sb.overflow);
	assert_true(json_check_object(r->buf, r->sb.len));
}

static void test_empty_record(void **state)
{
	struct rec r;
	(void)state;
	rec_begin(&r);
	rec_expect(&r, "{}");
}

static void test_header_example(void **state)
{
	struct rec r;
	(void)state;
	rec_begin(&r);
	json_str(&r.j, "type", "platform");
	json_obj(&r.j, "cpu");
	json_str(&r.j, "vendor", "GenuineIntel");
	json_u64(&r.j, "family", 6);
	json_close(&r.j);
	json_arr(&r.j, "passes");
	json_u64(&r.j, NULL, 5);
	json_u64(&r.j, NULL, 6);
	json_close(&r.j);
	json_arr(&r.j, "empty");
	json_close(&r.j);
	rec_expect(&r, "{\"type\":\"platform\",\"cpu\":{\"vendor\":\"GenuineIntel\",\"family\":6},"
		       "\"passes\":[5,6],\"empty\":[]}");
}

static void test_value_types(void **state)
{
	struct rec r;
	(void)state;
	rec_begin(&r);
	json_u64(&r.j, "u0", 0);
	json_u64(&r.j, "umax", UINT64_MAX);
	json_i64(&r.j, "imin", INT64_MIN);
	json_i64(&r.j, "ineg", -42);
	json_bool(&r.j, "t", 1);
	json_bool(&r.j, "f", 0);
	json_bool(&r.j, "t2", 7);
	json_null(&r.j, "n");
	json_str(&r.j, "snull", NULL);
	json_hex(&r.j, "h0", 0);
	json_hex(&r.j, "h", 0x1a2bULL);
	json_milli(&r.j, "m", 12345);
	json_milli(&r.j, "m0", 7);
	json_strn(&r.j, "sn", "abcdef", 3);
	rec_expect(&r, "{\"u0\":0,\"umax\":18446744073709551615,\"imin\":-9223372036854775808,"
		       "\"ineg\":-42,\"t\":true,\"f\":false,\"t2\":true,\"n\":null,\"snull\":null,"
		       "\"h0\":\"0x0\",\"h\":\"0x1a2b\",\"m\":12.345,\"m0\":0.007,\"sn\":\"abc\"}");
}

static void test_array_of_everything(void **state)
{
	struct rec r;
	(void)state;
	rec_begin(&r);
	json_arr(&r.j, "a");
	json_str(&r.j, NULL, "x");
	json_obj(&r.j, NULL);
	json_close(&r.j);
	json_arr(&r.j, NULL);
	json_null(&r.j, NULL);
	json_close(&r.j);
	json_bool(&r.j, NULL, 0);
	rec_expect(&r, "{\"a\":[\"x\",{},[null],false]}");  /* json_end closes the array too */
}

/* Every byte value alone: controls escaped (short form where RFC 8259 has one), '"' and '\\'
 * escaped, 0x20..0x7f otherwise passed through, and every byte >= 0x80 (alone it is never
 * UTF-8) the text \xNN. */
static void test_escape_every_byte(void **state)
{
	char out[16];
	struct strbuf sb;
	(void)state;
	for (unsigned c = 0; c < 256; c++) {
		char in = (char)c, want[16];
		switch (c) {
		case '\b': strcpy(want, "\\b"); break;
		case '\t': strcpy(want, "\\t"); break;
		case '\n': strcpy(want, "\\n"); break;
		case '\f': strcpy(want, "\\f"); break;
		case '\r': strcpy(want, "\\r"); break;
		case '"': strcpy(want, "\\\""); break;
		case '\\': strcpy(want, "\\\\"); break;
		default:
			if (c < 0x20)
				snprintf(want, sizeof(want), "\\u%04x", c);
			else if (c >= 0x80)
				snprintf(want, sizeof(want), "\\\\x%02x", c);
			else
				snprintf(want, sizeof(want), "%c", (int)c);
		}
		sb_init(&sb, out, sizeof(out));
		json_escape(&sb, &in, 1);
		assert_false(sb.overflow);
		assert_int_equal(sb.len, strlen(want));
		assert_memory_equal(out, want, sb.len);
	}
}

static void test_escape_in_records(void **state)
{
	struct rec r;
	(void)state;
	rec_begin(&r);
	json_str(&r.j, "k\"ey\n", "a\"b\\c\x01\x1f\x7f\xc3\xa9");
	json_strn(&r.j, "nul", "a\0b", 3);
	rec_expect(&r, "{\"k\\\"ey\\n\":\"a\\\"b\\\\c\\u0001\\u001f\x7f\xc3\xa9\",\"nul\":\"a\\u0000b\"}");
}

/* UTF-8 passes through; each byte of an ill-formed sequence becomes \xNN. Cases from RFC 3629
 * sections 3-4 and Unicode 15 table 3-7 (well-formed byte sequences), written out by hand. */
static void test_escape_utf8(void **state)
{
	static const struct { const char *in; size_t n; const char *want; } cases[] = {
		{ "caf\xc3\xa9", 5, "caf\xc3\xa9" },                      /* U+00E9, 2 bytes */
		{ "\xe2\x82\xac", 3, "\xe2\x82\xac" },                     /* U+20AC euro, 3 bytes */
		{ "\xf0\x9f\x98\x80", 4, "\xf0\x9f\x98\x80" },             /* U+1F600, 4 bytes */
		{ "\xf4\x8f\xbf\xbf", 4, "\xf4\x8f\xbf\xbf" },             /* U+10FFFF, the last */
		{ "\xef\xbb\xbf", 3, "\xef\xbb\xbf" },                     /* U+FEFF (a BOM) is UTF-8 */
		{ "caf\xe9", 4, "caf\\\\xe9" },                              /* Latin-1 e acute */
		{ "\xff\xfe" "e\0", 4, "\\\\xff\\\\xfe" "e\\u0000" },              /* a UTF-16LE BOM and "e" */
		{ "\xc0\x80", 2, "\\\\xc0\\\\x80" },                          /* overlong NUL */
		{ "\xc1\xbf", 2, "\\\\xc1\\\\xbf" },                          /* overlong U+007F */
		{ "\xe0\x80\xaf", 3, "\\\\xe0\\\\x80\\\\xaf" },                /* overlong '/' */
		{ "\xe0\xa0\x80", 3, "\xe0\xa0\x80" },                     /* U+0800, the first 3-byte */
		{ "\xed\xa0\x80", 3, "\\\\xed\\\\xa0\\\\x80" },                /* surrogate U+D800 */
		{ "\xed\x9f\xbf", 3, "\xed\x9f\xbf" },                     /* U+D7FF, below them */
		{ "\xf0\x8f\xbf\xbf", 4, "\\\\xf0\\\\x8f\\\\xbf\\\\xbf" },      /* overlong U+FFFF */
		{ "\xf4\x90\x80\x80", 4, "\\\\xf4\\\\x90\\\\x80\\\\x80" },      /* U+110000 */
		{ "\xf5\x80\x80\x80", 4, "\\\\xf5\\\\x80\\\\x80\\\\x80" },      /* F5: no such lead */
		{ "\xe2\x82", 2, "\\\\xe2\\\\x82" },                          /* cut short at the end */
		{ "\xe2\x82x", 3, "\\\\xe2\\\\x82x" },                        /* cut short by ASCII */
		{ "\xc3\xa9\xa9", 3, "\xc3\xa9\\\\xa9" },                    /* a stray continuation */
		{ "a\xc3\"", 3, "a\\\\xc3\\\"" },                          /* a lead before a quote */
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[64];
		struct strbuf sb;
		sb_init(&sb, out, sizeof(out));
		json_escape(&sb, cases[i].in, cases[i].n);
		assert_false(sb.overflow);
		if (strcmp(out, cases[i].want) != 0)
			fail_msg("case %zu: got '%s', want '%s'", i, out, cases[i].want);
		/* the record holding it is valid JSON and UTF-8 (json_check decodes independently) */
		struct rec r;
		rec_begin(&r);
		json_strn(&r.j, "v", cases[i].in, cases[i].n);
		json_end(&r.j);
		assert_true(json_check_object(r.buf, r.sb.len));
	}
	/* the validator refuses what the writer must never write */
	assert_false(json_check_object("{\"v\":\"caf\xe9\"}", 11));
	assert_false(json_check_object("{\"v\":\"\xed\xa0\x80\"}", 11));
	assert_false(json_check_object("{\"v\":\"\xc0\x80\"}", 10));
}

static void test_depth_limit(void **state)
{
	struct rec r;
	(void)state;
	rec_begin(&r);
	for (int d = 0; d < JSON_MAX_DEPTH; d++)
		json_obj(&r.j, "o");
	assert_false(r.j.error);
	json_obj(&r.j, "too_deep");  /* ignored */
	assert_true(r.j.error);
	json_end(&r.j);
	assert_string_equal(r.buf, "{\"o\":{\"o\":{\"o\":{\"o\":{\"o\":{\"o\":{\"o\":{\"o\":{}}}}}}}}}");
	assert_true(json_check_object(r.buf, r.sb.len));
}

static void test_misuse_flagged(void **state)
{
	struct rec r;
	(void)state;

	rec_begin(&r);
	json_close(&r.j);  /* the record's own object belongs to json_end */
	assert_true(r.j.error);
	json_end(&r.j);
	assert_string_equal(r.buf, "{}");

	rec_begin(&r);
	json_end(&r.j);
	json_u64(&r.j, "late", 1);  /* after the record ended: nothing written */
	assert_true(r.j.error);
	assert_string_equal(r.buf, "{}");

	rec_begin(&r);
	json_u64(&r.j, NULL, 1);  /* bare value in an object */
	assert_true(r.j.error);

	rec_begin(&r);
	json_arr(&r.j, "a");
	json_u64(&r.j, "k", 1);  /* key in an array */
	assert_true(r.j.error);

	rec_begin(&r);
	json_end(&r.j);
	json_end(&r.j);  /* twice */
	assert_true(r.j.error);
	assert_string_equal(r.buf, "{}");
}

static void test_truncation(void **state)
{
	char small[12];
	struct strbuf sb;
	struct json j;
	(void)state;
	sb_init(&sb, small, sizeof(small));
	json_begin(&j, &sb);
	json_str(&j, "key", "a long value that does not fit");
	json_end(&j);
	assert_true(sb.overflow);
	assert_int_equal(sb.len, sizeof(small) - 1);
	assert_string_equal(small, "{\"key\":\"a l");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_record),
		cmocka_unit_test(test_header_example),
		cmocka_unit_test(test_value_types),
		cmocka_unit_test(test_array_of_everything),
		cmocka_unit_test(test_escape_every_byte),
		cmocka_unit_test(test_escape_in_records),
		cmocka_unit_test(test_escape_utf8),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_misuse_flagged),
		cmocka_unit_test(test_truncation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
