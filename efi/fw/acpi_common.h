/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * acpi_common: helpers every efi/fw/acpi*.c file uses (the table list in acpi.c and each
 * per-table parser), kept apart so that no parser depends on acpi.c nor acpi.c on a helper
 * inside a parser.
 */
#ifndef EFIPERF_ACPI_COMMON_H
#define EFIPERF_ACPI_COMMON_H

#include <stdint.h>
#include "efi/out/jsonl.h"

/* ACPI 6.5 5.2.6: Revision byte of the System Description Table header. */
#define ACPI_HDR_OFF_REVISION 8

/* A byte shown as itself in signatures and OEM strings (printable ASCII); others become '?'. */
#define ACPI_PRINTABLE_FIRST 0x20
#define ACPI_PRINTABLE_LAST  0x7e
static inline int acpi_printable(uint8_t c)
{
	return c >= ACPI_PRINTABLE_FIRST && c <= ACPI_PRINTABLE_LAST;
}

/* Writes the first defect only: later ones are consequences or repeats. defect holds
 * ACPI_DEFECT_LEN bytes (efi/fw/acpi.h). */
void acpi_set_defect(char *defect, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A defect as a JSON member: null when empty. */
void acpi_json_defect(struct json *j, const char *defect);

#endif
