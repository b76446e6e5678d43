/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SMBIOS structure decoders (DSP0134 SMBIOS 3.7 chapter 7): BIOS (type 0), System (1),
 * Baseboard (2), Processor (4), Memory Device (17); string handling (6.1.3) and the serial
 * that names the log files.
 */
#include <stdarg.h>
#include <string.h>

#include "arch/lib/fmt.h"
#include "arch/lib/le.h"
#include "efi/fw/smbios_internal.h"

#define TYPE_BIOS            0
#define TYPE_SYSTEM          1
#define TYPE_BASEBOARD       2
#define TYPE_PROCESSOR       4
#define TYPE_MEMORY_DEVICE   17

/* 7.1 BIOS Information: Vendor @4, BIOS Version @5, BIOS Release Date @8 (string numbers). */
#define BIOS_VENDOR          0x04
#define BIOS_VERSION         0x05
#define BIOS_DATE            0x08
/* 7.2 System Information: Manufacturer @4, Product Name @5, Version @6, Serial @7,
 * UUID @8 (16 bytes, SMBIOS 2.1+). */
#define SYS_MANUFACTURER     0x04
#define SYS_PRODUCT          0x05
#define SYS_VERSION          0x06
#define SYS_SERIAL           0x07
#define SYS_UUID             0x08
#define UUID_BYTES           16
/* 7.3 Baseboard Information: Manufacturer @4, Product @5, Serial Number @7. */
#define BOARD_MANUFACTURER   0x04
#define BOARD_PRODUCT        0x05
#define BOARD_SERIAL         0x07
/* 7.5 Processor Information: Socket Designation @4, Processor Manufacturer @7, Processor
 * Version @0x10, Max Speed @0x14, Current Speed @0x16 (MHz, u16). */
#define PROC_SOCKET          0x04
#define PROC_MANUFACTURER    0x07
#define PROC_VERSION         0x10
#define PROC_MAX_SPEED       0x14
#define PROC_CUR_SPEED       0x16
/* 7.18 Memory Device: Size @0x0C, Speed @0x15 (2.3+), Extended Size @0x1C (2.7+),
 * Configured Memory Speed @0x20 (2.7+), Extended Speed @0x54, Extended Configured Speed
 * @0x58 (3.3+). */
#define MEM_DATA_WIDTH       0x0A    /* WORD, bits; FFFFh unknown (7.18 Data Width) */
#define MEM_SIZE             0x0C
#define MEM_SPEED            0x15
#define MEM_EXT_SIZE         0x1C
#define MEM_CONF_SPEED       0x20
#define MEM_EXT_SPEED        0x54
#define MEM_EXT_CONF_SPEED   0x58
/* 7.18.5 Size: 0 = no device installed, 0xFFFF = unknown, 0x7FFF = see Extended Size;
 * bit 15 granularity: 0 MiB, 1 KiB. Extended Size bits 30:0 in MiB. */
#define MEM_SIZE_NONE        0x0000
#define MEM_SIZE_UNKNOWN     0xFFFF
#define MEM_SIZE_EXTENDED    0x7FFF
#define MEM_SIZE_KIB         0x8000
#define MEM_EXT_SIZE_MASK    0x7FFFFFFFu
/* 7.18.4 Speed: 0 = unknown, 0xFFFF = see Extended Speed (bits 30:0, MT/s). */
#define MEM_SPEED_EXTENDED   0xFFFF
#define MEM_EXT_SPEED_MASK   0x7FFFFFFFu

void smbios_defect(struct smbios_info *s, const char *fmt, ...)
{
	if (s->ndefects >= SMBIOS_MAX_DEFECTS) {
		s->defects_dropped++;
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(s->defects[s->ndefects++], SMBIOS_DEFECT_LEN, fmt, ap);
	va_end(ap);
}

/*
 * Copies string number `idx` of the string-set into dst (6.1.3: strings are numbered from 1,
 * 0 means "no string"). Non-printable bytes become '?', blanks at both ends are trimmed. An
 * index beyond the set is a defect named "type T what: string I of N".
 */
static void get_string(struct smbios_info *s, const uint8_t *f, uint32_t flen, uint32_t off,
		       const uint8_t *strs, uint32_t slen, const char *what, char *dst)
{
	dst[0] = '\0';
	if (off >= flen)
		return;                  /* field absent in this structure version */
	uint8_t idx = f[off];
	if (!idx)
		return;
	uint32_t n = 0, start = 0;
	const uint8_t *str = NULL;
	uint32_t len = 0;
	/* The set is "s1\0s2\0...\0\0" or "\0\0" when empty; the walk checked the double NUL. */
	for (uint32_t i = 0; i + 1 < slen && strs[start]; i++) {
		if (strs[i])
			continue;
		n++;
		if (n == idx) {
			str = strs + start;
			len = i - start;
		}
		start = i + 1;
	}
	if (!str) {
		smbios_defect(s, "type %u %s: string %u of %u", f[0], what, idx, n);
		return;
	}
	while (len && (str[len - 1] == ' ' || str[len - 1] == '\t'))
		len--;
	while (len && (*str == ' ' || *str == '\t'))
		str++, len--;
	if (len > SMBIOS_STR_LEN - 1)
		len = SMBIOS_STR_LEN - 1;
	for (uint32_t i = 0; i < len; i++)
		dst[i] = (str[i] >= 0x20 && str[i] <= 0x7e) ? (char)str[i] : '?';
	dst[len] = '\0';
}

/* 7.2.1: UUID text; since SMBIOS 2.6 the first three fields are little-endian. Lower-case
 * hex as RFC 4122 section 3 asks for output (and as dmidecode 3.x prints it). */
static void format_uuid(const struct smbios_info *s, const uint8_t *u, char *dst)
{
	int le = s->major > 2 || (s->major == 2 && s->minor >= 6);
	uint32_t tl = le ? le32(u) : (uint32_t)u[0] << 24 | (uint32_t)u[1] << 16 | (uint32_t)u[2] << 8 | u[3];
	uint16_t tm = le ? le16(u + 4) : (uint16_t)(u[4] << 8 | u[5]);
	uint16_t th = le ? le16(u + 6) : (uint16_t)(u[6] << 8 | u[7]);
	fmt_snprintf(dst, SMBIOS_UUID_LEN, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		     tl, tm, th, u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

static void memory_device(struct smbios_info *s, const uint8_t *f, uint32_t flen)
{
	s->mem.devices++;
	if (flen < MEM_SIZE + 2)
		return;
	uint16_t size = le16(f + MEM_SIZE);
	if (size == MEM_SIZE_NONE)
		return;
	s->mem.populated++;
	if (size == MEM_SIZE_UNKNOWN)
		s->mem.unknown_size++;
	else if (size == MEM_SIZE_EXTENDED && flen >= MEM_EXT_SIZE + 4)
		s->mem.total_mib += le32(f + MEM_EXT_SIZE) & MEM_EXT_SIZE_MASK;
	else if (size & MEM_SIZE_KIB)
		s->mem.total_mib += (size & ~MEM_SIZE_KIB) / 1024u;
	else
		s->mem.total_mib += size;
	uint32_t speed = 0, conf = 0;
	if (flen >= MEM_SPEED + 2)
		speed = le16(f + MEM_SPEED);
	if (speed == MEM_SPEED_EXTENDED)
		speed = flen >= MEM_EXT_SPEED + 4 ? le32(f + MEM_EXT_SPEED) & MEM_EXT_SPEED_MASK : 0;
	if (flen >= MEM_CONF_SPEED + 2)
		conf = le16(f + MEM_CONF_SPEED);
	if (conf == MEM_SPEED_EXTENDED)
		conf = flen >= MEM_EXT_CONF_SPEED + 4 ? le32(f + MEM_EXT_CONF_SPEED) & MEM_EXT_SPEED_MASK : 0;
	if (speed > s->mem.speed_mts)
		s->mem.speed_mts = speed;
	if (conf > s->mem.configured_mts)
		s->mem.configured_mts = conf;
	uint32_t width = le16(f + MEM_DATA_WIDTH), mts = conf ? conf : speed;
	if (!mts || !width || width == MEM_SIZE_UNKNOWN)
		s->mem.peak_unknown++;
	else
		s->mem.peak_mbps += (uint64_t)mts * width / 8u;   /* MT/s x bytes per transfer */
}

void smbios_decode(struct smbios_info *s, const uint8_t *f, uint32_t flen,
		   const uint8_t *strs, uint32_t slen)
{
#define STR(off, what, dst) get_string(s, f, flen, off, strs, slen, what, dst)
	switch (f[0]) {
	case TYPE_BIOS:
		if (s->bios.present)
			return;          /* the first instance describes the platform */
		s->bios.present = 1;
		STR(BIOS_VENDOR, "vendor", s->bios.vendor);
		STR(BIOS_VERSION, "version", s->bios.version);
		STR(BIOS_DATE, "release date", s->bios.date);
		break;
	case TYPE_SYSTEM:
		if (s->system.present)
			return;
		s->system.present = 1;
		STR(SYS_MANUFACTURER, "manufacturer", s->system.manufacturer);
		STR(SYS_PRODUCT, "product", s->system.product);
		STR(SYS_VERSION, "version", s->system.version);
		STR(SYS_SERIAL, "serial", s->system.serial);
		if (flen >= SYS_UUID + UUID_BYTES)
			format_uuid(s, f + SYS_UUID, s->system.uuid);
		break;
	case TYPE_BASEBOARD:
		if (s->board.present)
			return;
		s->board.present = 1;
		STR(BOARD_MANUFACTURER, "manufacturer", s->board.manufacturer);
		STR(BOARD_PRODUCT, "product", s->board.product);
		STR(BOARD_SERIAL, "serial", s->board.serial);
		break;
	case TYPE_PROCESSOR:
		s->nprocs_total++;
		if (s->nprocs < SMBIOS_MAX_PROCS) {
			struct smbios_proc *p = &s->proc[s->nprocs++];
			STR(PROC_SOCKET, "socket", p->socket);
			STR(PROC_MANUFACTURER, "manufacturer", p->manufacturer);
			STR(PROC_VERSION, "version", p->version);
			if (flen >= PROC_CUR_SPEED + 2) {
				p->max_mhz = le16(f + PROC_MAX_SPEED);
				p->current_mhz = le16(f + PROC_CUR_SPEED);
			}
		}
		break;
	case TYPE_MEMORY_DEVICE:
		memory_device(s, f, flen);
		break;
	default:
		break;
	}
#undef STR
}

static char lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static int eq_nocase(const char *a, const char *b)
{
	while (*a && *b && lower(*a) == lower(*b))
		a++, b++;
	return *a == '\0' && *b == '\0';
}

static int safe_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

/* Trimmed from both ends of a serial: blanks and other unsafe bytes, and '.', '_', '-'. */
static int edge_char(char c)
{
	return !safe_char(c) || c == '.' || c == '_' || c == '-';
}

/* Firmware fills unset serials with vendor placeholders; none of them names a machine. */
static const char *const placeholders[] = {
	"Not Specified", "To Be Filled By O.E.M.", "Default string", "0", "None",
	"System Serial Number", "Not Applicable", "N/A", "Unknown", "Serial Number",
	"Not Available", "OEM", "123456789", "XXXXXXXX",
};

/* 1 when every letter or digit of s is c (case-insensitive), e.g. "0000-0000", "FFFFFFFF". */
static int all_of(const char *s, char c)
{
	int seen = 0;
	for (; *s; s++) {
		char l = lower(*s);
		if ((l >= 'a' && l <= 'z') || (l >= '0' && l <= '9')) {
			if (l != lower(c))
				return 0;
			seen = 1;
		}
	}
	return seen;
}

void smbios_log_serial(const struct smbios_info *s, char *out, size_t n)
{
	static const char none[] = "noserial";
	if (!n)
		return;
	const char *sn = s->system.present ? s->system.serial : "";
	int placeholder = sn[0] == '\0' || all_of(sn, '0') || all_of(sn, 'F');
	for (size_t i = 0; i < sizeof(placeholders) / sizeof(placeholders[0]); i++)
		if (eq_nocase(sn, placeholders[i]))
			placeholder = 1;
	size_t len = 0;
	if (!placeholder) {
		/* Strings are already trimmed of blanks; '.', '_' and '-' at either end would
		 * make names like "..-2026..." or hidden files: trim those too. */
		const char *b = sn, *e = sn + strlen(sn);
		while (b < e && edge_char(*b))
			b++;
		while (e > b && edge_char(e[-1]))
			e--;
		for (; b < e && len < SMBIOS_LOG_SERIAL_MAX && len + 1 < n; b++)
			out[len++] = safe_char(*b) ? *b : '_';
	}
	if (!len) {
		fmt_snprintf(out, n, "%s", none);
		return;
	}
	out[len] = '\0';
}
