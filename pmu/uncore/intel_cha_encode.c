/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Perf-style CHA event strings -> register values, from the platform's term table
 * (pmu/intel_cha_platforms.c): `cha/event=0x35,umask=0x4,umask_ext=0xC8F3FE/`,
 * `cha/event=0x35,umask=0x34,filter_opc=0x21e/`, `cha/TOR_INSERTS.IO_MISS_PCIRDCUR/`.
 * Pure and bounded: every input byte is looked at once; no libc beyond memcmp/strlen.
 */
#include "pmu/uncore/intel_cha.h"
#include "arch/lib/fmt.h"
#include "arch/lib/parse_num.h"

#include <string.h>

#define PREFIX "cha/"
#define PREFIX_LEN 4

static uint64_t field_max(const struct cha_field *f)
{
	return f->width >= 64 ? ~0ull : (1ull << f->width) - 1;
}

static const struct cha_field *field_find(const struct cha_platform *p, const char *s, size_t len, int *idx)
{
	for (int i = 0; i < p->nfields; i++)
		if (strlen(p->fields[i].name) == len && !memcmp(p->fields[i].name, s, len)) {
			*idx = i;
			return &p->fields[i];
		}
	return NULL;
}

struct enc_state {
	const struct cha_platform *p;
	uint64_t value[32];       /* per field index */
	uint32_t given;           /* bit per field index */
	char *why;
	size_t n;
};

static int set_field(struct enc_state *st, const char *name, size_t nlen, uint64_t v)
{
	int idx = -1;
	const struct cha_field *f = field_find(st->p, name, nlen, &idx);
	if (!f) {
		size_t k = fmt_snprintf(st->why, st->n, "%.*s: not a CHA field on %s (fields:", (int)nlen, name,
					st->p->name);
		for (int i = 0; i < st->p->nfields && k < st->n; i++)
			k += fmt_snprintf(st->why + k, st->n - k, " %s", st->p->fields[i].name);
		if (k < st->n)
			fmt_snprintf(st->why + k, st->n - k, ")");
		return -1;
	}
	if (st->given & (1u << idx)) {
		fmt_snprintf(st->why, st->n, "%s: given twice", f->name);
		return -1;
	}
	if (v > field_max(f)) {
		fmt_snprintf(st->why, st->n, "%s=0x%llx: out of range 0..0x%llx on %s", f->name,
			     (unsigned long long)v, (unsigned long long)field_max(f), st->p->name);
		return -1;
	}
	st->given |= 1u << idx;
	st->value[idx] = v;
	return 0;
}

#define SET(st, name, v) set_field(st, name, sizeof(name) - 1, v)

static int apply_named(struct enc_state *st, const struct cha_event *e)
{
	if (SET(st, "event", e->event) || SET(st, "umask", e->umask))
		return -1;
	if (e->umask_ext && SET(st, "umask_ext", e->umask_ext))
		return -1;
	if (e->opc && SET(st, "filter_opc", e->opc))
		return -1;
	if (e->nc && SET(st, "filter_nc", e->nc))
		return -1;
	if (e->state && SET(st, "filter_state", e->state))
		return -1;
	return 0;
}

static void build(const struct enc_state *st, struct cha_encoding *out)
{
	const struct cha_platform *p = st->p;
	uint64_t reg[3] = { p->box.ctl_en, p->filter_default[CHA_FILTER0], p->filter_default[CHA_FILTER1] };
	uint8_t uses = 0;
	for (int i = 0; i < p->nfields; i++)       /* clears first, then values */
		if (st->given & (1u << i))
			reg[p->fields[i].target] &= ~p->fields[i].clears;
	for (int i = 0; i < p->nfields; i++) {
		if (!(st->given & (1u << i)))
			continue;
		const struct cha_field *f = &p->fields[i];
		reg[f->target] |= st->value[i] << f->shift;
		if (f->target != CHA_T_CTL)
			uses |= (uint8_t)(1u << (f->target - CHA_T_FILTER0));
		if (!strcmp(f->name, "event"))
			out->event = (uint8_t)st->value[i];
	}
	for (int i = 0; i < p->nfilter_uses; i++)
		if (p->filter_uses[i].event == out->event)
			uses |= (uint8_t)(1u << p->filter_uses[i].filter);
	out->ctl = reg[CHA_T_CTL];
	out->filter[CHA_FILTER0] = reg[CHA_T_FILTER0];
	out->filter[CHA_FILTER1] = reg[CHA_T_FILTER1];
	out->uses = uses;
}

int cha_encode(const struct cha_platform *p, const char *spec, size_t len, struct cha_encoding *out,
	       char *why, size_t n)
{
	struct enc_state st = { .p = p, .why = why, .n = n };
	*out = (struct cha_encoding){ 0 };
	if (len < PREFIX_LEN + 1 || memcmp(spec, PREFIX, PREFIX_LEN) || spec[len - 1] != '/') {
		fmt_snprintf(why, n, "\"%.*s\": not of the form cha/TERM,.../", (int)(len > 60 ? 60 : len), spec);
		return -1;
	}
	size_t i = PREFIX_LEN, end = len - 1;
	int first = 1;
	while (i < end) {
		size_t t = i;
		while (t < end && spec[t] != ',')
			t++;
		size_t eq = i;
		while (eq < t && spec[eq] != '=')
			eq++;
		if (t == i) {
			fmt_snprintf(why, n, "empty term at byte %u", (unsigned)i);
			return -1;
		}
		if (eq == t) {
			const struct cha_event *e = cha_event_find(p, spec + i, t - i);
			if (!e || !first) {
				fmt_snprintf(why, n, "%.*s: %s", (int)(t - i), spec + i,
					     e ? "a named event must be the first term" : "no such named event and not field=value");
				return -1;
			}
			out->named = e;
			if (apply_named(&st, e))
				return -1;
		} else {
			uint64_t v;
			if (num_parse_u64(spec + eq + 1, t - eq - 1, UINT64_MAX, &v)) {
				fmt_snprintf(why, n, "%.*s: value is not a number (0x hex or decimal, 64 bits)",
					     (int)(t - i), spec + i);
				return -1;
			}
			if (set_field(&st, spec + i, eq - i, v))
				return -1;
		}
		first = 0;
		i = t + 1;
	}
	int idx;
	if (!field_find(p, "event", 5, &idx) || !(st.given & (1u << idx))) {
		fmt_snprintf(why, n, "no event: give event=0x.. or a named event");
		return -1;
	}
	build(&st, out);
	return 0;
}

size_t cha_event_spec(const struct cha_platform *p, const struct cha_event *e, char *buf, size_t n)
{
	(void)p;
	size_t k = fmt_snprintf(buf, n, "cha/event=0x%x,umask=0x%x", e->event, e->umask);
	if (e->umask_ext)
		k += fmt_snprintf(buf + (k < n ? k : n), k < n ? n - k : 0, ",umask_ext=0x%x", e->umask_ext);
	if (e->opc)
		k += fmt_snprintf(buf + (k < n ? k : n), k < n ? n - k : 0, ",filter_opc=0x%x", e->opc);
	if (e->nc)
		k += fmt_snprintf(buf + (k < n ? k : n), k < n ? n - k : 0, ",filter_nc=%u", e->nc);
	if (e->state)
		k += fmt_snprintf(buf + (k < n ? k : n), k < n ? n - k : 0, ",filter_state=0x%x", e->state);
	k += fmt_snprintf(buf + (k < n ? k : n), k < n ? n - k : 0, "/");
	return k;
}
