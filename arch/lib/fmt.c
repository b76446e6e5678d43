/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fmt: the snprintf subset of efi/fmt.h, written once for every target (no libc formatting:
 * the x86_64 image has no libc at all). Semantics follow C11 7.21.6.1 for what is supported,
 * so the host tests can use glibc's snprintf as the oracle:
 *   flags '-' '0' '+' ' ' '#', width and precision (both also as '*'),
 *   length modifiers hh h l ll z, conversions d i u x X c s p %.
 * %p prints "0x" and lowercase hex, "(nil)" for NULL; %s of NULL prints "(null)" (glibc's
 * spellings). An unknown conversion is copied through as written.
 */
#include "arch/lib/fmt.h"

#include <string.h>

#define DIGITS_MAX 24  /* 2^64-1 has 20 decimal / 16 hex digits */
#define DEC_BASE 10u
#define HEX_BASE 16u

/* Output cursor: counts every byte the full output would have, stores what fits. */
struct out {
	char *buf;
	size_t cap;   /* bytes of storage, including the NUL */
	size_t len;   /* bytes the full output has so far */
};

static void out_c(struct out *o, char c)
{
	if (o->len + 1 < o->cap)
		o->buf[o->len] = c;
	o->len++;
}

static void out_n(struct out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out_c(o, s[i]);
}

static void out_pad(struct out *o, char c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out_c(o, c);
}

/* One conversion specification as parsed. */
struct spec {
	int left;      /* '-' */
	int zero;      /* '0' */
	int plus;      /* '+' */
	int space;     /* ' ' */
	int alt;       /* '#' */
	size_t width;
	int has_prec;
	size_t prec;
};

/* Field of `body` bytes plus a `prefix` ("-", "0x", ...) padded to the width. */
static void out_field(struct out *o, const struct spec *sp, const char *prefix, size_t nprefix,
		      size_t nzeros, const char *body, size_t nbody)
{
	size_t total = nprefix + nzeros + nbody;
	size_t pad = sp->width > total ? sp->width - total : 0;

	if (!sp->left && !sp->zero)
		out_pad(o, ' ', pad);
	out_n(o, prefix, nprefix);
	if (!sp->left && sp->zero)
		out_pad(o, '0', pad);
	out_pad(o, '0', nzeros);
	out_n(o, body, nbody);
	if (sp->left)
		out_pad(o, ' ', pad);
}

static void out_uint(struct out *o, const struct spec *sp, uint64_t v, int neg, unsigned base,
		     int upper, int is_pointer)
{
	static const char lower_digits[] = "0123456789abcdef";
	static const char upper_digits[] = "0123456789ABCDEF";
	const char *dig = upper ? upper_digits : lower_digits;
	char tmp[DIGITS_MAX];
	size_t nd = 0;
	char prefix[2];
	size_t np = 0;
	struct spec s = *sp;
	const uint64_t orig = v;

	if (!(s.has_prec && s.prec == 0 && v == 0)) {
		do {
			tmp[DIGITS_MAX - 1 - nd++] = dig[v % base];
			v /= base;
		} while (v);
	}
	if (neg)
		prefix[np++] = '-';
	else if (s.plus)
		prefix[np++] = '+';
	else if (s.space)
		prefix[np++] = ' ';
	if ((s.alt && base == HEX_BASE && orig != 0) || is_pointer) {
		prefix[np++] = '0';
		prefix[np++] = upper ? 'X' : 'x';
	}
	size_t nzeros = s.has_prec && s.prec > nd ? s.prec - nd : 0;
	if (s.has_prec || s.left)
		s.zero = 0;  /* C11 7.21.6.1p6: '0' is ignored with a precision or '-' */
	out_field(o, &s, prefix, np, nzeros, tmp + DIGITS_MAX - nd, nd);
}

/* Bytes of s up to max (a NUL ends it earlier). */
static size_t bounded_len(const char *s, int bounded, size_t max)
{
	size_t n = 0;
	while ((!bounded || n < max) && s[n])
		n++;
	return n;
}

/* Reads an unsigned decimal at *p (advancing it). */
static size_t parse_num(const char **p)
{
	size_t v = 0;
	while (**p >= '0' && **p <= '9')
		v = v * DEC_BASE + (size_t)(*(*p)++ - '0');
	return v;
}

enum len_mod { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z };

static uint64_t arg_unsigned(va_list *ap, enum len_mod lm)
{
	switch (lm) {
	case LEN_HH: return (unsigned char)va_arg(*ap, unsigned int);
	case LEN_H: return (unsigned short)va_arg(*ap, unsigned int);
	case LEN_L: return va_arg(*ap, unsigned long);
	case LEN_LL: return va_arg(*ap, unsigned long long);
	case LEN_Z: return va_arg(*ap, size_t);
	case LEN_NONE: break;
	}
	return va_arg(*ap, unsigned int);
}

static int64_t arg_signed(va_list *ap, enum len_mod lm)
{
	switch (lm) {
	case LEN_HH: return (signed char)va_arg(*ap, int);
	case LEN_H: return (short)va_arg(*ap, int);
	case LEN_L: return va_arg(*ap, long);
	case LEN_LL: return va_arg(*ap, long long);
	case LEN_Z: return (int64_t)va_arg(*ap, size_t);
	case LEN_NONE: break;
	}
	return va_arg(*ap, int);
}

static enum len_mod parse_len(const char **p)
{
	switch (**p) {
	case 'h':
		(*p)++;
		if (**p == 'h') { (*p)++; return LEN_HH; }
		return LEN_H;
	case 'l':
		(*p)++;
		if (**p == 'l') { (*p)++; return LEN_LL; }
		return LEN_L;
	case 'z':
		(*p)++;
		return LEN_Z;
	}
	return LEN_NONE;
}

/* Parses flags, width and precision after '%' into sp (consuming '*' arguments). */
static void parse_spec(const char **p, va_list *ap, struct spec *sp)
{
	for (;; (*p)++) {
		if (**p == '-') sp->left = 1;
		else if (**p == '0') sp->zero = 1;
		else if (**p == '+') sp->plus = 1;
		else if (**p == ' ') sp->space = 1;
		else if (**p == '#') sp->alt = 1;
		else break;
	}
	if (**p == '*') {
		int w = va_arg(*ap, int);
		(*p)++;
		if (w < 0) {
			sp->left = 1;
			sp->width = (size_t)(0u - (unsigned)w);  /* |w|, also for INT_MIN */
		} else {
			sp->width = (size_t)w;
		}
	} else {
		sp->width = parse_num(p);
	}
	if (**p == '.') {
		(*p)++;
		sp->has_prec = 1;
		if (**p == '*') {
			int pr = va_arg(*ap, int);
			(*p)++;
			sp->has_prec = pr >= 0;  /* a negative precision is taken as omitted */
			sp->prec = pr >= 0 ? (size_t)pr : 0;
		} else {
			sp->prec = parse_num(p);
		}
	}
}

static void convert(struct out *o, const char **p, va_list *ap, const char *start)
{
	struct spec sp = { 0 };
	parse_spec(p, ap, &sp);
	enum len_mod lm = parse_len(p);
	char c = **p;

	if (c)
		(*p)++;
	switch (c) {
	case 'd':
	case 'i': {
		int64_t v = arg_signed(ap, lm);
		uint64_t mag = v < 0 ? -(uint64_t)v : (uint64_t)v;
		out_uint(o, &sp, mag, v < 0, DEC_BASE, 0, 0);
		break;
	}
	case 'u':
		out_uint(o, &sp, arg_unsigned(ap, lm), 0, DEC_BASE, 0, 0);
		break;
	case 'x':
	case 'X':
		sp.plus = sp.space = 0;
		out_uint(o, &sp, arg_unsigned(ap, lm), 0, HEX_BASE, c == 'X', 0);
		break;
	case 'p': {
		uintptr_t v = (uintptr_t)va_arg(*ap, void *);
		sp.plus = sp.space = sp.alt = 0;
		if (v) {
			out_uint(o, &sp, v, 0, HEX_BASE, 0, 1);
		} else {
			sp.zero = 0;
			out_field(o, &sp, "", 0, 0, "(nil)", 5);
		}
		break;
	}
	case 'c': {
		char ch = (char)va_arg(*ap, int);
		sp.zero = 0;
		out_field(o, &sp, "", 0, 0, &ch, 1);
		break;
	}
	case 's': {
		const char *s = va_arg(*ap, const char *);
		if (!s)
			s = "(null)";
		sp.zero = 0;
		out_field(o, &sp, "", 0, 0, s, bounded_len(s, sp.has_prec, sp.prec));
		break;
	}
	case '%':
		out_c(o, '%');
		break;
	default:
		out_n(o, start, (size_t)(*p - start));  /* not a conversion we know: copy as is */
		break;
	}
}

size_t fmt_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
	struct out o = { .buf = buf, .cap = n, .len = 0 };
	va_list aq;
	const char *p = fmt;

	va_copy(aq, ap);
	while (*p) {
		if (*p != '%') {
			out_c(&o, *p++);
			continue;
		}
		const char *start = p++;
		convert(&o, &p, &aq, start);
	}
	va_end(aq);
	if (n)
		buf[o.len < n ? o.len : n - 1] = '\0';
	return o.len;
}

size_t fmt_snprintf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t r = fmt_vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return r;
}

#define MILLI_PER_UNIT 1000u

size_t fmt_milli(char *buf, size_t n, uint64_t milli)
{
	size_t full = fmt_snprintf(buf, n, "%llu.%03u", (unsigned long long)(milli / MILLI_PER_UNIT),
				   (unsigned)(milli % MILLI_PER_UNIT));
	if (n == 0)
		return 0;
	return full < n ? full : n - 1;
}

/* ---- strbuf ---------------------------------------------------------------------------- */

void sb_init(struct strbuf *sb, char *storage, size_t cap)
{
	sb->buf = storage;
	sb->cap = cap;
	sb_reset(sb);
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	sb->overflow = 0;
	if (sb->cap)
		sb->buf[0] = '\0';
}

void sb_putn(struct strbuf *sb, const char *s, size_t n)
{
	size_t room = sb->cap ? sb->cap - 1 - sb->len : 0;
	if (n > room) {
		n = room;
		sb->overflow = 1;
	}
	if (n)
		memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	if (sb->cap)
		sb->buf[sb->len] = '\0';
}

void sb_putc(struct strbuf *sb, char c)
{
	sb_putn(sb, &c, 1);
}

void sb_puts(struct strbuf *sb, const char *s)
{
	sb_putn(sb, s, strlen(s));
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	if (!sb->cap) {
		sb->overflow = 1;
		return;
	}
	size_t room = sb->cap - sb->len;  /* >= 1: the NUL always fits */
	size_t full = fmt_vsnprintf(sb->buf + sb->len, room, fmt, ap);
	if (full >= room) {
		sb->overflow = 1;
		sb->len = sb->cap - 1;
	} else {
		sb->len += full;
	}
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}
