/* SPDX-License-Identifier: BSD-2-Clause */
/* bdf: parsing and printing a PCI function config value (efi/config/bdf.h). */
#include "efi/config/bdf.h"

#include "arch/lib/fmt.h"

#define BDF_MAX_FIELDS  4     /* segment, bus, device, function */
#define BDF_MAX_DIGITS  4     /* the segment's 16 bits */
#define HEX_BASE        16u
#define HEX_LETTER      10

static int hex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + HEX_LETTER;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + HEX_LETTER;
	return -1;
}

int cfg_parse_bdf(const char *v, size_t n, uint64_t *out)
{
	uint64_t f[BDF_MAX_FIELDS] = { 0 };
	int nf = 0, digits = 0;
	char seps[BDF_MAX_FIELDS] = { 0 };
	for (size_t i = 0; i <= n; i++) {
		char ch = i < n ? v[i] : 0;
		int d = hex_digit(ch);
		if (d >= 0 && digits < BDF_MAX_DIGITS && nf < BDF_MAX_FIELDS) {
			f[nf] = f[nf] * HEX_BASE + (uint64_t)d;
			digits++;
			continue;
		}
		if (!digits || nf >= BDF_MAX_FIELDS || (ch && ch != ':' && ch != '.'))
			return -1;
		seps[nf++] = ch;
		digits = 0;
	}
	uint64_t seg = 0, bus, dev, fn;
	if (nf == 4 && seps[0] == ':' && seps[1] == ':' && seps[2] == '.')
		seg = f[0], bus = f[1], dev = f[2], fn = f[3];
	else if (nf == 3 && seps[0] == ':' && seps[1] == '.')
		bus = f[0], dev = f[1], fn = f[2];
	else
		return -1;
	if (seg > CFG_BDF_SEG_MAX || bus > CFG_BDF_BUS_MAX || dev > CFG_BDF_DEV_MAX || fn > CFG_BDF_FN_MAX)
		return -1;
	*out = CFG_BDF(seg, bus, dev, fn);
	return 0;
}

void cfg_bdf_format(char *buf, size_t n, uint64_t v)
{
	if (v == CFG_BDF_NONE)
		fmt_snprintf(buf, n, "none");
	else
		fmt_snprintf(buf, n, "%04x:%02x:%02x.%x", CFG_BDF_SEG(v), CFG_BDF_BUS(v), CFG_BDF_DEV(v),
			     CFG_BDF_FN(v));
}
