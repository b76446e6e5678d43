/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi/fmt.c against the host C library: for every supported conversion, flag, width,
 * precision and length modifier, fmt_snprintf must produce the same bytes and return the same
 * length as glibc's snprintf, for every buffer size from 0 up (truncation included).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <cmocka.h>

#include "arch/lib/fmt.h"

#define OUT_MAX 96
#define SENTINEL 0xA5

/* Checks fmt_vsnprintf == vsnprintf for buffer sizes 0 .. full length + 2. */
static void vcheck(const char *fmt, va_list ap)
{
	char want[OUT_MAX], got[OUT_MAX];
	va_list a1;
	va_copy(a1, ap);
	int full = vsnprintf(NULL, 0, fmt, a1);
	va_end(a1);
	assert_true(full >= 0 && full + 3 <= OUT_MAX);

	for (size_t n = 0; n <= (size_t)full + 2; n++) {
		memset(want, SENTINEL, sizeof(want));
		memset(got, SENTINEL, sizeof(got));
		va_list a2, a3;
		va_copy(a2, ap);
		va_copy(a3, ap);
		int wr = vsnprintf(want, n, fmt, a2);
		size_t gr = fmt_vsnprintf(got, n, fmt, a3);
		va_end(a2);
		va_end(a3);
		if ((size_t)wr != gr || memcmp(want, got, sizeof(want)) != 0) {
			print_error("format \"%s\", n=%zu: want %d \"%.*s\", got %zu \"%.*s\"\n", fmt, n,
				    wr, (int)n, want, gr, (int)n, got);
			fail();
		}
	}
}

static void check(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vcheck(fmt, ap);
	va_end(ap);
}

static const char *const int_formats[] = {
	"%d", "%i", "%u", "%x", "%X", "%5d", "%-5d|", "%05d", "%+d", "% d", "%+5d", "%-+5d|",
	"%.3d", "%8.3d", "%-8.3d|", "%.0d", "%5.0d", "%08.3d", "%+05d", "% 05d", "%-05d|",
	"%#x", "%#X", "%08x", "%#08x", "%-#8x|", "%.4x", "%#.4x", "%#.0x", "%.0x", "%12u",
	"%hhd", "%hd", "%hhu", "%hu", "%hhx", "%hX", "%1d", "%20d", "%.20d", "%-1u", "%3c|", "%-3c|",
	"%%%d%%", "[%d]", "%0d", "%#5x", "% x",
};

static const int int_values[] = {
	0, 1, -1, 7, -7, 42, -42, 255, 256, 65535, 65536, 123456789, -123456789,
	INT_MAX, INT_MIN, 0x7f, 0x80, -129, 0xabcdef,
};

static void test_int_conversions(void **state)
{
	(void)state;
	for (size_t f = 0; f < sizeof(int_formats) / sizeof(int_formats[0]); f++)
		for (size_t v = 0; v < sizeof(int_values) / sizeof(int_values[0]); v++)
			if (strchr(int_formats[f], 'c') == NULL || (int_values[v] & 0xff) != 0)
				check(int_formats[f], int_values[v]);
}

static const long long ll_values[] = {
	0, 1, -1, 4294967295LL, 4294967296LL, -4294967296LL, 1234567890123456789LL,
	LLONG_MAX, LLONG_MIN, 0x0123456789abcdefLL,
};

static void test_long_conversions(void **state)
{
	static const char *const ll_formats[] = {
		"%lld", "%lli", "%llu", "%llx", "%llX", "%25lld", "%-25lld|", "%025lld", "%+lld",
		"%.22lld", "%#llx", "%#20llx", "%020llx",
	};
	static const char *const l_formats[] = { "%ld", "%lu", "%lx", "%+ld", "%-22ld|", "%#lx" };
	(void)state;
	for (size_t v = 0; v < sizeof(ll_values) / sizeof(ll_values[0]); v++) {
		for (size_t f = 0; f < sizeof(ll_formats) / sizeof(ll_formats[0]); f++)
			check(ll_formats[f], ll_values[v]);
		for (size_t f = 0; f < sizeof(l_formats) / sizeof(l_formats[0]); f++)
			check(l_formats[f], (long)ll_values[v]);
		check("%zu", (size_t)ll_values[v]);
		check("%zx", (size_t)ll_values[v]);
		check("%12zu|%-3zd", (size_t)ll_values[v], (ssize_t)ll_values[v]);
	}
	check("%llu", 18446744073709551615ULL);
	check("%llx", 18446744073709551615ULL);
}

static void test_strings(void **state)
{
	static const char *const s_formats[] = {
		"%s", "%10s", "%-10s|", "%.3s", "%10.3s", "%-10.3s|", "%.0s", "%1s", "[%s]", "%.20s",
	};
	static const char *const s_values[] = { "", "a", "abc", "hello world", "tab\there", "\x80\xff" };
	(void)state;
	for (size_t f = 0; f < sizeof(s_formats) / sizeof(s_formats[0]); f++)
		for (size_t v = 0; v < sizeof(s_values) / sizeof(s_values[0]); v++)
			check(s_formats[f], s_values[v]);
	check("%s", (const char *)NULL);
	check("%c%c%c", 'a', 'b', 'c');
	check("%c", 0);  /* a NUL character is output and counted */
	/* %.*s stops at the precision even without a NUL within it */
	char no_nul[4] = { 'w', 'x', 'y', 'z' };
	check("%.*s|", 4, no_nul);
	check("%.*s|", 2, no_nul);
}

static void test_star_and_pointer(void **state)
{
	int x;
	(void)state;
	check("%*d|", 6, 42);
	check("%*d|", -6, 42);   /* negative width: left-justified */
	check("%-*d|", 6, 42);
	check("%.*d|", 4, 42);
	check("%.*d|", -1, 42);  /* negative precision: as if omitted */
	check("%*.*s|", 8, 2, "abcdef");
	check("%p", (void *)&x);
	check("%20p|", (void *)&x);
	check("%-20p|", (void *)&x);
	check("%p", (void *)(uintptr_t)0x1000);
	check("%p", (void *)NULL);
	check("%10p|", (void *)NULL);
}

static void test_mixed(void **state)
{
	(void)state;
	check("");
	check("no conversions at all");
	check("%%");
	check("a%sb%dc%%d%5.2s|%-4x|%llu", "str", -3, "xyz", 0xbeef, 99ULL);
	check("%s=%u (%d%%) 0x%08llx", "copy_size", 67108864u, 50, 0xdeadbeefcafeULL);
	check("%hhd %hd %d %ld %lld", (signed char)-5, (short)-300, -70000, -5000000000L, -1LL);
}

static void test_return_without_buffer(void **state)
{
	(void)state;
	assert_int_equal(fmt_snprintf(NULL, 0, "%s-%d", "abc", 12345), 9);
	char one[1] = { 'x' };
	assert_int_equal(fmt_snprintf(one, 1, "hello"), 5);
	assert_int_equal(one[0], '\0');
}

static void test_milli(void **state)
{
	static const struct { uint64_t v; const char *s; } cases[] = {
		{ 0, "0.000" }, { 1, "0.001" }, { 999, "0.999" }, { 1000, "1.000" }, { 12345, "12.345" },
		{ 1000001, "1000.001" }, { UINT64_MAX, "18446744073709551.615" },
	};
	char buf[32];
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(fmt_milli(buf, sizeof(buf), cases[i].v), strlen(cases[i].s));
		assert_string_equal(buf, cases[i].s);
	}
	/* truncated: returns what was written, always terminated */
	assert_int_equal(fmt_milli(buf, 4, 12345), 3);
	assert_string_equal(buf, "12.");
	assert_int_equal(fmt_milli(buf, 0, 12345), 0);
}

static void test_strbuf(void **state)
{
	char store[8];
	struct strbuf sb;
	(void)state;
	sb_init(&sb, store, sizeof(store));
	assert_int_equal(sb.len, 0);
	assert_string_equal(store, "");
	sb_putc(&sb, 'a');
	sb_puts(&sb, "bc");
	sb_putn(&sb, "dexyz", 2);
	assert_string_equal(store, "abcde");
	assert_int_equal(sb.len, 5);
	assert_false(sb.overflow);
	sb_printf(&sb, "%d", 12);
	assert_string_equal(store, "abcde12");
	assert_false(sb.overflow);
	sb_putc(&sb, 'z');  /* full: 7 characters + NUL */
	assert_true(sb.overflow);
	assert_string_equal(store, "abcde12");
	assert_int_equal(sb.len, 7);

	sb_reset(&sb);
	assert_false(sb.overflow);
	assert_string_equal(store, "");
	sb_printf(&sb, "%s", "0123456789");
	assert_true(sb.overflow);
	assert_int_equal(sb.len, 7);
	assert_string_equal(store, "0123456");

	sb_reset(&sb);
	sb_puts(&sb, "0123456789");
	assert_true(sb.overflow);
	assert_string_equal(store, "0123456");
}

static void test_strbuf_tiny(void **state)
{
	char one[1];
	struct strbuf sb;
	(void)state;
	sb_init(&sb, one, sizeof(one));
	sb_puts(&sb, "");
	assert_false(sb.overflow);
	sb_printf(&sb, "%s", "");
	assert_false(sb.overflow);
	sb_putc(&sb, 'x');
	assert_true(sb.overflow);
	assert_int_equal(one[0], '\0');

	sb_init(&sb, NULL, 0);  /* no storage at all: everything overflows, nothing is written */
	sb_puts(&sb, "abc");
	assert_true(sb.overflow);
	sb_printf(&sb, "x");
	assert_int_equal(sb.len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_conversions),
		cmocka_unit_test(test_long_conversions),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_star_and_pointer),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_return_without_buffer),
		cmocka_unit_test(test_milli),
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_strbuf_tiny),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
