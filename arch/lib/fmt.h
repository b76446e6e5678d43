/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fmt: a small, pure snprintf subset, identical on x86_64 (no libc), aarch64 (picolibc) and
 * the host, so every report line and JSON record is formatted by the same code.
 *
 * Conversions: %s %c %d %i %u %x %X %p %% with flags '-' '0', field width, precision for %s
 * (%.*s too), and length modifiers l, ll, z, h, hh. No floating point: rates are fixed-point
 * (see fmt_milli).
 */
#ifndef EFIPERF_FMT_H
#define EFIPERF_FMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Format into buf (size n bytes, always NUL-terminated when n > 0).
 * Returns the length the full output would have had (as C99 snprintf). */
size_t fmt_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);
size_t fmt_snprintf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Fixed-point decimal: writes value/1000 with exactly 3 decimals ("12.345") into buf.
 * Returns the length written (excluding NUL), buf always terminated when n > 0. */
size_t fmt_milli(char *buf, size_t n, uint64_t milli);

/* Append-only string buffer over caller storage. Overflow truncates and sets ->overflow. */
struct strbuf {
	char *buf;
	size_t cap;     /* bytes of storage, including the NUL */
	size_t len;     /* bytes used, excluding the NUL */
	int overflow;   /* 1 once anything was truncated */
};

void sb_init(struct strbuf *sb, char *storage, size_t cap);
void sb_reset(struct strbuf *sb);
void sb_putc(struct strbuf *sb, char c);
void sb_puts(struct strbuf *sb, const char *s);
void sb_putn(struct strbuf *sb, const char *s, size_t n);
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);

#endif
