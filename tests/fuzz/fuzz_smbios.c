/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: efi/smbios*.c over an arbitrary memory image.
 *   bytes 0..7   entry point offset into the image (little-endian, modulo the image size)
 *   byte  8      bit 0: fix the entry point's checksums (3.0: @5; 2.1: _DMI_ @0x15 and @4)
 *                before parsing, so mutations reach the structure walk
 *   bytes 9..    the image, at physical address 0 (the `dmidecode --dump-bin` layout of the
 *                fixtures in tests/unit/fixtures maps as is: they are the seeds)
 * Checks beyond not crashing: counts within bounds, every string terminated and printable,
 * the log serial safe for a file name, and the JSON record valid.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "efi/fw/smbios.h"
#include "../unit/json_check.h"

#define HDR       9
#define FIX_SUMS  0x01

static struct smbios_info info;
static char json_buf[1 << 14];

static void fix(uint8_t *p, size_t n, size_t at)
{
	uint8_t s = 0;
	p[at] = 0;
	for (size_t i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	p[at] = (uint8_t)(0x100 - s);
}

static void fix_ep(uint8_t *e, size_t left)
{
	if (left >= 0x18 && !memcmp(e, "_SM3_", 5) && e[6] >= 0x18 && e[6] <= left) {
		fix(e, e[6], 5);
	} else if (left >= 0x1F && !memcmp(e, "_SM_", 4) && e[5] >= 0x1E && e[5] <= left) {
		fix(e + 0x10, 15, 5);
		fix(e, e[5], 4);
	}
}

static void check_str(const char *s, size_t cap)
{
	const char *end = memchr(s, '\0', cap);
	assert(end != NULL);
	for (; s < end; s++)
		assert(*s >= 0x20 && *s <= 0x7e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size <= HDR)
		return 0;
	size_t n = size - HDR;
	uint8_t *img = malloc(n);
	if (!img)
		return 0;
	memcpy(img, data + HDR, n);
	uint64_t off = 0;
	for (int i = 7; i >= 0; i--)
		off = off << 8 | data[i];
	off %= n;
	if (data[8] & FIX_SUMS)
		fix_ep(img + off, n - off);
	struct physmem_buf b = { .data = img, .base = 0, .size = n };
	struct physmem pm = { .map = physmem_buf_map, .ctx = &b };

	int rc = smbios_parse(&pm, off, &info);
	assert(rc == 0 || (rc == -1 && info.defect[0]));
	assert(info.ndefects <= SMBIOS_MAX_DEFECTS && info.nprocs <= SMBIOS_MAX_PROCS);
	for (uint32_t i = 0; i < info.ndefects; i++)
		check_str(info.defects[i], SMBIOS_DEFECT_LEN);
	check_str(info.bios.vendor, SMBIOS_STR_LEN);
	check_str(info.system.serial, SMBIOS_STR_LEN);
	check_str(info.system.uuid, SMBIOS_UUID_LEN);
	for (uint32_t i = 0; i < info.nprocs; i++)
		check_str(info.proc[i].version, SMBIOS_STR_LEN);

	char serial[64];
	smbios_log_serial(&info, serial, sizeof(serial));
	size_t sl = strlen(serial);
	assert(sl > 0 && sl <= SMBIOS_LOG_SERIAL_MAX);
	for (size_t i = 0; i < sl; i++)
		assert(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-", serial[i]));

	struct strbuf sb;
	struct json j;
	sb_init(&sb, json_buf, sizeof(json_buf));
	json_begin(&j, &sb);
	smbios_to_json(&info, &j);
	json_end(&j);
	assert(!j.error && !sb.overflow);
	assert(json_check_object(json_buf, sb.len));
	free(img);
	return 0;
}
