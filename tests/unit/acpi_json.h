/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * acpi_json: the members acpi_to_json() writes, as one JSON object in buf, checked by the
 * independent validator of json_check.h. Header-only, host only.
 */
#ifndef EFIPERF_TESTS_ACPI_JSON_H
#define EFIPERF_TESTS_ACPI_JSON_H

#include "efi/fw/acpi.h"
#include "tests/unit/json_check.h"

/* 1 when the record fit in buf[0..n), the writer saw no misuse, and buf is one valid JSON
 * object (NUL-terminated); 0 otherwise. */
static inline int acpi_json_record(const struct acpi_info *a, char *buf, size_t n)
{
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, n);
	json_begin(&j, &sb);
	acpi_to_json(a, &j);
	json_end(&j);
	return !j.error && !sb.overflow && json_check_object(buf, sb.len);
}

#endif
