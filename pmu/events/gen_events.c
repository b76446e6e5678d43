/* SPDX-License-Identifier: BSD-2-Clause */
/* Decoder of the generated event catalogue (pmu/events/gen_events.h). Pure and bounded. */
#include "pmu/events/gen_events.h"

#include <string.h>

enum { C_COMMON, C_SUFLEN, C_CHAR, C_PLATS, C_EVX, C_UMASK, C_FLAGS, C_EXT, C_PORT, C_FC, C_FILTER };

void gen_iter_start(struct gen_iter *it, const struct gen_unit *u)
{
	const uint8_t *t = u->tables;
	it->u = u;
	it->pos = 0;
	it->row = 0;
	it->ev = 0;
	for (int c = 0; c < GEN_NCOLUMNS; c++) {
		unsigned nsym = 0;
		for (int l = 0; l < GEN_MAX_BITS; l++)
			nsym += it->ncode[c][l] = t[l];
		it->sym[c] = t + GEN_MAX_BITS;
		t += GEN_MAX_BITS + nsym;
	}
}

/* One symbol of column c (canonical decoding: at each length, the codes of that length are
 * first..first+count-1), or -1 when the stream ends. */
static int sym(struct gen_iter *it, int c)
{
	unsigned code = 0, first = 0, index = 0;
	for (int l = 0; l < GEN_MAX_BITS; l++) {
		if (it->pos >= it->u->nbits)
			return -1;
		code |= (it->u->stream[it->pos >> 3] >> (7 - (it->pos & 7))) & 1u;
		it->pos++;
		unsigned count = it->ncode[c][l];
		if (code - first < count)
			return it->sym[c][index + code - first];
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return -1;
}

/* A LEB128 value of column c, or -1. */
static int64_t leb(struct gen_iter *it, int c)
{
	uint64_t v = 0;
	for (unsigned shift = 0; shift < 35; shift += 7) {
		int b = sym(it, c);
		if (b < 0)
			return -1;
		v |= (uint64_t)(b & 0x7F) << shift;
		if (!(b & 0x80))
			return (int64_t)v;
	}
	return -1;
}

int gen_iter_next(struct gen_iter *it, struct gen_row *r)
{
	if (it->row >= it->u->nrows)
		return 0;
	int common = sym(it, C_COMMON), suflen = sym(it, C_SUFLEN);
	if (common < 0 || suflen < 0 || common + suflen >= GEN_NAME_MAX)
		return 0;
	for (int i = 0; i < suflen; i++) {
		int ch = sym(it, C_CHAR);
		if (ch < 0)
			return 0;
		r->name[common + i] = (char)ch;
	}
	r->name[common + suflen] = 0;
	int plats = sym(it, C_PLATS), evx = sym(it, C_EVX), umask = sym(it, C_UMASK), flags = sym(it, C_FLAGS);
	if (plats < 0 || evx < 0 || umask < 0 || flags < 0)
		return 0;
	r->plats = (uint8_t)plats;
	r->event = it->ev = (uint8_t)(it->ev ^ evx);
	r->umask = (uint8_t)umask;
	int64_t ext = flags & GEN_F_EXT ? leb(it, C_EXT) : 0, port = flags & GEN_F_PORT ? leb(it, C_PORT) : 0;
	int fc = flags & GEN_F_FC ? sym(it, C_FC) : 0;
	int64_t filter = flags & GEN_F_FILTER ? leb(it, C_FILTER) : 0;
	if (ext < 0 || port < 0 || fc < 0 || filter < 0)
		return 0;
	r->umask_ext = (uint32_t)ext;
	r->port_mask = (uint32_t)port;
	r->fc_mask = (uint8_t)fc;
	r->filter = (uint32_t)filter;
	it->row++;
	return 1;
}

const struct gen_unit *gen_unit_by_name(const char *unit)
{
	for (int i = 0; i < GEN_INTEL_NUNIT; i++)
		if (!strcmp(gen_intel_units[i].unit, unit))
			return &gen_intel_units[i];
	return NULL;
}

int gen_platform_index(const char *name)
{
	for (int i = 0; i < GEN_INTEL_NPLAT; i++)
		if (!strcmp(gen_intel_platforms[i].name, name))
			return i;
	return -1;
}

int gen_find(const struct gen_unit *u, int plat, const char *name, size_t len, struct gen_row *r)
{
	struct gen_iter it;
	if (!u || plat < 0 || plat >= GEN_INTEL_NPLAT)
		return 0;
	size_t pl = strlen(u->prefix);
	int bare = !(len >= pl && !memcmp(name, u->prefix, pl));   /* the name without the prefix */
	gen_iter_start(&it, u);
	while (gen_iter_next(&it, r)) {
		const char *n = r->name + (bare && !memcmp(r->name, u->prefix, pl) ? pl : 0);
		if ((r->plats >> plat & 1) && strlen(n) == len && !memcmp(n, name, len))
			return 1;
	}
	return 0;
}

const char gen_named_marker = 1;

int gen_lookup(const char *unit, const char *plat, const char *name, size_t len, struct gen_row *r)
{
	return gen_find(gen_unit_by_name(unit), gen_platform_index(plat), name, len, r);
}

void gen_names_start(struct gen_names *c, const char *unit, const char *plat)
{
	c->u = gen_unit_by_name(unit);
	c->plat = gen_platform_index(plat);
	c->next = (size_t)-1;     /* not started */
}

const char *gen_names_at(struct gen_names *c, size_t i)
{
	if (!c->u || c->plat < 0)
		return NULL;
	if (c->next == (size_t)-1 || i < c->next) {
		gen_iter_start(&c->it, c->u);
		c->next = 0;
	}
	while (gen_iter_next(&c->it, &c->r))
		if ((c->r.plats >> c->plat & 1) && c->next++ == i)
			return c->r.name;
	return NULL;
}
