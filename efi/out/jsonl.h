/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jsonl: writes one JSON object (one JSON Lines record) into a strbuf. Pure; no allocation.
 *
 *   struct json j; json_begin(&j, &sb);           -> {
 *   json_str(&j, "type", "platform");             -> "type":"platform"
 *   json_obj(&j, "cpu"); ... json_close(&j);      -> "cpu":{...}
 *   json_arr(&j, "passes"); json_item_u64(&j, 5); json_close(&j);  -> "passes":[5]
 *   json_end(&j);                                 -> }   (no newline: the log writer adds it)
 *
 * Strings are escaped per RFC 8259 (", \, control characters as \n \t or \u00XX); well-formed
 * UTF-8 is passed through and every other byte >= 0x80 becomes the text \xNN (JSON "\\xNN"), so
 * every record is UTF-8 whatever bytes a caller gives (config text, firmware strings). Nesting is bounded by JSON_MAX_DEPTH; deeper
 * opens are ignored and set ->error. A key of NULL writes a bare value (inside arrays).
 */
#ifndef EFIPERF_JSONL_H
#define EFIPERF_JSONL_H

#include <stdint.h>
#include "arch/lib/fmt.h"

#define JSON_MAX_DEPTH 8

struct json {
	struct strbuf *sb;
	int depth;
	unsigned char first[JSON_MAX_DEPTH + 1]; /* 1 while the open container has no member yet */
	char closer[JSON_MAX_DEPTH + 1];         /* '}' or ']' per open container */
	int error;                               /* nesting misuse */
};

void json_begin(struct json *j, struct strbuf *sb);
void json_end(struct json *j);                 /* closes every open container */
void json_obj(struct json *j, const char *key);
void json_arr(struct json *j, const char *key);
void json_close(struct json *j);

void json_str(struct json *j, const char *key, const char *val);   /* NULL val -> null */
void json_strn(struct json *j, const char *key, const char *val, size_t n);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_i64(struct json *j, const char *key, int64_t val);
void json_bool(struct json *j, const char *key, int val);
void json_null(struct json *j, const char *key);
void json_hex(struct json *j, const char *key, uint64_t val);      /* "0x1a2b" as a string */
void json_milli(struct json *j, const char *key, uint64_t milli);  /* number with 3 decimals */

/* Escape s into sb as the inside of a JSON string (no quotes): RFC 8259 escapes, and each byte
 * that begins no well-formed UTF-8 sequence as the text \xNN (lower-case hex). */
void json_escape(struct strbuf *sb, const char *s, size_t n);
/* Length (1..4) of the well-formed UTF-8 sequence (RFC 3629 section 4) at s[0..n), n >= 1, or 0. */
size_t json_utf8_len(const unsigned char *s, size_t n);

#endif
