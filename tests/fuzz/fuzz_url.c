/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the `collector` URL parser (efi/config/url.c) over arbitrary bytes, each in a
 * heap buffer of exactly its length (ASan sees a read past it), with a message buffer whose size
 * the first byte picks (0..63: truncation of the error text). Beyond not crashing:
 *   - a refusal leaves a NUL-terminated message within msgsz (a non-empty one when msgsz > 1);
 *   - an accepted URL's path starts and ends with '/', is terminated within URL_PATH_MAX and holds
 *     no space, control byte, DEL or '?', '#', '@', '%' (RFC 3986 section 3.3's path, less what
 *     efiperf refuses); the port is 1..65535;
 *   - an accepted URL written back as http://A.B.C.D:PORT/PATH parses to the same struct, and the
 *     input starts with "http://" followed by those four octets in decimal.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "efi/config/url.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t msgsz = data[0] & 63;
	data++, size--;
	char *text = malloc(size ? size : 1);
	char *msg = malloc(msgsz ? msgsz : 1);
	if (!text || !msg) {
		free(text);
		free(msg);
		return 0;
	}
	memcpy(text, data, size);
	memset(msg, 'x', msgsz);

	struct url u;
	memset(&u, 'x', sizeof(u));
	if (url_parse(text, size, &u, msg, msgsz) != 0) {
		if (msgsz) {
			assert(memchr(msg, 0, msgsz));
			assert(msgsz == 1 || msg[0] != 0);
		}
	} else {
		size_t pn = strnlen(u.path, sizeof(u.path));
		assert(pn < sizeof(u.path) && pn >= 1);
		assert(u.path[0] == '/' && u.path[pn - 1] == '/');
		for (size_t k = 0; k < pn; k++) {
			unsigned char c = (unsigned char)u.path[k];
			assert(c > ' ' && c < 0x7f && !strchr("?#@%", c));
		}
		assert(u.port >= 1);
		char host[32];
		int hn = snprintf(host, sizeof(host), "http://%u.%u.%u.%u", u.ip[0], u.ip[1], u.ip[2], u.ip[3]);
		assert(size >= (size_t)hn && memcmp(text, host, (size_t)hn) == 0);
		char back[128];
		int bn = snprintf(back, sizeof(back), "%s:%u%s", host, u.port, u.path);
		assert(bn > 0 && (size_t)bn < sizeof(back));
		struct url again;
		char m2[96];
		memset(&again, 'y', sizeof(again));
		assert(url_parse(back, (size_t)bn, &again, m2, sizeof(m2)) == 0);
		assert(memcmp(again.ip, u.ip, 4) == 0 && again.port == u.port && strcmp(again.path, u.path) == 0);
	}
	free(text);
	free(msg);
	return 0;
}
