/* SPDX-License-Identifier: BSD-2-Clause */
/* url: an http URL with an IPv4 address (efi/config/url.h). */
#include <string.h>
#include "arch/lib/fmt.h"
#include "efi/config/url.h"

#define HTTP_DEFAULT_PORT 80   /* RFC 9110 section 4.2.1 */
#define OCTET_MAX 255u
#define PORT_MAX 65535u

static int fail(char *msg, size_t msgsz, const char *why)
{
	fmt_snprintf(msg, msgsz, "%s (write http://A.B.C.D[:PORT]/[PATH/])", why);
	return -1;
}

/* A decimal number at v[*i..n) up to max, no leading zero; -1 when there is none. */
static long number(const char *v, size_t n, size_t *i, unsigned long max)
{
	size_t s = *i;
	unsigned long x = 0;
	while (*i < n && v[*i] >= '0' && v[*i] <= '9' && *i - s < 6)
		x = x * 10 + (unsigned long)(v[(*i)++] - '0');
	if (*i == s || (*i - s > 1 && v[s] == '0') || x > max)
		return -1;
	return (long)x;
}

int url_parse(const char *v, size_t n, struct url *u, char *msg, size_t msgsz)
{
	static const char scheme[] = "http://";
	size_t i = sizeof(scheme) - 1;
	if (n >= 8 && !memcmp(v, "https://", 8))
		return fail(msg, msgsz, "https is not supported: the firmware's TCP4 carries plain HTTP");
	if (n < i || memcmp(v, scheme, i))
		return fail(msg, msgsz, "not an http:// URL");
	for (int k = 0; k < 4; k++) {
		long o = number(v, n, &i, OCTET_MAX);
		if (o < 0 || (k < 3 && (i >= n || v[i++] != '.')))
			return fail(msg, msgsz, "the host is not an IPv4 address A.B.C.D, each 0..255 (efiperf does no DNS)");
		u->ip[k] = (uint8_t)o;
	}
	u->port = HTTP_DEFAULT_PORT;
	if (i < n && v[i] == ':') {
		i++;
		long p = number(v, n, &i, PORT_MAX);
		if (p <= 0)
			return fail(msg, msgsz, "the port is not 1..65535");
		u->port = (uint16_t)p;
	}
	if (i == n) {
		fmt_snprintf(u->path, sizeof(u->path), "/");
		return 0;
	}
	if (v[i] != '/')
		return fail(msg, msgsz, "the address is not followed by ':PORT' or '/'");
	size_t pn = n - i;
	/* kept with a closing '/' and a NUL: "/a" and "/a/" are one path and fit alike */
	if (pn + (v[n - 1] == '/' ? 1u : 2u) > sizeof(u->path))
		return fail(msg, msgsz, "the path is longer than 62 bytes and its closing '/'");
	for (size_t k = i; k < n; k++)
		if (v[k] <= ' ' || v[k] == '?' || v[k] == '#' || v[k] == '@' || v[k] == '%' || v[k] >= 0x7f)
			return fail(msg, msgsz, "the path has a space, control byte, '?', '#', '@' or '%'");
	memcpy(u->path, v + i, pn);
	if (u->path[pn - 1] != '/')
		u->path[pn++] = '/';
	u->path[pn] = 0;
	return 0;
}
