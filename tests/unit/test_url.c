/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi/config/url.c: the `collector` URL against efi/config/url.h: the http scheme with its
 * default port 80 (RFC 9110 section 4.2.1), dotted-quad hosts 0..255 per part, ports 1..65535,
 * a path that starts and ends with '/', and every refused shape with the reason in its message;
 * then the `collector` key through the config parser: "none", a good URL, a bad one named by
 * file, line and key.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/config/url.h"
#include "efi/config/config.h"

static struct url u;
static char msg[256];

static void good(const char *v, uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint16_t port, const char *path)
{
	memset(&u, 0x5a, sizeof(u));
	if (url_parse(v, strlen(v), &u, msg, sizeof(msg)) != 0)
		fail_msg("'%s' refused: %s", v, msg);
	assert_int_equal(u.ip[0], a);
	assert_int_equal(u.ip[1], b);
	assert_int_equal(u.ip[2], c);
	assert_int_equal(u.ip[3], d);
	assert_int_equal(u.port, port);
	assert_string_equal(u.path, path);
}

static void bad(const char *v, const char *words)
{
	msg[0] = 0;
	assert_int_equal(url_parse(v, strlen(v), &u, msg, sizeof(msg)), -1);
	if (!strstr(msg, words))
		fail_msg("'%s': message '%s' lacks '%s'", v, msg, words);
}

static void test_good(void **state)
{
	(void)state;
	good("http://198.18.0.1:8080/", 198, 18, 0, 1, 8080, "/");
	good("http://10.0.0.5", 10, 0, 0, 5, 80, "/");
	good("http://255.255.255.255:65535/lab/", 255, 255, 255, 255, 65535, "/lab/");
	good("http://0.0.0.0:1/a/b", 0, 0, 0, 0, 1, "/a/b/");
}

static void test_bad(void **state)
{
	(void)state;
	bad("https://10.0.0.1/", "https is not supported");
	bad("ftp://10.0.0.1/", "not an http:// URL");
	bad("10.0.0.1:80", "not an http:// URL");
	bad("http://collector.lab/", "not an IPv4 address");
	bad("http://256.0.0.1/", "not an IPv4 address");
	bad("http://10.0.01.1/", "not an IPv4 address");
	bad("http://10.0.0/", "not an IPv4 address");
	bad("http://10.0.0.1:0/", "port is not 1..65535");
	bad("http://10.0.0.1:65536/", "port is not 1..65535");
	bad("http://10.0.0.1:/", "port is not 1..65535");
	bad("http://10.0.0.1x/", "not followed by ':PORT' or '/'");
	bad("http://user@10.0.0.1/", "not an IPv4 address");
	bad("http://10.0.0.1/a?b", "'?'");
	bad("http://10.0.0.1/a b", "space");
	bad("http://10.0.0.1/0123456789012345678901234567890123456789012345678901234567890123", "longer than 62");
	/* 64 bytes with the closing '/', written or added: no room for the NUL */
	bad("http://10.0.0.1/01234567890123456789012345678901234567890123456789012345678901/", "longer than 62");
	bad("http://10.0.0.1/01234567890123456789012345678901234567890123456789012345678901", "longer than 62");
}

static void test_path_limit(void **state)
{
	/* 63 bytes with the closing '/' and the NUL fill the 64: accepted whether or not the '/' is written */
	(void)state;
	good("http://10.0.0.1/0123456789012345678901234567890123456789012345678901234567890/", 10, 0, 0, 1, 80,
	     "/0123456789012345678901234567890123456789012345678901234567890/");
	good("http://10.0.0.1/0123456789012345678901234567890123456789012345678901234567890", 10, 0, 0, 1, 80,
	     "/0123456789012345678901234567890123456789012345678901234567890/");
}

static void test_config_key(void **state)
{
	(void)state;
	static struct efiperf_config c;
	struct cfg_errors e;
	memset(&e, 0, sizeof(e));
	cfg_defaults(&c);
	assert_string_equal(c.collector, "none");
	assert_int_equal(c.collector_wait, 30);
	static const char ok[] = "collector = http://198.18.0.1:8080/\ncollector_token = s3cr3t\ncollector_wait = 5\n";
	assert_int_equal(cfg_parse_text(&c, ok, sizeof(ok) - 1, "lab.cfg", &e), 0);
	assert_string_equal(c.collector, "http://198.18.0.1:8080/");
	assert_string_equal(c.collector_token, "s3cr3t");
	assert_int_equal(c.collector_wait, 5);
	static const char no[] = "exit = shutdown\ncollector = http://lab-server:8080/\ncollector_token = a b\n";
	assert_int_equal(cfg_parse_text(&c, no, sizeof(no) - 1, "lab.cfg", &e), 2);
	assert_string_equal(e.e[0].where, "lab.cfg:2");
	assert_string_equal(e.e[0].key, "collector");
	assert_non_null(strstr(e.e[0].message, "not an IPv4 address"));
	assert_string_equal(e.e[1].where, "lab.cfg:3");
	assert_string_equal(e.e[1].key, "collector_token");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_path_limit),
		cmocka_unit_test(test_config_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
