/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * acpi_parsers: the per-table parsers and JSON writers acpi.c dispatches to (internal to the
 * efi/fw/acpi*.c files; the helpers they share are in efi/fw/acpi_common.h). Each parser gets
 * a table that already passed validation in acpi.c: t points at len >= ACPI_HEADER_LEN mapped
 * bytes whose checksum is 0.
 */
#ifndef EFIPERF_ACPI_PARSERS_H
#define EFIPERF_ACPI_PARSERS_H

#include <stdint.h>
#include "efi/fw/acpi.h"

void acpi_parse_mcfg(const uint8_t *t, uint32_t len, struct acpi_info *a);  /* acpi_misc.c */
void acpi_parse_fadt(const uint8_t *t, uint32_t len, struct acpi_fadt *f);
void acpi_parse_hpet(const uint8_t *t, uint32_t len, struct acpi_hpet *h);
void acpi_parse_slit(const uint8_t *t, uint32_t len, struct acpi_slit *s);
void acpi_parse_madt(const uint8_t *t, uint32_t len, struct acpi_madt *m);  /* acpi_madt.c */
void acpi_parse_srat(const uint8_t *t, uint32_t len, struct acpi_srat *s);  /* acpi_srat.c */
void acpi_parse_apmt(const uint8_t *t, uint32_t len, struct acpi_apmt *p);  /* acpi_apmt.c */
void acpi_parse_pptt(const uint8_t *t, uint32_t len, struct acpi_pptt *p);  /* acpi_pptt.c */

void acpi_json_mcfg(const struct acpi_info *a, struct json *j);
void acpi_json_fadt(const struct acpi_fadt *f, struct json *j);
void acpi_json_hpet(const struct acpi_hpet *h, struct json *j);
void acpi_json_slit(const struct acpi_slit *s, struct json *j);
void acpi_json_gas(struct json *j, const char *key, const struct acpi_gas *g);
void acpi_json_madt(const struct acpi_madt *m, struct json *j);
void acpi_json_srat(const struct acpi_srat *s, struct json *j);
void acpi_json_apmt(const struct acpi_apmt *p, struct json *j);
void acpi_json_pptt(const struct acpi_pptt *p, struct json *j);
/* Members of one APMT node's object (the `acpi` record's apmt[] and the CoreSight `uncore` record). */
void acpi_json_apmt_node(const struct acpi_apmt_node *n, struct json *j);

#endif
