/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jsonget: finds one member of a JSON text (RFC 8259) by a path, without building a tree. Pure,
 * no allocation; bounded by the text's length and a nesting limit, so any bytes are safe to
 * give it (fuzzed as part of the verdict's offer path).
 *
 *   jsonget(text, len, "link.speed_gts", &v)   -> v.p/v.n: the value's text "16.000"
 *   jsonget(text, len, "passes[1].gbps", &v)
 */
#ifndef EFIPERF_JSONGET_H
#define EFIPERF_JSONGET_H

#include <stddef.h>

enum jv_kind { JV_NONE, JV_NUMBER, JV_STRING, JV_TRUE, JV_FALSE, JV_NULL, JV_OBJECT, JV_ARRAY };

struct jv {
	enum jv_kind kind;
	const char *p;   /* the value's text; for a string, its inside (between the quotes, escapes kept) */
	size_t n;
};

/* Look path up in the JSON object text[0..len). path: NAME(.NAME|[INDEX])*. Returns 0 and *v,
 * 1 when a member or index on the way is missing (v->kind JV_NONE), -1 when the text is not
 * well-formed JSON along the way. */
int jsonget(const char *text, size_t len, const char *path, struct jv *v);

#endif
