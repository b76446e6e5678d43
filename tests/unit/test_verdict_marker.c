/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The run-state marker (efi/verdict/marker.c): its text and path, parsing (CRLF, missing keys,
 * not a marker), and how far an earlier log got: records, the last record's type, a record cut
 * short, a log that ended. A marker whose text is not UTF-8 (a Latin-1 byte, a UTF-16 BOM) still
 * makes an `incomplete` record that is valid UTF-8 JSON.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/verdict/marker.h"
#include "efi/out/jsonl.h"
#include "tests/unit/json_check.h"

static void test_marker_text(void **state)
{
	char buf[256], p[128];
	struct marker m;
	(void)state;
	size_t n = marker_format(buf, sizeof(buf), "\\efiperf\\logs\\LAB7-20261124-101500.jsonl", "2026-11-24T10:15:00");
	assert_string_equal(buf, "efiperf-state=1\nlog=\\efiperf\\logs\\LAB7-20261124-101500.jsonl\nstarted=2026-11-24T10:15:00\n");
	assert_int_equal(n, strlen(buf));
	assert_int_equal(marker_parse(buf, n, &m), 0);
	assert_string_equal(m.log, "\\efiperf\\logs\\LAB7-20261124-101500.jsonl");
	assert_string_equal(m.started, "2026-11-24T10:15:00");
	static const char crlf[] = "started=x\r\nefiperf-state=1\r\nlog=L\r\n";
	assert_int_equal(marker_parse(crlf, strlen(crlf), &m), 0);
	assert_string_equal(m.log, "L");
	assert_string_equal(m.started, "x");
	static const char other[] = "log=L\n";
	assert_int_equal(marker_parse(other, strlen(other), &m), -1);
	assert_int_equal(marker_parse("", 0, &m), -1);
	assert_string_equal(m.log, "");
	marker_path(p, sizeof(p), "LAB7");
	assert_string_equal(p, "\\efiperf\\state\\LAB7.running");
	marker_path(p, sizeof(p), "");
	assert_string_equal(p, "\\efiperf\\state\\noserial.running");
	assert_int_equal(marker_format(buf, 8, "L", "S"), 7);
}

static void test_progress(void **state)
{
	struct log_progress p;
	(void)state;
	static const char cut[] = "{\"type\":\"run\",\"schema\":1}\n{\"type\":\"platform\"}\n{\"type\":\"stream\",\"functi";
	log_progress(cut, strlen(cut), &p);
	assert_int_equal(p.records, 2);
	assert_string_equal(p.last_type, "platform");
	assert_int_equal(p.partial_bytes, strlen("{\"type\":\"stream\",\"functi"));
	assert_false(p.ended);
	static const char ended[] = "{\"type\":\"run\"}\n{\"type\":\"verdict\"}\n{\"type\":\"end\",\"status\":\"ok\"}\n";
	log_progress(ended, strlen(ended), &p);
	assert_int_equal(p.records, 3);
	assert_true(p.ended);
	assert_int_equal(p.partial_bytes, 0);
	static const char junk[] = "{\"type\":\"end\"}\nnot json\n";
	log_progress(junk, strlen(junk), &p);
	assert_int_equal(p.records, 2);
	assert_string_equal(p.last_type, "");
	assert_false(p.ended);
	log_progress("", 0, &p);
	assert_int_equal(p.records, 0);
	assert_false(p.ended);
}

/* The marker's text is copied into the `incomplete` record; bytes that are not UTF-8 come out
 * as \xNN, and the record checks as UTF-8 JSON (tests/unit/json_check.h). */
static void test_marker_bytes_in_record(void **state)
{
	static const char text[] = "efiperf-state=1\nlog=\\efiperf\\logs\\caf\xe9\xff\xfe.jsonl\nstarted=2026\x80\n";
	struct marker m;
	char rec[512];
	struct strbuf sb;
	struct json j;
	(void)state;
	assert_int_equal(marker_parse(text, sizeof(text) - 1, &m), 0);
	sb_init(&sb, rec, sizeof(rec));
	json_begin(&j, &sb);
	json_str(&j, "type", "incomplete");
	json_str(&j, "log", m.log);
	json_str(&j, "started", m.started);
	json_end(&j);
	assert_false(sb.overflow || j.error);
	assert_string_equal(rec, "{\"type\":\"incomplete\",\"log\":\"\\\\efiperf\\\\logs\\\\caf\\\\xe9\\\\xff\\\\xfe.jsonl\","
			    "\"started\":\"2026\\\\x80\"}");
	assert_true(json_check_object(rec, sb.len));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_marker_text),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_marker_bytes_in_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
