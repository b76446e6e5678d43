/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * README.md against efi/config, read from the README itself so that neither can drift:
 *  - the Configuration table lists every key of the code once and no other; a row's default,
 *    parsed, gives the code's default settings ("none": a check key, no check; "empty": empty
 *    text); every value the row shows in backticks parses (for `check`, the examples of its what
 *    column too), except the placeholders named below;
 *    an enum row lists exactly the key's choices; the range (A..B) and multiple it states are
 *    the ones --help states, compared as numbers (0x10 = 16, 4K = 4096);
 *  - every `key = value` (or `key=value`) setting written anywhere in the README parses;
 *  - the shell-argument example (`fs0:\EFI\BOOT\BOOTX64.EFI key=value ...`) parses as arguments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arch/kernel.h"
#include "efi/config/config.h"
#include "tests/unit/cfg_json.h"

#define TABLE_HEAD "\n| key | values | default | what |\n"
#define SHELL_EXAMPLE "`fs0:\\EFI\\BOOT\\BOOTX64.EFI "
#define VAL_MAX 512
#define JSON_MAX 8192
#define HELP_MAX 16384
#define MAX_RANGES 8
#define MIN_INLINE_SETTINGS 40   /* the README holds 54 today: fewer means the scan broke */

/* Backticked words of a values cell that are metavariables, not values. */
static const char *const placeholders[] = {
	"K", "M", "G", "0x", "SSSS:BB:DD.F", "BB:DD.F", "BDF FIRST-LAST", "BDF/ns1 FIRST-LAST", "dma_write_lba",
	"PATH OP VALUE", "BDF GT/s xW", "[>=\\|<=\\|==\\|!=] 0xREV",
};

static char *readme;

static int setup(void **state)
{
	static const char *const paths[] = { "../README.md", "README.md" };  /* make -C tests; the top */
	(void)state;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]) && !readme; i++) {
		FILE *f = fopen(paths[i], "rb");
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		long n = ftell(f);
		fseek(f, 0, SEEK_SET);
		readme = calloc(1, (size_t)n + 1);
		if (readme && fread(readme, 1, (size_t)n, f) != (size_t)n) {
			free(readme);
			readme = NULL;
		}
		fclose(f);
	}
	return readme ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(readme);
	return 0;
}

static int key_id(const char *name, size_t n)
{
	for (int i = 0; i < CFG_NKEYS; i++)
		if (strlen(cfg_key_name(i)) == n && !memcmp(cfg_key_name(i), name, n))
			return i;
	return -1;
}

/* The settings as JSON without their origins. */
static void settings_json(const struct efiperf_config *c, char *buf, size_t n)
{
	assert_true(cfg_json_record(c, buf, n));
	char *o = strstr(buf, ",\"origin\":");
	assert_non_null(o);
	*o = 0;
}

/* Parses "key = value" over fresh defaults into *c; the error count, the first in errs. */
static int parse_setting(struct efiperf_config *c, const char *key, const char *v, size_t vn, struct cfg_errors *errs)
{
	char line[VAL_MAX + 64];
	int n = snprintf(line, sizeof(line), "%s = %.*s\n", key, (int)vn, v);
	assert_true(n > 0 && (size_t)n < sizeof(line));
	cfg_defaults(c);
	memset(errs, 0, sizeof(*errs));
	return cfg_parse_text(c, line, (size_t)n, "README.md", errs);
}

static void expect_parses(const char *key, const char *v, size_t vn, const char *what)
{
	struct efiperf_config c;
	struct cfg_errors errs;
	if (parse_setting(&c, key, v, vn, &errs) != 0)
		fail_msg("README %s `%s = %.*s` does not parse: %s", what, key, (int)vn, v, errs.e[0].message);
}

/* A number as the README and --help write it: decimal or 0x hex, an optional K/M/G (binary). */
static int number(const char *s, size_t n, uint64_t *out)
{
	char buf[32];
	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	char *end;
	unsigned long long v = strtoull(buf, &end, 0);
	if (end == buf)
		return -1;
	if (*end == 'K' || *end == 'M' || *end == 'G') {
		v <<= *end == 'K' ? 10 : *end == 'M' ? 20 : 30;
		end++;
	}
	*out = v;
	return *end ? -1 : 0;
}

static int is_num_char(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F') || ch == 'x' ||
	       ch == 'K' || ch == 'M' || ch == 'G';
}

/* Every "A..B" in s[0..n) whose ends are numbers, into lo[]/hi[]; returns how many. */
static int ranges(const char *s, size_t n, uint64_t lo[MAX_RANGES], uint64_t hi[MAX_RANGES])
{
	int count = 0;
	for (size_t i = 1; i + 2 < n && count < MAX_RANGES; i++) {
		if (s[i] != '.' || s[i + 1] != '.')
			continue;
		size_t a = i, b = i + 2;
		while (a > 0 && is_num_char(s[a - 1]))
			a--;
		while (b < n && is_num_char(s[b]))
			b++;
		if (number(s + a, i - a, &lo[count]) == 0 && number(s + i + 2, b - i - 2, &hi[count]) == 0)
			count++;
	}
	return count;
}

/* The number after word ("multiple of ") in s[0..n), or -1 when there is none. */
static int multiple(const char *s, size_t n, const char *word, uint64_t *out)
{
	size_t wn = strlen(word);
	for (size_t i = 0; i + wn < n; i++)
		if (!memcmp(s + i, word, wn)) {
			size_t a = i + wn, b = a;
			while (b < n && is_num_char(s[b]))
				b++;
			return number(s + a, b - a, out);
		}
	return -1;
}

/* The --help line of key k (without its newline) in help, which starts with a newline. */
static const char *help_line(const char *help, int k, size_t *n)
{
	char head[48];
	snprintf(head, sizeof(head), "\n  %s ", cfg_key_name(k));
	const char *p = strstr(help, head);
	assert_non_null(p);
	p++;
	const char *e = strchr(p, '\n');
	*n = e ? (size_t)(e - p) : strlen(p);
	return p;
}

static int is_placeholder(const char *t, size_t n)
{
	for (size_t i = 0; i < sizeof(placeholders) / sizeof(placeholders[0]); i++)
		if (strlen(placeholders[i]) == n && !memcmp(placeholders[i], t, n))
			return 1;
	return 0;
}

/* An ISA name of efiperf's other architecture (`kernel = neon` on an x86_64 host). */
static int other_arch_isa(int k, const char *t, size_t n)
{
	char name[16];
	if (k != CFG_KERNEL || n >= sizeof(name))
		return 0;
	memcpy(name, t, n);
	name[n] = 0;
	if (!kernel_isa_bit(name))
		return 0;
	for (uint32_t i = 0; i < arch_nkernels; i++)
		if (arch_kernels[i].isa == kernel_isa_bit(name))
			return 0;
	return 1;
}

/* Every backticked value in cell[0..n) but the placeholders parses as a value of key k; returns
 * how many did. */
static int parse_values(int k, const char *cell, size_t n)
{
	int parsed = 0;
	for (const char *p = cell, *end = cell + n; p < end; p++) {
		if (*p != '`')
			continue;
		const char *t = p + 1, *e = memchr(t, '`', (size_t)(end - t));
		assert_non_null(e);
		p = e;
		size_t tn = (size_t)(e - t);
		if (is_placeholder(t, tn) || other_arch_isa(k, t, tn))
			continue;
		expect_parses(cfg_key_name(k), t, tn, "value");
		parsed++;
	}
	return parsed;
}

/* The enum choices of key k, from the error a bad value gets ("... is not one of: a, b"). */
static int enum_choices(int k, char *out, size_t n)
{
	struct efiperf_config c;
	struct cfg_errors errs;
	if (parse_setting(&c, cfg_key_name(k), "?", 1, &errs) != 1)
		return 0;
	const char *p = strstr(errs.e[0].message, " is not one of: ");
	if (!p)
		return 0;
	snprintf(out, n, "%s", p + strlen(" is not one of: "));
	return 1;
}

/* One row of the table: cells[0..3] = key, values, default, what. */
static void check_row(const char *const cell[4], const size_t len[4], const char *help)
{
	const char *key = cell[0] + 1;
	size_t kn = len[0] - 2;
	int k = key_id(key, kn);
	if (cell[0][0] != '`' || k < 0)
		fail_msg("README config table: %.*s is no config key", (int)len[0], cell[0]);
	const char *name = cfg_key_name(k);

	/* the default */
	struct efiperf_config def, c;
	struct cfg_errors errs;
	char dj[JSON_MAX], cj[JSON_MAX];
	cfg_defaults(&def);
	settings_json(&def, dj, sizeof(dj));
	if (len[2] == 4 && !memcmp(cell[2], "none", 4)) {
		char want[64];
		snprintf(want, sizeof(want), "\"%s\":[]", name);
		if (!strstr(dj, want))
			fail_msg("README: %s's default is none, but the key is no check key unset by default", name);
	} else {
		const char *v = "";
		size_t vn = 0;
		if (len[2] >= 2 && cell[2][0] == '`' && cell[2][len[2] - 1] == '`')
			v = cell[2] + 1, vn = len[2] - 2;
		else if (!(len[2] == 5 && !memcmp(cell[2], "empty", 5)))
			fail_msg("README: %s's default '%.*s' is none of `VALUE`, empty, none", name, (int)len[2], cell[2]);
		if (parse_setting(&c, name, v, vn, &errs) != 0)
			fail_msg("README: %s's default `%.*s` does not parse: %s", name, (int)vn, v, errs.e[0].message);
		settings_json(&c, cj, sizeof(cj));
		if (strcmp(cj, dj) != 0)
			fail_msg("README: %s's default `%.*s` is not the code's default", name, (int)vn, v);
	}

	/* the values: each parses; an enum lists exactly its choices */
	char choices[256];
	int is_enum = enum_choices(k, choices, sizeof(choices)), listed, nchoices = 1;
	for (const char *q = choices; is_enum && *q; q++)
		nchoices += *q == ',';
	listed = parse_values(k, cell[1], len[1]);
	if (k == CFG_CHECK)   /* its examples stand in the what column */
		assert_true(parse_values(k, cell[3], len[3]) >= 1);
	if (is_enum && listed != nchoices)
		fail_msg("README: %s lists %d values, the code has %d: %s", name, listed, nchoices, choices);

	/* the range and multiple --help states are the README's */
	size_t hn;
	const char *h = help_line(help, k, &hn);
	uint64_t hlo[MAX_RANGES], hhi[MAX_RANGES], rlo[MAX_RANGES], rhi[MAX_RANGES], hm, rm;
	int nh = ranges(h, hn, hlo, hhi), nr = ranges(cell[1], len[1], rlo, rhi), found = 0;
	if ((nh > 0) != (nr > 0))
		fail_msg("README: %s: --help states %d ranges, the README's values %d (%.*s)", name, nh, nr, (int)hn, h);
	for (int i = 0; i < nr && nh; i++)
		found |= rlo[i] == hlo[nh - 1] && rhi[i] == hhi[nh - 1];
	if (nh && !found)
		fail_msg("README: %s: the values '%.*s' lack --help's range %llu..%llu", name, (int)len[1], cell[1],
			 (unsigned long long)hlo[nh - 1], (unsigned long long)hhi[nh - 1]);
	/* --help's accepted values say ", a multiple of N" (its prose may say more, e.g. ibs_period) */
	if (multiple(h, hn, ", a multiple of ", &hm) == 0 && (multiple(cell[1], len[1], "multiple of ", &rm) != 0 || rm != hm))
		fail_msg("README: %s: --help says a multiple of %llu, the README's values '%.*s'", name,
			 (unsigned long long)hm, (int)len[1], cell[1]);
}

static void test_key_table(void **state)
{
	static char help[HELP_MAX];
	struct strbuf sb;
	int rows[CFG_NKEYS] = { 0 }, nrows = 0;
	(void)state;
	sb_init(&sb, help, sizeof(help));
	sb_puts(&sb, "\n");   /* every key's line then starts after a newline */
	cfg_help(&sb);
	assert_false(sb.overflow);

	const char *p = strstr(readme, TABLE_HEAD);
	assert_non_null(p);
	p = strchr(p + strlen(TABLE_HEAD), '\n') + 1;   /* past |---|---| */
	while (p[0] == '|' && p[1] == ' ') {
		const char *eol = strchr(p, '\n');
		const char *cell[4];
		size_t len[4];
		int n = 0;
		const char *c = p + 1;
		for (const char *q = c; q < eol && n < 4; q++) {
			if (*q != '|' || q[-1] == '\\')
				continue;
			const char *a = c, *b = q;
			while (a < b && *a == ' ')
				a++;
			while (b > a && b[-1] == ' ')
				b--;
			cell[n] = a, len[n] = (size_t)(b - a), n++;
			c = q + 1;
		}
		assert_int_equal(n, 4);
		check_row(cell, len, help);
		int k = key_id(cell[0] + 1, len[0] - 2);
		if (rows[k]++)
			fail_msg("README config table: %s listed twice", cfg_key_name(k));
		nrows++;
		p = eol + 1;
	}
	for (int k = 0; k < CFG_NKEYS; k++)
		if (!rows[k])
			fail_msg("README config table lacks the key %s", cfg_key_name(k));
	assert_int_equal(nrows, CFG_NKEYS);
}

/* Every `key = value` outside code blocks: the pairs of backticks on each line. */
static void test_inline_settings(void **state)
{
	int fence = 0, settings = 0;
	(void)state;
	for (const char *line = readme; *line;) {
		const char *eol = strchr(line, '\n');
		if (!eol)
			eol = line + strlen(line);
		if (!strncmp(line, "```", 3))
			fence = !fence;
		for (const char *p = line; !fence && p < eol; p++) {
			const char *t = memchr(p, '`', (size_t)(eol - p)), *e;
			if (!t || !(e = memchr(t + 1, '`', (size_t)(eol - t - 1))))
				break;
			p = e;
			const char *k = ++t, *eq;
			while (t < e && ((*t >= 'a' && *t <= 'z') || (*t >= '0' && *t <= '9') || *t == '_'))
				t++;
			size_t kn = (size_t)(t - k);
			eq = t + (*t == ' ');
			if (*eq != '=' || key_id(k, kn) < 0 || memchr(k, '|', (size_t)(e - k)) || memchr(k, '<', (size_t)(e - k)))
				continue;
			const char *v = eq + 1 + (eq[1] == ' ');
			char name[32];
			snprintf(name, sizeof(name), "%.*s", (int)kn, k);
			expect_parses(name, v, (size_t)(e - v), "setting");
			settings++;
		}
		line = *eol ? eol + 1 : eol;
	}
	assert_true(settings >= MIN_INLINE_SETTINGS);
}

static void test_shell_arguments(void **state)
{
	char line[VAL_MAX], *argv[16];
	struct efiperf_config c;
	struct cfg_errors errs = { 0 };
	int help = 0;
	(void)state;
	const char *p = strstr(readme, SHELL_EXAMPLE);
	assert_non_null(p);
	p += strlen(SHELL_EXAMPLE);
	const char *e = strchr(p, '`');
	assert_non_null(e);
	assert_true((size_t)(e - p) < sizeof(line));
	memcpy(line, p, (size_t)(e - p));
	line[e - p] = 0;
	int argc = cfg_split_cmdline(line, argv, 16);
	assert_true(argc >= 1);
	cfg_defaults(&c);
	if (cfg_parse_args(&c, argc, argv, &help, &errs) != 0)
		fail_msg("README shell arguments: %s: %s", errs.e[0].where, errs.e[0].message);
	assert_false(help);
	for (int i = 0; i < argc; i++) {
		char where[24];
		int k = key_id(argv[i], (size_t)(strchr(argv[i], '=') - argv[i]));
		assert_true(k >= 0);
		snprintf(where, sizeof(where), "argument %d", i + 1);
		assert_string_equal(c.origin[k], where);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_table),
		cmocka_unit_test(test_inline_settings),
		cmocka_unit_test(test_shell_arguments),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
