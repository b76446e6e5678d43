/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cfg_json: the `config` object cfg_to_json() writes into the run record, as one JSON object in
 * buf, checked by the independent validator of json_check.h. Header-only, host only.
 */
#ifndef EFIPERF_TESTS_CFG_JSON_H
#define EFIPERF_TESTS_CFG_JSON_H

#include "efi/config/config.h"
#include "tests/unit/json_check.h"

/* 1 when the object fit in buf[0..n), the writer saw no misuse, and buf is one valid JSON
 * object (NUL-terminated); 0 otherwise. */
static inline int cfg_json_record(const struct efiperf_config *c, char *buf, size_t n)
{
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, n);
	json_begin(&j, &sb);
	cfg_to_json(c, &j);
	json_end(&j);
	return !j.error && !sb.overflow && json_check_object(buf, sb.len);
}

#endif
