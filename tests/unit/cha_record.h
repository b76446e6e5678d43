/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The `cha` JSONL record of a CHA measurement, rendered for a test by efiperf's writer
 * (efi/out cha_result_json) and parsed back by tests/unit/json_check.h. Header-only, host only;
 * include after <cmocka.h>. Shared by test_cha_latency, test_cha_model and test_cha_discover.
 */
#ifndef EFIPERF_TEST_CHA_RECORD_H
#define EFIPERF_TEST_CHA_RECORD_H

#include <stddef.h>

#include "efi/out/jsonl.h"
#include "efi/out/pmu_json.h"
#include "tests/unit/json_check.h"

/* {"type":"cha", ...the result's fields} into buf[0..n), NUL-terminated; returns its length in
 * bytes. Fails the test when it does not fit or is not exactly one valid JSON object. */
static inline size_t cha_record(const struct cha_request *req, const struct cha_result *res, char *buf, size_t n)
{
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, n);
	json_begin(&j, &sb);
	json_str(&j, "type", "cha");
	cha_result_json(req, res, &j);
	json_end(&j);
	assert_false(sb.overflow);
	assert_true(json_check_object(buf, sb.len));
	return sb.len;
}

#endif
