/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The checks and the verdict (efi/verdict): parsing check lines and the ready-made expect_*
 * keys through the config parser, the JSON member lookup, values compared at their edges, and
 * the verdict over records written as literal JSONL lines (shaped like the log's stream, pcie,
 * platform and smbios records): PASS, FAIL with the value and why, missing values, [*] checks,
 * ERROR, the verdict record parsed back and the result line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "efi/config/config.h"
#include "efi/verdict/check.h"
#include "efi/verdict/jsonget.h"
#include "efi/verdict/verdict.h"
#include "tests/unit/cfg_json.h"

static struct efiperf_config cfg;
static struct cfg_errors errs;

static int parse(const char *text)
{
	cfg_defaults(&cfg);
	memset(&errs, 0, sizeof(errs));
	return cfg_parse_text(&cfg, text, strlen(text), "t.cfg", &errs);
}

static void parse_ok(const char *text)
{
	if (parse(text) != 0)
		fail_msg("'%s' rejected: %s: %s: %s", text, errs.e[0].where, errs.e[0].key, errs.e[0].message);
}

static void rejected(const char *text, const char *key, const char *msg_part)
{
	if (parse(text) != 1)
		fail_msg("'%s' not rejected once (%d errors)", text, errs.count);
	assert_string_equal(errs.e[0].key, key);
	if (!strstr(errs.e[0].message, msg_part))
		fail_msg("'%s': message '%s' lacks '%s'", text, errs.e[0].message, msg_part);
	if (!strchr(text, '\n') || !strchr(text, '\n')[1])
		assert_int_equal(cfg.nchecks, 0);  /* a rejected line adds no check */
}

static char fmtbuf[64];
static const char *milli(check_milli v)
{
	check_milli_format(fmtbuf, sizeof(fmtbuf), v);
	return fmtbuf;
}

static void test_check_lines(void **state)
{
	(void)state;
	parse_ok("check = stream.triad.best_rate_mbps >= 20000\n"
		 "check = nvme[0000:17:00.0].bw_bytes >= 3e9\n"
		 "check = pcie[0000:17:00.0].link.speed_gts == 16\n"
		 "check=measurement[copy].passes[2].gbps within 10% of 2.5\n"
		 "check = pcie[*].express.port_type != \"Root Port\"\n");
	assert_int_equal(cfg.nchecks, 5);
	const struct check *c = cfg.checks;
	assert_string_equal(c[0].type, "stream");
	assert_string_equal(c[0].sel, "triad");
	assert_string_equal(c[0].field, "best_rate_mbps");
	assert_int_equal(c[0].op, CHECK_GE);
	assert_string_equal(milli(c[0].threshold.num), "20000");
	assert_string_equal(c[0].where, "t.cfg:1");
	assert_string_equal(c[0].src, "stream.triad.best_rate_mbps >= 20000");
	assert_string_equal(c[1].type, "nvme");
	assert_string_equal(c[1].sel, "0000:17:00.0");
	assert_string_equal(milli(c[1].threshold.num), "3000000000");
	assert_string_equal(c[2].field, "link.speed_gts");
	assert_int_equal(c[2].op, CHECK_EQ);
	assert_string_equal(c[3].field, "passes[2].gbps");
	assert_int_equal(c[3].op, CHECK_WITHIN);
	assert_string_equal(milli(c[3].within_milli_pct), "10");
	assert_string_equal(milli(c[3].threshold.num), "2.5");
	assert_string_equal(c[4].sel, "*");
	assert_int_equal(c[4].threshold.kind, CHECK_V_TEXT);
	assert_string_equal(c[4].threshold.text, "Root Port");
	assert_string_equal(c[4].where, "t.cfg:5");
}

static void test_values(void **state)
{
	struct check_value v;
	char msg[160];
	(void)state;
	static const struct { const char *in, *out; } ok[] = {
		{ "0", "0" }, { "-5", "-5" }, { "2.5", "2.5" }, { "0.0005", "0.001" }, { "0.0004", "0" },
		{ "1e3", "1000" }, { "1.5E-2", "0.015" }, { "0x2b000461", "721421409" }, { "0X1F", "31" },
		{ "16.000", "16" }, { "18446744073709551615", "18446744073709551615" }, { "1e24", "1000000000000000000000000" },
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (check_value_parse(ok[i].in, strlen(ok[i].in), &v, msg, sizeof(msg)) != 0)
			fail_msg("'%s' rejected: %s", ok[i].in, msg);
		assert_int_equal(v.kind, CHECK_V_NUM);
		if (strcmp(milli(v.num), ok[i].out) != 0)
			fail_msg("'%s' -> %s, expected %s", ok[i].in, fmtbuf, ok[i].out);
	}
	static const char *const bad[] = { "", "abc", "1.2.3", "0x", "0xg", "1e", "--1", "1e25", "12ab", "\"" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (check_value_parse(bad[i], strlen(bad[i]), &v, msg, sizeof(msg)) == 0)
			fail_msg("'%s' accepted", bad[i]);
	assert_int_equal(check_value_parse("true", 4, &v, msg, sizeof(msg)), 0);
	assert_int_equal(v.kind, CHECK_V_BOOL);
	assert_int_equal(check_value_parse("1e25", 4, &v, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "out of range"));
}

static void test_rejects(void **state)
{
	(void)state;
	rejected("check = stream.triad.best_rate_mbps > 20000\n", "check", "expected an operator");
	rejected("check = stream[triad].best_rate_mbps >= fast\n", "check", "not a number");
	rejected("check = stream.best_rate_mbps\n", "check", "expected '.FIELD'");
	rejected("check = stream >= 1\n", "check", "records are selected by function");
	rejected("check = platform[x].cpu.family == 6\n", "check", "no identifying key");
	rejected("check = pcie[].link.width == 4\n", "check", "selector after 'pcie' is empty");
	rejected("check = pcie[0000:17:00.0.link.width == 4\n", "check", "unclosed");
	rejected("check = platform.cpu..family == 6\n", "check", "field path must be");
	rejected("check = platform.cpu.family[x] == 6\n", "check", "field path must be");
	rejected("check = platform.cpu.vendor >= \"GenuineIntel\"\n", "check", "compares numbers only");
	rejected("check = stream.triad.best_rate_mbps within 10 of 5\n", "check", "within P% of");
	rejected("check = stream.triad.best_rate_mbps within x% of 5\n", "check", "percentage");
	rejected("expect_link = 17:00.0 8\n", "expect_link", "not a width");
	rejected("expect_link = 0000:17:00 8 x4\n", "expect_link", "no PCI function");
	rejected("expect_link = 0000:17:00.0 fast x4\n", "expect_link", "not a speed");
	rejected("expect_no_downtrain = yes\n", "expect_no_downtrain", "on or off");
	rejected("expect_cpus = 2.5\n", "expect_cpus", "whole number");
	rejected("expect_memory = 0.0001\n", "expect_memory", "whole number of MiB");
	rejected("expect_microcode >= \"x\"\n", "expect_microcode", "revision number");
	rejected("expect_cpus = 4\nexpect_cpus = 8\n", "expect_cpus", "duplicate key (first set at line 1)");
	rejected("expect_cpu = 4\n", "expect_cpu", "did you mean expect_cpus?");
}

static void test_ready_made(void **state)
{
	(void)state;
	parse_ok("expect_link = 0000:00:02.0 8 x4\n"
		 "expect_link = 17:00.0 16GT/s x16\n"
		 "expect_no_downtrain = on\n"
		 "expect_cpus = 4\n"
		 "expect_memory = 0.5\n"
		 "expect_microcode >= 0x2b000461\n");
	assert_int_equal(cfg.nchecks, 8);
	const struct check *c = cfg.checks;
	assert_string_equal(c[0].type, "pcie");
	assert_string_equal(c[0].sel, "0000:00:02.0");
	assert_string_equal(c[0].field, "link.speed_gts");
	assert_int_equal(c[0].op, CHECK_GE);
	assert_string_equal(milli(c[0].threshold.num), "8");
	assert_string_equal(c[1].field, "link.width");
	assert_string_equal(milli(c[1].threshold.num), "4");
	assert_string_equal(c[1].key, "expect_link");
	assert_string_equal(c[1].src, "0000:00:02.0 8 x4");
	assert_string_equal(c[2].sel, "17:00.0");
	assert_string_equal(milli(c[3].threshold.num), "16");
	assert_string_equal(c[4].sel, "*");
	assert_string_equal(c[4].field, "link.downtrained");
	assert_int_equal(c[4].threshold.kind, CHECK_V_BOOL);
	assert_string_equal(c[5].type, "platform");
	assert_string_equal(c[5].field, "topology.enabled_cpus");
	assert_int_equal(c[5].op, CHECK_EQ);
	assert_string_equal(c[6].field, "memory.total_mib");
	assert_string_equal(milli(c[6].threshold.num), "512");
	assert_string_equal(c[7].field, "cpu.microcode");
	assert_int_equal(c[7].op, CHECK_GE);
	assert_string_equal(milli(c[7].threshold.num), "721421409");
	assert_string_equal(c[7].src, ">= 0x2b000461");

	parse_ok("expect_microcode == 0x10\nexpect_no_downtrain = off\n");
	assert_int_equal(cfg.nchecks, 1);
	assert_int_equal(cfg.checks[0].op, CHECK_EQ);
	parse_ok("expect_microcode = 0x10\n");
	assert_int_equal(cfg.checks[0].op, CHECK_GE);
	parse_ok("expect_microcode != 0x10\n");
	assert_int_equal(cfg.checks[0].op, CHECK_NE);
	parse_ok("expect_microcode <= 0x10\n");
	assert_int_equal(cfg.checks[0].op, CHECK_LE);
}

/* Arguments add checks to the file's; a single-valued key given again replaces it. */
static void test_args_and_json(void **state)
{
	char *argv[] = { "expect_cpus=8", "check=platform.cpu.family==6", "expect_link=00:02.0 2.5 x1" };
	char buf[8192];
	(void)state;
	parse_ok("expect_cpus = 4\ncheck = stream.copy.best_rate_mbps >= 1\n");
	assert_int_equal(cfg_parse_args(&cfg, 3, argv, NULL, &errs), 0);
	assert_int_equal(cfg.nchecks, 5);
	assert_string_equal(cfg.checks[0].src, "stream.copy.best_rate_mbps >= 1");
	assert_string_equal(cfg.checks[1].key, "expect_cpus");
	assert_string_equal(milli(cfg.checks[1].threshold.num), "8");
	assert_string_equal(cfg.checks[1].where, "argument 1");
	assert_string_equal(cfg.checks[2].src, "platform.cpu.family==6");
	assert_true(cfg_json_record(&cfg, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "\"check\":[\"stream.copy.best_rate_mbps >= 1\",\"platform.cpu.family==6\"]"));
	assert_non_null(strstr(buf, "\"expect_link\":[\"00:02.0 2.5 x1\"]"));
	assert_non_null(strstr(buf, "\"expect_cpus\":[\"8\"]"));
	assert_non_null(strstr(buf, "\"expect_cpus\":\"argument 1\""));
	assert_non_null(strstr(buf, "\"check\":\"t.cfg:2\""));

	char many[4096] = "";
	for (int i = 0; i < CHECK_MAX + 1; i++)
		strcat(many, "check = platform.cpu.family == 6\n");
	assert_int_equal(parse(many), 1);
	assert_string_equal(errs.e[0].where, "t.cfg:33");
	assert_string_equal(errs.e[0].message, "more than 32 checks");
	assert_int_equal(cfg.nchecks, CHECK_MAX);
}

static void test_jsonget(void **state)
{
	static const char rec[] = "{\"type\":\"pcie\",\"bdf\":\"0000:17:00.0\",\"s\":\"a\\\"]}\",\"link\":{\"up\":true,"
				  "\"speed_gts\":16.000,\"width\":null},\"passes\":[{\"g\":1},{\"g\":2.5e1}],\"e\":[]}";
	struct jv v;
	(void)state;
	assert_int_equal(jsonget(rec, strlen(rec), "link.speed_gts", &v), 0);
	assert_int_equal(v.kind, JV_NUMBER);
	assert_int_equal(v.n, 6);
	assert_memory_equal(v.p, "16.000", 6);
	assert_int_equal(jsonget(rec, strlen(rec), "link.up", &v), 0);
	assert_int_equal(v.kind, JV_TRUE);
	assert_int_equal(jsonget(rec, strlen(rec), "link.width", &v), 0);
	assert_int_equal(v.kind, JV_NULL);
	assert_int_equal(jsonget(rec, strlen(rec), "passes[1].g", &v), 0);
	assert_memory_equal(v.p, "2.5e1", 5);
	assert_int_equal(jsonget(rec, strlen(rec), "s", &v), 0);
	assert_int_equal(v.kind, JV_STRING);
	assert_int_equal(v.n, 5);   /* a\"]} with its escape kept */
	assert_int_equal(jsonget(rec, strlen(rec), "passes", &v), 0);
	assert_int_equal(v.kind, JV_ARRAY);
	assert_int_equal(jsonget(rec, strlen(rec), "passes[2].g", &v), 1);
	assert_int_equal(jsonget(rec, strlen(rec), "e[0]", &v), 1);
	assert_int_equal(jsonget(rec, strlen(rec), "link.gone", &v), 1);
	assert_int_equal(jsonget(rec, strlen(rec), "bdf.x", &v), 1);
	/* cut anywhere: never a crash, never a value read past the end */
	for (size_t n = 0; n < strlen(rec); n++) {
		int r = jsonget(rec, n, "passes[1].g", &v);
		assert_true(r != 0 || (v.p + v.n <= rec + n));
	}
	assert_int_equal(jsonget("{\"a\":tru}", 9, "a", &v), -1);
	assert_int_equal(jsonget("{\"a\" 1}", 7, "b", &v), -1);
}

/* ---- the verdict over records ---------------------------------------------------------------- */

static const char *const records[] = {
	"{\"type\":\"run\",\"schema\":1}",
	"{\"type\":\"platform\",\"cpu\":{\"family\":6,\"microcode\":\"0x2b000461\"},\"topology\":{\"enabled_cpus\":4}}",
	"{\"type\":\"smbios\",\"memory\":{\"total_mib\":524288}}",
	"{\"type\":\"pcie\",\"bdf\":\"0000:00:00.0\"}",
	"{\"type\":\"pcie\",\"bdf\":\"0000:00:02.0\",\"link\":{\"speed_gts\":8.000,\"width\":4,\"downtrained\":false}}",
	"{\"type\":\"pcie\",\"bdf\":\"0000:01:00.0\",\"link\":{\"speed_gts\":2.500,\"width\":1,\"downtrained\":true}}",
	"{\"type\":\"pcie\",\"bdf\":\"0000:02:00.0\",\"link\":{\"up\":false,\"speed_gts\":null,\"width\":null,\"downtrained\":false}}",
	"{\"type\":\"stream\",\"function\":\"copy\",\"best_rate_mbps\":19000}",
	"{\"type\":\"stream\",\"function\":\"triad\",\"best_rate_mbps\":21234}",
	"not json at all",
	"{\"type\":\"measurement\",\"kernel\":\"copy\",\"passes\":[{\"gbps\":2.555},{\"gbps\":2.621}]}",
};

static struct verdict vd;

static void run_checks(const char *cfgtext, const char *const *recs, size_t n)
{
	parse_ok(cfgtext);
	verdict_init(&vd, cfg.checks, cfg.nchecks);
	for (size_t i = 0; i < n; i++)
		verdict_offer(&vd, recs[i], strlen(recs[i]));
	verdict_finish(&vd);
}

#define NREC (sizeof(records) / sizeof(records[0]))

static void test_verdict_pass(void **state)
{
	(void)state;
	run_checks("check = stream.triad.best_rate_mbps >= 20000\n"
		   "check = stream[triad].best_rate_mbps <= 21234\n"
		   "check = measurement[copy].passes[1].gbps within 3% of 2.545\n"
		   "expect_link = 00:02.0 8 x4\n"
		   "expect_cpus = 4\n"
		   "expect_memory = 512\n"
		   "expect_microcode >= 0x2b000461\n"
		   "check = platform.cpu.family != 7\n", records, NREC);
	for (int i = 0; i < vd.n; i++)
		if (!vd.st[i].holds)
			fail_msg("check %d (%s) fails: %s", i, vd.checks[i].src, vd.st[i].why);
	assert_int_equal(vd.result, VERDICT_PASS);
	assert_int_equal(vd.passed, 9);
	assert_int_equal(vd.records, (int)NREC - 1);
}

static void test_verdict_fail(void **state)
{
	char buf[8192];
	struct strbuf sb;
	struct json j;
	(void)state;
	run_checks("check = stream.copy.best_rate_mbps >= 20000\n"            /* 19000: fails */
		   "expect_link = 0000:01:00.0 8 x4\n"                          /* 2.5 x1: both fail */
		   "expect_no_downtrain = on\n"                                 /* 01:00.0 downtrained */
		   "check = nvme[0000:17:00.0].bw_bytes >= 3e9\n"               /* no nvme record */
		   "check = pcie[0000:09:00.0].link.width >= 1\n"               /* no such function */
		   "check = pcie[0000:00:00.0].link.width >= 1\n"               /* no link member */
		   "check = pcie[0000:02:00.0].link.speed_gts >= 1\n"           /* link down: null */
		   "check = platform.cpu.microcode == \"x\"\n"                  /* number vs text */
		   "check = measurement[copy].passes[0].gbps within 1% of 2.7\n", /* 2.555 is 5.4% off */
		   records, NREC);
	assert_int_equal(vd.result, VERDICT_FAIL);
	assert_int_equal(vd.n, 10);
	assert_int_equal(vd.passed, 0);
	assert_string_equal(milli(vd.st[0].value.num), "19000");
	assert_string_equal(vd.st[0].why, "");
	assert_string_equal(milli(vd.st[1].value.num), "2.5");
	assert_string_equal(milli(vd.st[2].value.num), "1");
	assert_int_equal(vd.st[3].failed, 1);
	assert_int_equal(vd.st[3].matched, 3);
	assert_string_equal(vd.st[3].failing[0], "0000:01:00.0");
	assert_string_equal(vd.st[3].why, "1 of 3 'pcie' records fail: 0000:01:00.0");
	assert_string_equal(vd.st[4].why, "missing: no 'nvme' record in the log (is it enabled in the config?)");
	assert_string_equal(vd.st[5].why, "missing: no 'pcie' record with bdf 0000:09:00.0 (4 'pcie' records in the log)");
	assert_string_equal(vd.st[6].why, "missing: link.width: the record has no such field");
	assert_string_equal(vd.st[7].why, "missing: link.speed_gts is null in the record");
	assert_string_equal(vd.st[8].why, "cannot compare: the value is a number, the check compares with text");
	assert_string_equal(milli(vd.st[9].value.num), "2.555");

	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	json_str(&j, "type", "verdict");
	verdict_json(&vd, &j);
	json_end(&j);
	assert_false(sb.overflow);
	assert_true(json_check_object(buf, sb.len));
	assert_non_null(strstr(buf, "{\"type\":\"verdict\",\"result\":\"FAIL\",\"passed\":0,\"total\":10,\"errors\":0,\"why\":null,"));
	assert_non_null(strstr(buf, "{\"setting\":\"expect_link = 0000:01:00.0 8 x4\",\"where\":\"t.cfg:2\","
				    "\"path\":\"pcie[0000:01:00.0].link.speed_gts\",\"op\":\">=\",\"threshold\":8,\"value\":2.500,"
				    "\"result\":\"FAIL\",\"why\":null}"));
	assert_non_null(strstr(buf, "\"path\":\"pcie[*].link.downtrained\",\"op\":\"==\",\"threshold\":false,\"value\":true,"
				    "\"result\":\"FAIL\",\"why\":\"1 of 3 'pcie' records fail: 0000:01:00.0\",\"records\":3,"
				    "\"failed\":1,\"failing\":[\"0000:01:00.0\"]}"));
	assert_non_null(strstr(buf, "\"path\":\"nvme[0000:17:00.0].bw_bytes\",\"op\":\">=\",\"threshold\":3000000000,\"value\":null,"));
	assert_non_null(strstr(buf, "\"op\":\"within\",\"threshold\":2.700,\"within_pct\":1,\"value\":2.555,"));
}

static char lines[16][256];
static int nlines;
static void collect(void *arg, const char *text)
{
	(void)arg;
	if (nlines < 16)
		snprintf(lines[nlines++], sizeof(lines[0]), "%s", text);
}

static void test_banner_and_error(void **state)
{
	static const char *const with_error[] = {
		"{\"type\":\"run\",\"schema\":1}",
		"{\"type\":\"error\",\"where\":\"stream\",\"message\":\"copy: a CPU did not run it\"}",
		"{\"type\":\"stream\",\"function\":\"triad\",\"best_rate_mbps\":21234}",
		"{\"type\":\"error\",\"where\":\"x\",\"message\":\"y\"}",
	};
	(void)state;
	run_checks("check = stream.triad.best_rate_mbps >= 20000\ncheck = stream.copy.best_rate_mbps >= 1\n", records, NREC);
	nlines = 0;
	verdict_banner(&vd, "LAB7", "\\efiperf\\logs\\LAB7-20261124-014422.jsonl", collect, NULL);
	assert_int_equal(nlines, 6);
	assert_string_equal(lines[1], "efiperf verdict: PASS (2 of 2 checks hold)");
	assert_string_equal(lines[2], "  PASS  stream[triad].best_rate_mbps >= 20000: 21234");
	assert_string_equal(lines[5], "EFIPERF RESULT: PASS serial=LAB7 log=\\efiperf\\logs\\LAB7-20261124-014422.jsonl checks=2/2");

	run_checks("check = stream.triad.best_rate_mbps >= 20000\n", with_error, 4);
	assert_int_equal(vd.result, VERDICT_ERROR);
	assert_int_equal(vd.errors, 2);
	assert_int_equal(vd.passed, 1);
	nlines = 0;
	verdict_banner(&vd, "", NULL, collect, NULL);
	assert_string_equal(lines[3], "  ERROR  the run reported 2 errors; first: stream: copy: a CPU did not run it");
	assert_string_equal(lines[nlines - 1], "EFIPERF RESULT: ERROR serial=noserial log=none checks=1/1");

	/* revisions stay hex, [*] checks count records, settings read as written */
	run_checks("expect_microcode >= 0x2b000461\nexpect_no_downtrain = on\ncheck = platform.cpu.microcode == 0x2b000461\n", records, NREC);
	assert_int_equal(vd.result, VERDICT_FAIL);
	nlines = 0;
	verdict_banner(&vd, "S", "L", collect, NULL);
	assert_string_equal(lines[2], "  PASS  platform.cpu.microcode >= 0x2b000461: 0x2b000461");
	assert_string_equal(lines[3], "  FAIL  pcie[*].link.downtrained == false: 1 of 3 records fail; "
				      "1 of 3 'pcie' records fail: 0000:01:00.0");
	{
		char buf[4096];
		struct strbuf sb;
		struct json j;
		sb_init(&sb, buf, sizeof(buf));
		json_begin(&j, &sb);
		verdict_json(&vd, &j);
		json_end(&j);
		assert_non_null(strstr(buf, "{\"setting\":\"expect_microcode >= 0x2b000461\",\"where\":\"t.cfg:1\","
					    "\"path\":\"platform.cpu.microcode\",\"op\":\">=\",\"threshold\":\"0x2b000461\","
					    "\"value\":\"0x2b000461\",\"result\":\"PASS\""));
		assert_non_null(strstr(buf, "\"setting\":\"check = platform.cpu.microcode == 0x2b000461\""));
		parse_ok("expect_microcode == 0x10\n");
		assert_string_equal(cfg.checks[0].src, "== 0x10");
	}

	/* no checks: the run's status alone */
	run_checks("", records, NREC);
	assert_int_equal(vd.result, VERDICT_PASS);
	nlines = 0;
	verdict_banner(&vd, "S", "L", collect, NULL);
	assert_string_equal(lines[nlines - 1], "EFIPERF RESULT: PASS serial=S log=L checks=0/0");
	assert_string_equal(lines[1], "efiperf verdict: PASS (no checks configured)");

	/* a [*] check over a type the log lacks fails as missing */
	run_checks("expect_no_downtrain = on\n", with_error + 2, 1);
	assert_int_equal(vd.result, VERDICT_FAIL);
	assert_string_equal(vd.st[0].why, "missing: no 'pcie' record in the log (is it enabled in the config?)");
}

/* Edges of every operator; selectors of pcie compare bus addresses without case and with the
 * short form's segment 0000. */
static void test_compare_edges(void **state)
{
	static const struct { const char *check; const char *rec; int holds; } cases[] = {
		{ "check = x.v >= 5", "{\"type\":\"x\",\"v\":5}", 1 },
		{ "check = x.v >= 5", "{\"type\":\"x\",\"v\":4.999}", 0 },
		{ "check = x.v <= 5", "{\"type\":\"x\",\"v\":5.001}", 0 },
		{ "check = x.v == 16", "{\"type\":\"x\",\"v\":16.000}", 1 },
		{ "check = x.v != 16", "{\"type\":\"x\",\"v\":16.000}", 0 },
		{ "check = x.v within 10% of 100", "{\"type\":\"x\",\"v\":110}", 1 },
		{ "check = x.v within 10% of 100", "{\"type\":\"x\",\"v\":89.999}", 0 },
		{ "check = x.v within 10% of -100", "{\"type\":\"x\",\"v\":-90}", 1 },
		{ "check = x.v within 0% of 3e9", "{\"type\":\"x\",\"v\":3000000000}", 1 },
		{ "check = x.v == true", "{\"type\":\"x\",\"v\":true}", 1 },
		{ "check = x.v == \"a b\"", "{\"type\":\"x\",\"v\":\"a b\"}", 1 },
		{ "check = x.v >= 0x10", "{\"type\":\"x\",\"v\":\"0x0f\"}", 0 },
		{ "check = x.v >= 18446744073709551615", "{\"type\":\"x\",\"v\":18446744073709551615}", 1 },
		{ "check = pcie[0000:1A:00.0].v == 1", "{\"type\":\"pcie\",\"bdf\":\"0000:1a:00.0\",\"v\":1}", 1 },
		{ "check = pcie[1a:00.0].v == 1", "{\"type\":\"pcie\",\"bdf\":\"0000:1a:00.0\",\"v\":1}", 1 },
		{ "check = pcie[1a:00.0].v == 1", "{\"type\":\"pcie\",\"bdf\":\"0001:1a:00.0\",\"v\":1}", 0 },
		{ "check = stream.TRIAD.v == 1", "{\"type\":\"stream\",\"function\":\"triad\",\"v\":1}", 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *r = cases[i].rec;
		run_checks(cases[i].check, &r, 1);
		if (vd.st[0].holds != cases[i].holds)
			fail_msg("%s over %s: holds %d (%s)", cases[i].check, r, vd.st[0].holds, vd.st[0].why);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_lines),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_ready_made),
		cmocka_unit_test(test_args_and_json),
		cmocka_unit_test(test_jsonget),
		cmocka_unit_test(test_verdict_pass),
		cmocka_unit_test(test_verdict_fail),
		cmocka_unit_test(test_banner_and_error),
		cmocka_unit_test(test_compare_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
