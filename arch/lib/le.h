/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * le: little-endian field reads at any alignment. ACPI (ACPI 6.5 section 5.2, "all numeric
 * values in ACPI tables are little-endian") and SMBIOS (SMBIOS 3.7 section 5.1) structures are
 * packed, so 64-bit fields sit at odd offsets; byte assembly reads them on any host.
 */
#ifndef EFIPERF_LE_H
#define EFIPERF_LE_H

#include <stdint.h>

static inline uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}

static inline uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* 8-bit sum of n bytes: ACPI and SMBIOS checksums make this 0 over the covered bytes. */
static inline uint8_t byte_sum(const uint8_t *p, uint64_t n)
{
	uint8_t s = 0;
	for (uint64_t i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	return s;
}

#endif
