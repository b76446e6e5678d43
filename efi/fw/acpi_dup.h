/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * acpi_dup: describes a duplicate ACPI table (two valid tables with one signature, e.g. two
 * HPETs or two MCFGs) against the one that was parsed. Internal to efi/fw/acpi*.c.
 */
#ifndef EFIPERF_ACPI_DUP_H
#define EFIPERF_ACPI_DUP_H

#include <stdint.h>
#include "efi/fw/acpi.h"

/* Fills d->ndiff and d->diff[] (d->sig set by the caller) with the fields in which the parsed
 * table used[0..ulen) and the duplicate other[0..olen) differ; fields beyond ACPI_DUP_FIELDS
 * are counted in d->ndiff and added to *fields_dropped. */
void acpi_dup_diff(const uint8_t *used, uint32_t ulen, const uint8_t *other, uint32_t olen,
		   struct acpi_dup *d, uint32_t *fields_dropped);

/* The "duplicates" member: an array, empty when no table was duplicated. */
void acpi_json_dups(const struct acpi_info *a, struct json *j);

#endif
