/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi/config/config.c at its edges: a config file that is not text (UTF-16 with and without a
 * byte order mark, binary), a NUL byte inside a line, bytes that are not UTF-8 in a key (they
 * reach the error record escaped), and the command line's limits (cfg_cmdline_args): too many
 * arguments, a line longer than the buffer, a last argument cut by it. The byte strings are
 * written out by hand: a Notepad "Unicode" file is UTF-16LE with FF FE (Unicode 15 section
 * 23.8), and the byte order marks are those two bytes either way round.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "efi/config/config.h"
#include "efi/out/jsonl.h"
#include "tests/unit/json_check.h"

#define FNAME "\\efiperf\\efiperf.cfg"

static struct efiperf_config cfg;
static struct cfg_errors errs;

static int parse(const char *text, size_t len)
{
	cfg_defaults(&cfg);
	memset(&errs, 0, sizeof(errs));
	return cfg_parse_text(&cfg, text, len, FNAME, &errs);
}

static void expect(int i, const char *where, const char *key, const char *message)
{
	assert_true(i < errs.count);
	assert_string_equal(errs.e[i].where, where);
	assert_string_equal(errs.e[i].key, key);
	assert_string_equal(errs.e[i].message, message);
}

static void test_utf16_with_bom(void **state)
{
	/* "copy_passes = 5\n" as UTF-16LE and UTF-16BE, each after its byte order mark */
	static const char le[] = "\xff\xfe" "c\0o\0p\0y\0_\0p\0a\0s\0s\0e\0s\0 \0=\0 \0" "5\0\n\0";
	static const char be[] = "\xfe\xff" "\0c\0o\0p\0y\0_\0p\0a\0s\0s\0e\0s\0 \0=\0 \0" "5\0\n";
	(void)state;
	assert_int_equal(parse(le, sizeof(le) - 1), 1);
	expect(0, FNAME, "", "config file is UTF-16 (little-endian, byte order mark FF FE); save it as UTF-8 or ASCII: "
	       "nothing in it was applied");
	assert_int_equal(cfg.copy_passes, 3);   /* the default: nothing applied */
	assert_int_equal(parse(be, sizeof(be) - 1), 1);
	expect(0, FNAME, "", "config file is UTF-16 (big-endian, byte order mark FE FF); save it as UTF-8 or ASCII: "
	       "nothing in it was applied");
	/* the mark alone, and one code unit */
	assert_int_equal(parse("\xff\xfe", 2), 1);
	assert_int_equal(errs.count, 1);
}

static void test_utf16_without_bom(void **state)
{
	static const char le[] = "e\0x\0i\0t\0 \0=\0 \0r\0e\0t\0u\0r\0n\0\r\0\n\0";
	static const char be[] = "\0e\0x\0i\0t\0=\0r\0e\0b\0o\0o\0t\0\n";
	(void)state;
	assert_int_equal(parse(le, sizeof(le) - 1), 1);
	expect(0, FNAME, "", "config file is UTF-16 (little-endian, no byte order mark: a NUL in every other byte); "
	       "save it as UTF-8 or ASCII: nothing in it was applied");
	assert_int_equal(parse(be, sizeof(be) - 1), 1);
	expect(0, FNAME, "", "config file is UTF-16 (big-endian, no byte order mark: a NUL in every other byte); "
	       "save it as UTF-8 or ASCII: nothing in it was applied");
	assert_string_equal(cfg.origin[CFG_EXIT], "default");
}

static void test_binary(void **state)
{
	/* the first bytes of an ELF file, then a PE image's DOS header */
	static const char elf[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0\x3e\0\x01\0\0\0\x10\x10\0\0\0\0\0\0";
	static const char pe[] = "MZ\x90\0\x03\0\0\0\x04\0\0\0\xff\xff\0\0\xb8\0\0\0\0\0\0\0\x40\0\0\0\0\0\0\0";
	(void)state;
	assert_int_equal(parse(elf, sizeof(elf) - 1), 1);
	expect(0, FNAME, "", "config file is binary data, not text (control bytes among its first bytes); save it as "
	       "UTF-8 or ASCII: nothing in it was applied");
	assert_int_equal(parse(pe, sizeof(pe) - 1), 1);
	assert_string_equal(errs.e[0].message, "config file is binary data, not text (control bytes among its first "
			    "bytes); save it as UTF-8 or ASCII: nothing in it was applied");
	/* a file of text with one odd control byte is text: its line says what is wrong */
	static const char one[] = "copy_passes = 5\nexit = shut\x01" "down\n";
	assert_int_equal(parse(one, sizeof(one) - 1), 1);
	assert_string_equal(errs.e[0].where, FNAME ":2");
	assert_int_equal(cfg.copy_passes, 5);
}

static void test_nul_in_value(void **state)
{
	static const char text[] = "copy_passes = 5\n# comment\ncopy_size = 64\0M\nexit = return\n";
	(void)state;
	assert_int_equal(parse(text, sizeof(text) - 1), 1);
	expect(0, FNAME ":3", "", "a NUL byte (0x00) at line 3, column 15: the line is not text; nothing on it was applied");
	assert_int_equal(cfg.copy_passes, 5);
	assert_int_equal(cfg.exit, CFG_EXIT_RETURN);   /* the lines around it still read */
	assert_string_equal(cfg.origin[CFG_COPY_SIZE], "default");
	/* at the very start of a line */
	static const char first[] = "\0copy_passes = 5\n";
	assert_int_equal(parse(first, sizeof(first) - 1), 1);
	expect(0, FNAME ":1", "", "a NUL byte (0x00) at line 1, column 1: the line is not text; nothing on it was applied");
}

/* A Latin-1 key is an unknown key; its bytes reach the error record as \xNN, valid UTF-8. */
static void test_latin1_key_in_record(void **state)
{
	static const char text[] = "caf\xe9 = 1\n";
	char buf[512];
	struct strbuf sb;
	struct json j;
	(void)state;
	assert_int_equal(parse(text, sizeof(text) - 1), 1);
	assert_string_equal(errs.e[0].key, "caf\xe9");
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	json_str(&j, "key", errs.e[0].key);
	json_end(&j);
	assert_string_equal(buf, "{\"key\":\"caf\\\\xe9\"}");
	assert_true(json_check_object(buf, sb.len));
}

static void test_cmdline_fits(void **state)
{
	char line[] = "fs0:\\efiperf.efi copy_passes=7 exit=return";
	char *argv[4];
	(void)state;
	cfg_defaults(&cfg);
	memset(&errs, 0, sizeof(errs));
	int argc = cfg_cmdline_args(line, strlen(line), argv, 4, 1, &errs);
	assert_int_equal(argc, 2);
	assert_int_equal(errs.count, 0);
	assert_string_equal(argv[0], "copy_passes=7");
	assert_string_equal(argv[1], "exit=return");
	/* exactly max arguments: no error */
	char four[] = "prog.EFI a=1 b=2 c=3";
	assert_int_equal(cfg_cmdline_args(four, strlen(four), argv, 4, 1, &errs), 3);
	assert_int_equal(errs.count, 0);
	/* no program name (a boot option's data): nothing skipped */
	char bare[] = "a=1 b=2";
	assert_int_equal(cfg_cmdline_args(bare, strlen(bare), argv, 4, 1, &errs), 2);
	assert_string_equal(argv[0], "a=1");
}

static void test_cmdline_too_many(void **state)
{
	char line[] = "prog.efi a=1 b=2 c=3 d=4   e=5 \"f = 6\"";
	char *argv[4];
	(void)state;
	memset(&errs, 0, sizeof(errs));
	int argc = cfg_cmdline_args(line, strlen(line), argv, 4, 1, &errs);
	assert_int_equal(argc, 3);
	assert_string_equal(argv[2], "c=3");
	expect(0, "command line", "", "more than 3 arguments: 3 dropped, none of them applied: 'd=4   e=5 \"f = 6\"'");
}

/* The reported case: the buffer ends inside the last argument, ">=0.24" read as ">=0.2". */
static void test_cmdline_cut_last(void **state)
{
	const char *given = "prog.efi exit=return \"check=memory.gbps >=0.24\"";
	char line[40];
	char *argv[8];
	(void)state;
	memcpy(line, given, sizeof(line) - 1);   /* as the firmware side copies: cut, terminated */
	line[sizeof(line) - 1] = '\0';
	assert_string_equal(line, "prog.efi exit=return \"check=memory.gbps");
	memset(&errs, 0, sizeof(errs));
	int argc = cfg_cmdline_args(line, strlen(given), argv, 8, 1, &errs);
	assert_int_equal(argc, 1);
	assert_string_equal(argv[0], "exit=return");
	expect(0, "command line", "", "47 characters, over the limit of 39: argument 2 'check=memory.gbps' was cut there "
	       "and is dropped, not applied, with the 8 characters after it");
	/* cut exactly at a blank: every argument kept is whole */
	char at_blank[] = "prog.efi exit=return ";
	memset(&errs, 0, sizeof(errs));
	assert_int_equal(cfg_cmdline_args(at_blank, 30, argv, 8, 1, &errs), 1);
	assert_string_equal(argv[0], "exit=return");
	expect(0, "command line", "", "30 characters, over the limit of 21: the 9 characters after it are dropped, not applied");
	/* the only argument, the program's path, cut: dropped, nothing skipped after it (the fuzzer's
	 * find: argc once went to -1) */
	char path_only[] = "fs0:\\efiperf\\efiperf.efi";
	memset(&errs, 0, sizeof(errs));
	assert_int_equal(cfg_cmdline_args(path_only, 40, argv, 8, 1, &errs), 0);
	expect(0, "command line", "", "40 characters, over the limit of 24: argument 1 'fs0:\\efiperf\\efiperf.efi' was "
	       "cut there and is dropped, not applied, with the 16 characters after it");
	/* cut and too many at once: the count error names the rest */
	char both[] = "p.efi a=1 b=2 c=3";
	memset(&errs, 0, sizeof(errs));
	assert_int_equal(cfg_cmdline_args(both, 100, argv, 2, 1, &errs), 1);
	expect(0, "command line", "", "more than 1 arguments: 2 or more dropped, none of them applied: 'b=2 c=3'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf16_with_bom),
		cmocka_unit_test(test_utf16_without_bom),
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_nul_in_value),
		cmocka_unit_test(test_latin1_key_in_record),
		cmocka_unit_test(test_cmdline_fits),
		cmocka_unit_test(test_cmdline_too_many),
		cmocka_unit_test(test_cmdline_cut_last),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
