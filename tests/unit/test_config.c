/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi/config.c, the file half: defaults, every key's accepted and rejected values at their
 * limits, number syntax and overflow, file syntax (comments, BOM, CRLF, tabs), error
 * locations and messages, duplicates, and the shipped boot/efiperf.cfg.
 * Arguments, command-line splitting, JSON and help: test_config_args.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "efi/config/config.h"

#define FNAME "efiperf.cfg"
#define SHIPPED_CFG "../boot/efiperf.cfg"  /* the run target works in tests/ */

static struct efiperf_config cfg;
static struct cfg_errors errs;

/* Parses text (a C string) over fresh defaults; returns the error count. */
static int parse(const char *text)
{
	cfg_defaults(&cfg);
	memset(&errs, 0, sizeof(errs));
	return cfg_parse_text(&cfg, text, strlen(text), FNAME, &errs);
}

static void expect_error(int i, const char *where, const char *key, const char *message)
{
	assert_true(i < errs.count && i < CFG_MAX_ERRORS);
	assert_string_equal(errs.e[i].where, where);
	assert_string_equal(errs.e[i].key, key);
	assert_string_equal(errs.e[i].message, message);
}

/* One "key = value" line must be rejected with exactly this message. */
static void expect_rejected(const char *line, const char *key, const char *message)
{
	struct efiperf_config before;
	cfg_defaults(&before);
	if (parse(line) != 1)
		fail_msg("'%s' was not rejected once (%d errors)", line, errs.count);
	expect_error(0, FNAME ":1", key, message);
	/* a rejected value changes neither the setting nor its origin */
	assert_int_equal(cfg.exit, before.exit);
	assert_int_equal(cfg.trace, before.trace);
	assert_int_equal(cfg.copy_size, before.copy_size);
	assert_int_equal(cfg.copy_passes, before.copy_passes);
	assert_int_equal(cfg.loop_iterations, before.loop_iterations);
	for (int k = 0; k < CFG_NKEYS; k++)
		assert_string_equal(cfg.origin[k], "default");
}

static void test_defaults(void **state)
{
	(void)state;
	cfg_defaults(&cfg);
	assert_int_equal(cfg.exit, CFG_EXIT_RETURN);
	assert_int_equal(cfg.trace, CFG_TRACE_NONE);
	assert_int_equal(cfg.copy_size, 64ull << 20);
	assert_int_equal(cfg.copy_passes, 3);
	assert_int_equal(cfg.loop_iterations, 10000000);
	for (int k = 0; k < CFG_NKEYS; k++)
		assert_string_equal(cfg.origin[k], "default");
	assert_int_equal(parse(""), 0);
}

static void test_enums(void **state)
{
	static const struct { const char *line; enum cfg_exit e; } exits[] = {
		{ "exit = return", CFG_EXIT_RETURN }, { "exit = shutdown", CFG_EXIT_SHUTDOWN },
		{ "exit = reboot", CFG_EXIT_REBOOT },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(exits) / sizeof(exits[0]); i++) {
		assert_int_equal(parse(exits[i].line), 0);
		assert_int_equal(cfg.exit, exits[i].e);
		assert_string_equal(cfg.origin[CFG_EXIT], FNAME ":1");
	}
	assert_int_equal(parse("trace = hw"), 0);
	assert_int_equal(cfg.trace, CFG_TRACE_HW);
	assert_int_equal(parse("trace = none"), 0);
	assert_int_equal(cfg.trace, CFG_TRACE_NONE);

	expect_rejected("exit = Shutdown", "exit", "'Shutdown' is not one of: return, shutdown, reboot");
	expect_rejected("exit = off", "exit", "'off' is not one of: return, shutdown, reboot");
	expect_rejected("exit =", "exit", "missing value (accepted: return, shutdown, reboot)");
	expect_rejected("trace = hw2", "trace", "'hw2' is not one of: none, hw");
}

static void test_copy_size_accepted(void **state)
{
	static const struct { const char *v; uint64_t bytes; } ok[] = {
		{ "65536", 65536 }, { "64K", 64 << 10 }, { "64k", 64 << 10 }, { "64KiB", 64 << 10 },
		{ "64kib", 64 << 10 }, { "64KIB", 64 << 10 }, { "64M", 64 << 20 }, { "3m", 3 << 20 },
		{ "2MiB", 2 << 20 }, { "1G", 1ull << 30 }, { "1gib", 1ull << 30 },
		{ "0x10000", 65536 }, { "0X10000", 65536 }, { "0x10K", 16 << 10 }, { "0xAbC0", 0xABC0 },
		{ "4K", 4096 }, { "4096", 4096 }, { "4160", 4160 },        /* minimum, and one block more */
		{ "16G", 16ull << 30 }, { "17179869184", 16ull << 30 },    /* maximum */
		{ "17179869120", (16ull << 30) - 64 }, { "00065536", 65536 },
	};
	char line[64];
	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(line, sizeof(line), "copy_size = %s", ok[i].v);
		if (parse(line) != 0)
			fail_msg("'%s' rejected: %s", line, errs.e[0].message);
		assert_int_equal(cfg.copy_size, ok[i].bytes);
	}
}

static void test_copy_size_rejected(void **state)
{
	(void)state;
	expect_rejected("copy_size = 12Q", "copy_size",
			"'12Q' is not a size in bytes (e.g. 65536, 64K, 64M, 1G)");
	expect_rejected("copy_size = 64 M", "copy_size",
			"'64 M' is not a size in bytes (e.g. 65536, 64K, 64M, 1G)");
	expect_rejected("copy_size = 64MB", "copy_size",
			"'64MB' is not a size in bytes (e.g. 65536, 64K, 64M, 1G)");
	expect_rejected("copy_size = 0x", "copy_size",
			"'0x' is not a size in bytes (e.g. 65536, 64K, 64M, 1G)");
	expect_rejected("copy_size = -4K", "copy_size",
			"'-4K' is not a size in bytes (e.g. 65536, 64K, 64M, 1G)");
	expect_rejected("copy_size = K", "copy_size",
			"'K' is not a size in bytes (e.g. 65536, 64K, 64M, 1G)");
	expect_rejected("copy_size = 4032", "copy_size",   /* minimum - 64 */
			"'4032' is out of range (accepted: 4K..16G, a multiple of 64)");
	expect_rejected("copy_size = 4095", "copy_size",   /* minimum - 1 */
			"'4095' is out of range (accepted: 4K..16G, a multiple of 64)");
	expect_rejected("copy_size = 0", "copy_size",
			"'0' is out of range (accepted: 4K..16G, a multiple of 64)");
	expect_rejected("copy_size = 17179869185", "copy_size",   /* maximum + 1 */
			"'17179869185' is out of range (accepted: 4K..16G, a multiple of 64)");
	expect_rejected("copy_size = 17179869248", "copy_size",   /* maximum + 64 */
			"'17179869248' is out of range (accepted: 4K..16G, a multiple of 64)");
	expect_rejected("copy_size = 17G", "copy_size",
			"'17G' is out of range (accepted: 4K..16G, a multiple of 64)");
	expect_rejected("copy_size = 4100", "copy_size", "'4100' is not a multiple of 64");
	expect_rejected("copy_size = 65537", "copy_size", "'65537' is not a multiple of 64");
	expect_rejected("copy_size = 99999999999999999999", "copy_size",
			"'99999999999999999999' is too large (accepted: 4K..16G, a multiple of 64)");
	expect_rejected("copy_size = 0x10000000000000000", "copy_size",
			"'0x10000000000000000' is too large (accepted: 4K..16G, a multiple of 64)");
	expect_rejected("copy_size = 17179869184G", "copy_size",   /* overflows only by the suffix */
			"'17179869184G' is too large (accepted: 4K..16G, a multiple of 64)");
	expect_rejected("copy_size =", "copy_size", "missing value (accepted: 4K..16G, a multiple of 64)");
}

static void test_counts(void **state)
{
	(void)state;
	assert_int_equal(parse("copy_passes = 1"), 0);
	assert_int_equal(cfg.copy_passes, 1);
	assert_int_equal(parse("copy_passes = 1000"), 0);
	assert_int_equal(cfg.copy_passes, 1000);
	assert_int_equal(parse("copy_passes = 0x3E8"), 0);
	assert_int_equal(cfg.copy_passes, 1000);
	assert_int_equal(parse("loop_iterations = 1000"), 0);
	assert_int_equal(cfg.loop_iterations, 1000);
	assert_int_equal(parse("loop_iterations = 1000000000"), 0);
	assert_int_equal(cfg.loop_iterations, 1000000000);
	assert_int_equal(parse("loop_iterations = 0x3b9aca00"), 0);
	assert_int_equal(cfg.loop_iterations, 1000000000);

	expect_rejected("copy_passes = 0", "copy_passes", "'0' is out of range (accepted: 1..1000)");
	expect_rejected("copy_passes = 1001", "copy_passes", "'1001' is out of range (accepted: 1..1000)");
	expect_rejected("copy_passes = 4294967297", "copy_passes",  /* would wrap a 32-bit field */
			"'4294967297' is out of range (accepted: 1..1000)");
	expect_rejected("copy_passes = 1K", "copy_passes",
			"'1K' is not a whole number (decimal or 0x hex; accepted: 1..1000)");
	expect_rejected("copy_passes = 3x", "copy_passes",
			"'3x' is not a whole number (decimal or 0x hex; accepted: 1..1000)");
	expect_rejected("copy_passes = -1", "copy_passes",
			"'-1' is not a whole number (decimal or 0x hex; accepted: 1..1000)");
	expect_rejected("copy_passes = 99999999999999999999", "copy_passes",
			"'99999999999999999999' is too large (accepted: 1..1000)");
	expect_rejected("loop_iterations = 999", "loop_iterations",
			"'999' is out of range (accepted: 1000..1000000000)");
	expect_rejected("loop_iterations = 1000000001", "loop_iterations",
			"'1000000001' is out of range (accepted: 1000..1000000000)");
	expect_rejected("loop_iterations = 18446744073709551615", "loop_iterations",
			"'18446744073709551615' is out of range (accepted: 1000..1000000000)");
	expect_rejected("loop_iterations = 18446744073709551616", "loop_iterations",
			"'18446744073709551616' is too large (accepted: 1000..1000000000)");
	expect_rejected("loop_iterations = 1e6", "loop_iterations",
			"'1e6' is not a whole number (decimal or 0x hex; accepted: 1000..1000000000)");
}

static void test_line_syntax_errors(void **state)
{
	(void)state;
	expect_rejected("copy_sise = 64M", "copy_sise",
			"unknown key (did you mean copy_size? --help lists every key)");
	expect_rejected("Copy_Size = 64M", "Copy_Size",
			"unknown key (did you mean copy_size? --help lists every key)");
	expect_rejected("copy_size 64M", "", "expected 'key = value'");
	expect_rejected("copy_passes # = 5", "", "expected 'key = value'");
	expect_rejected("= 5", "", "expected 'key = value' (no key before '=')");
	expect_rejected("copy size = 64M", "copy size",
			"unknown key (did you mean copy_size? --help lists every key)");
}

static void test_file_syntax(void **state)
{
	static const char text[] =
		"\xEF\xBB\xBF# efiperf test config\r\n"
		"\r\n"
		"   \t  \r\n"
		"\texit\t=\treboot\t# comment after a value\r\n"
		"   # an indented comment = with equals\n"
		"copy_size=1G#no spaces\n"
		"copy_passes   =   7   \r\n"
		"trace = hw";  /* no newline at the end */
	(void)state;
	assert_int_equal(parse(text), 0);
	assert_int_equal(cfg.exit, CFG_EXIT_REBOOT);
	assert_int_equal(cfg.copy_size, 1ull << 30);
	assert_int_equal(cfg.copy_passes, 7);
	assert_int_equal(cfg.trace, CFG_TRACE_HW);
	assert_string_equal(cfg.origin[CFG_EXIT], FNAME ":4");
	assert_string_equal(cfg.origin[CFG_COPY_SIZE], FNAME ":6");
	assert_string_equal(cfg.origin[CFG_COPY_PASSES], FNAME ":7");
	assert_string_equal(cfg.origin[CFG_TRACE], FNAME ":8");
	assert_string_equal(cfg.origin[CFG_LOOP_ITERATIONS], "default");

	/* a BOM is only a BOM at the very start */
	assert_int_equal(parse("exit = reboot\n\xEF\xBB\xBFtrace = hw\n"), 1);
	assert_string_equal(errs.e[0].where, FNAME ":2");

	/* only len bytes are read: no NUL terminator needed */
	cfg_defaults(&cfg);
	memset(&errs, 0, sizeof(errs));
	assert_int_equal(cfg_parse_text(&cfg, "copy_passes = 12345", 16, FNAME, &errs), 0);
	assert_int_equal(cfg.copy_passes, 12);

	/* no error list: still counted */
	cfg_defaults(&cfg);
	assert_int_equal(cfg_parse_text(&cfg, "x\ny\n", 4, FNAME, NULL), 2);
}

static void test_error_locations(void **state)
{
	(void)state;
	assert_int_equal(parse("exit = shutdown\n"
			       "copy_passes = 0\n"
			       "\n"
			       "# fine\n"
			       "bogus = 1\n"
			       "loop_iterations = 5000\n"
			       "no equals here\n"), 3);
	expect_error(0, FNAME ":2", "copy_passes", "'0' is out of range (accepted: 1..1000)");
	expect_error(1, FNAME ":5", "bogus", "unknown key (--help lists every key)");
	expect_error(2, FNAME ":7", "", "expected 'key = value'");
	/* the good lines still applied, with their origins */
	assert_int_equal(cfg.exit, CFG_EXIT_SHUTDOWN);
	assert_int_equal(cfg.loop_iterations, 5000);
	assert_string_equal(cfg.origin[CFG_LOOP_ITERATIONS], FNAME ":6");
	assert_string_equal(cfg.origin[CFG_COPY_PASSES], "default");
}

static void test_duplicate_key(void **state)
{
	(void)state;
	assert_int_equal(parse("copy_passes = 2\n\ncopy_passes = 3\nexit = reboot\nexit = reboot\n"), 2);
	expect_error(0, FNAME ":3", "copy_passes", "duplicate key (first set at line 1)");
	expect_error(1, FNAME ":5", "exit", "duplicate key (first set at line 4)");
	assert_int_equal(cfg.copy_passes, 2);
	assert_string_equal(cfg.origin[CFG_COPY_PASSES], FNAME ":1");
	/* a key set once with a bad value is still set: a second line is a duplicate */
	assert_int_equal(parse("copy_passes = 0\ncopy_passes = 4\n"), 2);
	expect_error(1, FNAME ":2", "copy_passes", "duplicate key (first set at line 1)");
	/* a second file is a new source: no duplicate across calls */
	assert_int_equal(parse("copy_passes = 2\n"), 0);
	assert_int_equal(cfg_parse_text(&cfg, "copy_passes = 5\n", 16, "other.cfg", &errs), 0);
	assert_int_equal(cfg.copy_passes, 5);
	assert_string_equal(cfg.origin[CFG_COPY_PASSES], "other.cfg:1");
}

static void test_error_overflow_and_truncation(void **state)
{
	char text[512] = "";
	(void)state;
	for (int i = 0; i < CFG_MAX_ERRORS + 3; i++)
		strcat(text, "nokey\n");
	assert_int_equal(parse(text), CFG_MAX_ERRORS + 3);
	assert_int_equal(errs.count, CFG_MAX_ERRORS + 3);
	expect_error(CFG_MAX_ERRORS - 1, FNAME ":8", "", "expected 'key = value'");
	/* counts keep adding up over later sources */
	assert_int_equal(cfg_parse_text(&cfg, "x\n", 2, FNAME, &errs), 1);
	assert_int_equal(errs.count, CFG_MAX_ERRORS + 4);

	/* long key, long value, long file name: cut, terminated, value shown with "..." */
	const char *longname = "\\efiperf\\a-very-long-directory-name-for-testing\\efiperf-settings.cfg";
	const char *line = "a_key_name_much_longer_than_the_thirty_one_characters_kept = 1\n"
			   "copy_size = 1234567890123456789012345678901234567890123456789Q\n";
	memset(&errs, 0, sizeof(errs));
	cfg_defaults(&cfg);
	assert_int_equal(cfg_parse_text(&cfg, line, strlen(line), longname, &errs), 2);
	assert_int_equal(strlen(errs.e[0].where), sizeof(errs.e[0].where) - 1);
	assert_memory_equal(errs.e[0].where, longname, sizeof(errs.e[0].where) - 1);
	assert_string_equal(errs.e[0].key, "a_key_name_much_longer_than_the");
	assert_string_equal(errs.e[1].message, "'1234567890123456789012345678901234567...' is not a size "
			    "in bytes (e.g. 65536, 64K, 64M, 1G)");
}

/* cpus and dma_write_lba: text settings whose shape is checked when the file is read
 * (efi/cpuset.h, efi/blockio_target.h), so a typo is named with its file line and key. */
static void test_checked_text(void **state)
{
	(void)state;
	cfg_defaults(&cfg);
	assert_string_equal(cfg.cpus, "boot");
	assert_string_equal(cfg.dma_write_lba, "none");

	assert_int_equal(parse("cpus = 0,2, socket1  # two CPUs and a socket\n"), 0);
	assert_string_equal(cfg.cpus, "0,2, socket1");          /* as written, trimmed */
	assert_string_equal(cfg.origin[CFG_CPUS], FNAME ":1");
	assert_int_equal(parse("cpus =\tall\t\n"), 0);
	assert_string_equal(cfg.cpus, "all");
	assert_int_equal(parse("cpus = 4096"), 0);              /* checked against the machine later */
	assert_string_equal(cfg.cpus, "4096");
	assert_int_equal(parse("dma_write_lba = 0000:00:07.0 2048-4095\n"), 0);
	assert_string_equal(cfg.dma_write_lba, "0000:00:07.0 2048-4095");
	assert_string_equal(cfg.origin[CFG_DMA_WRITE_LBA], FNAME ":1");
	assert_int_equal(parse("dma_write_lba =   00:07.0  0x800-0xFFF   \n"), 0);
	assert_string_equal(cfg.dma_write_lba, "00:07.0  0x800-0xFFF");

	expect_rejected("cpus = 1-", "cpus", "'1-' is not a CPU number, a range N-M or socketN (numbers 0..65535)");
	assert_string_equal(cfg.cpus, "boot");
	expect_rejected("cpus = 0,,1", "cpus", "empty item at character 3 (items are separated by single commas)");
	expect_rejected("cpus = 7-4", "cpus", "range '7-4' runs backwards (write 4-7)");
	expect_rejected("cpus =", "cpus", "no CPUs given (accepted: boot, all, or a list like 0,2,5 4-7 socket1)");
	expect_rejected("dma_write_lba = 00:07.0", "dma_write_lba",
			"expected none, or 'BDF[/nsN|/portN] FIRST-LAST' such as '0000:00:07.0 2048-4095'");
	assert_string_equal(cfg.dma_write_lba, "none");
	expect_rejected("dma_write_lba = 00:07.0 9-8", "dma_write_lba", "block range runs backwards (9-8)");

	/* the line of the bad value is named, and the other lines still apply */
	assert_int_equal(parse("exit = reboot\n"
			       "# which CPUs\n"
			       "cpus = 1-\n"
			       "dma_write_lba = 00:07.0\n"
			       "dma_blockio = 00:07.0\n"), 2);
	expect_error(0, FNAME ":3", "cpus", "'1-' is not a CPU number, a range N-M or socketN (numbers 0..65535)");
	expect_error(1, FNAME ":4", "dma_write_lba", "expected none, or 'BDF[/nsN|/portN] FIRST-LAST' such as '0000:00:07.0 2048-4095'");
	assert_string_equal(cfg.cpus, "boot");
	assert_string_equal(cfg.origin[CFG_CPUS], "default");
	assert_string_equal(cfg.dma_write_lba, "none");
	assert_int_equal(cfg.exit, CFG_EXIT_REBOOT);
	assert_true(cfg.dma_blockio == CFG_BDF(0, 0, 7, 0));
}

static void test_shipped_config(void **state)
{
	char text[4096];
	(void)state;
	FILE *f = fopen(SHIPPED_CFG, "rb");
	assert_non_null(f);
	size_t n = fread(text, 1, sizeof(text), f);
	fclose(f);
	assert_true(n > 0 && n < sizeof(text));
	cfg_defaults(&cfg);
	memset(&errs, 0, sizeof(errs));
	int nerr = cfg_parse_text(&cfg, text, n, "\\efiperf\\efiperf.cfg", &errs);
	if (nerr)
		fail_msg("%s: %s: %s", errs.e[0].where, errs.e[0].key, errs.e[0].message);
	assert_int_equal(cfg.exit, CFG_EXIT_SHUTDOWN);  /* test images power the machine off */
	/* the main job: every CPU, STREAM, the latency curve, every NVMe controller read with
	 * efiperf's own queues, the CHA counters where the CPU has them; no checks */
	assert_string_equal(cfg.cpus, "all");
	assert_int_equal(cfg.stream, 1);
	assert_int_equal(cfg.latency, 1);
	assert_string_equal(cfg.nvme, "all");
	assert_int_equal(cfg.cha, CFG_CHA_AUTO);
	assert_int_equal(cfg.nchecks, 0);
}

/* loaded_delays: a list of spin counts, 0..100000, at most 8, none twice. */
static void test_loaded_delays(void **state)
{
	(void)state;
	uint32_t d[LOADED_DELAYS_MAX];
	char msg[160];
	const char ok[] = " 0, 100 ,100000";
	assert_int_equal(cfg_loaded_delays(ok, strlen(ok), d, msg, sizeof(msg)), 3);
	assert_int_equal(d[0], 0);
	assert_int_equal(d[1], 100);
	assert_int_equal(d[2], 100000);
	assert_int_equal(cfg_loaded_delays("0,100001", 8, d, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "value 2"));
	assert_int_equal(cfg_loaded_delays("5,x", 3, d, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "value 2"));
	assert_int_equal(cfg_loaded_delays("7,7", 3, d, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "listed twice"));
	assert_int_equal(cfg_loaded_delays("1,2,3,4,5,6,7,8,9", 17, d, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "more than 8"));
	/* as a config line: the error names the line and the key */
	struct efiperf_config c;
	struct cfg_errors errs = { 0 };
	cfg_defaults(&c);
	const char text[] = "loaded_delays = 10,abc\n";
	assert_int_equal(cfg_parse_text(&c, text, strlen(text), "efiperf.cfg", &errs), 1);
	assert_string_equal(errs.e[0].where, "efiperf.cfg:1");
	assert_string_equal(errs.e[0].key, "loaded_delays");
	assert_string_equal(c.loaded_delays, "0,100,1000,10000");   /* default kept */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_enums),
		cmocka_unit_test(test_copy_size_accepted),
		cmocka_unit_test(test_copy_size_rejected),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_line_syntax_errors),
		cmocka_unit_test(test_file_syntax),
		cmocka_unit_test(test_error_locations),
		cmocka_unit_test(test_duplicate_key),
		cmocka_unit_test(test_error_overflow_and_truncation),
		cmocka_unit_test(test_checked_text),
		cmocka_unit_test(test_shipped_config),
		cmocka_unit_test(test_loaded_delays),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
