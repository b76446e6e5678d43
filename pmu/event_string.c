/* SPDX-License-Identifier: BSD-2-Clause */
#include "pmu/event_string.h"
#include "arch/lib/fmt.h"
#include "arch/lib/parse_num.h"
#include <stdarg.h>
#include <string.h>

static int fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *find(const char *s, size_t n, char c)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == c)
			return s + i;
	return NULL;
}

static int field_n(const struct ev_grammar *g, const char *name, size_t len)
{
	for (int i = 0; i < g->nfields; i++)
		if (strlen(g->fields[i].name) == len && !memcmp(g->fields[i].name, name, len))
			return i;
	return -1;
}

int ev_field_index(const struct ev_grammar *g, const char *name)
{
	return field_n(g, name, strlen(name));
}

uint64_t ev_field_max(const struct ev_field *f)
{
	unsigned w = (unsigned)f->bits + f->hi_bits;
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static int unknown_field(const struct ev_grammar *g, const char *name, size_t len, char *err, size_t n)
{
	size_t k = fmt_snprintf(err, n, "%.*s: not a field of %s (fields:", (int)len, name, g->what);
	for (int i = 0; i < g->nfields && k < n; i++)
		k += fmt_snprintf(err + k, n - k, " %s", g->fields[i].name);
	if (k < n)
		fmt_snprintf(err + k, n - k, ")");
	return -1;
}

#define EV_NAME_CMP 64

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

/* Levenshtein distance of a[0..la) and b[0..lb), case-insensitive; la, lb <= EV_NAME_CMP. A
 * distance above limit may be returned as any value above it (the rows' minimum never falls,
 * so once it passes limit the work stops; the lengths' difference is a lower bound). */
static unsigned edits(const char *a, size_t la, const char *b, size_t lb, unsigned limit)
{
	unsigned row[EV_NAME_CMP + 1];
	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0], least;
		least = row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned best = diag + (lower(a[i - 1]) != lower(b[j - 1]));
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
			if (best < least)
				least = best;
		}
		if (least > limit)
			return limit + 1;
	}
	return row[lb];
}

void ev_closest_names(const struct ev_grammar *g, const char *s, size_t len, char *err, size_t n)
{
	if (!g->name_at)
		return;
	/* copies: a name_at may return the same buffer each call (a decoded catalogue row) */
	char best[EV_CLOSEST][EV_NAME_CMP + 1];
	unsigned dist[EV_CLOSEST];
	int nbest = 0;
	size_t ls = len < EV_NAME_CMP ? len : EV_NAME_CMP;
	unsigned limit = (unsigned)(len / 2 + 2);
	const char *name;
	for (size_t i = 0; (name = g->name_at(g, i)) != NULL; i++) {
		size_t ln = strlen(name);
		unsigned d = edits(s, ls, name, ln < EV_NAME_CMP ? ln : EV_NAME_CMP, limit);
		if (d > limit)
			continue;
		if (ln > EV_NAME_CMP)
			ln = EV_NAME_CMP;
		int dup = 0;
		for (int k = 0; k < nbest; k++)
			dup |= strlen(best[k]) == ln && !memcmp(best[k], name, ln);
		if (dup)
			continue;
		/* insert, keeping the list sorted by distance, first seen first among equals */
		for (int k = 0; k < EV_CLOSEST; k++)
			if (k == nbest || d < dist[k]) {
				for (int m = nbest < EV_CLOSEST ? nbest : EV_CLOSEST - 1; m > k; m--) {
					memcpy(best[m], best[m - 1], sizeof(best[m]));
					dist[m] = dist[m - 1];
				}
				memcpy(best[k], name, ln);
				best[k][ln] = 0;
				dist[k] = d;
				if (nbest < EV_CLOSEST)
					nbest++;
				break;
			}
	}
	if (!nbest)
		return;
	size_t k = strlen(err);
	for (int i = 0; i < nbest && k < n; i++)
		k += fmt_snprintf(err + k, n - k, "%s%s", i ? ", " : " (closest: ", best[i]);
	if (k < n)
		fmt_snprintf(err + k, n - k, ")");
}

static int put(const struct ev_grammar *g, struct ev_terms *t, int i, uint64_t v, uint32_t caps, char *err,
	       size_t n)
{
	const struct ev_field *f = &g->fields[i];
	if (v > ev_field_max(f))
		return fail(err, n, "%s=0x%llx: out of range 0..0x%llx on %s", f->name, (unsigned long long)v,
			    (unsigned long long)ev_field_max(f), g->what);
	if (v && f->need && (caps & f->need) != f->need)
		return fail(err, n, "%s: %s", f->name, f->need_why ? f->need_why : "not supported by this CPU");
	t->v[i] = v;
	t->set |= 1u << i;
	return 0;
}

int ev_set_named(const struct ev_grammar *g, struct ev_terms *t, const char *name, uint64_t v, char *err, size_t n)
{
	int i = ev_field_index(g, name);
	if (i < 0)
		return unknown_field(g, name, strlen(name), err, n);
	return put(g, t, i, v, ~0u, err, n);
}

static int term(const struct ev_grammar *g, const char *s, size_t len, int first, uint32_t caps,
		struct ev_terms *t, char *err, size_t n)
{
	const char *eq = find(s, len, '=');
	if (!eq) {
		if (!first || t->named)
			return fail(err, n, "%.*s: a named event must be the first term, once", (int)len, s);
		t->named = g->lookup ? g->lookup(g, s, len, t, err, n) : NULL;
		if (!t->named && !err[0])
			fail(err, n, "%.*s: no such named event on %s, and not field=value", (int)len, s, g->what);
		if (!t->named)
			ev_closest_names(g, s, len, err, n);
		return t->named ? 0 : -1;
	}
	size_t kn = (size_t)(eq - s);
	int i = field_n(g, s, kn);
	if (i < 0)
		return unknown_field(g, s, kn, err, n);
	if (t->given & (1u << i))
		return fail(err, n, "%s: given twice", g->fields[i].name);
	uint64_t v;
	int r = num_parse_u64(eq + 1, len - kn - 1, UINT64_MAX, &v);
	if (r)
		return fail(err, n, "%.*s: value is not a number (0x hex or decimal, 64 bits)", (int)len, s);
	if (put(g, t, i, v, caps, err, n))
		return -1;
	t->given |= 1u << i;
	return 0;
}

int ev_parse(const struct ev_grammar *g, const char *s, size_t len, uint32_t caps, struct ev_terms *t,
	     char *err, size_t n)
{
	*t = (struct ev_terms){ 0 };
	if (n)
		err[0] = 0;
	const char *slash = find(s, len, '/');
	if (!slash) {
		if (!g->bare_name || !len || find(s, len, '=') || find(s, len, ','))
			return fail(err, n, "\"%.*s\": not of the form %s/TERM,.../", (int)(len > 60 ? 60 : len), s,
				    g->pmu[0]);
		return term(g, s, len, 1, caps, t, err, n);
	}
	size_t pn = (size_t)(slash - s);
	int known = 0;
	for (int i = 0; i < 3 && g->pmu[i]; i++)
		known |= strlen(g->pmu[i]) == pn && !memcmp(g->pmu[i], s, pn);
	if (!known) {
		size_t k = fmt_snprintf(err, n, "%.*s: not a PMU of %s (", (int)pn, s, g->what);
		for (int i = 0; i < 3 && g->pmu[i] && k < n; i++)
			k += fmt_snprintf(err + k, n - k, "%s%s", i ? " or " : "", g->pmu[i]);
		if (k < n)
			fmt_snprintf(err + k, n - k, ")");
		return -1;
	}
	if (len < pn + 2 || s[len - 1] != '/')
		return fail(err, n, "\"%.*s\": missing the closing '/'", (int)(len > 60 ? 60 : len), s);
	const char *p = slash + 1, *end = s + len - 1;
	int first = 1;
	while (p < end) {
		const char *c = find(p, (size_t)(end - p), ',');
		size_t tn = (size_t)((c ? c : end) - p);
		if (!tn)
			return fail(err, n, "empty term at byte %u", (unsigned)(p - s));
		if (term(g, p, tn, first, caps, t, err, n))
			return -1;
		first = 0;
		p += tn + (c ? 1 : 0);
		if (c && p == end)
			return fail(err, n, "empty term at byte %u", (unsigned)(p - s));
	}
	int ev = ev_field_index(g, "event");
	if (!t->named && (ev < 0 || !(t->set & (1u << ev))))
		return fail(err, n, "no event: give event=0x.. or a named event");
	return 0;
}

void ev_encode(const struct ev_grammar *g, const struct ev_terms *t, uint64_t regs[EV_MAX_REGS])
{
	for (int i = 0; i < g->nfields; i++)
		if (t->set & (1u << i))
			regs[g->fields[i].reg] &= ~g->fields[i].clears;
	for (int i = 0; i < g->nfields; i++) {
		if (!(t->set & (1u << i)))
			continue;
		const struct ev_field *f = &g->fields[i];
		uint64_t v = t->v[i];
		uint64_t lo = f->bits >= 64 ? v : v & ((1ull << f->bits) - 1);
		regs[f->reg] |= lo << f->shift;
		if (f->hi_bits)
			regs[f->reg] |= (v >> f->bits) << f->hi_shift;
	}
}

size_t ev_next_token(const char **s, const char **tok)
{
	const char *p = *s;
	while (*p == ';' || *p == ' ' || *p == '\t')
		p++;
	const char *e = p;
	while (*e && *e != ';')
		e++;
	size_t len = (size_t)(e - p);
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
		len--;
	*tok = p;
	*s = e;
	return len;
}
