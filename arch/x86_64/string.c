/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The few C string functions efiperf's pure code uses, for the x86_64 target only: Debian has
 * no x86_64 picolibc (only picolibc-aarch64-linux-gnu and other cross targets), and gnu-efi's
 * libefi.a defines memset/memcpy but not these (`nm /usr/lib/libefi.a`, gnu-efi 3.0.15).
 * The aarch64 target takes them from picolibc, the host tests from glibc.
 */
#include <stddef.h>

size_t strlen(const char *s)
{
	const char *p = s;
	while (*p)
		p++;
	return (size_t)(p - s);
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
		if (x != y)
			return x < y ? -1 : 1;
		if (!x)
			return 0;
	}
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (d < s)
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	else
		for (size_t i = n; i > 0; i--)
			d[i - 1] = s[i - 1];
	return dst;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}
