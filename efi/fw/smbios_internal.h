/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smbios_internal: shared between efi/smbios.c (entry points, structure walk, JSON) and
 * efi/smbios_fields.c (per-type decoders, strings, the log-name serial).
 */
#ifndef EFIPERF_SMBIOS_INTERNAL_H
#define EFIPERF_SMBIOS_INTERNAL_H

#include <stdint.h>
#include "efi/fw/smbios.h"

/* DSP0134 6.1.2: structure header Type @0, Length @1 (formatted area), Handle @2. */
#define SMBIOS_HDR_LEN       4

/* Records a structure-level defect (the first SMBIOS_MAX_DEFECTS; the rest are counted). */
void smbios_defect(struct smbios_info *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Decodes one structure: f = formatted area (flen >= SMBIOS_HDR_LEN bytes), strs = its
 * string-set (slen bytes, ending in the double NUL). */
void smbios_decode(struct smbios_info *s, const uint8_t *f, uint32_t flen,
		   const uint8_t *strs, uint32_t slen);

#endif
