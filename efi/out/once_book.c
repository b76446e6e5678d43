// SPDX-License-Identifier: BSD-2-Clause
#include <stddef.h>
#include "efi/out/once_book.h"

/* FNV-1a, 64 bits (offset basis 14695981039346656037, prime 1099511628211: the FNV reference,
 * IETF draft-eastlake-fnv) */
static unsigned long long fnv1a(const char *s)
{
	unsigned long long h = 14695981039346656037ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

int once_note(struct once_book *b, const char *key, const char *text)
{
	unsigned long long h = fnv1a(key);
	for (int i = 0; i < b->n; i++)
		if (b->k[i].hash == h) {
			b->k[i].count++;
			return 0;
		}
	if (b->n >= ONCE_KEYS)
		return 1;
	struct once_key *o = &b->k[b->n++];
	o->hash = h;
	size_t k = 0;   /* the text without its indent, runs of blanks as one */
	for (const char *t = text; *t && k + 1 < sizeof(o->text); t++)
		if (*t != ' ' || (k && o->text[k - 1] != ' '))
			o->text[k++] = *t;
	o->text[k] = 0;
	o->count = 1;
	return 1;
}
