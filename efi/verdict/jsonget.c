/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jsonget: one member of a JSON text by path (efi/verdict/jsonget.h). The grammar is RFC 8259
 * section 2 (values, objects, arrays), 6 (numbers) and 7 (strings).
 */
#include "efi/verdict/jsonget.h"

#include <string.h>

#define MAX_NESTING 32

struct cur {
	const char *p, *end;
};

static void ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static int lit(struct cur *c, const char *word)
{
	size_t l = strlen(word);
	if ((size_t)(c->end - c->p) < l || memcmp(c->p, word, l) != 0)
		return -1;
	c->p += l;
	return 0;
}

/* At the opening quote: past the closing one; *in and *n give the inside. */
static int string(struct cur *c, const char **in, size_t *n)
{
	const char *s = ++c->p;
	while (c->p < c->end && *c->p != '"') {
		if ((unsigned char)*c->p < 0x20)
			return -1;
		if (*c->p == '\\') {
			c->p++;
			if (c->p >= c->end)
				return -1;
		}
		c->p++;
	}
	if (c->p >= c->end)
		return -1;
	*in = s;
	*n = (size_t)(c->p - s);
	c->p++;
	return 0;
}

static int is_num_char(char ch)
{
	return (ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == '.' || ch == 'e' || ch == 'E';
}

static int value(struct cur *c, struct jv *v, int depth);

static int child(struct cur *c, const char *name, size_t n, size_t idx, int depth);

/* At '{' or '[': past the matching close (a member no key matches, an element past any). */
static int container(struct cur *c, int depth)
{
	static const char none[] = "";
	int r = child(c, *c->p == '{' ? none : NULL, (size_t)-1, (size_t)-1, depth);
	return r == 1 ? 0 : -1;
}

/* Any value: *v says what it was; c->p past it. */
static int value(struct cur *c, struct jv *v, int depth)
{
	ws(c);
	if (c->p >= c->end || depth > MAX_NESTING)
		return -1;
	v->p = c->p;
	switch (*c->p) {
	case '"':
		v->kind = JV_STRING;
		return string(c, &v->p, &v->n);
	case '{':
	case '[':
		v->kind = *c->p == '{' ? JV_OBJECT : JV_ARRAY;
		if (container(c, depth) != 0)
			return -1;
		break;
	case 't':
		v->kind = JV_TRUE;
		if (lit(c, "true"))
			return -1;
		break;
	case 'f':
		v->kind = JV_FALSE;
		if (lit(c, "false"))
			return -1;
		break;
	case 'n':
		v->kind = JV_NULL;
		if (lit(c, "null"))
			return -1;
		break;
	default:
		if (!(*c->p == '-' || (*c->p >= '0' && *c->p <= '9')))
			return -1;
		v->kind = JV_NUMBER;
		while (c->p < c->end && is_num_char(*c->p))
			c->p++;
	}
	v->n = (size_t)(c->p - v->p);
	return 0;
}

/* In the container at c->p (an object when name is set, else an array), the value of member
 * name[0..n) or of element idx: c->p at it. 0, 1 missing (or not that container), -1 bad. */
static int child(struct cur *c, const char *name, size_t n, size_t idx, int depth)
{
	char open = name ? '{' : '[', close = name ? '}' : ']';
	ws(c);
	if (c->p >= c->end || *c->p != open)
		return 1;
	c->p++;
	ws(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		return 1;
	}
	for (size_t i = 0;; i++) {
		struct jv v;
		ws(c);
		if (name) {
			const char *k;
			size_t kn;
			if (c->p >= c->end || *c->p != '"' || string(c, &k, &kn) != 0)
				return -1;
			ws(c);
			if (c->p >= c->end || *c->p != ':')
				return -1;
			c->p++;
			ws(c);
			if (kn == n && memcmp(k, name, n) == 0)
				return 0;
		} else if (i == idx) {
			return 0;
		}
		if (value(c, &v, depth + 1) != 0)
			return -1;
		ws(c);
		if (c->p >= c->end)
			return -1;
		if (*c->p == close) {
			c->p++;
			return 1;
		}
		if (*c->p != ',')
			return -1;
		c->p++;
	}
}

int jsonget(const char *text, size_t len, const char *path, struct jv *v)
{
	struct cur c = { text, text + len };
	const char *s = path;
	v->kind = JV_NONE;
	v->p = NULL;
	v->n = 0;
	while (*s) {
		int r;
		if (*s == '[') {
			size_t idx = 0;
			for (s++; *s >= '0' && *s <= '9'; s++)
				idx = idx * 10 + (size_t)(*s - '0');
			if (*s != ']')
				return -1;
			s++;
			r = child(&c, NULL, 0, idx, 0);
		} else {
			if (*s == '.')
				s++;
			const char *e = s;
			while (*e && *e != '.' && *e != '[')
				e++;
			r = child(&c, s, (size_t)(e - s), 0, 0);
			s = e;
		}
		if (r != 0)
			return r;
	}
	struct jv out;
	if (value(&c, &out, 0) != 0)
		return -1;
	*v = out;
	return 0;
}
