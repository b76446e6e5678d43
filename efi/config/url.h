/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * url: the `collector` setting, an http URL with an IPv4 address (RFC 3986 section 3; the
 * scheme "http" of RFC 9110 section 4.2.1, default port 80):
 *     http://198.18.0.1:8080/          http://10.0.0.5/lab/
 * The host is a dotted quad, each part 0..255 without leading zeros: the firmware's TCP4
 * protocol takes an address, and efiperf does no DNS. https, user info, a query or a fragment
 * are refused by name. Pure parser, host-tested (tests/unit/test_url.c).
 */
#ifndef EFIPERF_URL_H
#define EFIPERF_URL_H

#include <stddef.h>
#include <stdint.h>

#define URL_PATH_MAX 64

struct url {
	uint8_t ip[4];
	uint16_t port;
	char path[URL_PATH_MAX];   /* "/" or "/lab/": starts and ends with '/' */
};

/* Parse v[0..n). Returns 0 (u filled), or -1 with msg saying what is wrong. */
int url_parse(const char *v, size_t n, struct url *u, char *msg, size_t msgsz);

#endif
